#include "job_reaper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ronin {

namespace {

// One message per event: +id starts tracking a process group, -id stops;
// the high bit of `kind` says whether id is a group or a lone pid.
struct Message {
  int32_t id;
  int32_t kind;  // 1 add, 2 remove; | 4: a lone pid (console job)
};

constexpr int32_t kAdd = 1;
constexpr int32_t kRemove = 2;
constexpr int32_t kLonePid = 4;
constexpr size_t kMaxTracked = 1 << 20;  // far above any -j; untouched pages cost nothing

// Everything the forked child does is async-signal-safe: ninja may have
// threads, and the child must not touch their locks (no malloc, no stdio).
// Keeps only the socket, moved to descriptor 3: the reaper must not hold
// ninja's logs, locks or terminal open. Returns the socket's new number.
int CloseAllBut(int keep) {
  int devnull = open("/dev/null", O_RDWR);
  if (keep != 3) {
    dup2(keep, 3);
    keep = 3;
  }
  for (int fd = 0; fd < 3; ++fd)
    if (devnull >= 0 && fd != devnull) dup2(devnull, fd);
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 4, ~0U, 0) == 0) return keep;
#endif
  rlimit limit;
  long max_fd = getrlimit(RLIMIT_NOFILE, &limit) == 0 ? static_cast<long>(limit.rlim_cur) : 1024;
  if (max_fd > 65536) max_fd = 65536;
  for (int fd = 4; fd < max_fd; ++fd) close(fd);
  return keep;
}

[[noreturn]] void ReaperMain(int fd) {
  // A terminal's Ctrl-C or hang-up reaches ninja's group, reaper included:
  // ninja handles those; the reaper waits for its end of file.
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  fd = CloseAllBut(fd);
  void* memory = mmap(nullptr, kMaxTracked * sizeof(Message), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) _exit(1);
  Message* tracked = static_cast<Message*>(memory);
  size_t count = 0;
  Message message;
  for (;;) {
    ssize_t n = read(fd, &message, sizeof(message));
    if (n < 0 && errno == EINTR) continue;
    if (n != static_cast<ssize_t>(sizeof(message))) break;  // ninja is gone
    int32_t lone = message.kind & kLonePid;
    if (message.kind & kAdd) {
      if (count < kMaxTracked) tracked[count++] = {message.id, lone};
      continue;
    }
    for (size_t i = count; i-- > 0;) {
      if (tracked[i].id == message.id && tracked[i].kind == lone) {
        tracked[i] = tracked[--count];
        break;
      }
    }
  }
  for (size_t i = 0; i < count; ++i) kill(tracked[i].kind ? tracked[i].id : -tracked[i].id, SIGKILL);
  _exit(0);
}

}  // namespace

JobReaper* JobReaper::Get() {
  static JobReaper* reaper = [] () -> JobReaper* {
    // Opt-in for now: a command killed halfway can leave a partial output
    // that Ninja's mtime rules take for up to date when the log already
    // holds a current entry for it (an output deleted by hand, then killed
    // while being rebuilt); an orphan that runs to the end does not. The
    // reaper should remove the outputs of the jobs it kills first.
    const char* setting = getenv("RONIN_JOB_REAPER");
    if (!setting || strcmp(setting, "1") != 0) return nullptr;
    int fds[2];
    // A stream socket: a write to a dead reaper fails with EPIPE under
    // MSG_NOSIGNAL instead of killing ninja with SIGPIPE.
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) return nullptr;
    pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      return nullptr;
    }
    if (pid == 0) {
      close(fds[0]);
      ReaperMain(fds[1]);
    }
    close(fds[1]);
    // Not our child to wait for: it exits after us. Its zombie, if it
    // ended early, is harmless and reaped by init once we exit.
    return new JobReaper(fds[0]);
  }();
  return reaper;
}

void JobReaper::Started(pid_t pid, bool whole_group) {
  Send(pid, kAdd | (whole_group ? 0 : kLonePid));
}

void JobReaper::Reaped(pid_t pid, bool whole_group) {
  Send(pid, kRemove | (whole_group ? 0 : kLonePid));
}

void JobReaper::Send(int32_t id, int32_t kind) {
  if (fd_ < 0) return;
  Message message{id, kind};
  while (send(fd_, &message, sizeof(message), MSG_NOSIGNAL) < 0) {
    if (errno == EINTR) continue;
    close(fd_);  // the reaper is gone: go on as Ninja would
    fd_ = -1;
    return;
  }
}

}  // namespace ronin
