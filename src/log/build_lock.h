// One writer per build directory (Ninja issue #2637): two ninjas appending
// to the same .ninja_log / .ninja_deps corrupt them. A run that writes
// state takes an exclusive flock() on the directory holding the logs (on
// Windows a named mutex: build_lock_win.cc); a second run waits for it,
// saying so. A ninja started by a command of the running build (CMake runs
// `ninja -t restat` while regenerating) is part of that build and does not
// wait for its own ancestor.
#ifndef RONIN_LOG_BUILD_LOCK_H_
#define RONIN_LOG_BUILD_LOCK_H_

#include <string>
#include <vector>

namespace ronin {

// Locks `dir` (the directory of the logs) for the rest of the process.
// Returns false (with *err) only if the directory cannot be opened. *waited
// says whether another ninja held it: anything read from the disk before
// is stale.
bool LockBuildDirectory(const std::string& dir, bool* waited, std::string* err);

// The descriptors holding this process's locks: the POSIX job reaper keeps
// them until the commands of a ninja that died are gone (exec/job_reaper.h).
// None on Windows, where a mutex cannot change hands.
std::vector<int> HeldBuildLockDescriptors();

// Windows: for each lock this process holds, the name of a mutex that the
// job reaper holds instead (exec/job_reaper_win.cc) until the commands of a
// ninja that died are gone; whoever takes the lock next waits for it.
// None on POSIX, whose reaper keeps the descriptors.
std::vector<std::string> BuildLockHandoverNames();

}  // namespace ronin

#endif  // RONIN_LOG_BUILD_LOCK_H_
