// What may start next: the builder's first seam. The builder takes each
// edge it starts from one WorkChain: the plan's ready queue (plan.h:
// critical path order, pools) followed by the stages wired for the build
// (driver/build_setup.h), each a class of its own that holds back what may
// not start yet (or, --shuffle's, reorders it) and passes the rest on:
//
//   plan ─► shuffled order ─► remote slots ─► memory admission ─► jobserver slots ─► local slots ─► builder
//   (plan.h) (shuffled_order.h) (remote_jobs.h) (memory_admission.h) (jobserver_slots.h) (local_slots.h:
//                                                                                          -j, -l, the runner)
//
// A stage asks the one before it for work; `local_room` travels the other
// way, so that a stage nearer the plan knows whether a local job may start
// at all (the remote stage still starts remote jobs when it may not).
// Every stage hears of each job that starts and of each that ends.
#ifndef RONIN_SCHED_WORK_CHAIN_H_
#define RONIN_SCHED_WORK_CHAIN_H_

#include <vector>

namespace ronin {

class CommandRunner;
struct Edge;

// Where a job runs: on this machine, or on a build farm (--remote-jobs).
enum class JobSlot { kLocal, kRemote };

// An edge that may start, and the kind of slot it takes.
struct Work {
  Edge* edge = nullptr;
  JobSlot slot = JobSlot::kLocal;
};

// A link of the chain: the plan, or a stage.
class WorkSource {
 public:
  virtual ~WorkSource() = default;
  // The next edge that may start now, or none (nothing ready, or what is
  // ready must wait for a job to end). `local_room`: the stages after this
  // one have room for a local job.
  virtual Work Next(bool local_room) = 0;
  // Work that Next gave out and a later stage held back: it is the first
  // to be given out again.
  virtual void PutBack(const Work& work) = 0;
};

// A stage after the plan. By default it lets everything through and keeps
// no count; a stage overrides what it decides or counts.
class WorkStage : public WorkSource {
 public:
  Work Next(bool local_room) override { return upstream_->Next(local_room); }
  void PutBack(const Work& work) override { upstream_->PutBack(work); }
  // The command for `work` started on `runner` (which knows its process).
  virtual void Started(const Work& /*work*/, const CommandRunner& /*runner*/) {}
  // The command for `work` ended, whatever its outcome.
  virtual void Finished(const Work& /*work*/) {}
  // Before the builder waits for a job to end: a descriptor that becomes
  // readable when work held back may start after all (-1: none).
  virtual int WakeFd() { return -1; }
  // The build stopped and its jobs were killed: what they held goes back.
  virtual void Abort() {}

  void set_upstream(WorkSource* upstream) { upstream_ = upstream; }

 protected:
  WorkSource* upstream_ = nullptr;
};

// The plan and the stages, linked in order; what the builder asks.
class WorkChain {
 public:
  WorkChain(WorkSource* plan, const std::vector<WorkStage*>& stages);

  // The next edge to start now, or none.
  Work Next() { return last_->Next(true); }
  void Started(const Work& work, const CommandRunner& runner) {
    for (WorkStage* stage : stages_) stage->Started(work, runner);
  }
  void Finished(const Work& work) {
    for (WorkStage* stage : stages_) stage->Finished(work);
  }
  // Every stage is asked (a stage may give back what it reserved).
  int WakeFd();
  void Abort() {
    for (WorkStage* stage : stages_) stage->Abort();
  }

 private:
  std::vector<WorkStage*> stages_;
  WorkSource* last_;
};

}  // namespace ronin

#endif  // RONIN_SCHED_WORK_CHAIN_H_
