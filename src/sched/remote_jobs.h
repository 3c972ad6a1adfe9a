// Remote slots, a stage of the work chain (sched/work_chain.h), for remote
// execution (--remote-jobs=N): edges whose command starts with a
// distributed launcher (sched/remote_launchers.h) take one of N remote slots
// instead of a local -j slot, so a build farm gets N compiles at once while
// links and generators stay within the local cores. An edge whose kind of
// slot is full waits in a queue of its kind while edges of the other kind
// start.
#ifndef RONIN_SCHED_REMOTE_JOBS_H_
#define RONIN_SCHED_REMOTE_JOBS_H_

#include <deque>
#include <unordered_map>

#include "sched/remote_launchers.h"
#include "sched/work_chain.h"

namespace ronin {

struct Edge;

class RemoteJobs : public WorkStage {
 public:
  RemoteJobs(RemoteLaunchers launchers, int limit) : launchers_(std::move(launchers)), limit_(limit) {}

  // True if the edge's command runs through a remote launcher (remembered
  // per edge: the command is evaluated once).
  bool IsRemote(const Edge* edge) const;

  // An edge held back earlier whose kind of slot is free, else the next
  // ready one that fits; edges that do not fit are held. `local_room`: a
  // local slot is free now.
  Work Next(bool local_room) override;
  void Started(const Work& work, const CommandRunner& runner) override;
  void Finished(const Work& work) override;
  // Remote jobs started and not yet collected.
  int running() const { return running_; }

 private:
  Work Kind(Edge* edge) const { return Work{edge, IsRemote(edge) ? JobSlot::kRemote : JobSlot::kLocal}; }

  RemoteLaunchers launchers_;
  int limit_;
  int running_ = 0;
  std::deque<Edge*> held_local_;
  std::deque<Edge*> held_remote_;
  mutable std::unordered_map<const Edge*, bool> remote_;
};

}  // namespace ronin

#endif  // RONIN_SCHED_REMOTE_JOBS_H_
