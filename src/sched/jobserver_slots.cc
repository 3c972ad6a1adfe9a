// A jobserver slot for each local job (jobserver_slots.h).
#include "sched/jobserver_slots.h"

#include "sched/jobserver.h"

namespace ronin {

JobserverSlots::~JobserverSlots() { jobserver_->ReleaseAll(); }

Work JobserverSlots::Next(bool local_room) {
  if (local_room && !jobserver_->ReserveSlot()) {
    want_token_ = true;
    local_room = false;
  }
  return upstream_->Next(local_room);
}

void JobserverSlots::Started(const Work& work, const CommandRunner&) {
  if (work.slot == JobSlot::kLocal) jobserver_->JobStarted();
}

void JobserverSlots::Finished(const Work& work) {
  if (work.slot == JobSlot::kLocal) jobserver_->JobFinished();
}

int JobserverSlots::WakeFd() {
  // An unused slot is not kept while we sleep: others may need it.
  jobserver_->CancelReservation();
  int fd = want_token_ ? jobserver_->wait_fd() : -1;
  want_token_ = false;
  return fd;
}

void JobserverSlots::Abort() { jobserver_->ReleaseAll(); }

}  // namespace ronin
