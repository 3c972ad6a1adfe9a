// What a build leaves behind, told as it goes: the builder's second seam.
// Each command that ends goes, once, to every recorder wired for the build
// (driver/build_setup.h), in the order they were wired: the peak memory
// for --keep-free-memory (sched/resource_history.h), .ninja_log and
// .ninja_deps (log_recorders.h), the inputs' content for --content-hash
// (scan/content_hash_store.h), what -t trace shows (edge_outcome.h) and
// --audit's comparison of what each command touched with its edge
// (audit/audit_recorder.h).
// Under -n only the build log's recorder is wired, and it writes nothing
// (the log is not opened for writing).
#ifndef RONIN_LOG_BUILD_RECORDER_H_
#define RONIN_LOG_BUILD_RECORDER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/exit_status.h"
#include "base/util.h"
#include "log/file_accesses.h"

namespace ronin {

struct Edge;
struct Node;

// A command that ended, as the builder saw it.
struct FinishedCommand {
  Edge* edge = nullptr;
  ExitStatus status = kExitFailure;
  int start_millis = 0;  // since the build started, as .ninja_log has them
  int end_millis = 0;
  TimeStamp start_stamp = 0;   // the lock file's mtime when it started (0: unknown)
  TimeStamp record_mtime = 0;  // the outputs' mtime as .ninja_log records it
  // The dependencies the command reported (deps = gcc or msvc); null if
  // its rule has no deps.
  const std::vector<Node*>* deps = nullptr;
  int64_t peak_rss_bytes = -1;  // of its process tree; -1: unknown
  int unchanged_outputs = -1;   // outputs the early cutoff found unchanged; -1: not looked at
  bool cached = false;          // restored from the build cache, not run
  const std::string* output = nullptr;  // what it printed (stdout and stderr), as the status shows it
  // What it did to files, when it ran under --audit's monitor; null otherwise.
  std::shared_ptr<const FileAccesses> accesses;
  bool success() const { return status == kExitSuccess; }
};

class BuildRecorder {
 public:
  virtual ~BuildRecorder() = default;
  // A command ended, failed or not; a successful one's outputs have been
  // checked and the plan has moved on. False with *err stops the build.
  virtual bool Record(const FinishedCommand& command, std::string* err) = 0;
};

// Told of each edge the scan found out of date by its mtimes but did not
// plan, its inputs' content being what it was built from (--content-hash):
// .ronin_state's record for -t trace (edge_outcome.h), the event stream.
class SkipRecorder {
 public:
  virtual ~SkipRecorder() = default;
  virtual void Skipped(const Edge* edge) = 0;
};

// The recorders of a build, each told in turn.
class BuildRecorders : public BuildRecorder {
 public:
  void Add(BuildRecorder* recorder) { recorders_.push_back(recorder); }
  bool Record(const FinishedCommand& command, std::string* err) override {
    for (BuildRecorder* recorder : recorders_)
      if (!recorder->Record(command, err)) return false;
    return true;
  }

 private:
  std::vector<BuildRecorder*> recorders_;
};

}  // namespace ronin

#endif  // RONIN_LOG_BUILD_RECORDER_H_
