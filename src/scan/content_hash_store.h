// --content-hash: what the dirty scan and the builder ask about file
// contents. Two kinds of records in .ronin_state (log/state_file.h):
//
// - per file, path -> (mtime, size, digest): a file is hashed only when its
//   mtime or size differs from the record, so a no-op build hashes nothing;
// - per edge, first output -> (digest of the set of its inputs' paths and
//   digests when it last ran, stamp of the output mtimes that run left,
//   the mtime .ninja_log recorded for the run).
//
// An edge whose mtimes say "out of date" is clean when its inputs have the
// content they had when it last ran and its outputs are still the ones that
// run wrote (anything else rewrote them: a failed command, ninja without the
// option, a user). After a command, an output whose content is what it was
// before lets its dependents be cleaned (early cutoff, restat by content:
// the store is the build's OutputCutoff), and the inputs it ran with are
// recorded (the store is one of the build's recorders, build_recorder.h).
#ifndef RONIN_SCAN_CONTENT_HASH_STORE_H_
#define RONIN_SCAN_CONTENT_HASH_STORE_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "base/util.h"
#include "log/build_recorder.h"
#include "log/state_file.h"
#include "scan/content_digest.h"
#include "scan/output_cutoff.h"

namespace ronin {

class State;
struct Edge;
struct Node;

class ContentHashStore : public OutputCutoff, public BuildRecorder {
 public:
  ContentHashStore(State* state, StateFile* state_file) : state_(state), state_file_(state_file) {}

  // For an edge whose mtimes call it out of date: true if every input
  // (order-only ones aside) has the content it had when the edge last ran
  // successfully, and its outputs have the mtimes that run left them.
  bool InputsUnchanged(const Edge* edge);

  // OutputCutoff: after a successful command, hashes the outputs and
  // appends those whose content is what it was before the command (early
  // cutoff). Their nodes take their new mtimes.
  bool UnchangedOutputs(Edge* edge, std::vector<Node*>* unchanged) override;

  // After a successful command whose .ninja_log entry records `logged_mtime`
  // (0: unknown): records the digest of the inputs it ran with, plus the
  // dependencies it just reported, so the next scan can compare. Ninja
  // records the command's start, or for generator and restat edges its
  // outputs' newest mtime (an input such a command rewrote before its
  // outputs, as CMake rewrites CMakeCache.txt, counts as read). An input
  // newer than that leaves no record (the command may have read either
  // version), and so the next scan falls back to mtimes, as Ninja's would.
  void RecordRun(const Edge* edge, const std::vector<Node*>& discovered, TimeStamp logged_mtime);

  // After the manifest that `edge` regenerated was loaded again: the record
  // of its run has the inputs the replaced manifest gave it; records the
  // ones the new manifest declares, under the same rule as RecordRun (a
  // generator's run rewrites the list of its own inputs, and the next scan
  // compares with the new list).
  void RecordRegeneration(const Edge* edge);

  // After outputs of `edge` whose content did not change got new mtimes
  // (sched/skip_settlement.h; `mtimes_before` per output, up to the first
  // that could not be dated): their digests and the edge's last run move to
  // the new mtimes, so the next scan still knows them.
  void OutputsRetouched(const Edge* edge, const std::vector<TimeStamp>& mtimes_before);
  // BuildRecorder: RecordRun for each successful command, with the mtime
  // .ninja_log recorded for it.
  bool Record(const FinishedCommand& command, std::string* err) override;

  // Files hashed by this run (for tests and -d stats).
  size_t files_hashed() const { return files_hashed_; }

 private:
  // What an edge's last successful run left (a kEdgeInputs record).
  struct EdgeRun {
    ContentDigest inputs;
    uint64_t outputs_stamp = 0;
    TimeStamp logged_mtime = 0;  // 0: unknown
  };
  bool FindRun(const Edge* edge, EdgeRun* run) const;
  // Records `run`, or (null) that there is none to compare with.
  void PutRun(const Edge* edge, const EdgeRun* run);
  // Edges whose .ninja_log mtime is their outputs', not their start: inputs
  // they rewrote before their outputs count as read (RecordRun).
  static bool LogsOutputMtimes(const Edge* edge);
  // The inputs whose content decides: all but order-only ones.
  static std::vector<const Node*> CheckedInputs(const Edge* edge);

  // The file's digest now (memoised for the run, hashed only when its
  // mtime or size differs from the record). False if it cannot be hashed.
  bool CurrentDigest(const Node* node, FileDigest* digest);
  // The file's digest as it is on disk now, whatever the node's stat said
  // (a command may have rewritten it since).
  bool DigestOnDisk(const Node* node, FileDigest* digest);
  // Whether the file still has `known`'s mtime and size.
  static bool IsOnDisk(const Node* node, const FileDigest& known);
  bool HashNow(const Node* node, FileDigest* digest);
  // The digest recorded for `path`, if any.
  bool Recorded(std::string_view path, FileDigest* digest) const;
  void RecordDigest(std::string_view path, const FileDigest& digest);
  // The first time content matters in a run: hashes, on several threads,
  // every recorded file whose stat (already taken) disagrees with its record.
  void HashChangedFilesAhead();
  // Digest of a set of inputs (order and duplicates do not matter).
  // Inputs written after `written_before` (0: any time) give none. With
  // `as_on_disk`, inputs are taken as they are now (after a command that
  // may have rewritten some), else as the scan stat'ed them.
  bool InputSetDigest(const std::vector<const Node*>& inputs, TimeStamp written_before, bool as_on_disk,
                      ContentDigest* digest);
  static uint64_t OutputsStamp(const Edge* edge);
  void Put(StateFile::Kind kind, std::string_view key, const std::string& payload);

  State* state_;
  StateFile* state_file_;
  std::unordered_map<const Node*, FileDigest> current_;  // digests taken this run
  bool hashed_ahead_ = false;
  bool write_failed_ = false;
  size_t files_hashed_ = 0;
};

}  // namespace ronin

#endif  // RONIN_SCAN_CONTENT_HASH_STORE_H_
