// Running commands. POSIX (subprocess_posix.cc): each non-console job gets
// its own process group, stdin from /dev/null and one pipe for
// stdout+stderr; one ppoll() loop collects output and exits. Signals
// (SIGINT/SIGTERM/SIGHUP) are blocked except while waiting, so an interrupt
// is always noticed at a safe point. Windows (subprocess_win.cc), as
// ninja.exe: CreateProcess with the command line as it is (no shell), a
// new process group and NUL as stdin for non-console jobs, output through
// a named pipe read with overlapped I/O on one completion port, which a
// console's Ctrl-C wakes too.
#ifndef RONIN_EXEC_SUBPROCESS_H_
#define RONIN_EXEC_SUBPROCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/exit_status.h"
#include "exec/job_reaper.h"
#include "log/file_accesses.h"

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
  // Its process id (POSIX: also its process group's, unless a console job).
  pid_t pid() const { return pid_; }
  // The largest resident size in the command's process tree (bytes), once
  // it has been waited for; -1 before.
  int64_t peak_rss_bytes() const { return peak_rss_kib_ < 0 ? -1 : peak_rss_kib_ * 1024; }
  // What it did to files, once waited for, when it ran watched (--audit).
  std::shared_ptr<const FileAccesses> accesses() const { return accesses_; }

 private:
  friend class SubprocessSet;
  // What only one platform has (its pipe, process handle, ...).
  struct Platform;

  explicit Subprocess(bool use_console);
  bool Start(SubprocessSet* set, const std::string& command, const JobFiles* files);

  std::string output_;
  pid_t pid_ = -1;
  bool use_console_;
  bool exited_ = false;
  int64_t peak_rss_kib_ = -1;
  std::shared_ptr<const FileAccesses> accesses_;  // --audit's, once reaped
  std::unique_ptr<Platform> platform_;
};

class SubprocessSet {
 public:
  // With `reap_jobs`, commands die with ninja (exec/job_reaper.h); with
  // `watch_commands` (--audit), each runs under the file-access monitor
  // (audit/access_monitor.h), started with the first.
  explicit SubprocessSet(bool reap_jobs = true, bool watch_commands = false);
  ~SubprocessSet();

  // Starts a command (POSIX: via /bin/sh -c); null if it could not be
  // spawned (errno says why). If ninja dies, the reaper kills it and
  // removes those of `files` it wrote. When the access monitor cannot
  // start, null with errno ENOSYS and monitor_error() saying why.
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
  const std::string& monitor_error() const { return monitor_error_; }

 private:
  friend class Subprocess;
  // The platform's waiting machinery (signal masks and handlers and the
  // poll set; or the completion port), and --audit's monitor (POSIX).
  struct Platform;

  // Starts the access monitor when commands are watched and it is not yet
  // running (a build that runs none pays nothing for --audit); false,
  // with monitor_error_ set, when it cannot start.
  bool StartWatching();
  bool IsInterrupted() const { return interrupted_ != 0; }
  // Moves the jobs that are done from running_ to finished_.
  void CollectDone();

  std::vector<Subprocess*> running_;
  std::deque<Subprocess*> finished_;
  int interrupted_ = 0;
  bool reap_jobs_;
  bool watch_commands_;
  std::string monitor_error_;
  std::unique_ptr<Platform> platform_;
};

}  // namespace ronin

#endif  // RONIN_EXEC_SUBPROCESS_H_
