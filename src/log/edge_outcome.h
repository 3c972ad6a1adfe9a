// What the last run of an edge showed, kept in .ronin_state (log/state_file.h)
// as a kEdgeOutcome record keyed by the edge's first output, and the last
// build that skipped it by content, as a kEdgeSkip record (kept apart, so
// a skip does not hide what the run before it showed); so that `-t trace` can put in each event's args what ronin
// knew then and .ninja_log cannot say. Written only when a run uses the
// state file anyway (--content-hash, --keep-free-memory).
//
// Payload: space-separated name=value fields; fields this build does not
// know are ignored, a record that cannot be read is ignored whole.
//   build=MS              wall-clock milliseconds when that ninja started:
//                         ties the records of one build together
//   start=MS end=MS       the run's times as its .ninja_log line has them:
//                         ties the record to that line (a skip: the time of
//                         the lines that settled it, skip_settlement.h;
//                         absent in skips recorded before those were written)
//   peak_rss=BYTES        the command's peak resident memory
//   unchanged_outputs=N   outputs it rewrote with the same content
//                         (--content-hash's early cutoff)
//   skipped=content_hash  (kEdgeSkip) not run: its mtimes said out of date, its inputs'
//                         content said not (--content-hash)
//   cached=1              its outputs were restored from the build cache
//                         (--cache), not made by running it
#ifndef RONIN_LOG_EDGE_OUTCOME_H_
#define RONIN_LOG_EDGE_OUTCOME_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "log/build_recorder.h"
#include "log/state_file.h"

namespace ronin {

struct Edge;

struct EdgeOutcome {
  int64_t build = -1;
  int start_ms = -1;  // -1: unknown (a skip recorded without its log lines)
  int end_ms = -1;
  int64_t peak_rss = -1;  // -1: unknown
  int unchanged_outputs = -1;  // -1: content not checked
  bool skipped_by_content_hash = false;
  bool cached = false;

  std::string Encode() const;
  // False if the payload has no build field or a malformed known field.
  static bool Parse(std::string_view payload, EdgeOutcome* outcome);
};

// The outcome recorded by the very run a .ninja_log line describes (same
// first output, start and end): false if there is none, so a record left by
// an earlier run of the edge is never taken for a later one's.
bool FindRunOutcome(const StateFile& file, std::string_view first_output, int start_ms, int end_ms,
                    EdgeOutcome* outcome);
// Whether a .ninja_log line was written by a skip, not a run (the latest
// skip of its first output has its times).
bool IsSkipLine(const StateFile& file, std::string_view first_output, int start_ms, int end_ms);

// Records outcomes as the build goes (the scan's skips, and as a recorder
// of the build each successful command), each tagged with this run's start.
class EdgeOutcomeRecorder : public BuildRecorder {
 public:
  explicit EdgeOutcomeRecorder(StateFile* file);

  // A skip by content, settled by .ninja_log lines at `at_ms`.
  void Skipped(const Edge* edge, int at_ms);
  // `outcome`'s times, peak and flags as the command's run left them; its
  // build field is filled in.
  void Ran(const Edge* edge, EdgeOutcome outcome);
  // BuildRecorder: Ran, for a successful command.
  bool Record(const FinishedCommand& command, std::string* err) override;

 private:
  void Put(StateFile::Kind kind, const Edge* edge, const EdgeOutcome& outcome);

  StateFile* file_;
  int64_t build_;
  bool write_failed_ = false;
};

}  // namespace ronin

#endif  // RONIN_LOG_EDGE_OUTCOME_H_
