// Fuzz target: the build cache's first-level entry parser
// (discovered_deps_manifest.h).
//
// Input: a manifest's bytes, as a cache directory or server could hand back.
// Checks: parsing never crashes; whatever parses writes back to exactly the
// same bytes, and every listed file has a path and a well-formed digest.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "discovered_deps_manifest.h"
#include "sha256.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  DepsManifest manifest;
  std::string err;
  if (!ParseDepsManifest(text, &manifest, &err)) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  if (SerializeDepsManifest(manifest) != text) __builtin_trap();
  for (const auto& run : manifest.runs)
    for (const FileHash& file : run)
      if (file.first.empty() || !IsSha256Hex(file.second)) __builtin_trap();
  return 0;
}
