// FileWatcher on Linux: one inotify instance, a watch per directory.
#include "watch/file_watcher.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "base/util.h"

namespace ronin {
namespace {

volatile sig_atomic_t g_watch_interrupted = 0;
// The write end of a pipe a wait also polls: the handler may run on any
// thread that lets the signal through (a worker of the build), and only
// the waiting thread's own ppoll returns early for it.
volatile sig_atomic_t g_wake_fd = -1;

void NoteInterrupt(int) {
  g_watch_interrupted = 1;
  int saved_errno = errno;
  if (g_wake_fd >= 0) (void)!write(g_wake_fd, "", 1);
  errno = saved_errno;
}

constexpr int kInterruptSignals[3] = {SIGINT, SIGTERM, SIGHUP};

// SIGINT, SIGTERM and SIGHUP end a wait instead of the process: noted by
// the handler InterruptNoting put in place, blocked for the guard's life
// and let through only inside ppoll (wait_mask()), so none is lost
// between the checks of one wait.
class InterruptGuard {
 public:
  InterruptGuard() {
    sigset_t set;
    sigemptyset(&set);
    for (int signum : kInterruptSignals) sigaddset(&set, signum);
    sigprocmask(SIG_BLOCK, &set, &old_mask_);
    wait_mask_ = old_mask_;
    for (int signum : kInterruptSignals) sigdelset(&wait_mask_, signum);
  }
  ~InterruptGuard() { sigprocmask(SIG_SETMASK, &old_mask_, nullptr); }
  const sigset_t* wait_mask() const { return &wait_mask_; }
  // A signal caught in ppoll, or one still pending (it arrived just
  // before): either way the wait ends.
  static bool Interrupted() {
    if (g_watch_interrupted) return true;
    sigset_t pending;
    sigemptyset(&pending);
    if (sigpending(&pending) != 0) return false;
    for (int signum : kInterruptSignals)
      if (sigismember(&pending, signum)) return true;
    return false;
  }

 private:
  sigset_t old_mask_, wait_mask_;
};

// For the watcher's life (the whole of a --watch run), SIGINT, SIGTERM and
// SIGHUP are noted instead of ending the process, between waits too: a
// Ctrl-C while a round scans or sets up must still end ninja cleanly. (A
// build's commands get them back at their defaults; while it runs, the
// build's own handlers take over and put these back.)
class InterruptNoting {
 public:
  InterruptNoting() {
    g_watch_interrupted = 0;
    if (pipe2(wake_, O_NONBLOCK | O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;  // then ppoll's mask alone
    g_wake_fd = wake_[1];
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = NoteInterrupt;
    for (int i = 0; i < 3; ++i) sigaction(kInterruptSignals[i], &act, &old_actions_[i]);
  }
  ~InterruptNoting() {
    for (int i = 0; i < 3; ++i) sigaction(kInterruptSignals[i], &old_actions_[i], nullptr);
    g_wake_fd = -1;
    for (int fd : wake_)
      if (fd >= 0) close(fd);
  }
  // Readable once a signal was noted (-1 without a pipe).
  int wake_fd() const { return wake_[0]; }

 private:
  struct sigaction old_actions_[3];
  int wake_[2];
};

// What a watch asks the kernel for: settled changes of entries (a close
// after writing, not each write), entries coming and going, and the
// directory itself going away. IN_EXCL_UNLINK: nothing more from a file
// once it is unlinked, even if a writer keeps it open.
constexpr uint32_t kWatchMask = IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE |
                                IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_EXCL_UNLINK | IN_ONLYDIR;

class InotifyWatcher : public FileWatcher {
 public:
  InotifyWatcher(int fd, int64_t max_watches) : fd_(fd), max_watches_(max_watches) {}
  ~InotifyWatcher() override { close(fd_); }

  WatchResult Watch(const std::string& dir, int* watch, std::string* err) override;
  bool Wait(int64_t timeout_millis, int64_t settle_millis, int64_t settle_limit_millis, Changes* changes,
            std::string* err) override;
  size_t watch_count() const override { return watch_count_; }
  bool interrupted() const override { return g_watch_interrupted; }
  std::string LimitDescription() const override;

 private:
  // Waits for the descriptor to be readable; false on timeout or signal.
  bool Poll(int64_t timeout_millis, const InterruptGuard& guard, Changes* changes, std::string* err);
  // Reads every queued event into *changes.
  bool ReadEvents(Changes* changes, std::string* err);
  void Interpret(const inotify_event& event, Changes* changes);
  bool IsLive(int wd) const { return wd >= 0 && static_cast<size_t>(wd) < live_.size() && live_[wd]; }
  void Forget(int wd);

  InterruptNoting noting_;
  int fd_;
  int64_t max_watches_;
  bool limited_by_us_ = false;
  // Which watch descriptors are ours (inotify hands out small ones, in
  // order): a byte each.
  std::vector<char> live_;
  size_t watch_count_ = 0;
};

FileWatcher::WatchResult InotifyWatcher::Watch(const std::string& dir, int* watch, std::string* err) {
  const char* path = dir.empty() ? "." : dir.c_str();
  int wd = inotify_add_watch(fd_, path, kWatchMask);
  if (wd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return WatchResult::kMissing;
    if (errno == ENOSPC) return WatchResult::kOutOfWatches;
    *err = std::string("watching ") + path + ": " + strerror(errno);
    return WatchResult::kFailed;
  }
  if (!IsLive(wd)) {
    if (max_watches_ >= 0 && static_cast<int64_t>(watch_count_) >= max_watches_) {
      inotify_rm_watch(fd_, wd);
      limited_by_us_ = true;
      return WatchResult::kOutOfWatches;
    }
    if (static_cast<size_t>(wd) >= live_.size()) live_.resize(wd + 1, 0);
    live_[wd] = 1;
    ++watch_count_;
  }
  *watch = wd;
  return WatchResult::kWatching;
}

std::string InotifyWatcher::LimitDescription() const {
  if (limited_by_us_) return "RONIN_WATCH_LIMIT = " + std::to_string(max_watches_);
  std::string limit = "?";
  int fd = open("/proc/sys/fs/inotify/max_user_watches", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char text[32];
    ssize_t size = read(fd, text, sizeof(text) - 1);
    close(fd);
    if (size > 0) limit.assign(text, static_cast<size_t>(size));
    while (!limit.empty() && (limit.back() == '\n' || limit.back() == ' ')) limit.pop_back();
  }
  return "fs.inotify.max_user_watches = " + limit;
}

bool InotifyWatcher::Wait(int64_t timeout_millis, int64_t settle_millis, int64_t settle_limit_millis,
                          Changes* changes, std::string* err) {
  InterruptGuard guard;
  if (g_watch_interrupted) {  // noted since the last wait (a pending one: ppoll takes it)
    changes->interrupted = true;
    return true;
  }
  // Events may already be queued (changes made during a build).
  if (!ReadEvents(changes, err)) return false;
  if (changes->empty() && !Poll(timeout_millis, guard, changes, err)) return err->empty();
  int64_t limit = MonotonicMillis() + settle_limit_millis;
  for (;;) {
    if (!ReadEvents(changes, err)) return false;
    int64_t left = limit - MonotonicMillis();
    if (left <= 0 || changes->interrupted || !changes->may_continue) return true;
    if (!Poll(std::min(settle_millis, left), guard, changes, err)) return err->empty();
  }
}

bool InotifyWatcher::Poll(int64_t timeout_millis, const InterruptGuard& guard, Changes* changes,
                          std::string* err) {
  pollfd fds[2] = {{fd_, POLLIN, 0}, {noting_.wake_fd(), POLLIN, 0}};
  timespec timeout = {static_cast<time_t>(timeout_millis / 1000),
                      static_cast<long>(timeout_millis % 1000) * 1000000};
  int ready = ppoll(fds, 2, timeout_millis >= 0 ? &timeout : nullptr, guard.wait_mask());
  if (ready < 0 && errno != EINTR) {
    *err = std::string("ppoll: ") + strerror(errno);
    return false;
  }
  if (InterruptGuard::Interrupted()) {
    changes->interrupted = true;
    return false;
  }
  return ready > 0 && (fds[0].revents & POLLIN);
}

bool InotifyWatcher::ReadEvents(Changes* changes, std::string* err) {
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    ssize_t size = read(fd_, buffer, sizeof(buffer));
    if (size < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
      if (errno == EINTR) continue;
      *err = std::string("reading inotify events: ") + strerror(errno);
      return false;
    }
    for (char* p = buffer; p < buffer + size;) {
      const inotify_event* event = reinterpret_cast<const inotify_event*>(p);
      Interpret(*event, changes);
      p += sizeof(inotify_event) + event->len;
    }
  }
}

void InotifyWatcher::Interpret(const inotify_event& event, Changes* changes) {
  if (event.mask & IN_Q_OVERFLOW) {
    changes->overflow = true;
    changes->may_continue = true;
    return;
  }
  int wd = event.wd;
  if (!IsLive(wd)) return;  // a watch already forgotten
  if (event.mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)) {
    Forget(wd);
    changes->lost.push_back(wd);
    changes->may_continue = true;
    return;
  }
  if (event.len == 0) return;
  if (event.mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM)) changes->may_continue = true;
  changes->entries.push_back({wd, event.name, (event.mask & IN_CREATE) != 0});
}

void InotifyWatcher::Forget(int wd) {
  live_[wd] = 0;
  --watch_count_;
  inotify_rm_watch(fd_, wd);  // a moved directory is still watched until now
}

}  // namespace

bool FileWatcher::Available(std::string*) { return true; }

std::unique_ptr<FileWatcher> FileWatcher::Create(int64_t max_watches, std::string* err) {
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) {
    *err = std::string("inotify_init1: ") + strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<FileWatcher>(new InotifyWatcher(fd, max_watches));
}

}  // namespace ronin
