#include "insight/job_slots.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

namespace ronin {

SlotLayout AssignSlots(const std::vector<LoggedJob>& jobs) {
  SlotLayout layout;
  layout.slot_of_job.assign(jobs.size(), 0);
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  // By start; the longer job first on equal starts, so rows stay stable.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (jobs[a].start_ms != jobs[b].start_ms) return jobs[a].start_ms < jobs[b].start_ms;
    return jobs[a].end_ms > jobs[b].end_ms;
  });
  using EndAndSlot = std::pair<int, int>;
  std::priority_queue<EndAndSlot, std::vector<EndAndSlot>, std::greater<EndAndSlot>> busy;
  std::priority_queue<int, std::vector<int>, std::greater<int>> free_slots;
  for (size_t job : order) {
    while (!busy.empty() && busy.top().first <= jobs[job].start_ms) {
      free_slots.push(busy.top().second);
      busy.pop();
    }
    int slot;
    if (free_slots.empty()) {
      slot = layout.slot_count++;
    } else {
      slot = free_slots.top();
      free_slots.pop();
    }
    layout.slot_of_job[job] = slot;
    // A job with a negative duration (a clock step) still gets a row of its
    // own for no time at all.
    busy.push({std::max(jobs[job].end_ms, jobs[job].start_ms), slot});
  }
  return layout;
}

}  // namespace ronin
