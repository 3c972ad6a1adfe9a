// --shuffle, a stage of the work chain (work_chain.h) right after the plan:
// ready edges start in an order drawn from a seed instead of by critical
// path, so that a manifest missing an order-only dependency fails now
// rather than on someone else's machine. It takes every edge the plan has
// ready and gives out first the one whose draw (a hash of the seed and its
// first output) is highest. The plan still decides what is ready and the
// pools what may be (a pool's edge is ready only once the pool has room),
// so the graph's and the pools' rules hold. The same seed gives the same
// order: exactly at -j1; with more jobs, which edges are ready at a time
// also depends on which command ends first.
#ifndef RONIN_SCHED_SHUFFLED_ORDER_H_
#define RONIN_SCHED_SHUFFLED_ORDER_H_

#include <cstdint>
#include <queue>
#include <vector>

#include "sched/work_chain.h"

namespace ronin {

class ShuffledOrder : public WorkStage {
 public:
  explicit ShuffledOrder(uint32_t seed) : seed_(seed) {}

  // Everything the plan gives is local work: none while no local job may start.
  Work Next(bool local_room) override;
  void PutBack(const Work& work) override { put_back_.push_back(work); }

 private:
  struct Drawn {
    uint64_t draw;
    uint32_t id;  // breaks ties between equal draws, so that the order is total
    Work work;
    bool operator<(const Drawn& other) const {
      return draw != other.draw ? draw < other.draw : id > other.id;
    }
  };
  Drawn Draw(const Work& work) const;

  uint32_t seed_;
  std::priority_queue<Drawn> ready_;
  std::vector<Work> put_back_;  // held back by a later stage: given out first
};

}  // namespace ronin

#endif  // RONIN_SCHED_SHUFFLED_ORDER_H_
