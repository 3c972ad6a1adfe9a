// The exit status of a command, and of ninja itself.
#ifndef RONIN_BASE_EXIT_STATUS_H_
#define RONIN_BASE_EXIT_STATUS_H_

namespace ronin {

// A command's exit status as Ninja reports it: the exit code, 130 for an
// interrupt, or the raw wait status + 128 for other signals.
using ExitStatus = int;
constexpr ExitStatus kExitSuccess = 0;
constexpr ExitStatus kExitFailure = 1;
constexpr ExitStatus kExitInterrupted = 130;

}  // namespace ronin

#endif  // RONIN_BASE_EXIT_STATUS_H_
