// The access monitor on Linux (access_monitor.h): seccomp user
// notification.
//
// Starting a command. posix_spawn cannot run code in the child, so the
// child is started as posix_spawn itself starts it: clone(CLONE_VM |
// CLONE_VFORK) on a stack of its own, the spawning thread suspended until
// the exec. CLONE_FILES too: the filter's listener, created by the child
// when it installs the filter, then lands in ninja's descriptor table; the
// child tells the monitor thread (a pipe carries the watch), takes a copy
// of the table for itself (unshare) to set up its stdin, stdout and
// stderr, and execs. The exec is the first trapped call, answered by the
// monitor thread while the spawning thread still waits in clone.
//
// Answering a trap: receive it, read the path (process_vm_readv), make it
// absolute (/proc/TID/cwd, or /proc/TID/fd/N for a directory descriptor),
// check the call is still waiting (SECCOMP_IOCTL_NOTIF_ID_VALID: what was
// read belonged to it), note it, let it continue. Noting comes before the
// answer, so once a command's process has been reaped every call it made
// is noted. The listener hangs up when the last process holding the filter
// is gone; a watch is freed when both that and Finish have happened.
#ifdef __linux__
#include "audit/access_monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "audit/path_syscalls_linux.h"
#include "audit/watched_spawn.h"
#include "base/background_thread.h"

namespace ronin {

class CommandWatch {
 public:
  int listener = -1;  // written by the child before the monitor hears of it
  std::mutex mutex;
  FileAccesses accesses;  // guarded by mutex, as are the flags
  bool finished = false;  // Finish was called: answer, note nothing
  bool hung_up = false;   // no process holds the filter any more
};

namespace {

const size_t kChildStackSize = 64 * 1024;
const size_t kMaxPath = 4096;  // PATH_MAX: the kernel refuses longer paths

// What the child needs; it reports a failure in `error`.
struct ChildArgs {
  const WatchedSpawn* spawn;
  CommandWatch* watch;
  const sock_fprog* filter;
  int wake_fd;
  int dev_null;
  bool announced;  // the monitor was told of the listener
  int error;
};

// Runs in the child, sharing ninja's memory until the exec: system calls
// only, nothing that allocates or locks.
int ChildMain(void* raw) {
  ChildArgs* args = static_cast<ChildArgs*>(raw);
  const WatchedSpawn& spawn = *args->spawn;
  struct sigaction default_action;
  memset(&default_action, 0, sizeof(default_action));
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal)
    if (sigismember(&spawn.defaults, signal) == 1) sigaction(signal, &default_action, nullptr);
  if (spawn.own_process_group && setpgid(0, 0) < 0) goto fail;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) goto fail;
  {
    long listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, args->filter);
    if (listener < 0) goto fail;
    args->watch->listener = static_cast<int>(listener);
  }
  if (write(args->wake_fd, &args->watch, sizeof(args->watch)) != sizeof(args->watch)) goto fail;
  args->announced = true;
  // From here on the monitor owns the listener (and the trapped exec).
  if (syscall(SYS_unshare, CLONE_FILES) < 0) goto fail;
  if (spawn.output_fd >= 0 &&
      (dup2(args->dev_null, 0) < 0 || dup2(spawn.output_fd, 1) < 0 || dup2(spawn.output_fd, 2) < 0))
    goto fail;
  if (sigprocmask(SIG_SETMASK, &spawn.mask, nullptr) < 0) goto fail;
  execve(spawn.path, spawn.argv, spawn.envp);
fail:
  args->error = errno;
  _exit(127);
}

}  // namespace

struct AccessMonitor::Impl {
  ~Impl();
  bool Open(std::string* err);
  int Spawn(const WatchedSpawn& spawn, pid_t* pid, CommandWatch** watch);
  FileAccesses Finish(CommandWatch* watch);
  // Spawns `sh -c :` and checks its exec was seen.
  bool SelfTest(std::string* err);

  // The monitor thread:
  void Run();
  // Takes in the watches the children announced; false at the stop sign.
  bool TakeRegistrations();
  void Answer(CommandWatch* watch);
  void HangUp(CommandWatch* watch);
  // The NUL-terminated string at `address` in `tid`'s memory.
  bool ReadString(pid_t tid, uint64_t address, std::string* out);
  // The directory a relative path of `tid` starts from.
  bool ReadBase(pid_t tid, int dirfd, std::string* out);
  void Reply(int listener, uint64_t id);

  std::vector<sock_filter> filter;
  sock_fprog program = {0, nullptr};
  int epoll_fd = -1;
  int wake_read = -1, wake_write = -1;
  int dev_null = -1;
  void* child_stack = MAP_FAILED;
  std::thread thread;
  // Monitor thread only:
  std::unordered_set<CommandWatch*> watches;
  std::vector<char> request, response;
  std::string path, base, link;
};

AccessMonitor::Impl::~Impl() {
  if (thread.joinable()) {
    CommandWatch* stop = nullptr;
    if (write(wake_write, &stop, sizeof(stop)) == sizeof(stop)) thread.join();
    else thread.detach();
  }
  // Processes still holding a filter (daemons a command left) now fail
  // their path calls with ENOSYS rather than wait for an answer.
  for (CommandWatch* watch : watches) {
    close(watch->listener);
    delete watch;
  }
  for (int fd : {epoll_fd, wake_read, wake_write, dev_null})
    if (fd >= 0) close(fd);
  if (child_stack != MAP_FAILED) munmap(child_stack, kChildStackSize);
}

bool AccessMonitor::Impl::Open(std::string* err) {
  filter = PathCallFilter();
  if (filter.empty()) {
    *err = "not supported on this processor architecture";
    return false;
  }
  program.len = static_cast<unsigned short>(filter.size());
  program.filter = filter.data();
  seccomp_notif_sizes sizes;
  if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) {
    *err = std::string("seccomp user notification: ") + strerror(errno);
    return false;
  }
  request.resize(std::max<size_t>(sizes.seccomp_notif, sizeof(seccomp_notif)));
  response.resize(std::max<size_t>(sizes.seccomp_notif_resp, sizeof(seccomp_notif_resp)));
  int pipe_fds[2];
  epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0 || pipe2(pipe_fds, O_CLOEXEC) < 0) {
    *err = strerror(errno);
    return false;
  }
  wake_read = pipe_fds[0];
  wake_write = pipe_fds[1];
  fcntl(wake_read, F_SETFL, O_NONBLOCK);
  dev_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  child_stack = mmap(nullptr, kChildStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  epoll_event event = {};
  event.events = EPOLLIN;
  event.data.ptr = nullptr;  // the wake pipe
  if (dev_null < 0 || child_stack == MAP_FAILED || epoll_ctl(epoll_fd, EPOLL_CTL_ADD, wake_read, &event) < 0) {
    *err = strerror(errno);
    return false;
  }
  thread = StartBackgroundThread([this] { Run(); });
  return SelfTest(err);
}

int AccessMonitor::Impl::Spawn(const WatchedSpawn& spawn, pid_t* pid, CommandWatch** watch) {
  std::unique_ptr<CommandWatch> new_watch(new CommandWatch);
  ChildArgs args = {&spawn, new_watch.get(), &program, wake_write, dev_null, false, 0};
  // No handler of ninja's may run in the child, which shares its memory.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  void* stack_top = static_cast<char*>(child_stack) + kChildStackSize;
  pid_t child = clone(ChildMain, stack_top, CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, &args);
  int clone_error = errno;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (child < 0) return clone_error;
  if (args.error == 0) {
    *pid = child;
    *watch = new_watch.release();
    return 0;
  }
  // The child has exited: reap it; a watch the monitor heard of is freed
  // when the listener hangs up.
  while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
  }
  if (args.announced)
    Finish(new_watch.release());
  else if (new_watch->listener >= 0)
    close(new_watch->listener);
  return args.error;
}

FileAccesses AccessMonitor::Impl::Finish(CommandWatch* watch) {
  FileAccesses accesses;
  bool free_now;
  {
    std::lock_guard<std::mutex> lock(watch->mutex);
    watch->finished = true;
    accesses = std::move(watch->accesses);
    free_now = watch->hung_up;
  }
  if (free_now) delete watch;
  return accesses;
}

bool AccessMonitor::Impl::SelfTest(std::string* err) {
  char sh[] = "sh", dash_c[] = "-c", colon[] = ":";
  char* argv[] = {sh, dash_c, colon, nullptr};
  char* envp[] = {nullptr};
  WatchedSpawn spawn;
  spawn.path = "/bin/sh";
  spawn.argv = argv;
  spawn.envp = envp;
  spawn.output_fd = dev_null;
  sigemptyset(&spawn.mask);
  sigemptyset(&spawn.defaults);
  pid_t pid;
  CommandWatch* watch;
  if (int error = Spawn(spawn, &pid, &watch)) {
    *err = std::string("starting a watched process: ") + strerror(error);
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  FileAccesses accesses = Finish(watch);
  auto exec = accesses.records().find("/bin/sh");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || exec == accesses.records().end() ||
      !exec->second.Has(FileAccess::kExecute)) {
    *err = "a watched process's system calls could not be read (is ptrace restricted?)";
    return false;
  }
  return true;
}

void AccessMonitor::Impl::Run() {
  epoll_event events[32];
  for (;;) {
    int count = epoll_wait(epoll_fd, events, 32, -1);
    for (int i = 0; i < count; ++i) {
      CommandWatch* watch = static_cast<CommandWatch*>(events[i].data.ptr);
      if (!watch) {
        if (!TakeRegistrations()) return;
      } else if (events[i].events & EPOLLIN) {
        Answer(watch);
      } else {
        HangUp(watch);
      }
    }
  }
}

bool AccessMonitor::Impl::TakeRegistrations() {
  CommandWatch* watch;
  while (read(wake_read, &watch, sizeof(watch)) == sizeof(watch)) {
    if (!watch) return false;
    epoll_event event = {};
    event.events = EPOLLIN;
    event.data.ptr = watch;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, watch->listener, &event);
    watches.insert(watch);
  }
  return true;
}

void AccessMonitor::Impl::Answer(CommandWatch* watch) {
  memset(request.data(), 0, request.size());
  seccomp_notif* notification = reinterpret_cast<seccomp_notif*>(request.data());
  // Fails when the call was withdrawn (its process killed or interrupted).
  if (ioctl(watch->listener, SECCOMP_IOCTL_NOTIF_RECV, notification) < 0) return;
  pid_t tid = static_cast<pid_t>(notification->pid);
  TrappedCall call;
  std::string noted[2];
  FileAccess accesses[2];
  int count = 0;
  if (DecodeTrappedCall(notification->data, &call)) {
    if (call.open_how) {
      uint64_t flags = 0;
      iovec local = {&flags, sizeof(flags)}, remote = {reinterpret_cast<void*>(call.open_how), sizeof(flags)};
      if (process_vm_readv(tid, &local, 1, &remote, 1, 0) == sizeof(flags))
        call.paths[0].access = AccessOfOpenFlags(flags);
    }
    for (int i = 0; i < call.count; ++i) {
      const TrappedPath& trapped = call.paths[i];
      path.clear();
      if (trapped.address && !ReadString(tid, trapped.address, &path)) continue;
      if (path.empty() && trapped.dirfd == AT_FDCWD) continue;  // fails with ENOENT
      base.clear();
      if ((path.empty() || path[0] != '/') && !ReadBase(tid, trapped.dirfd, &base)) continue;
      noted[count] = CanonicalAbsolutePath(base, path);
      accesses[count++] = trapped.access;
    }
  }
  // What was read is the waiting call's only if it still waits.
  if (ioctl(watch->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &notification->id) == 0 && count > 0) {
    std::lock_guard<std::mutex> lock(watch->mutex);
    if (!watch->finished)
      for (int i = 0; i < count; ++i) watch->accesses.Note(noted[i], accesses[i]);
  }
  Reply(watch->listener, notification->id);
}

void AccessMonitor::Impl::Reply(int listener, uint64_t id) {
  memset(response.data(), 0, response.size());
  seccomp_notif_resp* reply = reinterpret_cast<seccomp_notif_resp*>(response.data());
  reply->id = id;
  reply->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, reply) == 0 || errno != EINVAL) return;
  // A kernel without CONTINUE (before 5.5): fail the call rather than
  // leave it waiting; the self-test then reports it.
  reply->flags = 0;
  reply->error = -ENOSYS;
  ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, reply);
}

void AccessMonitor::Impl::HangUp(CommandWatch* watch) {
  epoll_ctl(epoll_fd, EPOLL_CTL_DEL, watch->listener, nullptr);
  close(watch->listener);
  watches.erase(watch);
  bool free_now;
  {
    std::lock_guard<std::mutex> lock(watch->mutex);
    watch->hung_up = true;
    free_now = watch->finished;
  }
  if (free_now) delete watch;
}

bool AccessMonitor::Impl::ReadString(pid_t tid, uint64_t address, std::string* out) {
  char buffer[512];
  while (out->size() < kMaxPath) {
    // Never across a page boundary: the next page may be unmapped.
    size_t page_left = 4096 - (address % 4096);
    size_t want = std::min(sizeof(buffer), page_left);
    iovec local = {buffer, want}, remote = {reinterpret_cast<void*>(address), want};
    ssize_t got = process_vm_readv(tid, &local, 1, &remote, 1, 0);
    if (got <= 0) return false;
    size_t length = strnlen(buffer, static_cast<size_t>(got));
    out->append(buffer, length);
    if (length < static_cast<size_t>(got)) return true;
    address += static_cast<uint64_t>(got);
  }
  return false;
}

bool AccessMonitor::Impl::ReadBase(pid_t tid, int dirfd, std::string* out) {
  link = "/proc/" + std::to_string(tid);
  link += dirfd == AT_FDCWD ? "/cwd" : "/fd/" + std::to_string(dirfd);
  char target[kMaxPath];
  ssize_t length = readlink(link.c_str(), target, sizeof(target));
  if (length <= 0 || target[0] != '/') return false;  // not a directory ("pipe:[...]")
  out->assign(target, static_cast<size_t>(length));
  return true;
}

bool AccessMonitorAvailable(std::string*) { return true; }

std::unique_ptr<AccessMonitor> AccessMonitor::Start(std::string* err) {
  std::unique_ptr<Impl> impl(new Impl);
  if (!impl->Open(err)) return nullptr;
  return std::unique_ptr<AccessMonitor>(new AccessMonitor(std::move(impl)));
}

AccessMonitor::AccessMonitor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AccessMonitor::~AccessMonitor() = default;

int AccessMonitor::Spawn(const WatchedSpawn& spawn, pid_t* pid, CommandWatch** watch) {
  return impl_->Spawn(spawn, pid, watch);
}

FileAccesses AccessMonitor::Finish(CommandWatch* watch) { return impl_->Finish(watch); }

}  // namespace ronin
#endif  // __linux__
