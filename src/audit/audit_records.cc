#include "audit/audit_records.h"

#include "audit/audit_report.h"
#include "log/state_file.h"

namespace ronin {

bool AuditRecords::RecordEdge(const std::string& first_output, const std::vector<AuditFinding>& findings,
                              std::string* err) {
  if (!build_recorded_) {
    if (!file_->Append(StateFile::Kind::kAuditedBuild, "", EncodeAuditedBuild(build_), err)) return false;
    build_recorded_ = true;
  }
  AuditedEdge edge;
  edge.build = build_;
  edge.findings = findings;
  return file_->Append(StateFile::Kind::kAuditedEdge, first_output, edge.Encode(), err);
}

bool ReadLastAudit(const StateFile& file, AuditReport* report) {
  std::optional<std::string_view> payload = file.Find(StateFile::Kind::kAuditedBuild, "");
  int64_t build;
  if (!payload || !ParseAuditedBuild(*payload, &build)) return false;
  report->set_build(build);
  file.ForEach(StateFile::Kind::kAuditedEdge, [&](std::string_view output, std::string_view record) {
    AuditedEdge edge;
    if (AuditedEdge::Parse(record, &edge) && edge.build == build) report->AddEdge(std::string(output), edge.findings);
  });
  return true;
}

}  // namespace ronin
