// Commands die with ninja, however ninja dies. Each command runs in its own
// process group, so a SIGKILL or an OOM kill of ninja would leave them
// running, writing outputs behind the next build's back. A small reaper
// process, forked before the first command, holds one end of a socket whose
// other end only ninja holds; ninja tells it each process group it starts
// (with the outputs of its edge) and each one it reaps. When the socket
// reaches end of file (ninja exited, by any means), the reaper SIGKILLs
// every group still registered, waits for them to die, removes the outputs
// they had started to write (the rule ninja applies itself on Ctrl-C, see
// Builder::Cleanup) and exits. Until then it keeps the build directory's
// lock (log/build_lock.h), so the next ninja cannot look at those outputs
// before they are gone. A normal exit has no group registered, so it
// changes nothing there. `--job-reaper=off` turns it off.
//
// On Windows (job_reaper_win.cc) every command starts suspended and joins
// one job object that kills its processes, children included, when the
// last handle to it closes; the reaper is ninja.exe started again
// (RunIfAsked), told the same events through a pipe, holding the job too.
// At the pipe's end it ends the job's processes, waits for them, removes
// the files and exits; were it killed as well, the job's closing still
// kills the commands. It holds the lock's handover meanwhile
// (BuildLockHandoverNames). At an orderly exit ninja.exe lifts the job's
// kill-on-close first, so that what commands left running on purpose (a
// compiler's server) lives on, as on POSIX.
#ifndef RONIN_EXEC_JOB_REAPER_H_
#define RONIN_EXEC_JOB_REAPER_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ronin {

struct Edge;

// A file of a job, removed if the job is killed with ninja when its mtime
// (nanoseconds, 0 when missing) differs from `mtime`, or in any case when
// `always` (outputs of an edge with a depfile, and the depfile itself).
struct JobFile {
  std::string path;
  int64_t mtime;
  bool always;
};
using JobFiles = std::vector<JobFile>;

// What the reaper removes if `edge`'s job is killed: Builder::Cleanup's rule.
JobFiles JobFilesOf(const Edge& edge);

class JobReaper {
 public:
  // When this process was started as a reaper (Windows starts ninja.exe
  // again; POSIX forks and never asks): true, having served until ninja
  // ended, with the exit code to return from main. Called first thing in
  // main: on Windows a program that never calls it (the unit tests) starts
  // no reaper, since a copy of it would not serve as one.
  static bool RunIfAsked(int argc, char** argv, int* exit_code);
  // Starts the reaper on first use; false if it could not be started (the
  // build goes on without it, as Ninja would).
  static JobReaper* Get();
  // `pgid` (or, for a console job sharing ninja's group, the single pid
  // when `whole_group` is false) is to be killed if ninja dies, and then
  // its `files` removed as JobFile says.
  void Started(pid_t pid, bool whole_group, const JobFiles& files);
  // Reaped: no longer to be killed (its id may be reused).
  void Reaped(pid_t pid, bool whole_group);
  // At an orderly exit (no job left): the reaper lets go of the build
  // directory's lock before ninja exits, so that the next ninja never waits
  // for it. Does nothing if no reaper was started.
  static void LetGoOfLock();

 private:
  // The platform's channel to the reaper (a socket; pipes and the job).
  struct Platform;
  explicit JobReaper(Platform* platform) : platform_(platform) {}
  void Send(const std::string& message);
  Platform* platform_;  // never freed: the reaper's end is ninja's exit
};

}  // namespace ronin

#endif  // RONIN_EXEC_JOB_REAPER_H_
