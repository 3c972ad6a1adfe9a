// Expected command durations for the critical path (sched/plan.cc): each edge's
// duration is end - start of its last run in .ninja_log. Commands faster
// than a floor all weigh the floor (their measured times are mostly start-up
// noise), edges with no history weigh the median of the known ones, and
// when nothing is known every command weighs 1: Ninja 1.13's order.
#ifndef RONIN_SCHED_DURATION_MODEL_H_
#define RONIN_SCHED_DURATION_MODEL_H_

#include <cstdint>
#include <vector>

namespace ronin {

class BuildLog;
struct Edge;

// The duration of the edge's last run (its first output with a log entry),
// or -1 when the log has none.
int32_t LastDurationMillis(const Edge* edge, BuildLog* log);

class DurationModel {
 public:
  static constexpr int32_t kFloorMillis = 200;

  // Nothing known: every command weighs 1.
  DurationModel() = default;
  // Learns the last durations of `edges` (the plan's) from `log` (may be null).
  DurationModel(const std::vector<Edge*>& edges, BuildLog* log);

  // An edge's weight on a chain: 0 for a phony edge.
  int32_t Weight(const Edge* edge) const;
  bool knows_durations() const { return default_weight_ != 1; }

 private:
  std::vector<int32_t> weight_by_edge_id_;  // -1: unknown
  int32_t default_weight_ = 1;
};

}  // namespace ronin

#endif  // RONIN_SCHED_DURATION_MODEL_H_
