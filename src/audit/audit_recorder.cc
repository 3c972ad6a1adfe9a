#include "audit/audit_recorder.h"

#include <stdio.h>

#include "base/disk.h"
#include "base/util.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "scan/depfile_parser.h"

namespace ronin {

AuditRecorder::AuditRecorder(State* state, ProjectDirs dirs, std::string log_dir, DiskInterface* disk,
                             StateFile* file, int64_t build)
    : state_(state),
      auditor_(state, std::move(dirs), std::move(log_dir)),
      disk_(disk),
      records_(file, build) {
  report_.set_build(build);
}

bool AuditRecorder::Record(const FinishedCommand& command, std::string*) {
  if (!command.success() || !command.accesses) return true;
  const Edge* edge = command.edge;
  std::vector<Node*> from_depfile;
  const std::vector<Node*>* discovered = command.deps;
  if (!discovered) {
    from_depfile = DepfileInputs(edge);
    discovered = &from_depfile;
  }
  std::vector<AuditFinding> findings = auditor_.Audit(edge, *command.accesses, *discovered);
  std::string name = EdgeName(edge);
  report_.AddEdge(name, findings);
  std::string err;
  if (!write_failed_ && !records_.RecordEdge(name, findings, &err)) {
    Warning("--audit: writing .ronin_state: %s; -t audit will not show this build", err.c_str());
    write_failed_ = true;
  }
  return true;
}

std::vector<Node*> AuditRecorder::DepfileInputs(const Edge* edge) {
  std::vector<Node*> inputs;
  std::string depfile = edge->GetUnescapedDepfile();
  std::string content, err;
  if (depfile.empty() || !ReadFileIfExists(disk_, depfile, &content, &err) || content.empty()) return inputs;
  DepfileParser parser;
  if (!parser.Parse(&content, &err)) return inputs;  // the next build says what is wrong with it
  std::string path;
  for (std::string_view input : parser.ins) {
    path.assign(input);
    CanonicalizePath(&path);
    inputs.push_back(state_->GetNode(path));
  }
  return inputs;
}

void AuditRecorder::PrintSummary() const {
  std::string text = report_.FindingLines("ninja: audit: ") + "ninja: audit: " + report_.Summary() + "\n";
  fflush(stdout);
  fwrite(text.data(), 1, text.size(), stdout);
  fflush(stdout);
}

}  // namespace ronin
