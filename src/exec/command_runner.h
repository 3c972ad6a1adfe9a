// The interface between the build loop and whatever runs its commands:
// the real runner (exec/subprocess.h), -n's pretend one, the build cache
// (cache/build_cache.h, which restores some commands instead of running
// them), and the fakes of the unit tests.
#ifndef RONIN_EXEC_COMMAND_RUNNER_H_
#define RONIN_EXEC_COMMAND_RUNNER_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/file_accesses.h"
#include "base/exit_status.h"

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
    bool cached = false;  // restored from the build cache (build_cache.h), not run
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
  virtual size_t CanRunMore() const = 0;
  virtual bool StartCommand(Edge* edge) = 0;
  // Waits for one command. False if interrupted by a signal. With a
  // `deadline` (MonotonicMillis() time; -1: none) it may also return true
  // with no result->edge once the deadline has passed. `now` is the
  // caller's latest MonotonicMillis() reading (-1: none), so that a wait
  // that ends with a command does not read the clock (the wait may then
  // end as much later as the reading is old: the few milliseconds the
  // build loop spends between its readings).
  virtual bool WaitForCommand(Result* result, int64_t deadline = -1, int64_t now = -1) = 0;
  // Tells `status` what each running command has printed so far.
  virtual void ReportRunningOutput(Status*) const {}
  virtual std::vector<Edge*> GetActiveEdges() { return {}; }
  // A running command's own process group, or -1 (console jobs share ours).
  virtual pid_t ProcessGroupOf(const Edge*) const { return -1; }
  virtual void Abort() {}
};

}  // namespace ronin

#endif  // RONIN_EXEC_COMMAND_RUNNER_H_
