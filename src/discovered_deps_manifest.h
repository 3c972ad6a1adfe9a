// The build cache's first-level entry (ccache's "direct mode", for any
// tool): stored under the key computed without discovered dependencies, it
// lists for each earlier run the files that run reported reading, with
// their SHA-256. A later build finds the run whose files all still have
// those contents, and the second-level key (cache_key.h) follows from it.
#ifndef RONIN_DISCOVERED_DEPS_MANIFEST_H_
#define RONIN_DISCOVERED_DEPS_MANIFEST_H_

#include <string>
#include <string_view>
#include <vector>

#include "cache_key.h"

namespace ronin {

struct DepsManifest {
  // Newest first. Paths are in key form (BaseDirMapper::ToKeyPath).
  std::vector<std::vector<FileHash>> runs;
  // Keeps at most this many runs (the oldest go).
  static constexpr size_t kMaxRuns = 16;
  // Adds `run` as the newest, unless it is already listed.
  void AddRun(const std::vector<FileHash>& run);
};

// A header line, per run a "run N" line and N "dep <sha256> <path>" lines,
// and a checksum line, so a truncated or altered manifest never parses.
std::string SerializeDepsManifest(const DepsManifest& manifest);
bool ParseDepsManifest(std::string_view text, DepsManifest* manifest, std::string* err);

}  // namespace ronin

#endif  // RONIN_DISCOVERED_DEPS_MANIFEST_H_
