// Fuzz target: the build cache's entry parser (cache/discovered_deps_manifest.h):
// the runs under a key, each with its discovered files and its outputs.
//
// Input: a manifest's bytes, as a cache directory or server could hand
// back, and the same bytes as the body of a manifest with a correct
// checksum (the fuzzer cannot forge a SHA-256, so without this second
// reading it would never get past the checksum line).
// Checks: parsing never crashes; whatever parses writes back to exactly the
// same bytes (nothing damaged is ever accepted as something else), and
// every listed file and output has a path and a well-formed digest.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "base/sha256.h"
#include "cache/checksummed_text.h"
#include "cache/discovered_deps_manifest.h"

using namespace ronin;

namespace {

const char kHeader[] = "ronin-cache-manifest 2\n";  // as cache/discovered_deps_manifest.cc writes it

void Check(const std::string& text) {
  DepsManifest manifest;
  std::string err;
  if (!ParseDepsManifest(text, &manifest, &err)) {
    if (err.empty()) __builtin_trap();
    return;
  }
  if (SerializeDepsManifest(manifest) != text) __builtin_trap();
  for (const DepsManifest::Run& run : manifest.runs) {
    for (const FileHash& file : run.deps)
      if (file.first.empty() || !IsSha256Hex(file.second)) __builtin_trap();
    for (const CacheEntry::Output& output : run.entry.outputs)
      if (output.path.empty() || !IsSha256Hex(output.digest) || output.size < 0) __builtin_trap();
    if (!IsSha256Hex(run.entry.output_digest) || run.entry.output_size < 0) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  Check(bytes);
  // An empty body must parse: if it does not, the header above is stale and
  // the second reading would test nothing.
  DepsManifest empty;
  std::string err;
  if (!ParseDepsManifest(WithChecksum(kHeader, ""), &empty, &err)) __builtin_trap();
  Check(WithChecksum(kHeader, bytes));
  return 0;
}
