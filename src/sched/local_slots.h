// Local slots, the last stage of the work chain (work_chain.h): how many
// jobs may run on this machine at once. -j bounds the jobs running (with a
// jobserver its tokens do instead, jobserver_slots.h, and the limit given
// here is none), -l stops starts while the load average is at or above
// its value, and the runner may have no room of its own (the system
// refused a process; a restored result waits to be collected). Whatever
// the limits, one local job may always run, so the build makes progress.
#ifndef RONIN_SCHED_LOCAL_SLOTS_H_
#define RONIN_SCHED_LOCAL_SLOTS_H_

#include <cstdint>
#include <functional>

#include "sched/work_chain.h"

namespace ronin {

class LocalSlots : public WorkStage {
 public:
  // `limit`: jobs at once (-j); `max_load`: -l (<= 0: none). `load` reads
  // the load average (GetLoadAverage; tests give their own).
  LocalSlots(int limit, double max_load, const CommandRunner& runner, std::function<double()> load);

  Work Next(bool local_room) override { return upstream_->Next(local_room && HasRoom()); }
  void Started(const Work& work, const CommandRunner&) override {
    if (work.slot == JobSlot::kLocal) ++running_;
  }
  void Finished(const Work& work) override {
    if (work.slot == JobSlot::kLocal) --running_;
  }

 private:
  bool HasRoom() const;

  int64_t limit_;
  double max_load_;
  const CommandRunner& runner_;
  std::function<double()> load_;
  int64_t running_ = 0;  // local jobs started and not yet collected
};

}  // namespace ronin

#endif  // RONIN_SCHED_LOCAL_SLOTS_H_
