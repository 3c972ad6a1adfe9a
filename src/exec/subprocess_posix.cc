// subprocess.h on POSIX: posix_spawn (directly, or through /bin/sh -c) or
// the access monitor (--audit), pipes, ppoll, and the signals ninja
// forwards.
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

#include "audit/access_monitor.h"
#include "audit/watched_spawn.h"
#include "base/util.h"
#include "exec/direct_exec.h"
#include "exec/job_reaper.h"
#include "exec/path_lookup.h"

extern char** environ;

namespace ronin {

namespace {
volatile sig_atomic_t g_interrupted = 0;
volatile sig_atomic_t g_child_exited = 0;

void SetInterruptedFlag(int signum) { g_interrupted = signum; }
void SetChildExitedFlag(int) { g_child_exited = 1; }

// How a job starts: with posix_spawn, or under the access monitor
// (--audit), which must run code in the child and so starts it itself.
// Either way the child gets its own process group (unless it is a console
// job), stdin from /dev/null and the pipe as stdout and stderr, the signal
// mask ninja was started with and ninja's caught signals at their defaults.
class Launch {
 public:
  // `monitor` null: posix_spawn; `output_fd` -1 for a console job.
  Launch(AccessMonitor* monitor, const sigset_t& old_mask, int output_fd) : monitor_(monitor) {
    sigemptyset(&defaults_);
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&defaults_, signal);
    bool console = output_fd < 0;
    if (monitor_) {
      watched_.envp = environ;
      watched_.output_fd = output_fd;
      watched_.own_process_group = !console;
      watched_.mask = old_mask;
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
    posix_spawnattr_setsigmask(&attr_, &old_mask);
    posix_spawnattr_setsigdefault(&attr_, &defaults_);
    if (!console) {
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

  // 0, or an errno value; *watch is set when it runs under the monitor.
  int Spawn(const char* path, char** argv, pid_t* pid, CommandWatch** watch) {
    if (monitor_) {
      watched_.path = path;
      watched_.argv = argv;
      return monitor_->Spawn(watched_, pid, watch);
    }
    if (!ready_) return ENOMEM;
    return posix_spawn(pid, path, &actions_, &attr_, argv, environ);
  }

 private:
  AccessMonitor* monitor_;
  sigset_t defaults_;
  WatchedSpawn watched_;
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
  bool ready_ = false;
};
}  // namespace

struct Subprocess::Platform {
  // Reads what the pipe holds now; closes it at end of file.
  void ReadAvailable(Subprocess* job);
  // Notes the exit of a console job if it has ended (non-blocking).
  void CheckExited(Subprocess* job);
  // waitpid() that also takes the child's peak RSS.
  pid_t Wait(Subprocess* job, int options, int* status);
  // For a command started without the shell and killed by a signal.
  ExitStatus ReportSignalAsShell(Subprocess* job, int status);

  int fd = -1;
  bool started_directly = false;  // without /bin/sh (exec/direct_exec.h)
  int wait_status = 0;
  JobReaper* reaper = nullptr;  // told of the start and of the reaping
  AccessMonitor* monitor = nullptr;  // --audit: the monitor it runs under
  CommandWatch* watch = nullptr;     // until it is reaped
};

struct SubprocessSet::Platform {
  void HandlePendingInterruption(SubprocessSet* set);

  std::vector<pollfd> poll_fds;     // DoWork's, reused
  std::vector<Subprocess*> polled;  // the job of each pipe in poll_fds
  std::unique_ptr<AccessMonitor> monitor;  // --audit's; outlives the jobs (Clear)
  sigset_t old_mask;
  struct sigaction old_int_act, old_term_act, old_hup_act, old_chld_act;
};

Subprocess::Subprocess(bool use_console) : use_console_(use_console), platform_(new Platform) {}

Subprocess::~Subprocess() {
  if (platform_->fd >= 0) close(platform_->fd);
  // Never leave a zombie (or a still-running job) behind unaccounted.
  if (pid_ != -1 && !exited_) Finish();
}

bool Subprocess::Start(SubprocessSet* set, const std::string& command, const JobFiles* files) {
  // Started before the first job can be orphaned.
  JobReaper* reaper = set->reaps_jobs() ? JobReaper::Get() : nullptr;
  int pipe_fds[2] = {-1, -1};
  if (!use_console_) {
    if (pipe2(pipe_fds, O_CLOEXEC) < 0) return false;  // errno says why (exec/spawn_retry.h)
    platform_->fd = pipe_fds[0];
    fcntl(platform_->fd, F_SETFL, fcntl(platform_->fd, F_GETFL) | O_NONBLOCK);
  }

  platform_->monitor = set->platform_->monitor.get();
  Launch launch(platform_->monitor, set->platform_->old_mask, use_console_ ? -1 : pipe_fds[1]);
  int result = -1;
  std::vector<std::string> words;
  if (DirectExecEnabled() && SplitSimpleCommand(command, &words)) {
    std::string program = FindProgram(words[0]);
    if (!program.empty()) {
      std::vector<char*> argv;
      for (std::string& word : words) argv.push_back(&word[0]);
      argv.push_back(nullptr);
      result = launch.Spawn(program.c_str(), argv.data(), &pid_, &platform_->watch);
      platform_->started_directly = result == 0;
    }
    // Not found, or any failure: the shell runs it and reports in its own words.
  }
  if (result != 0) {
    const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
    result = launch.Spawn("/bin/sh", const_cast<char**>(argv), &pid_, &platform_->watch);
  }
  if (!use_console_) close(pipe_fds[1]);
  if (result != 0) {
    pid_ = -1;
    errno = result;
    return false;
  }
  // Killed with ninja if ninja dies before reaping it (exec/job_reaper.h).
  platform_->reaper = reaper;
  if (reaper) reaper->Started(pid_, !use_console_, files ? *files : JobFiles());
  return true;
}

void Subprocess::Platform::ReadAvailable(Subprocess* job) {
  char buffer[16 * 1024];
  while (fd >= 0) {
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      job->output_.append(buffer, n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    // End of file (or an error): nothing more will come.
    close(fd);
    fd = -1;
  }
}

void Subprocess::Platform::CheckExited(Subprocess* job) {
  if (job->exited_ || job->pid_ == -1) return;
  int status;
  pid_t result = Wait(job, WNOHANG, &status);
  if (result == job->pid_) {
    job->exited_ = true;
    wait_status = status;
  }
}

pid_t Subprocess::Platform::Wait(Subprocess* job, int options, int* status) {
  // wait4: the reaped child's rusage also covers the descendants it waited
  // for, so ru_maxrss is the largest resident size in the command's tree.
  rusage usage;
  pid_t result = wait4(job->pid_, status, options, &usage);
  if (result == job->pid_) {
    job->peak_rss_kib_ = usage.ru_maxrss;
    if (reaper) reaper->Reaped(job->pid_, !job->use_console_);
    // Reaped: every call it made has been answered and noted.
    if (watch) {
      job->accesses_ = std::make_shared<FileAccesses>(monitor->Finish(watch));
      watch = nullptr;
    }
  }
  return result;
}

bool Subprocess::Done() const {
  // Console jobs end when the process exits (SIGCHLD). Piped jobs end at
  // end of file, like Ninja: output of background children that keep the
  // pipe open is waited for, not lost.
  return use_console_ ? exited_ : platform_->fd < 0;
}

ExitStatus Subprocess::Finish() {
  if (!exited_) {
    int status;
    while (platform_->Wait(this, 0, &status) < 0) {
      if (errno != EINTR) Fatal("waitpid(%d): %s", pid_, strerror(errno));
    }
    exited_ = true;
    platform_->wait_status = status;
  }
  int status = platform_->wait_status;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (platform_->started_directly && WIFSIGNALED(status)) return platform_->ReportSignalAsShell(this, status);
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    if (signal == SIGINT || signal == SIGTERM || signal == SIGHUP) return kExitInterrupted;
  }
  return status + 128;
}

ExitStatus Subprocess::Platform::ReportSignalAsShell(Subprocess* job, int status) {
  // What /bin/sh would have done for a command it ran: exit with 128 + the
  // signal, and say which signal (except for SIGINT and SIGPIPE, as dash).
  int signal = WTERMSIG(status);
  if (signal != SIGINT && signal != SIGPIPE) {
    const char* name = strsignal(signal);
    job->output_.append(name ? name : "Unknown signal");
    if (WCOREDUMP(status)) job->output_.append(" (core dumped)");
    job->output_.push_back('\n');
  }
  return 128 + signal;
}

SubprocessSet::SubprocessSet(bool reap_jobs, bool watch_commands)
    : reap_jobs_(reap_jobs), watch_commands_(watch_commands), platform_(new Platform) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &set, &platform_->old_mask) < 0) Fatal("sigprocmask: %s", strerror(errno));

  struct sigaction act;
  memset(&act, 0, sizeof(act));
  act.sa_handler = SetInterruptedFlag;
  if (sigaction(SIGINT, &act, &platform_->old_int_act) < 0 || sigaction(SIGTERM, &act, &platform_->old_term_act) < 0 ||
      sigaction(SIGHUP, &act, &platform_->old_hup_act) < 0)
    Fatal("sigaction: %s", strerror(errno));
  act.sa_handler = SetChildExitedFlag;
  act.sa_flags = SA_NOCLDSTOP;
  if (sigaction(SIGCHLD, &act, &platform_->old_chld_act) < 0) Fatal("sigaction: %s", strerror(errno));
  g_interrupted = 0;
}

SubprocessSet::~SubprocessSet() {
  Clear();
  sigaction(SIGINT, &platform_->old_int_act, nullptr);
  sigaction(SIGTERM, &platform_->old_term_act, nullptr);
  sigaction(SIGHUP, &platform_->old_hup_act, nullptr);
  sigaction(SIGCHLD, &platform_->old_chld_act, nullptr);
  sigprocmask(SIG_SETMASK, &platform_->old_mask, nullptr);
}

bool SubprocessSet::StartWatching() {
  if (!platform_->monitor) platform_->monitor = AccessMonitor::Start(&monitor_error_);
  return platform_->monitor != nullptr;
}

void SubprocessSet::Platform::HandlePendingInterruption(SubprocessSet* set) {
  sigset_t pending;
  sigemptyset(&pending);
  if (sigpending(&pending) == -1) return;
  if (sigismember(&pending, SIGINT))
    set->interrupted_ = SIGINT;
  else if (sigismember(&pending, SIGTERM))
    set->interrupted_ = SIGTERM;
  else if (sigismember(&pending, SIGHUP))
    set->interrupted_ = SIGHUP;
}

bool SubprocessSet::DoWork(int wake_fd, bool* wake_fd_ready, int64_t timeout_millis) {
  // Kept between calls: a build waits once per command or more.
  std::vector<pollfd>& fds = platform_->poll_fds;
  std::vector<Subprocess*>& polled = platform_->polled;
  fds.clear();
  polled.clear();
  for (Subprocess* subprocess : running_) {
    if (subprocess->platform_->fd < 0) continue;
    fds.push_back({subprocess->platform_->fd, POLLIN | POLLPRI, 0});
    polled.push_back(subprocess);
  }
  if (wake_fd >= 0) fds.push_back({wake_fd, POLLIN, 0});

  // Children that exited before we started waiting would not wake ppoll.
  bool check_exits = true;
  if (!g_child_exited) {
    g_interrupted = 0;
    timespec timeout = {static_cast<time_t>(timeout_millis / 1000),
                        static_cast<long>(timeout_millis % 1000) * 1000000};
    int ret = ppoll(fds.data(), fds.size(), timeout_millis >= 0 ? &timeout : nullptr, &platform_->old_mask);
    if (ret == -1 && errno != EINTR) Fatal("ppoll: %s", strerror(errno));
    interrupted_ = g_interrupted;
    platform_->HandlePendingInterruption(this);
    if (IsInterrupted()) return true;
    for (size_t i = 0; ret > 0 && i < polled.size(); ++i) {
      if (fds[i].revents) polled[i]->platform_->ReadAvailable(polled[i]);
    }
    if (wake_fd >= 0 && ret > 0 && fds.back().revents && wake_fd_ready) *wake_fd_ready = true;
    check_exits = g_child_exited;
  }
  if (check_exits) {
    g_child_exited = 0;
    for (Subprocess* subprocess : running_) {
      if (subprocess->use_console_) subprocess->platform_->CheckExited(subprocess);
    }
  }
  CollectDone();
  return IsInterrupted();
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
