// Job slots: the rows a timeline draws commands on (trace thread ids,
// report rows). The log records when each command ran, not on which of
// the -j slots; any layout where no two commands on one row overlap will
// do, and the one here uses as few rows as the build's peak parallelism.
#ifndef RONIN_INSIGHT_JOB_SLOTS_H_
#define RONIN_INSIGHT_JOB_SLOTS_H_

#include <vector>

#include "insight/build_history.h"

namespace ronin {

struct SlotLayout {
  std::vector<int> slot_of_job;  // parallel to the jobs
  int slot_count = 0;
};

// Assigns each job the lowest-numbered slot free at its start (a job
// ending at t frees its slot for one starting at t). Jobs may come in any
// order.
SlotLayout AssignSlots(const std::vector<LoggedJob>& jobs);

}  // namespace ronin

#endif  // RONIN_INSIGHT_JOB_SLOTS_H_
