// Fuzz target: the depfile parser (src/scan/depfile_parser.in.cc).
//
// Input: the depfile's bytes. Checks, on success: every name is non-empty,
// lies inside the (rewritten) buffer, holds no NUL/CR/LF (those always end a
// name), and the target and input lists have no duplicates.
#include <stddef.h>
#include <stdint.h>

#include <set>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "scan/depfile_parser.h"

using namespace ronin;

namespace {

void CheckNames(const std::string& buffer, const std::vector<std::string_view>& names) {
  std::set<std::string_view> seen;
  for (std::string_view name : names) {
    FUZZ_CHECK(!name.empty());
    FUZZ_CHECK(name.data() >= buffer.data());
    FUZZ_CHECK(name.data() + name.size() <= buffer.data() + buffer.size());
    FUZZ_CHECK(name.find_first_of(std::string_view("\0\r\n", 3)) == std::string_view::npos);
    FUZZ_CHECK(seen.insert(name).second);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string content(reinterpret_cast<const char*>(data), size);
  DepfileParser parser;
  std::string err;
  if (parser.Parse(&content, &err)) {
    FUZZ_CHECK(err.empty());
    CheckNames(content, parser.outs);
    CheckNames(content, parser.ins);
  } else {
    FUZZ_CHECK(err == "expected ':' in depfile" || err == "inputs may not also have inputs");
  }
  return 0;
}
