// -j, -l and the runner's room (local_slots.h).
#include "sched/local_slots.h"

#include <algorithm>

#include "exec/command_runner.h"

namespace ronin {

LocalSlots::LocalSlots(int limit, double max_load, const CommandRunner& runner, std::function<double()> load)
    : limit_(limit), max_load_(max_load), runner_(runner), load_(std::move(load)) {}

bool LocalSlots::HasRoom() const {
  if (!runner_.HasRoom()) return false;
  int64_t capacity = limit_ - running_;
  if (max_load_ > 0.0) capacity = std::min(capacity, static_cast<int64_t>(max_load_ - load_()));
  // Always make progress: one job may run whatever the load.
  return capacity > 0 || running_ == 0;
}

}  // namespace ronin
