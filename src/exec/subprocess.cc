#include "exec/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include "base/util.h"
#include "exec/direct_exec.h"
#include "exec/job_reaper.h"
#include "exec/path_lookup.h"

extern char** environ;

namespace ronin {

namespace {
volatile sig_atomic_t g_interrupted = 0;
volatile sig_atomic_t g_child_exited = 0;
}  // namespace

void SubprocessSet::SetInterruptedFlag(int signum) { g_interrupted = signum; }
void SubprocessSet::SetChildExitedFlag(int) { g_child_exited = 1; }

Subprocess::~Subprocess() {
  if (fd_ >= 0) close(fd_);
  // Never leave a zombie (or a still-running job) behind unaccounted.
  if (pid_ != -1 && !exited_) Finish();
}

// How a job starts: with posix_spawn, or under the access monitor
// (--audit), which must run code in the child and so starts it itself.
// Either way the child gets its own process group (unless it is a console
// job), stdin from /dev/null and the pipe as stdout and stderr, the signal
// mask ninja was started with and ninja's caught signals at their defaults.
class Subprocess::Launch {
 public:
  Launch(Subprocess* subprocess, SubprocessSet* set, int output_fd)
      : subprocess_(subprocess), monitor_(set->monitor_.get()) {
    sigemptyset(&defaults_);
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&defaults_, signal);
    if (monitor_) {
      watched_.envp = environ;
      watched_.output_fd = subprocess->use_console_ ? -1 : output_fd;
      watched_.own_process_group = !subprocess->use_console_;
      watched_.mask = set->old_mask();
      watched_.defaults = defaults_;
      return;
    }
    ready_ = posix_spawn_file_actions_init(&actions_) == 0;
    if (ready_ && posix_spawnattr_init(&attr_) != 0) {
      posix_spawn_file_actions_destroy(&actions_);
      ready_ = false;
    }
    if (!ready_) return;
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    posix_spawnattr_setsigmask(&attr_, &set->old_mask());
    posix_spawnattr_setsigdefault(&attr_, &defaults_);
    if (!subprocess->use_console_) {
      // Its own process group, so a terminal's Ctrl-C reaches only ninja,
      // which then decides what to forward.
      flags |= POSIX_SPAWN_SETPGROUP;
      posix_spawnattr_setpgroup(&attr_, 0);
      posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0);
      posix_spawn_file_actions_adddup2(&actions_, output_fd, 1);
      posix_spawn_file_actions_adddup2(&actions_, output_fd, 2);
    }
#ifdef POSIX_SPAWN_USEVFORK
    flags |= POSIX_SPAWN_USEVFORK;
#endif
    posix_spawnattr_setflags(&attr_, flags);
  }
  ~Launch() {
    if (!ready_) return;
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }

  // 0, or an errno value.
  int Spawn(const char* path, char** argv) {
    if (monitor_) {
      watched_.path = path;
      watched_.argv = argv;
      return monitor_->Spawn(watched_, &subprocess_->pid_, &subprocess_->watch_);
    }
    if (!ready_) return ENOMEM;
    return posix_spawn(&subprocess_->pid_, path, &actions_, &attr_, argv, environ);
  }

 private:
  Subprocess* subprocess_;
  AccessMonitor* monitor_;
  sigset_t defaults_;
  WatchedSpawn watched_;
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
  bool ready_ = false;
};

bool Subprocess::Start(SubprocessSet* set, const std::string& command, const JobFiles* files) {
  // Started before the first job can be orphaned.
  JobReaper* reaper = set->reaps_jobs() ? JobReaper::Get() : nullptr;
  int pipe_fds[2] = {-1, -1};
  if (!use_console_) {
    if (pipe2(pipe_fds, O_CLOEXEC) < 0) return false;  // errno says why (exec/spawn_retry.h)
    fd_ = pipe_fds[0];
    fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) | O_NONBLOCK);
  }
  Launch launch(this, set, pipe_fds[1]);
  int result = -1;
  std::vector<std::string> words;
  if (DirectExecEnabled() && SplitSimpleCommand(command, &words)) {
    std::string program = FindProgram(words[0]);
    if (!program.empty()) {
      std::vector<char*> argv;
      for (std::string& word : words) argv.push_back(&word[0]);
      argv.push_back(nullptr);
      result = launch.Spawn(program.c_str(), argv.data());
      started_directly_ = result == 0;
    }
    // Not found, or any failure: the shell runs it and reports in its own words.
  }
  if (result != 0) {
    const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
    result = launch.Spawn("/bin/sh", const_cast<char**>(argv));
  }
  if (!use_console_) close(pipe_fds[1]);
  if (result != 0) {
    pid_ = -1;
    errno = result;
    return false;
  }
  // Killed with ninja if ninja dies before reaping it (exec/job_reaper.h).
  reaper_ = reaper;
  if (reaper_) reaper_->Started(pid_, !use_console_, files ? *files : JobFiles());
  return true;
}

void Subprocess::ReadAvailable() {
  char buffer[16 * 1024];
  while (fd_ >= 0) {
    ssize_t n = read(fd_, buffer, sizeof(buffer));
    if (n > 0) {
      output_.append(buffer, n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    // End of file (or an error): nothing more will come.
    close(fd_);
    fd_ = -1;
  }
}

void Subprocess::CheckExited() {
  if (exited_ || pid_ == -1) return;
  int status;
  pid_t result = Wait(WNOHANG, &status);
  if (result == pid_) {
    exited_ = true;
    wait_status_ = status;
  }
}

pid_t Subprocess::Wait(int options, int* status) {
  // wait4: the reaped child's rusage also covers the descendants it waited
  // for, so ru_maxrss is the largest resident size in the command's tree.
  rusage usage;
  pid_t result = wait4(pid_, status, options, &usage);
  if (result == pid_) {
    peak_rss_kib_ = usage.ru_maxrss;
    if (reaper_) reaper_->Reaped(pid_, !use_console_);
    // Reaped: every call it made has been answered and noted.
    if (watch_) {
      accesses_ = std::make_shared<FileAccesses>(monitor_->Finish(watch_));
      watch_ = nullptr;
    }
  }
  return result;
}

bool Subprocess::Done() const {
  // Console jobs end when the process exits (SIGCHLD). Piped jobs end at
  // end of file, like Ninja: output of background children that keep the
  // pipe open is waited for, not lost.
  return use_console_ ? exited_ : fd_ < 0;
}

ExitStatus Subprocess::Finish() {
  if (!exited_) {
    int status;
    while (Wait(0, &status) < 0) {
      if (errno != EINTR) Fatal("waitpid(%d): %s", pid_, strerror(errno));
    }
    exited_ = true;
    wait_status_ = status;
  }
  int status = wait_status_;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (started_directly_ && WIFSIGNALED(status)) return ReportSignalAsShell(status);
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    if (signal == SIGINT || signal == SIGTERM || signal == SIGHUP) return kExitInterrupted;
  }
  return status + 128;
}

ExitStatus Subprocess::ReportSignalAsShell(int status) {
  // What /bin/sh would have done for a command it ran: exit with 128 + the
  // signal, and say which signal (except for SIGINT and SIGPIPE, as dash).
  int signal = WTERMSIG(status);
  if (signal != SIGINT && signal != SIGPIPE) {
    const char* name = strsignal(signal);
    output_.append(name ? name : "Unknown signal");
    if (WCOREDUMP(status)) output_.append(" (core dumped)");
    output_.push_back('\n');
  }
  return 128 + signal;
}

SubprocessSet::SubprocessSet(bool reap_jobs, bool watch_commands)
    : reap_jobs_(reap_jobs), watch_commands_(watch_commands) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &set, &old_mask_) < 0) Fatal("sigprocmask: %s", strerror(errno));

  struct sigaction act;
  memset(&act, 0, sizeof(act));
  act.sa_handler = SetInterruptedFlag;
  if (sigaction(SIGINT, &act, &old_int_act_) < 0 || sigaction(SIGTERM, &act, &old_term_act_) < 0 ||
      sigaction(SIGHUP, &act, &old_hup_act_) < 0)
    Fatal("sigaction: %s", strerror(errno));
  act.sa_handler = SetChildExitedFlag;
  act.sa_flags = SA_NOCLDSTOP;
  if (sigaction(SIGCHLD, &act, &old_chld_act_) < 0) Fatal("sigaction: %s", strerror(errno));
  g_interrupted = 0;
}

SubprocessSet::~SubprocessSet() {
  Clear();
  sigaction(SIGINT, &old_int_act_, nullptr);
  sigaction(SIGTERM, &old_term_act_, nullptr);
  sigaction(SIGHUP, &old_hup_act_, nullptr);
  sigaction(SIGCHLD, &old_chld_act_, nullptr);
  sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

Subprocess* SubprocessSet::Add(const std::string& command, bool use_console, const JobFiles* files) {
  // The monitor starts with the first command: a build that runs none
  // (a no-op) pays nothing for --audit.
  if (watch_commands_ && !monitor_) {
    monitor_ = AccessMonitor::Start(&monitor_error_);
    if (!monitor_) {
      errno = ENOSYS;
      return nullptr;
    }
  }
  Subprocess* subprocess = new Subprocess(use_console);
  subprocess->monitor_ = monitor_.get();
  if (!subprocess->Start(this, command, files)) {
    delete subprocess;
    return nullptr;
  }
  running_.push_back(subprocess);
  return subprocess;
}

void SubprocessSet::HandlePendingInterruption() {
  sigset_t pending;
  sigemptyset(&pending);
  if (sigpending(&pending) == -1) return;
  if (sigismember(&pending, SIGINT))
    interrupted_ = SIGINT;
  else if (sigismember(&pending, SIGTERM))
    interrupted_ = SIGTERM;
  else if (sigismember(&pending, SIGHUP))
    interrupted_ = SIGHUP;
}

bool SubprocessSet::DoWork(int wake_fd, bool* wake_fd_ready, int64_t timeout_millis) {
  // Kept between calls: a build waits once per command or more.
  std::vector<pollfd>& fds = poll_fds_;
  std::vector<Subprocess*>& polled = polled_;
  fds.clear();
  polled.clear();
  for (Subprocess* subprocess : running_) {
    if (subprocess->fd_ < 0) continue;
    fds.push_back({subprocess->fd_, POLLIN | POLLPRI, 0});
    polled.push_back(subprocess);
  }
  if (wake_fd >= 0) fds.push_back({wake_fd, POLLIN, 0});

  // Children that exited before we started waiting would not wake ppoll.
  bool check_exits = true;
  if (!g_child_exited) {
    g_interrupted = 0;
    timespec timeout = {static_cast<time_t>(timeout_millis / 1000),
                        static_cast<long>(timeout_millis % 1000) * 1000000};
    int ret = ppoll(fds.data(), fds.size(), timeout_millis >= 0 ? &timeout : nullptr, &old_mask_);
    if (ret == -1 && errno != EINTR) Fatal("ppoll: %s", strerror(errno));
    interrupted_ = g_interrupted;
    HandlePendingInterruption();
    if (IsInterrupted()) return true;
    for (size_t i = 0; ret > 0 && i < polled.size(); ++i) {
      if (fds[i].revents) polled[i]->ReadAvailable();
    }
    if (wake_fd >= 0 && ret > 0 && fds.back().revents && wake_fd_ready) *wake_fd_ready = true;
    check_exits = g_child_exited;
  }
  if (check_exits) {
    g_child_exited = 0;
    for (Subprocess* subprocess : running_) {
      if (subprocess->use_console_) subprocess->CheckExited();
    }
  }

  for (auto it = running_.begin(); it != running_.end();) {
    if ((*it)->Done()) {
      finished_.push_back(*it);
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  return IsInterrupted();
}

bool SubprocessSet::WaitForRoom() {
  size_t finished = finished_.size();
  while (finished_.size() == finished && !running_.empty()) {
    if (DoWork()) return false;
  }
  // Reaped now: a zombie still counts against the process limit.
  for (Subprocess* subprocess : finished_) subprocess->Finish();
  return true;
}

std::unique_ptr<Subprocess> SubprocessSet::NextFinished() {
  if (finished_.empty()) return nullptr;
  std::unique_ptr<Subprocess> subprocess(finished_.front());
  finished_.pop_front();
  return subprocess;
}

void SubprocessSet::Clear() {
  // Console jobs share our process group: the terminal already signalled them.
  for (Subprocess* subprocess : running_) {
    if (!subprocess->use_console_ && interrupted_ && !subprocess->exited_)
      kill(-subprocess->pid_, interrupted_);
  }
  for (Subprocess* subprocess : running_) delete subprocess;
  running_.clear();
  for (Subprocess* subprocess : finished_) delete subprocess;
  finished_.clear();
}

}  // namespace ronin
