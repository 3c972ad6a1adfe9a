#include "audit/audit_report.h"

#include <algorithm>

#include "base/util.h"

namespace ronin {

void AuditReport::AddEdge(const std::string& edge, const std::vector<AuditFinding>& findings) {
  ++edges_;
  for (const AuditFinding& finding : findings) {
    ++counts_[static_cast<int>(finding.kind)];
    findings_.emplace_back(edge, finding);
  }
}

std::vector<const AuditReport::Entry*> AuditReport::Sorted() const {
  std::vector<const Entry*> sorted;
  for (const Entry& entry : findings_) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) {
    if (a->first != b->first) return a->first < b->first;
    if (a->second.kind != b->second.kind) return a->second.kind < b->second.kind;
    return a->second.path < b->second.path;
  });
  return sorted;
}

std::string AuditReport::Summary() const {
  std::string text = std::to_string(edges_) + (edges_ == 1 ? " command" : " commands") + " audited, ";
  size_t total = findings_.size();
  text += total == 0 ? "no findings" : std::to_string(total) + (total == 1 ? " finding" : " findings");
  const char* separator = ": ";
  for (int kind = 0; kind < kFindingKindCount; ++kind) {
    if (counts_[kind] == 0) continue;
    text += separator + std::to_string(counts_[kind]) + " " + FindingKindName(static_cast<FindingKind>(kind));
    separator = ", ";
  }
  return text;
}

std::string AuditReport::FindingLines(const std::string& prefix) const {
  std::string text;
  for (const Entry* entry : Sorted()) text += prefix + DescribeFinding(entry->first, entry->second) + "\n";
  return text;
}

std::string AuditReport::Json() const {
  std::string json = "{\"build_start_ms\":" + (build_ < 0 ? std::string("null") : std::to_string(build_));
  json += ",\"commands_audited\":" + std::to_string(edges_) + ",\"counts\":{";
  for (int kind = 0; kind < kFindingKindCount; ++kind) {
    json += kind ? ",\"" : "\"";
    json += FindingKindId(static_cast<FindingKind>(kind));
    json += "\":" + std::to_string(counts_[kind]);
  }
  json += "},\"findings\":[";
  std::vector<const Entry*> sorted = Sorted();
  for (size_t i = 0; i < sorted.size(); ++i) {
    const auto& [edge, finding] = *sorted[i];
    json += i ? ",\n{\"kind\":\"" : "\n{\"kind\":\"";
    json += FindingKindId(finding.kind);
    json += "\",\"edge\":\"";
    AppendJsonString(edge, &json);
    json += "\",\"path\":\"";
    AppendJsonString(finding.path, &json);
    json += "\",\"expected\":\"";
    AppendJsonString(finding.expected, &json);
    json += "\"}";
  }
  json += findings_.empty() ? "]}\n" : "\n]}\n";
  return json;
}

}  // namespace ronin
