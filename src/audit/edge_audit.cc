#include "audit/edge_audit.h"

#include <algorithm>

#include "base/file_io.h"
#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {

namespace {

// The inputs an edge declares: all but the discovered ones (graph.h).
template <typename Visit>
void ForEachDeclaredInput(const Edge* edge, Visit visit) {
  size_t discovered_begin = edge->inputs.size() - edge->order_only_deps - edge->discovered_deps;
  size_t discovered_end = edge->inputs.size() - edge->order_only_deps;
  for (size_t i = 0; i < edge->inputs.size(); ++i)
    if (i < discovered_begin || i >= discovered_end) visit(edge->inputs[i]);
}

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

}  // namespace

std::string EdgeName(const Edge* edge) { return std::string(edge->outputs[0]->path); }

EdgeAuditor::EdgeAuditor(const State* state, ProjectDirs dirs, std::string log_dir)
    : state_(state), dirs_(std::move(dirs)), log_dir_(std::move(log_dir)) {}

std::vector<AuditFinding> EdgeAuditor::Audit(const Edge* edge, const FileAccesses& accesses,
                                             const std::vector<Node*>& discovered) {
  Declared declared = DeclaredBy(edge, discovered);
  std::vector<AuditFinding> findings;
  for (const auto& [path, record] : accesses.records()) {
    if (!dirs_.Contains(path) || declared.own_files.count(path) || IsNinjaFile(path)) continue;
    OnDisk on_disk = Look(path);
    if (on_disk == OnDisk::kDirectory) continue;
    if (record.Wrote()) CheckWrite(edge, path, record, on_disk, &findings);
    if (record.Looked() && record.read_before_write && on_disk == OnDisk::kFile)
      CheckRead(edge, declared, path, record, &findings);
  }
  std::sort(findings.begin(), findings.end(), [](const AuditFinding& a, const AuditFinding& b) {
    return a.kind != b.kind ? a.kind < b.kind : a.path < b.path;
  });
  return findings;
}

EdgeAuditor::Declared EdgeAuditor::DeclaredBy(const Edge* edge, const std::vector<Node*>& discovered) const {
  Declared declared;
  const std::string& base = dirs_.build_dir();
  // Order-only inputs order, but a change to one rebuilds nothing.
  for (size_t i = 0; i < edge->inputs.size() - edge->order_only_deps; ++i)
    declared.inputs.insert(CanonicalAbsolutePath(base, edge->inputs[i]->path));
  for (const Node* input : discovered) declared.inputs.insert(CanonicalAbsolutePath(base, input->path));
  for (const Node* output : edge->outputs) declared.own_files.insert(CanonicalAbsolutePath(base, output->path));
  for (const std::string& file : {edge->GetUnescapedDepfile(), edge->GetUnescapedRspfile()})
    if (!file.empty()) declared.own_files.insert(CanonicalAbsolutePath(base, file));
  return declared;
}

void EdgeAuditor::CheckWrite(const Edge* edge, const std::string& path, const FileAccesses::Record& record,
                             OnDisk on_disk, std::vector<AuditFinding>* findings) {
  const Node* node = nullptr;
  const Edge* producer = ProducerOf(path, &node);
  const char* verb = record.Has(FileAccess::kWrite) ? "wrote" : "removed";
  if (producer && producer != edge && node && node->in_edge == producer) {
    findings->push_back({FindingKind::kClobber, dirs_.Display(path),
                         std::string(verb) + " an output of the edge building " + Quoted(EdgeName(producer)) +
                             ": expected a command to write only its own outputs"});
  } else if (node && !node->in_edge && !node->generated_by_dep_loader) {
    findings->push_back({FindingKind::kClobber, dirs_.Display(path),
                         std::string(verb) + " a source file: expected a command to write only its own outputs"});
  } else if (on_disk == OnDisk::kFile && record.Has(FileAccess::kWrite) &&
             !edge->GetBindingBool(Rule::kGenerator)) {
    // Still there when the command ended: an output nobody declared.
    undeclared_writes_.emplace(path, edge);
    findings->push_back({FindingKind::kUndeclaredOutput, dirs_.Display(path),
                         "not one of its outputs: expected it declared as an output, or removed before the "
                         "command ends"});
  }
}

void EdgeAuditor::CheckRead(const Edge* edge, const Declared& declared, const std::string& path,
                            const FileAccesses::Record& record, std::vector<AuditFinding>* findings) {
  const Node* node = nullptr;
  const Edge* producer = ProducerOf(path, &node);
  if (producer == edge) return;  // an undeclared output of its own
  std::string shown = dirs_.Display(path);
  if (producer && !OrderedBefore(producer, edge)) {
    findings->push_back({FindingKind::kUndeclaredInput, shown,
                         "made by the edge building " + Quoted(EdgeName(producer)) +
                             ", with no dependency path from it in the manifest: expected " + shown +
                             " as an input or order-only input"});
    return;
  }
  bool only_probed = !record.Has(FileAccess::kRead) && !record.Has(FileAccess::kExecute);
  if (only_probed || declared.inputs.count(path) || (producer && RebuiltAfter(producer, edge))) return;
  std::string depfile = edge->GetUnescapedDepfile();
  findings->push_back({FindingKind::kMissingDep, shown,
                       std::string("neither a declared input nor ") +
                           (depfile.empty() ? "discovered" : "in its depfile or deps log") +
                           ": expected it as an input (implicit: | " + shown + ")" +
                           (depfile.empty() ? "" : " or in the depfile")});
}

const Edge* EdgeAuditor::ProducerOf(const std::string& path, const Node** node) const {
  *node = dirs_.FindNode(*state_, path);
  if (*node && (*node)->in_edge) return (*node)->in_edge;
  auto written = undeclared_writes_.find(path);
  return written == undeclared_writes_.end() ? nullptr : written->second;
}

template <typename Follow>
void EdgeAuditor::Walk(const Edge* consumer, Ancestors* ancestors, Follow follow) {
  if (ancestors->of == consumer) return;
  // A walk with its own stack, however deep the graph.
  ancestors->of = consumer;
  ancestors->edges.clear();
  std::vector<const Edge*> stack = {consumer};
  while (!stack.empty()) {
    const Edge* edge = stack.back();
    stack.pop_back();
    follow(edge, [&](const Node* input) {
      if (input->in_edge && ancestors->edges.insert(input->in_edge).second) stack.push_back(input->in_edge);
    });
  }
}

bool EdgeAuditor::OrderedBefore(const Edge* producer, const Edge* consumer) {
  Walk(consumer, &ordered_, [](const Edge* edge, auto visit) { ForEachDeclaredInput(edge, visit); });
  return ordered_.edges.count(producer) > 0;
}

bool EdgeAuditor::RebuiltAfter(const Edge* producer, const Edge* consumer) {
  Walk(consumer, &rebuilt_, [](const Edge* edge, auto visit) {
    for (size_t i = 0; i < edge->inputs.size() - edge->order_only_deps; ++i) visit(edge->inputs[i]);
  });
  return rebuilt_.edges.count(producer) > 0;
}

bool EdgeAuditor::IsNinjaFile(const std::string& path) const {
  std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
  bool ours = name.substr(0, 7) == ".ninja_" || name.substr(0, 7) == ".ronin_";
  return ours && DirName(path) == log_dir_;
}

EdgeAuditor::OnDisk EdgeAuditor::Look(const std::string& path) {
  FileStatus info;
  if (!StatLink(path.c_str(), &info)) return OnDisk::kMissing;
  return info.is_directory() ? OnDisk::kDirectory : OnDisk::kFile;
}

}  // namespace ronin
