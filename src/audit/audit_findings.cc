#include "audit/audit_findings.h"

#include "base/util.h"

namespace ronin {

namespace {

const char kVersion[] = "audit1";

struct KindNames {
  FindingKind kind;
  const char* id;
  const char* name;
};
const KindNames kKindNames[kFindingKindCount] = {
    {FindingKind::kUndeclaredInput, "undeclared-input", "undeclared input from another edge"},
    {FindingKind::kMissingDep, "missing-dep", "input missing from the discovered deps"},
    {FindingKind::kUndeclaredOutput, "undeclared-output", "undeclared output"},
    {FindingKind::kClobber, "clobber", "clobber"},
};

// Consumes "NAME=DIGITS" followed by `end` (a space, or the end of the
// text when 0 is given).
bool TakeField(std::string_view* text, std::string_view name, char end, int64_t* value) {
  if (text->substr(0, name.size()) != name || text->substr(name.size(), 1) != "=") return false;
  text->remove_prefix(name.size() + 1);
  size_t stop = end ? text->find(end) : text->size();
  if (stop == std::string_view::npos) return false;
  if (!ParseCount(text->substr(0, stop), value)) return false;
  text->remove_prefix(end ? stop + 1 : stop);
  return true;
}

void AppendSized(std::string_view text, std::string* out) {
  *out += std::to_string(text.size());
  *out += ':';
  out->append(text);
}

// Consumes "LEN:TEXT".
bool TakeSized(std::string_view* text, std::string* out) {
  size_t colon = text->find(':');
  int64_t size;
  if (colon == std::string_view::npos || !ParseCount(text->substr(0, colon), &size)) return false;
  text->remove_prefix(colon + 1);
  if (static_cast<uint64_t>(size) > text->size()) return false;
  out->assign(text->substr(0, static_cast<size_t>(size)));
  text->remove_prefix(static_cast<size_t>(size));
  return true;
}

bool TakeVersion(std::string_view* text) {
  std::string_view prefix = kVersion;
  if (text->substr(0, prefix.size()) != prefix || text->substr(prefix.size(), 1) != " ") return false;
  text->remove_prefix(prefix.size() + 1);
  return true;
}

// "KIND PATHLEN:PATH EXPECTEDLEN:EXPECTED"
bool TakeFinding(std::string_view* text, AuditFinding* finding) {
  size_t space = text->find(' ');
  if (space == std::string_view::npos || !ParseFindingKindId(text->substr(0, space), &finding->kind)) return false;
  text->remove_prefix(space + 1);
  if (!TakeSized(text, &finding->path) || text->substr(0, 1) != " ") return false;
  text->remove_prefix(1);
  return TakeSized(text, &finding->expected);
}

}  // namespace

const char* FindingKindId(FindingKind kind) { return kKindNames[static_cast<int>(kind)].id; }

const char* FindingKindName(FindingKind kind) { return kKindNames[static_cast<int>(kind)].name; }

bool ParseFindingKindId(std::string_view id, FindingKind* kind) {
  for (const KindNames& names : kKindNames) {
    if (id == names.id) {
      *kind = names.kind;
      return true;
    }
  }
  return false;
}

std::string DescribeFinding(std::string_view output, const AuditFinding& finding) {
  std::string line(output);
  line += ": ";
  line += FindingKindName(finding.kind);
  line += ": ";
  line += finding.path;
  line += " (";
  line += finding.expected;
  line += ')';
  return line;
}

std::string AuditedEdge::Encode() const {
  std::string out = kVersion;
  out += " build=" + std::to_string(build);
  for (const AuditFinding& finding : findings) {
    out += '\n';
    out += FindingKindId(finding.kind);
    out += ' ';
    AppendSized(finding.path, &out);
    out += ' ';
    AppendSized(finding.expected, &out);
  }
  return out;
}

bool AuditedEdge::Parse(std::string_view payload, AuditedEdge* edge) {
  *edge = AuditedEdge();
  if (!TakeVersion(&payload)) return false;
  size_t line_end = payload.find('\n');
  std::string_view first = payload.substr(0, line_end);
  if (!TakeField(&first, "build", 0, &edge->build)) return false;
  payload.remove_prefix(line_end == std::string_view::npos ? payload.size() : line_end);
  while (!payload.empty()) {
    if (payload[0] != '\n') return false;
    payload.remove_prefix(1);
    AuditFinding finding;
    if (!TakeFinding(&payload, &finding)) return false;
    edge->findings.push_back(std::move(finding));
  }
  return true;
}

std::string EncodeAuditedBuild(int64_t build) { return std::string(kVersion) + " build=" + std::to_string(build); }

bool ParseAuditedBuild(std::string_view payload, int64_t* build) {
  return TakeVersion(&payload) && TakeField(&payload, "build", 0, build);
}

}  // namespace ronin
