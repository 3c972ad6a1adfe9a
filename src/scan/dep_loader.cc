#include "scan/dep_loader.h"

#include <inttypes.h>

#include <algorithm>

#include "base/disk.h"
#include "base/metrics.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "log/deps_log.h"
#include "scan/depfile_parser.h"
#include "scan/explain.h"

namespace ronin {

void DepLoader::NoteUser(Node* node, Edge* edge) const {
  // Only a generated file needs to know its users: finishing it makes them
  // ready. A plain source file (most headers, millions of uses in a big
  // build) does not, unless dyndep could still give it a producer.
  if (node->in_edge || state_->uses_dyndep()) node->out_edges.push_back(edge);
}

bool DepLoader::LoadDeps(Edge* edge, std::string* err) {
  if (!edge->GetBinding(Rule::kDeps).empty()) return LoadFromDepsLog(edge, err);
  std::string depfile = edge->GetUnescapedDepfile();
  if (!depfile.empty()) return LoadDepfile(edge, depfile, err);
  return true;
}

bool DepLoader::LoadDepfile(Edge* edge, const std::string& path, std::string* err) {
  METRIC_RECORD("depfile load");
  std::string content;
  if (!ReadFileIfExists(disk_, path, &content, err)) {
    *err = "loading '" + path + "': " + *err;
    return false;
  }
  // A missing or empty depfile means the command never ran to completion.
  if (content.empty()) {
    explanations_->Record(edge, "depfile '%s' is missing", path.c_str());
    return false;
  }

  DepfileParser parser;
  std::string parse_err;
  if (!parser.Parse(&content, &parse_err)) {
    *err = path + ": " + parse_err;
    return false;
  }
  if (parser.outs.empty()) {
    *err = path + ": no outputs declared";
    return false;
  }

  // The depfile must describe this edge: its first target is our first output.
  std::string primary(parser.outs[0]);
  CanonicalizePath(&primary);
  const Node* first_output = edge->outputs[0];
  if (primary != first_output->path) {
    explanations_->Record(edge, "expected depfile '%s' to mention '%s', got '%s'", path.c_str(),
                          std::string(first_output->path).c_str(), primary.c_str());
    return false;
  }
  // The other targets are compared as written (Ninja canonicalises only
  // the first one).
  for (size_t i = 1; i < parser.outs.size(); ++i) {
    std::string_view target = parser.outs[i];
    bool declared = std::any_of(edge->outputs.begin(), edge->outputs.end(),
                                [&](const Node* output) { return output->path == target; });
    if (!declared) {
      *err = path + ": depfile mentions '" + std::string(target) +
             "' as an output, but no such output was declared";
      return false;
    }
  }
  AddImplicitInputs(edge, parser.ins);
  return true;
}

void DepLoader::AddImplicitInputs(Edge* edge, const std::vector<std::string_view>& paths) {
  std::vector<Node*> nodes;
  nodes.reserve(paths.size());
  std::string canonical;
  for (std::string_view path : paths) {
    canonical.assign(path);
    uint64_t slash_bits;
    CanonicalizePath(&canonical, &slash_bits);
    Node* node = state_->GetNode(canonical, HashString(canonical), slash_bits);
    NoteUser(node, edge);
    nodes.push_back(node);
  }
  edge->inputs.reserve(edge->inputs.size() + nodes.size());
  edge->inputs.insert(edge->inputs.end() - edge->order_only_deps, nodes.begin(), nodes.end());
  edge->ForgetReadyInputs();
  edge->implicit_deps += static_cast<int32_t>(nodes.size());
  edge->discovered_deps += static_cast<int32_t>(nodes.size());
}

bool DepLoader::LoadFromDepsLog(Edge* edge, std::string* err) {
  (void)err;
  // Deps are recorded against the first output (all outputs share them).
  Node* output = edge->outputs[0];
  DepsLog::Deps* deps = deps_log_ ? deps_log_->GetDeps(output) : nullptr;
  if (!deps) {
    explanations_->Record(edge, "deps for '%s' are missing", std::string(output->path).c_str());
    return false;
  }
  // An output newer than its recorded deps was rebuilt by someone else.
  if (output->mtime > deps->mtime) {
    explanations_->Record(edge, "stored deps info out of date for '%s' (%" PRId64 " vs %" PRId64 ")",
                          std::string(output->path).c_str(), deps->mtime, output->mtime);
    return false;
  }
  size_t count = static_cast<size_t>(deps->node_count);
  size_t block_size;
  if (Node** block = deps_log_->TakeInputsBlock(deps, edge, &block_size)) {
    // The record's block already holds the deps between room for the
    // edge's other inputs: it becomes the input list, with no copy.
    edge->inputs.Adopt(block, block_size);
  } else {
    edge->inputs.reserve(edge->inputs.size() + count);
    auto position = edge->inputs.insert(edge->inputs.end() - edge->order_only_deps, count, nullptr);
    for (size_t i = 0; i < count; ++i) position[i] = deps_log_->DepNode(deps, static_cast<int>(i));
  }
  edge->ForgetReadyInputs();
  Node** added = edge->inputs.end() - edge->order_only_deps - count;
  for (size_t i = 0; i < count; ++i) NoteUser(added[i], edge);
  edge->implicit_deps += deps->node_count;
  edge->discovered_deps += deps->node_count;
  return true;
}

void ForgetDiscoveredDeps(const State& state, Edge* edge) {
  edge->deps_loaded = false;
  if (edge->discovered_deps == 0) return;
  size_t order_only = static_cast<size_t>(edge->order_only_deps);
  size_t discovered = static_cast<size_t>(edge->discovered_deps);
  size_t declared = edge->inputs.size() - order_only - discovered;
  Node** first_discovered = edge->inputs.begin() + declared;
  // NoteUser made the edge a user of some: it was the last one added.
  for (Node** input = first_discovered; input != first_discovered + discovered; ++input) {
    Node* node = *input;
    if (!node->in_edge && !state.uses_dyndep()) continue;
    auto user = std::find(node->out_edges.rbegin(), node->out_edges.rend(), edge);
    if (user != node->out_edges.rend()) node->out_edges.erase(&*user, &*user + 1);
  }
  CompactVector<Node*> inputs;
  inputs.reserve(declared + order_only);
  for (size_t i = 0; i < declared; ++i) inputs.push_back(edge->inputs[i]);
  for (size_t i = declared + discovered; i < edge->inputs.size(); ++i) inputs.push_back(edge->inputs[i]);
  edge->inputs = inputs;
  edge->ForgetReadyInputs();
  edge->implicit_deps -= edge->discovered_deps;
  edge->discovered_deps = 0;
}

}  // namespace ronin
