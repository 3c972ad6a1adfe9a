// Ready edges in a seeded random order (shuffled_order.h).
#include "sched/shuffled_order.h"

#include "base/hash.h"
#include "graph/graph.h"

namespace ronin {

Work ShuffledOrder::Next(bool local_room) {
  if (!local_room) return Work();
  if (!put_back_.empty()) {
    Work work = put_back_.back();
    put_back_.pop_back();
    return work;
  }
  // The draw ranks all that is ready now, whatever order the plan gives it in.
  for (Work work = upstream_->Next(true); work.edge; work = upstream_->Next(true)) ready_.push(Draw(work));
  if (ready_.empty()) return Work();
  Work work = ready_.top().work;
  ready_.pop();
  return work;
}

ShuffledOrder::Drawn ShuffledOrder::Draw(const Work& work) const {
  std::string_view path = work.edge->outputs[0]->path;
  return Drawn{RapidHashSeeded(path.data(), path.size(), seed_), work.edge->id, work};
}

}  // namespace ronin
