// Running commands: each non-console job gets its own process group, stdin
// from /dev/null and one pipe for stdout+stderr; one ppoll() loop collects
// output and exits. Signals (SIGINT/SIGTERM/SIGHUP) are blocked except
// while waiting, so an interrupt is always noticed at a safe point.
#ifndef RONIN_EXEC_SUBPROCESS_H_
#define RONIN_EXEC_SUBPROCESS_H_

#include <poll.h>
#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/exit_status.h"
#include "exec/job_reaper.h"

namespace ronin {


class SubprocessSet;

class Subprocess {
 public:
  ~Subprocess();
  // Waits for the process if needed and maps its status.
  ExitStatus Finish();
  bool Done() const;
  const std::string& output() const { return output_; }
  bool use_console() const { return use_console_; }
  pid_t pid() const { return pid_; }
  // The largest resident size in the command's process tree (bytes), once
  // it has been waited for; -1 before.
  int64_t peak_rss_bytes() const { return peak_rss_kib_ < 0 ? -1 : peak_rss_kib_ * 1024; }

 private:
  friend class SubprocessSet;
  explicit Subprocess(bool use_console) : use_console_(use_console) {}
  bool Start(SubprocessSet* set, const std::string& command, const JobFiles* files);
  // Reads what the pipe holds now; closes it at end of file.
  void ReadAvailable();
  // Notes the exit of a console job if it has ended (non-blocking).
  void CheckExited();
  // waitpid() that also takes the child's peak RSS.
  pid_t Wait(int options, int* status);
  // For a command started without the shell and killed by a signal.
  ExitStatus ReportSignalAsShell(int status);

  std::string output_;
  int fd_ = -1;
  pid_t pid_ = -1;
  bool use_console_;
  bool started_directly_ = false;  // without /bin/sh (exec/direct_exec.h)
  bool exited_ = false;
  int wait_status_ = 0;
  int64_t peak_rss_kib_ = -1;
  JobReaper* reaper_ = nullptr;  // told of the start and of the reaping
};

class SubprocessSet {
 public:
  // With `reap_jobs`, commands die with ninja (exec/job_reaper.h).
  explicit SubprocessSet(bool reap_jobs = true);
  ~SubprocessSet();

  // Starts a command via /bin/sh -c; null if it could not be spawned. If
  // ninja dies, the reaper kills it and removes those of `files` it wrote.
  Subprocess* Add(const std::string& command, bool use_console = false, const JobFiles* files = nullptr);
  // Whether Add's `files` are of use.
  bool reaps_jobs() const { return reap_jobs_; }
  // Waits for output, exits or a signal. True if interrupted. With a
  // `wake_fd`, also returns when it is readable (a jobserver token came
  // free), setting *wake_fd_ready; with a `timeout_millis` >= 0, also
  // when that much time has passed (a view redraws, status/live_status.h).
  bool DoWork(int wake_fd = -1, bool* wake_fd_ready = nullptr, int64_t timeout_millis = -1);
  // After a start failed for lack of resources: waits until a running job
  // ends and reaps it (its result stays queued). False if interrupted.
  bool WaitForRoom();
  // A finished subprocess (ownership to the caller), or null.
  std::unique_ptr<Subprocess> NextFinished();
  // Forwards the interrupting signal to every job, then waits for them.
  void Clear();

  size_t running_count() const { return running_.size(); }
  size_t finished_count() const { return finished_.size(); }
  int interrupted() const { return interrupted_; }
  const sigset_t& old_mask() const { return old_mask_; }

 private:
  bool IsInterrupted() const { return interrupted_ != 0; }
  void HandlePendingInterruption();
  static void SetInterruptedFlag(int signum);
  static void SetChildExitedFlag(int signum);

  std::vector<Subprocess*> running_;
  std::deque<Subprocess*> finished_;
  std::vector<pollfd> poll_fds_;     // DoWork's, reused
  std::vector<Subprocess*> polled_;  // the job of each pipe in poll_fds_
  int interrupted_ = 0;
  bool reap_jobs_;
  sigset_t old_mask_;
  struct sigaction old_int_act_, old_term_act_, old_hup_act_, old_chld_act_;
};

}  // namespace ronin

#endif  // RONIN_EXEC_SUBPROCESS_H_
