// The findings of one audited build, as the build's summary and `-t audit`
// show them: one line per finding and a summary line, or one JSON
// document (valid with no findings too) for CI.
#ifndef RONIN_AUDIT_AUDIT_REPORT_H_
#define RONIN_AUDIT_AUDIT_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "audit/audit_findings.h"

namespace ronin {

class AuditReport {
 public:
  // One audited command (`edge`: its first output) and what it showed.
  void AddEdge(const std::string& edge, const std::vector<AuditFinding>& findings);
  void set_build(int64_t build) { build_ = build; }
  int64_t build() const { return build_; }
  int64_t edges() const { return edges_; }
  int Count(FindingKind kind) const { return counts_[static_cast<int>(kind)]; }
  size_t finding_count() const { return findings_.size(); }

  // "12 commands audited, 2 findings: 1 undeclared output, 1 clobber".
  std::string Summary() const;
  // DescribeFinding's line for each finding (by edge, kind, path), each
  // after `prefix`.
  std::string FindingLines(const std::string& prefix) const;
  // {"build_start_ms":..., "commands_audited":..., "counts":{...},
  //  "findings":[{"kind","edge","path","expected"}...]}
  std::string Json() const;

 private:
  using Entry = std::pair<std::string, AuditFinding>;  // (edge, finding)
  // The findings by edge, kind and path.
  std::vector<const Entry*> Sorted() const;

  int64_t build_ = -1;
  int64_t edges_ = 0;
  int counts_[kFindingKindCount] = {};
  std::vector<Entry> findings_;
};

}  // namespace ronin

#endif  // RONIN_AUDIT_AUDIT_REPORT_H_
