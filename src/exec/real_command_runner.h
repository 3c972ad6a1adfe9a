// The runner that runs commands: each through /bin/sh -c (or directly,
// direct_exec.h) in a subprocess of its own (subprocess.h). A start the
// system refuses for lack of resources waits for a running job to end and
// is tried again, and from then on the runner takes no more jobs than were
// running then (spawn_retry.h); one it refuses for good is a failed
// command, handed out by the next wait. The build's own limits (-j, -l, a
// jobserver, remote slots) are the scheduler's, not the runner's.
#ifndef RONIN_EXEC_REAL_COMMAND_RUNNER_H_
#define RONIN_EXEC_REAL_COMMAND_RUNNER_H_

#include <deque>
#include <map>
#include <vector>

#include "exec/command_runner.h"
#include "exec/spawn_retry.h"
#include "exec/subprocess.h"

namespace ronin {

class RealCommandRunner : public CommandRunner {
 public:
  // With `reap_jobs`, commands die with ninja (job_reaper.h); with
  // `watch_commands` (--audit), each runs under the file-access monitor
  // and its result says what it did to files.
  RealCommandRunner(bool reap_jobs, bool watch_commands) : subprocs_(reap_jobs, watch_commands) {}
  ~RealCommandRunner() override { subprocs_.Clear(); }

  bool HasRoom() const override;
  bool StartCommand(Edge* edge) override;
  bool WaitForCommand(Result* result, int64_t deadline, int64_t now, int wake_fd) override;
  pid_t ProcessGroupOf(const Edge* edge) const override;
  std::vector<Edge*> GetActiveEdges() override;
  void Abort() override {
    subprocs_.Clear();
    unstarted_.clear();
  }
  void ReportRunningOutput(Status* status) const override;

 private:
  SpawnThrottle throttle_;    // lowered when starting jobs fails
  bool interrupted_ = false;  // while waiting to start a job
  std::deque<Result> unstarted_;  // commands the system refused for good: failed
  SubprocessSet subprocs_;
  std::map<const Subprocess*, Edge*> edges_;
};

}  // namespace ronin

#endif  // RONIN_EXEC_REAL_COMMAND_RUNNER_H_
