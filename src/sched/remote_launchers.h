// Which commands run elsewhere: a command whose program is a distributed
// launcher (distcc, icecc, sccache, or one the user names) sends its work
// to a build farm, so it costs the local machine little. The classifier
// looks only at the command line, the way CMake's
// CMAKE_<LANG>_COMPILER_LAUNCHER writes it (`distcc /usr/bin/cc ...`,
// `env VAR=1 distcc ...`, `cmake -E env VAR=1 distcc ...`).
#ifndef RONIN_SCHED_REMOTE_LAUNCHERS_H_
#define RONIN_SCHED_REMOTE_LAUNCHERS_H_

#include <string>
#include <string_view>
#include <vector>

namespace ronin {

class RemoteLaunchers {
 public:
  // The default launchers plus `extra` (names like "distcc", matched
  // against the program's base name).
  explicit RemoteLaunchers(const std::vector<std::string>& extra = {});

  // The program a shell command runs first: its first word after leading
  // VAR=value assignments and `env` / `cmake -E env` wrappers (with their
  // own assignments), unquoted. Empty if there is none.
  static std::string LeadingProgram(std::string_view command);

  // True if `command`'s leading program is one of the launchers.
  bool IsRemote(std::string_view command) const;

  static const std::vector<std::string>& Defaults();

 private:
  std::vector<std::string> names_;
};

// Checks a --remote-launchers value: comma-separated program names, each
// non-empty and without '/' or white space. Fills *names or says why not.
bool ParseLauncherNames(const char* value, std::vector<std::string>* names, std::string* err);

}  // namespace ronin

#endif  // RONIN_SCHED_REMOTE_LAUNCHERS_H_
