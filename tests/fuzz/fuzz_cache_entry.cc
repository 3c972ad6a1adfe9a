// Fuzz target: the build cache's action entry parser (cache_store.h).
//
// Input: an entry's bytes, as a cache directory or server could hand back.
// Checks: parsing never crashes; whatever parses writes back to exactly the
// same bytes (nothing damaged is ever accepted as something else), and
// every parsed digest is a well-formed SHA-256 name.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "cache_store.h"
#include "sha256.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  CacheEntry entry;
  std::string err;
  if (!ParseCacheEntry(text, &entry, &err)) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  if (SerializeCacheEntry(entry) != text) __builtin_trap();
  if (!IsSha256Hex(entry.output_digest)) __builtin_trap();
  for (const CacheEntry::Output& output : entry.outputs)
    if (!IsSha256Hex(output.digest) || output.path.empty() || output.size < 0) __builtin_trap();
  return 0;
}
