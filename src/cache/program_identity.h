// The identity of the programs a command runs: for each leading word of the
// command that names an executable file (found through PATH when it has no
// '/', as the spawner finds it: exec/path_lookup.h), its resolved path and
// the SHA-256 of its content. `ccache cc -c x.c`
// and `launcher /usr/bin/cc ...` so name both the launcher and the
// compiler; a changed compiler binary changes the key. Digests are
// memoised by path, mtime and size (FileHasher), so each program is read
// once per build.
#ifndef RONIN_CACHE_PROGRAM_IDENTITY_H_
#define RONIN_CACHE_PROGRAM_IDENTITY_H_

#include <string>
#include <string_view>
#include <vector>

#include "cache/cache_key.h"

namespace ronin {

// "path:sha256" for each leading program of `command` (at most three;
// VAR=value assignments before them are skipped). With `read`, each
// program's local path and digest are appended to it.
std::vector<std::string> ProgramIdentities(std::string_view command, const BaseDirMapper& mapper,
                                           FileHasher* hasher, std::vector<FileHash>* read = nullptr);

}  // namespace ronin

#endif  // RONIN_CACHE_PROGRAM_IDENTITY_H_
