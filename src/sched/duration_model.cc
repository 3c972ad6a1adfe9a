#include "sched/duration_model.h"

#include <algorithm>

#include "graph/graph.h"
#include "log/build_log.h"

namespace ronin {

int32_t LastDurationMillis(const Edge* edge, BuildLog* log) {
  if (!log) return -1;
  for (const Node* output : edge->outputs) {
    if (const BuildLog::Entry* entry = log->Lookup(output->path)) {
      int64_t duration = static_cast<int64_t>(entry->end_time) - entry->start_time;
      // A damaged line's negative duration is no history at all.
      return duration >= 0 && duration <= INT32_MAX ? static_cast<int32_t>(duration) : -1;
    }
  }
  return -1;
}

DurationModel::DurationModel(const std::vector<Edge*>& edges, BuildLog* log) {
  std::vector<int32_t> known;
  for (const Edge* edge : edges) {
    if (edge->is_phony()) continue;
    int32_t duration = edge->prev_elapsed_time_millis;  // the builder's lookup, if it made one
    if (duration < 0) duration = LastDurationMillis(edge, log);
    if (duration < 0) continue;
    int32_t weight = std::max(duration, kFloorMillis);
    if (edge->id >= weight_by_edge_id_.size()) weight_by_edge_id_.resize(edge->id + 1, -1);
    weight_by_edge_id_[edge->id] = weight;
    known.push_back(weight);
  }
  if (known.empty()) return;
  auto middle = known.begin() + known.size() / 2;
  std::nth_element(known.begin(), middle, known.end());
  default_weight_ = *middle;
}

int32_t DurationModel::Weight(const Edge* edge) const {
  if (edge->is_phony()) return 0;
  if (edge->id < weight_by_edge_id_.size() && weight_by_edge_id_[edge->id] >= 0)
    return weight_by_edge_id_[edge->id];
  return default_weight_;
}

}  // namespace ronin
