// --content-hash: what the dirty scan and the builder ask about file
// contents. Two kinds of records in .ronin_state (log/state_file.h):
//
// - per file, path -> (mtime, size, digest): a file is hashed only when its
//   mtime or size differs from the record, so a no-op build hashes nothing;
// - per edge, first output -> (digest of the set of its inputs' paths and
//   digests when it last ran, stamp of the output mtimes that run left).
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

  // After a successful command that started at `start_stamp` (0: unknown):
  // records the digest of the inputs it ran with, plus the dependencies it
  // just reported, so the next scan can compare. An input written after the
  // command started leaves no record (the command may have read either
  // version), and so the next scan falls back to mtimes.
  void RecordRun(const Edge* edge, const std::vector<Node*>& discovered, TimeStamp start_stamp);
  // BuildRecorder: RecordRun for each successful command.
  bool Record(const FinishedCommand& command, std::string* err) override;

  // Files hashed by this run (for tests and -d stats).
  size_t files_hashed() const { return files_hashed_; }

 private:
  // The file's digest now (memoised for the run, hashed only when its
  // mtime or size differs from the record). False if it cannot be hashed.
  bool CurrentDigest(const Node* node, FileDigest* digest);
  // The digest recorded for `path`, if any.
  bool Recorded(std::string_view path, FileDigest* digest) const;
  void RecordDigest(std::string_view path, const FileDigest& digest);
  // The first time content matters in a run: hashes, on several threads,
  // every recorded file whose stat (already taken) disagrees with its record.
  void HashChangedFilesAhead();
  // Digest of a set of inputs (order and duplicates do not matter).
  bool InputSetDigest(const std::vector<const Node*>& inputs, TimeStamp written_before, ContentDigest* digest);
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
