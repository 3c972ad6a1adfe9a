// The build cache's action entry (ccache's "direct mode", for any tool):
// stored under the key computed without discovered dependencies, it lists
// for each earlier run the files that run reported reading, with their
// SHA-256, and what the run produced (its outputs' and printed output's
// blobs). A later build takes the first run whose files all still have
// those contents: a hit is as exact as keying the discovered files too,
// and costs one read (format 2; format 1 kept the outputs in a second
// entry under a second key, one more file per stored run and per hit).
#ifndef RONIN_CACHE_DISCOVERED_DEPS_MANIFEST_H_
#define RONIN_CACHE_DISCOVERED_DEPS_MANIFEST_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cache/cache_key.h"

namespace ronin {

// What a cached run produced.
struct CacheEntry {
  struct Output {
    std::string path;    // as the manifest names it (key form)
    std::string digest;  // sha256 of its bytes
    int64_t size = 0;
    bool executable = false;  // restored with execute permission ("exe" line)
    bool operator==(const Output& other) const {
      return path == other.path && digest == other.digest && size == other.size && executable == other.executable;
    }
  };
  std::vector<Output> outputs;
  std::string output_digest;  // sha256 of the command's printed output
  int64_t output_size = 0;
  bool operator==(const CacheEntry& other) const {
    return outputs == other.outputs && output_digest == other.output_digest && output_size == other.output_size;
  }
};

struct DepsManifest {
  struct Run {
    std::vector<FileHash> deps;  // paths in key form (BaseDirMapper::ToKeyPath)
    CacheEntry entry;
    bool operator==(const Run& other) const { return deps == other.deps && entry == other.entry; }
  };
  std::vector<Run> runs;  // newest first
  // Keeps at most this many runs (the oldest go).
  static constexpr size_t kMaxRuns = 16;
  // Adds `run` as the newest; an earlier run with the same files goes.
  void AddRun(Run run);
};

// A header line, per run a "run N" line, N "dep <sha256> <path>" lines, an
// "out <sha256> <size> <path>" line per output ("exe" for an executable
// one) and a "log <sha256> <size>" line; then a checksum line, so a
// truncated or altered manifest never parses.
std::string SerializeDepsManifest(const DepsManifest& manifest);
// False (with *err) for anything SerializeDepsManifest did not write.
bool ParseDepsManifest(std::string_view text, DepsManifest* manifest, std::string* err);

}  // namespace ronin

#endif  // RONIN_CACHE_DISCOVERED_DEPS_MANIFEST_H_
