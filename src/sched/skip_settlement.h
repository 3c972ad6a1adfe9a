// --content-hash skips an edge whose inputs are newer than its outputs but
// have the content they had when it last ran. Ninja, and ronin without the
// option, decide by mtimes alone: left as it was, the skipped edge would
// be rebuilt by them, and every edge after it. So a skip is settled the way
// a run would have left the build directory, without running anything:
//
// - the outputs get the mtime of the newest input of the edges settled at
//   once, as if the commands had run the instant it was written (a restat
//   edge's keep theirs, like a restat run that left them alone: Ninja then
//   compares its inputs with the log's mtime only). That stamp is older
//   than the content checks, so an input written after its check is newer
//   than the outputs, and rebuilds them next time, as after a run; and it
//   is never in the future (an edge with an input from the future is left
//   alone: a run would not have made it clean either);
// - each output gets a .ninja_log line (the command's hash, that stamp as
//   its mtime, no duration) and, for a `deps` edge, a .ninja_deps record of
//   the same dependencies with the output's new mtime;
// - edges the scan found clean that use a touched output were clean only
//   against its old mtime: they are settled too, and so on downstream
//   (through phony aliases), so that the whole closure stays clean;
// - ronin's own records (content_hash_store.h, edge_outcome.h) follow.
//
// Nothing changes where a file's content is concerned, and nothing is
// settled in a dry run (none is wired: driver/ninja_main.cc). The driver
// settles what the scan of its targets skipped before the build; during
// the build the settlement is one of its recorders (log/build_recorder.h),
// and settles what the plan's cleaning after each command skipped.
#ifndef RONIN_SCHED_SKIP_SETTLEMENT_H_
#define RONIN_SCHED_SKIP_SETTLEMENT_H_

#include <string>
#include <unordered_set>
#include <vector>

#include "base/util.h"
#include "log/build_recorder.h"

namespace ronin {

class BuildLog;
class ContentHashStore;
class DepsLog;
class DiskInterface;
class EdgeOutcomeRecorder;
struct Edge;

class SkipSettlement : public BuildRecorder {
 public:
  // `outcomes` may be null (no -t trace records).
  SkipSettlement(BuildLog* build_log, DepsLog* deps_log, DiskInterface* disk, ContentHashStore* content,
                 EdgeOutcomeRecorder* outcomes)
      : build_log_(build_log), deps_log_(deps_log), disk_(disk), content_(content), outcomes_(outcomes) {}

  // Where the scan appends the edges it skips by content.
  std::vector<Edge*>* skips() { return &skips_; }

  // Settles the skipped edges and the clean edges downstream of what they
  // touch; `at_millis` is the time since the build started, for the log.
  // An output that cannot be dated is left (with a warning) to Ninja's
  // rules; false with *err when a log cannot be written.
  bool Settle(int at_millis, std::string* err);
  // --watch: a new round, in which an edge settled in an earlier one may
  // be skipped, and settled, again.
  void ForgetSettled() { settled_.clear(); }
  // BuildRecorder: settles what was skipped while the plan moved on after
  // `command` (a restat or early cutoff cleaning, a dyndep file loaded).
  bool Record(const FinishedCommand& command, std::string* err) override {
    return Settle(command.end_millis, err);
  }

 private:
  // Settles one edge; *moved says whether an output's mtime changed (its
  // users then need settling too).
  bool SettleEdge(Edge* edge, TimeStamp stamp, int at_millis, bool* moved, std::string* err);
  // Outputs get `stamp` where they are older; *mtimes_before per output
  // dated. False with *err at the first that cannot be.
  bool TouchOutputs(Edge* edge, TimeStamp stamp, std::vector<TimeStamp>* mtimes_before, std::string* err);
  // The deps log's record of each output, with its new mtime.
  bool RecordDeps(Edge* edge, std::string* err);
  // Edges to settle because `edge`'s outputs moved: the clean ones that
  // read them.
  void QueueUsers(const Edge* edge, std::vector<Edge*>* queue) const;

  BuildLog* build_log_;
  DepsLog* deps_log_;
  DiskInterface* disk_;
  ContentHashStore* content_;
  EdgeOutcomeRecorder* outcomes_;
  std::vector<Edge*> skips_;
  std::unordered_set<const Edge*> settled_;
};

}  // namespace ronin

#endif  // RONIN_SCHED_SKIP_SETTLEMENT_H_
