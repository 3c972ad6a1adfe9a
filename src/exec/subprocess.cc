// subprocess.h's part common to both platforms: the set's bookkeeping.
#include "exec/subprocess.h"

#include <errno.h>

namespace ronin {

Subprocess* SubprocessSet::Add(const std::string& command, bool use_console, const JobFiles* files) {
  if (watch_commands_ && !StartWatching()) {
    errno = ENOSYS;
    return nullptr;
  }
  Subprocess* subprocess = new Subprocess(use_console);
  if (!subprocess->Start(this, command, files)) {
    delete subprocess;
    return nullptr;
  }
  // A job may be over at once (Windows: a program that does not exist).
  if (subprocess->Done())
    finished_.push_back(subprocess);
  else
    running_.push_back(subprocess);
  return subprocess;
}

bool SubprocessSet::WaitForRoom() {
  size_t finished = finished_.size();
  while (finished_.size() == finished && !running_.empty()) {
    if (DoWork()) return false;
  }
  // Reaped now: a zombie still counts against the process limit.
  for (Subprocess* subprocess : finished_) subprocess->Finish();
  return true;
}

std::unique_ptr<Subprocess> SubprocessSet::NextFinished() {
  if (finished_.empty()) return nullptr;
  std::unique_ptr<Subprocess> subprocess(finished_.front());
  finished_.pop_front();
  return subprocess;
}

void SubprocessSet::CollectDone() {
  for (auto it = running_.begin(); it != running_.end();) {
    if ((*it)->Done()) {
      finished_.push_back(*it);
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace ronin
