// job_reaper.h on Windows: no reaper yet (a job object that kills its
// processes when ninja.exe's handle to it closes is the way there). The
// build goes on without one, as Ninja's would: commands outlive a
// ninja.exe that is killed. --job-reaper=on is refused rather than taken
// and silently not done; --job-reaper=off says what happens anyway.
#include "exec/job_reaper.h"

namespace ronin {

bool JobReaper::Available(std::string* err) {
  *err = "commands dying with ninja is not implemented on Windows yet (they outlive a ninja.exe that is killed, "
         "as with Ninja); use --job-reaper=off or leave the option out";
  return false;
}

JobReaper* JobReaper::Get() { return nullptr; }

void JobReaper::Started(pid_t, bool, const JobFiles&) {}

void JobReaper::Reaped(pid_t, bool) {}

void JobReaper::LetGoOfLock() {}

void JobReaper::Send(const std::string&) {}

}  // namespace ronin
