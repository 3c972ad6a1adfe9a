// Local and remote slots for ready edges (sched/remote_jobs.h).
#include "sched/remote_jobs.h"

#include "graph/graph.h"

namespace ronin {

bool RemoteJobs::IsRemote(const Edge* edge) const {
  auto found = remote_.find(edge);
  if (found != remote_.end()) return found->second;
  bool remote = !edge->is_phony() && launchers_.IsRemote(edge->EvaluateCommand());
  remote_.emplace(edge, remote);
  return remote;
}

Work RemoteJobs::Next(bool local_room) {
  bool remote_room = running_ < limit_;
  // Held edges were ready first, so they go first.
  if (remote_room && !held_remote_.empty()) {
    Edge* edge = held_remote_.front();
    held_remote_.pop_front();
    return Work{edge, JobSlot::kRemote};
  }
  if (local_room && !held_local_.empty()) {
    Edge* edge = held_local_.front();
    held_local_.pop_front();
    return Work{edge, JobSlot::kLocal};
  }
  if (!local_room && !remote_room) return Work();
  // The plan's ready edges are asked for whatever their kind.
  while (Edge* edge = upstream_->Next(true).edge) {
    Work work = Kind(edge);
    if (work.slot == JobSlot::kRemote ? remote_room : local_room) return work;
    (work.slot == JobSlot::kRemote ? held_remote_ : held_local_).push_back(edge);
  }
  return Work();
}

void RemoteJobs::Started(const Work& work, const CommandRunner&) {
  if (work.slot == JobSlot::kRemote) ++running_;
}

void RemoteJobs::Finished(const Work& work) {
  if (work.slot == JobSlot::kRemote && running_ > 0) --running_;
}

}  // namespace ronin
