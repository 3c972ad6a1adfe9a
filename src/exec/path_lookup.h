// Which file a command's program name runs, as /bin/sh finds it. One
// answer for the two places that ask: the spawner, which skips the shell
// only for the very program the shell would run (exec/direct_exec.h), and
// the build cache, which keys a command by the programs it runs
// (cache/program_identity.h). When they disagreed, a cache key could name
// one compiler while another one ran.
#ifndef RONIN_EXEC_PATH_LOOKUP_H_
#define RONIN_EXEC_PATH_LOOKUP_H_

#include <string>

namespace ronin {

// The file `program` names, if it is a regular file we may execute; empty
// otherwise. A name with a '/' is that path. Any other is searched in
// `path`, a PATH value: its ':'-separated entries in order, an empty entry
// meaning the current directory and a relative one relative to it; entries
// that hold a directory, or a file without execute permission, of that
// name are passed over, as the shell passes them over. With `path` null
// (PATH unset) a name without '/' is not found: the shell then searches a
// list of its own (dash's and bash's differ), which is not guessed. On
// Windows, as CreateProcess, a name whose last component has no extension
// is that name with ".exe", '\\' is a separator too and PATH's entries are
// ';'-separated (CreateProcess also looks in ninja.exe's folder, the current
// one and the system's before PATH, which is not followed here).
std::string FindProgramIn(const std::string& program, const char* path);

// FindProgramIn with $PATH. A name without '/' is searched once per run
// and remembered (a build starts thousands of commands with a few names;
// PATH does not change during a build), so a program that appears in an
// earlier PATH entry meanwhile is not noticed. A path is looked at each
// time: the build may create it. Safe to call from any thread.
std::string FindProgram(const std::string& program);

}  // namespace ronin

#endif  // RONIN_EXEC_PATH_LOOKUP_H_
