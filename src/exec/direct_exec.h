// Skipping the shell. Ninja runs every command as `/bin/sh -c COMMAND`.
// Most compile and link commands contain no shell syntax at all; those are
// split on spaces and spawned directly (as GNU make does), which saves a
// fork+exec of the shell per command. Anything the shell could interpret
// differently goes to the shell as before, and so does a command whose
// program is not found where the shell would find it (exec/path_lookup.h)
// or whose direct spawn fails (a script without #!), so that error
// messages and exit codes stay the shell's own.
//
// Switch it off with the environment variable RONIN_SKIP_SHELL=0.
#ifndef RONIN_EXEC_DIRECT_EXEC_H_
#define RONIN_EXEC_DIRECT_EXEC_H_

#include <string>
#include <string_view>
#include <vector>

namespace ronin {

// Splits `command` into words if running it without a shell is guaranteed
// to behave the same; false (argv untouched) otherwise.
bool SplitSimpleCommand(std::string_view command, std::vector<std::string>* argv);

// False when RONIN_SKIP_SHELL is set to "0" (read once).
bool DirectExecEnabled();

}  // namespace ronin

#endif  // RONIN_EXEC_DIRECT_EXEC_H_
