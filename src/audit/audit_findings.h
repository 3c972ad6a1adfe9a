// What --audit found: the four kinds of finding, how each reads as one
// line, and how the findings of an audited build are kept in .ronin_state
// (state_file.h) for `-t audit`.
//
// Records (payloads are text, starting with their format's version):
//   kAuditedEdge, key: the edge's first output; one per edge an audited
//     build ran, the last run's findings (none: a clean run):
//       audit1 build=MS
//       KIND PATHLEN:PATH EXPECTEDLEN:EXPECTED      (one line per finding)
//   kAuditedBuild, key "": the last build that audited a command:
//       audit1 build=MS
// MS is the wall-clock start of that ninja in milliseconds: the commands
// that build audited are the kAuditedEdge records with its MS.
#ifndef RONIN_AUDIT_AUDIT_FINDINGS_H_
#define RONIN_AUDIT_AUDIT_FINDINGS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ronin {

enum class FindingKind : uint8_t {
  // Read a file another edge produces, with no dependency path from that
  // edge in the manifest: a race in a clean build, a stale read later.
  kUndeclaredInput,
  // Read a project file that is neither a declared input nor in its
  // depfile or deps log: editing it rebuilds nothing.
  kMissingDep,
  // Created or changed a file that is not its output (and did not remove
  // again): -t clean misses it, others may read it unordered.
  kUndeclaredOutput,
  // Wrote (or removed) a source file or another edge's output.
  kClobber,
};
const int kFindingKindCount = 4;

// Stable names, for JSON and the state file: undeclared-input,
// missing-dep, undeclared-output, clobber.
const char* FindingKindId(FindingKind kind);
bool ParseFindingKindId(std::string_view id, FindingKind* kind);
// In words: "undeclared input from another edge", ...
const char* FindingKindName(FindingKind kind);

struct AuditFinding {
  FindingKind kind;
  std::string path;      // as the manifest would name it
  std::string expected;  // what was expected instead, in words

  bool operator==(const AuditFinding& other) const {
    return kind == other.kind && path == other.path && expected == other.expected;
  }
};

// One line: "OUTPUT: KIND: PATH (EXPECTED)".
std::string DescribeFinding(std::string_view output, const AuditFinding& finding);

// kAuditedEdge's payload.
struct AuditedEdge {
  int64_t build = -1;
  std::vector<AuditFinding> findings;

  std::string Encode() const;
  // False for anything Encode would not have written.
  static bool Parse(std::string_view payload, AuditedEdge* edge);
};

// kAuditedBuild's payload.
std::string EncodeAuditedBuild(int64_t build);
bool ParseAuditedBuild(std::string_view payload, int64_t* build);

}  // namespace ronin

#endif  // RONIN_AUDIT_AUDIT_FINDINGS_H_
