// -t deps (what .ninja_deps records) and -t missingdeps (discovered
// dependencies on generated files that the manifest does not order).
#include <inttypes.h>
#include <stdio.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/util.h"
#include "driver/ninja_main.h"
#include "scan/depfile_parser.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

void PrintDeps(NinjaMain* ninja, const Node* node) {
  std::string path(node->path);
  DepsLog::Deps* deps = ninja->deps_log_.GetDeps(node);
  if (!deps) {
    PrintRaw(path + ": deps not found\n");
    return;
  }
  std::string err;
  TimeStamp mtime = ninja->disk_.Stat(path, &err);
  // A stat error is reported; the entry then reads VALID, as in Ninja.
  if (mtime == -1) Error("%s", err.c_str());
  // Stale: the output is gone or was rewritten after its deps were recorded.
  bool stale = mtime == 0 || mtime > deps->mtime;
  std::string text = path + StringPrintf(": #deps %d, deps mtime %" PRId64 " (%s)\n",
                                         deps->node_count, deps->mtime, stale ? "STALE" : "VALID");
  for (int i = 0; i < deps->node_count; ++i) {
    text += "    ";
    text.append(ninja->deps_log_.DepNode(deps, i)->path);
    text += '\n';
  }
  text += '\n';
  PrintRaw(text);
}

// The inputs an edge's depfile names, without touching the edge; empty when
// the depfile is missing, unreadable, malformed or about another output.
std::vector<Node*> DepfileNodes(NinjaMain* ninja, const Edge* edge) {
  std::vector<Node*> nodes;
  std::string path = edge->GetUnescapedDepfile();
  if (path.empty()) return nodes;
  std::string content, err;
  if (ninja->disk_.ReadFile(path, &content, &err) != FileReader::Status::kOkay) return nodes;
  DepfileParser parser;
  if (content.empty() || !parser.Parse(&content, &err) || parser.outs.empty()) return nodes;
  // As Ninja checks it: the first target canonicalised, the others verbatim.
  std::string first(parser.outs[0]);
  CanonicalizePath(&first);
  if (first != edge->outputs[0]->path) return nodes;
  for (size_t i = 1; i < parser.outs.size(); ++i) {
    auto declared = [&](const Node* out) { return out->path == parser.outs[i]; };
    if (std::none_of(edge->outputs.begin(), edge->outputs.end(), declared)) return nodes;
  }
  std::string canonical;
  for (std::string_view input : parser.ins) {
    canonical.assign(input);
    CanonicalizePath(&canonical);
    nodes.push_back(ninja->state_.GetNode(canonical));
  }
  return nodes;
}

struct EdgeIdOrder {
  bool operator()(const Edge* a, const Edge* b) const { return a->id < b->id; }
};

// Finds discovered dependencies (deps log or depfile) on files that another
// edge generates, where nothing in the manifest orders that edge first.
class MissingDepsScanner {
 public:
  explicit MissingDepsScanner(NinjaMain* ninja) : ninja_(ninja) {}

  // Visits `target` and everything below it, inputs first.
  void Scan(Node* target);
  void PrintStats() const;
  bool found_missing() const { return missing_path_count_ > 0; }

 private:
  void ProcessNode(Node* node);
  void CheckDeps(Node* node, Node* const* deps, int count);
  // Is `from` reachable from `to` through the manifest's inputs?
  bool PathExists(const Edge* from, const Edge* to);

  NinjaMain* ninja_;
  std::unordered_set<const Node*> seen_;
  std::unordered_set<const Node*> nodes_missing_deps_;
  std::unordered_set<const Node*> generated_nodes_;
  std::unordered_set<const Rule*> generator_rules_;
  int missing_path_count_ = 0;
  // For each `from` edge: edges known to reach it (true) or not (false).
  std::unordered_map<const Edge*, std::unordered_map<const Edge*, bool>> reaches_;
};

void MissingDepsScanner::Scan(Node* target) {
  struct Frame {
    Node* node;
    size_t next_input;
  };
  std::vector<Frame> stack;
  auto enter = [&](Node* node) {
    if (node->in_edge && seen_.insert(node).second) stack.push_back({node, 0});
  };
  enter(target);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const Edge* edge = frame.node->in_edge;
    if (frame.next_input < edge->inputs.size()) {
      enter(edge->inputs[frame.next_input++]);
      continue;
    }
    Node* node = frame.node;
    stack.pop_back();
    ProcessNode(node);
  }
}

void MissingDepsScanner::ProcessNode(Node* node) {
  const Edge* edge = node->in_edge;
  if (!edge->GetBinding(Rule::kDeps).empty()) {
    // Recorded per output: each output of the edge is looked up on its own.
    if (DepsLog::Deps* deps = ninja_->deps_log_.GetDeps(node)) {
      std::vector<Node*> nodes;
      for (int i = 0; i < deps->node_count; ++i) nodes.push_back(ninja_->deps_log_.DepNode(deps, i));
      CheckDeps(node, nodes.data(), deps->node_count);
    }
    return;
  }
  std::vector<Node*> deps = DepfileNodes(ninja_, edge);
  if (!deps.empty()) CheckDeps(node, deps.data(), static_cast<int>(deps.size()));
}

void MissingDepsScanner::CheckDeps(Node* node, Node* const* deps, int count) {
  const Edge* edge = node->in_edge;
  std::set<const Edge*, EdgeIdOrder> generators;
  for (int i = 0; i < count; ++i) {
    // A dependency on the manifest means "rebuild when reconfigured"; the
    // whole build already waits for regeneration, so nothing is missing.
    if (deps[i]->path == "build.ninja") return;
    if (deps[i]->in_edge) generators.insert(deps[i]->in_edge);
  }
  std::set<std::string_view> rule_names;
  for (const Edge* generator : generators) {
    if (PathExists(generator, edge)) continue;
    for (int i = 0; i < count; ++i) {
      if (deps[i]->in_edge != generator) continue;
      generated_nodes_.insert(deps[i]);
      generator_rules_.insert(generator->rule);
      rule_names.insert(generator->rule->name());
      PrintRaw("Missing dep: " + std::string(node->path) + " uses " + std::string(deps[i]->path) +
               " (generated by " + std::string(generator->rule->name()) + ")\n");
    }
  }
  if (rule_names.empty()) return;
  missing_path_count_ += static_cast<int>(rule_names.size());
  nodes_missing_deps_.insert(node);
}

bool MissingDepsScanner::PathExists(const Edge* from, const Edge* to) {
  std::unordered_map<const Edge*, bool>& known = reaches_[from];
  auto cached = known.find(to);
  if (cached != known.end()) return cached->second;

  struct Frame {
    const Edge* edge;
    size_t next_input;
  };
  std::vector<Frame> stack = {{to, 0}};
  std::unordered_set<const Edge*> on_stack = {to};
  bool child_found = false;  // result of the frame popped last
  while (!stack.empty()) {
    bool found = child_found;
    child_found = false;
    bool descended = false;
    while (!found && !descended && stack.back().next_input < stack.back().edge->inputs.size()) {
      Frame& frame = stack.back();
      const Edge* producer = frame.edge->inputs[frame.next_input++]->in_edge;
      if (!producer) continue;
      if (producer == from) {
        found = true;
        continue;
      }
      auto it = known.find(producer);
      if (it != known.end()) {
        found = it->second;
        continue;
      }
      // A dependency cycle cannot lead anywhere new.
      if (!on_stack.insert(producer).second) continue;
      stack.push_back({producer, 0});
      descended = true;
    }
    if (descended) continue;
    const Edge* done = stack.back().edge;
    known[done] = found;
    on_stack.erase(done);
    stack.pop_back();
    child_found = found;
  }
  return known[to];
}

void MissingDepsScanner::PrintStats() const {
  std::string text = StringPrintf("Processed %zu nodes.\n", seen_.size());
  if (found_missing()) {
    text += StringPrintf("Error: There are %d missing dependency paths.\n", missing_path_count_);
    text += StringPrintf(
        "%zu targets had depfile dependencies on %zu distinct generated inputs (from %zu rules)  "
        "without a non-depfile dep path to the generator.\n",
        nodes_missing_deps_.size(), generated_nodes_.size(), generator_rules_.size());
    text +=
        "There might be build flakiness if any of the targets listed above are built alone, or "
        "not late enough, in a clean output directory.\n";
  } else {
    text += "No missing dependencies on generated files found.\n";
  }
  PrintRaw(text);
}

}  // namespace

int ToolDeps(NinjaMain* ninja, const Options*, int argc, char** argv) {
  std::vector<Node*> nodes;
  if (argc == 0) {
    // Every output the deps log still describes, in id order.
    for (Node* node : ninja->deps_log_.nodes()) {
      if (DepsLog::IsDepsEntryLiveFor(node)) nodes.push_back(node);
    }
  } else {
    std::string err;
    if (!ninja->CollectTargetsFromArgs(argc, argv, &nodes, &err)) {
      Error("%s", err.c_str());
      return 1;
    }
  }
  for (const Node* node : nodes) PrintDeps(ninja, node);
  return 0;
}

int ToolMissingDeps(NinjaMain* ninja, const Options*, int argc, char** argv) {
  std::vector<Node*> targets;
  std::string err;
  if (!ninja->CollectTargetsFromArgs(argc, argv, &targets, &err)) {
    Error("%s", err.c_str());
    return 1;
  }
  MissingDepsScanner scanner(ninja);
  for (Node* target : targets) scanner.Scan(target);
  scanner.PrintStats();
  // 3 sets "problems found" apart from errors (1).
  return scanner.found_missing() ? 3 : 0;
}

}  // namespace ronin
