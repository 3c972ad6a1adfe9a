// The interface between the build loop and whatever runs its commands:
// the real runner (real_command_runner.h), -n's pretend one
// (dry_run_command_runner.h), the build cache (cache/build_cache.h, which
// restores some commands instead of running them), and the fakes of the
// unit tests. Which one a build gets is chosen where the build is set up
// (driver/build_setup.h).
#ifndef RONIN_EXEC_COMMAND_RUNNER_H_
#define RONIN_EXEC_COMMAND_RUNNER_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/exit_status.h"
#include "log/file_accesses.h"

namespace ronin {

struct Edge;
class Status;

// Runs commands for edges (for real, or pretending under -n).
class CommandRunner {
 public:
  struct Result {
    Edge* edge = nullptr;
    ExitStatus status = kExitFailure;
    std::string output;
    int64_t peak_rss_bytes = -1;  // of the command's process tree; -1: unknown
    bool cached = false;  // restored from the build cache (cache/build_cache.h), not run
    // A deps = gcc depfile's inputs, canonical, when the runner already
    // has them: the build cache parsed the depfile to store the run (it is
    // on disk too, and is deleted as usual), or restored the run without
    // writing the depfile (`depfile_on_disk` false).
    std::optional<std::vector<std::string>> discovered;
    bool depfile_on_disk = true;
    // What it did to files, when it ran under --audit's monitor.
    std::shared_ptr<const FileAccesses> accesses;
    bool success() const { return status == kExitSuccess; }
  };
  virtual ~CommandRunner() = default;
  // Whether another command may start by the runner's own limits (the
  // system refused a process; a restored result waits to be collected).
  // The build's limits (-j, -l, ...) are the scheduler's (sched/work_chain.h).
  virtual bool HasRoom() const { return true; }
  virtual bool StartCommand(Edge* edge) = 0;
  // Waits for one command. False if interrupted by a signal. With a
  // `deadline` (MonotonicMillis() time; -1: none) it may also return true
  // with no result->edge once the deadline has passed. `now` is the
  // caller's latest MonotonicMillis() reading (-1: none), so that a wait
  // that ends with a command does not read the clock (the wait may then
  // end as much later as the reading is old: the few milliseconds the
  // build loop spends between its readings). With a `wake_fd` (-1: none)
  // it also returns true with no result->edge once that descriptor is
  // readable (a jobserver token came free).
  virtual bool WaitForCommand(Result* result, int64_t deadline = -1, int64_t now = -1, int wake_fd = -1) = 0;
  // Tells `status` what each running command has printed so far.
  virtual void ReportRunningOutput(Status*) const {}
  virtual std::vector<Edge*> GetActiveEdges() { return {}; }
  // A running command's own process group, or -1 (console jobs share ours).
  virtual pid_t ProcessGroupOf(const Edge*) const { return -1; }
  virtual void Abort() {}
};

}  // namespace ronin

#endif  // RONIN_EXEC_COMMAND_RUNNER_H_
