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

bool Subprocess::Start(SubprocessSet* set, const std::string& command, const JobFiles* files) {
  // Started before the first job can be orphaned.
  JobReaper* reaper = set->reaps_jobs() ? JobReaper::Get() : nullptr;
  int pipe_fds[2] = {-1, -1};
  if (!use_console_) {
    if (pipe2(pipe_fds, O_CLOEXEC) < 0) return false;  // errno says why (exec/spawn_retry.h)
    fd_ = pipe_fds[0];
    fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) | O_NONBLOCK);
  }

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  if (posix_spawn_file_actions_init(&actions) != 0) {
    errno = ENOMEM;
    return false;
  }
  if (posix_spawnattr_init(&attr) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    errno = ENOMEM;
    return false;
  }

  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  // The child starts with the signal mask ninja itself was started with,
  // and the signals ninja catches back at their defaults.
  posix_spawnattr_setsigmask(&attr, &set->old_mask());
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGHUP);
  sigaddset(&defaults, SIGCHLD);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  if (!use_console_) {
    // Its own process group, so a terminal's Ctrl-C reaches only ninja,
    // which then decides what to forward.
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  }
#ifdef POSIX_SPAWN_USEVFORK
  flags |= POSIX_SPAWN_USEVFORK;
#endif
  posix_spawnattr_setflags(&attr, flags);

  int result = -1;
  std::vector<std::string> words;
  if (DirectExecEnabled() && SplitSimpleCommand(command, &words)) {
    std::string program = FindProgram(words[0]);
    if (!program.empty()) {
      std::vector<char*> argv;
      for (std::string& word : words) argv.push_back(&word[0]);
      argv.push_back(nullptr);
      result = posix_spawn(&pid_, program.c_str(), &actions, &attr, argv.data(), environ);
      started_directly_ = result == 0;
    }
    // Not found, or any failure: the shell runs it and reports in its own words.
  }
  if (result != 0) {
    const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
    result = posix_spawn(&pid_, "/bin/sh", &actions, &attr, const_cast<char**>(argv), environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
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

SubprocessSet::SubprocessSet(bool reap_jobs) : reap_jobs_(reap_jobs) {
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
  Subprocess* subprocess = new Subprocess(use_console);
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
