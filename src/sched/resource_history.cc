#include "sched/resource_history.h"

#include <stdlib.h>

#include <algorithm>
#include <vector>

#include "graph/graph.h"
#include "graph/state.h"
#include "log/state_file.h"

namespace ronin {

namespace {

std::string_view KeyOf(const Edge* edge) {
  return edge->outputs.empty() ? std::string_view() : edge->outputs[0]->path;
}

}  // namespace

ResourceHistory::ResourceHistory(const State* state, StateFile* file) : file_(file) {
  if (!file_) return;
  // Per rule, the median of what its edges needed: the guess for an edge
  // that never ran.
  std::map<const Rule*, std::vector<int64_t>> peaks;
  file_->ForEach(StateFile::Kind::kEdgeResources, [&](std::string_view key, std::string_view payload) {
    const Node* node = state->LookupNode(key);
    int64_t peak = ParsePeakRss(payload);
    if (node && node->in_edge && peak >= 0) peaks[node->in_edge->rule].push_back(peak);
  });
  for (auto& entry : peaks) {
    std::vector<int64_t>& values = entry.second;
    auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    rule_median_[entry.first] = *middle;
  }
}

int64_t ResourceHistory::ParsePeakRss(std::string_view payload) {
  const std::string_view kField = "peak_rss=";
  size_t at = 0;
  while (at < payload.size()) {
    size_t end = payload.find(' ', at);
    if (end == std::string_view::npos) end = payload.size();
    std::string_view field = payload.substr(at, end - at);
    if (field.substr(0, kField.size()) == kField && field.size() > kField.size()) {
      std::string digits(field.substr(kField.size()));
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) return -1;
      return strtoll(digits.c_str(), nullptr, 10);
    }
    at = end + 1;
  }
  return -1;
}

int64_t ResourceHistory::ExpectedPeakRss(const Edge* edge) const {
  if (!file_) return -1;
  if (std::optional<std::string_view> payload = file_->Find(StateFile::Kind::kEdgeResources, KeyOf(edge))) {
    int64_t peak = ParsePeakRss(*payload);
    if (peak >= 0) return peak;
  }
  auto median = rule_median_.find(edge->rule);
  return median == rule_median_.end() ? -1 : median->second;
}

bool ResourceHistory::Record(const FinishedCommand& command, std::string* err) {
  if (RecordPeakRss(command.edge, command.peak_rss_bytes, err)) return true;
  *err = "Error writing to .ronin_state: " + *err;
  return false;
}

bool ResourceHistory::RecordPeakRss(const Edge* edge, int64_t bytes, std::string* err) {
  if (!file_ || bytes < 0 || KeyOf(edge).empty()) return true;
  return file_->Put(StateFile::Kind::kEdgeResources, KeyOf(edge), "peak_rss=" + std::to_string(bytes), err);
}

}  // namespace ronin
