// Running one command to collect its output, for `-t msvc` (ninja.exe's
// cl.exe wrapper). POSIX in capture_posix.cc, Windows in capture_win.cc.
#ifndef RONIN_EXEC_CAPTURE_H_
#define RONIN_EXEC_CAPTURE_H_

#include <string>

namespace ronin {

// Runs `command` (on Windows the command line as it is, as ninja.exe's
// wrapper; on POSIX through /bin/sh -c) with stdin from the null device,
// its stderr going to ninja's, and collects what it writes to stdout.
// With an `environment` block (NAME=VALUE entries, each ending in a NUL, an
// empty one last) it runs with that environment instead of ninja's.
// Returns its exit code; fatal if it cannot be started.
int RunCapturingStdout(const std::string& command, const std::string* environment, std::string* output);

}  // namespace ronin

#endif  // RONIN_EXEC_CAPTURE_H_
