// Parser for the Makefile-rule subset that compilers (gcc -MD, clang) write
// as depfiles.
#ifndef RONIN_SCAN_DEPFILE_PARSER_H_
#define RONIN_SCAN_DEPFILE_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

namespace ronin {

struct DepfileParser {
  // Parses `content`, which is modified in place: unescaped names are written
  // back into it, so it must outlive every view in `outs` and `ins`. Paths are
  // returned exactly as written (minus escapes); canonicalising them is the
  // caller's job. Returns false and sets *err on malformed input:
  // "expected ':' in depfile" or "inputs may not also have inputs".
  bool Parse(std::string* content, std::string* err);

  // Rule targets (left-hand sides), deduplicated, in first-seen order. A name
  // that had already appeared as an input is not a new target (gcc -MP phony
  // rules), so it is not listed here.
  std::vector<std::string_view> outs;
  // Rule prerequisites, deduplicated, in first-seen order.
  std::vector<std::string_view> ins;
};

}  // namespace ronin

#endif  // RONIN_SCAN_DEPFILE_PARSER_H_
