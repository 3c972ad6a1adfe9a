// The plan and the stages that decide what may start next (work_chain.h).
#include "sched/work_chain.h"

namespace ronin {

WorkChain::WorkChain(WorkSource* plan, const std::vector<WorkStage*>& stages) : stages_(stages), last_(plan) {
  for (WorkStage* stage : stages_) {
    stage->set_upstream(last_);
    last_ = stage;
  }
}

int WorkChain::WakeFd() {
  int fd = -1;
  for (WorkStage* stage : stages_) {
    int wake_fd = stage->WakeFd();
    if (wake_fd >= 0) fd = wake_fd;
  }
  return fd;
}

}  // namespace ronin
