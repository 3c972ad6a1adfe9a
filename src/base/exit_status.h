// The exit status of a command, and of ninja itself.
#ifndef RONIN_BASE_EXIT_STATUS_H_
#define RONIN_BASE_EXIT_STATUS_H_

#include <cstdint>
#include <string>

#include "base/platform.h"

namespace ronin {

// A command's exit status as Ninja reports it: the exit code, 130 for an
// interrupt, or the raw wait status + 128 for other signals.
using ExitStatus = int;
constexpr ExitStatus kExitSuccess = 0;
constexpr ExitStatus kExitFailure = 1;
constexpr ExitStatus kExitInterrupted = 130;

// An exit status as "FAILED: [code=N]" shows it: on Windows the process's
// DWORD exit code, unsigned (0xC0000005 is 3221225477), as ninja.exe does.
inline std::string ExitCodeText(ExitStatus status) {
  return kWindows ? std::to_string(static_cast<uint32_t>(status)) : std::to_string(status);
}

}  // namespace ronin

#endif  // RONIN_BASE_EXIT_STATUS_H_
