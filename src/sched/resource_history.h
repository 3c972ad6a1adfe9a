// What each command needed last time it ran: its peak resident memory,
// kept in .ronin_state (log/state_file.h) as kEdgeResources records keyed by
// the edge's first output. Payload: "peak_rss=BYTES" (space-separated
// name=value fields; fields this build does not know are ignored). It
// records the peak of every command that ends, failed or not, as a
// recorder of the build (log/build_recorder.h).
#ifndef RONIN_SCHED_RESOURCE_HISTORY_H_
#define RONIN_SCHED_RESOURCE_HISTORY_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "log/build_recorder.h"

namespace ronin {

class State;
class StateFile;
struct Edge;
struct Rule;

class ResourceHistory : public BuildRecorder {
 public:
  // `file` may be null: nothing is known and nothing is kept.
  ResourceHistory(const State* state, StateFile* file);

  // BuildRecorder: the command's peak; a state file that cannot be
  // written stops the build.
  bool Record(const FinishedCommand& command, std::string* err) override;

  // The edge's expected peak RSS in bytes: its own last peak, else the
  // median of its rule's recorded peaks, else -1 (nothing known).
  int64_t ExpectedPeakRss(const Edge* edge) const;
  // Records the peak of the run that just ended. False with *err when the
  // state file cannot be written.
  bool RecordPeakRss(const Edge* edge, int64_t bytes, std::string* err);

  // The peak_rss field of a payload, or -1.
  static int64_t ParsePeakRss(std::string_view payload);

 private:
  StateFile* file_;
  std::map<const Rule*, int64_t> rule_median_;
};

}  // namespace ronin

#endif  // RONIN_SCHED_RESOURCE_HISTORY_H_
