// Local and remote slots for ready edges (sched/remote_jobs.h).
#include "sched/remote_jobs.h"

#include "graph/graph.h"
#include "sched/plan.h"

namespace ronin {

bool RemoteJobs::IsRemote(const Edge* edge) const {
  auto found = remote_.find(edge);
  if (found != remote_.end()) return found->second;
  bool remote = !edge->is_phony() && launchers_.IsRemote(edge->EvaluateCommand());
  remote_.emplace(edge, remote);
  return remote;
}

bool RemoteJobs::Fits(const Edge* edge, bool local_room) const {
  return IsRemote(edge) ? running_ < limit_ : local_room;
}

Edge* RemoteJobs::NextWork(Plan* plan, bool local_room) {
  // Held edges were ready first, so they go first.
  if (running_ < limit_ && !held_remote_.empty()) {
    Edge* edge = held_remote_.front();
    held_remote_.pop_front();
    return edge;
  }
  if (local_room && !held_local_.empty()) {
    Edge* edge = held_local_.front();
    held_local_.pop_front();
    return edge;
  }
  if (!local_room && running_ >= limit_) return nullptr;
  while (Edge* edge = plan->FindWork()) {
    if (Fits(edge, local_room)) return edge;
    (IsRemote(edge) ? held_remote_ : held_local_).push_back(edge);
  }
  return nullptr;
}

void RemoteJobs::Started(const Edge* edge) {
  if (IsRemote(edge)) ++running_;
}

void RemoteJobs::Finished(const Edge* edge) {
  if (IsRemote(edge) && running_ > 0) --running_;
}

}  // namespace ronin
