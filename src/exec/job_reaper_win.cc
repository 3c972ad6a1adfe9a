// job_reaper.h on Windows: no reaper yet (a job object that kills its
// processes when ninja.exe's handle to it closes is the way there). The
// build goes on without one, as Ninja's would; --job-reaper is accepted
// and does nothing.
#include "exec/job_reaper.h"

namespace ronin {

JobReaper* JobReaper::Get() { return nullptr; }

void JobReaper::Started(pid_t, bool, const JobFiles&) {}

void JobReaper::Reaped(pid_t, bool) {}

void JobReaper::LetGoOfLock() {}

void JobReaper::Send(const std::string&) {}

}  // namespace ronin
