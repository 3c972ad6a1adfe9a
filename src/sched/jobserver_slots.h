// Jobserver slots, a stage of the work chain (work_chain.h): with a GNU
// make jobserver (jobserver.h), each local job holds a slot of the shared
// pool, the implicit one or a token. A slot is reserved before the next
// edge is taken (never blocking); without one no local job starts, and the
// builder's wait also watches the pool for a token. A reserved slot no job
// took goes back before the builder sleeps, and every slot when the build
// stops. Remote jobs hold no slot.
#ifndef RONIN_SCHED_JOBSERVER_SLOTS_H_
#define RONIN_SCHED_JOBSERVER_SLOTS_H_

#include "sched/work_chain.h"

namespace ronin {

class Jobserver;

class JobserverSlots : public WorkStage {
 public:
  explicit JobserverSlots(Jobserver* jobserver) : jobserver_(jobserver) {}
  // Slots go back only once the jobs are gone: the runner is destroyed first.
  ~JobserverSlots() override;

  Work Next(bool local_room) override;
  void Started(const Work& work, const CommandRunner& runner) override;
  void Finished(const Work& work) override;
  int WakeFd() override;
  void Abort() override;

 private:
  Jobserver* jobserver_;
  bool want_token_ = false;  // Next found no slot free
};

}  // namespace ronin

#endif  // RONIN_SCHED_JOBSERVER_SLOTS_H_
