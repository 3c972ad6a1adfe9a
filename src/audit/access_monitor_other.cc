// The access monitor where there is none yet (access_monitor.h): every
// platform but Linux. --audit is refused there, at the first command.
#ifndef __linux__
#include "audit/access_monitor.h"

#include <errno.h>

namespace ronin {

class CommandWatch {};

struct AccessMonitor::Impl {};

bool AccessMonitorAvailable(std::string* err) {
  *err = "watching commands' file accesses is only implemented on Linux so far";
  return false;
}

std::unique_ptr<AccessMonitor> AccessMonitor::Start(std::string* err) {
  AccessMonitorAvailable(err);
  return nullptr;
}

AccessMonitor::AccessMonitor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AccessMonitor::~AccessMonitor() = default;

int AccessMonitor::Spawn(const WatchedSpawn&, pid_t*, CommandWatch**) { return ENOSYS; }

FileAccesses AccessMonitor::Finish(CommandWatch*) { return FileAccesses(); }

}  // namespace ronin
#endif  // !__linux__
