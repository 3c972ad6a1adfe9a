// Fuzz target: path canonicalisation (src/base/util.h CanonicalizePath,
// IsCanonicalPath).
//
// Input: a path. Invariants for a non-empty path x:
//   Canonicalize(Canonicalize(x)) == Canonicalize(x)   (idempotent)
//   IsCanonicalPath(x) == (Canonicalize(x) == x)
//   Canonicalize(x) is non-empty and never longer than x
// and the in-place char* form agrees with the std::string form.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "base/util.h"
#include "fuzz_support.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string path(reinterpret_cast<const char*>(data), size);
  std::string once = path;
  CanonicalizePath(&once);
  if (path.empty()) {
    FUZZ_CHECK(once.empty());
    FUZZ_CHECK(!IsCanonicalPath(path));
    return 0;
  }
  FUZZ_CHECK(!once.empty());
  FUZZ_CHECK(once.size() <= path.size());
  std::string twice = once;
  CanonicalizePath(&twice);
  FUZZ_CHECK(twice == once);
  FUZZ_CHECK(IsCanonicalPath(once));
  FUZZ_CHECK(IsCanonicalPath(path) == (once == path));

  // The raw form, on an exactly-sized heap buffer (ASan sees any overrun).
  std::vector<char> buffer(path.begin(), path.end());
  size_t len = CanonicalizePath(buffer.data(), buffer.size());
  FUZZ_CHECK(std::string(buffer.data(), len) == once);
  return 0;
}
