// Fuzz target: /showIncludes filtering (src/scan/msvc_deps.h FilterShowIncludes).
//
// Input: the msvc_deps_prefix up to the first '\n' (empty: cl's English
// default), then the compiler output. Filtered with and without a path
// canonicaliser. Checks: the kept output is "" or ends in '\n' and holds no
// CR; includes are non-empty, sorted, unique, free of system-header paths,
// and canonical when the canonicaliser ran.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/util.h"
#include "fuzz_support.h"
#include "scan/msvc_deps.h"

using namespace ronin;

namespace {

std::string Lower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

void Check(std::string_view output, const std::string& filtered, const std::vector<std::string>& includes,
           bool canonical) {
  FUZZ_CHECK(filtered.empty() || filtered.back() == '\n');
  FUZZ_CHECK(filtered.find('\r') == std::string::npos);
  FUZZ_CHECK(filtered.size() <= output.size() + 1);
  for (size_t i = 0; i < includes.size(); ++i) {
    FUZZ_CHECK(!includes[i].empty());
    if (i > 0) FUZZ_CHECK(includes[i - 1] < includes[i]);
    std::string lower = Lower(includes[i]);
    FUZZ_CHECK(lower.find("program files") == std::string::npos);
    FUZZ_CHECK(lower.find("microsoft visual studio") == std::string::npos);
    FUZZ_CHECK(includes[i].find_first_of("\r\n") == std::string::npos);
    if (canonical) FUZZ_CHECK(IsCanonicalPath(includes[i]));
  }
}

void Canonicalize(std::string* path) { CanonicalizePath(path); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t newline = input.find('\n');
  std::string_view prefix = newline == std::string_view::npos ? std::string_view() : input.substr(0, newline);
  std::string_view output = newline == std::string_view::npos ? input : input.substr(newline + 1);

  std::vector<std::string> includes;
  std::string filtered = FilterShowIncludes(output, prefix, &includes);
  Check(output, filtered, includes, false);

  std::vector<std::string> canonical_includes;
  std::string filtered_again = FilterShowIncludes(output, prefix, &canonical_includes, Canonicalize);
  Check(output, filtered_again, canonical_includes, true);
  // The canonicaliser changes which paths are recorded, never the output.
  FUZZ_CHECK(filtered_again == filtered);
  return 0;
}
