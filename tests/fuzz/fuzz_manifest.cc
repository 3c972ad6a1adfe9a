// Fuzz target: the manifest lexer and parser, include/subninja through an
// in-memory file system, then cheap queries of the parsed graph.
//
// Input: the text of build.ninja, optionally followed by more files, each
// introduced by a 0x01 byte and its name up to the first '\n':
//   build.ninja text \x01 NAME1 \n text1 \x01 NAME2 \n text2 ...
// so `include NAME1` and `subninja NAME2` find them (at most 8 files); a
// file named like an edge's `depfile` is loaded as its depfile (DepLoader)
// after the graph checks.
//
// Fatal errors: the manifest language has two by design, a rule-variable
// cycle ("cycle in rule variables: ...", raised while the parser evaluates an
// edge's `pool` or `dyndep`, or by EvaluateCommand / GetBinding later) and a
// `ninja_required_version` newer than ours. Fuzz builds make Fatal throw
// FuzzFatalError (base/util.h) instead of exiting; the target catches it and
// checks that it is one of those two. Edge::TryEvaluateCommand must report
// the same cycles that EvaluateCommand is fatal on, and agree with it
// otherwise.
// Fuzz builds also bound variable expansion (g_fuzz_eval_budget, graph/eval.h);
// MemoryDisk bounds the number of file reads.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "base/util.h"
#include "fuzz_support.h"
#include "graph/graph.h"
#include "graph/manifest_parser.h"
#include "graph/state.h"
#include "log/deps_log.h"
#include "scan/dep_loader.h"
#include "scan/explain.h"

using namespace ronin;
using ronin::fuzz::MemoryDisk;

namespace {

const size_t kMaxFiles = 8;

bool IsExpectedFatal(const std::string& message) {
  return message.rfind("cycle in rule variables: ", 0) == 0 || message.rfind("ninja version (", 0) == 0;
}

// Edge::TryEvaluateCommand and EvaluateCommand agree: the same command, or
// a cycle for the one and a fatal error for the other. Skipped when the
// expansion budget ran out (the two would stop at different points).
void CheckCommand(const Edge* edge) {
  const size_t kBudget = 1 << 16;
  std::string tried;
  g_fuzz_eval_budget = kBudget;
  bool ok = edge->TryEvaluateCommand(&tried, /*include_rspfile=*/true);
  size_t left_after_try = g_fuzz_eval_budget;
  if (left_after_try == 0 || tried.size() > kFuzzEvalMaxSize) return;
  g_fuzz_eval_budget = kBudget;
  try {
    std::string command = edge->EvaluateCommand(/*include_rspfile=*/true);
    FUZZ_CHECK(ok);
    FUZZ_CHECK(g_fuzz_eval_budget == left_after_try);
    FUZZ_CHECK(command == tried);
  } catch (const FuzzFatalError& e) {
    FUZZ_CHECK(!ok);
    FUZZ_CHECK(e.message.rfind("cycle in rule variables: ", 0) == 0);
  }
}

// A binding's value, or "\0cycle" for a cycle error; "\0budget" when
// the expansion budget ran out (no value to compare).
std::string BindingOrCycle(const Edge* edge, int key) {
  g_fuzz_eval_budget = 1 << 16;
  try {
    std::string value = edge->GetBinding(static_cast<Rule::Binding>(key));
    return g_fuzz_eval_budget == 0 ? std::string("\0budget", 7) : value;
  } catch (const FuzzFatalError& e) {
    FUZZ_CHECK(e.message.rfind("cycle in rule variables: ", 0) == 0);
    return std::string("\0cycle", 6);
  }
}

// Every binding evaluates to something or to a cycle error, and the same
// once the scopes noted their reserved names (State::NoteReservedNames,
// which lets an edge answer with a rule's literal without lookups).
void CheckNotedBindings(State* state) {
  std::vector<std::string> before;
  for (const Edge* edge : state->edges())
    for (int key = 0; key < Rule::kBindingCount; ++key) before.push_back(BindingOrCycle(edge, key));
  state->NoteReservedNames();
  size_t i = 0;
  for (const Edge* edge : state->edges()) {
    for (int key = 0; key < Rule::kBindingCount; ++key, ++i) {
      std::string after = BindingOrCycle(edge, key);
      if (before[i] != std::string("\0budget", 7) && after != std::string("\0budget", 7))
        FUZZ_CHECK(after == before[i]);
    }
  }
}

// The unescaped paths evaluate to something or to a cycle error.
void CheckBindings(const Edge* edge) {
  g_fuzz_eval_budget = 1 << 16;
  try {
    edge->GetUnescapedDepfile();
    edge->GetUnescapedDyndep();
    edge->GetUnescapedRspfile();
  } catch (const FuzzFatalError& e) {
    FUZZ_CHECK(e.message.rfind("cycle in rule variables: ", 0) == 0);
  }
}

void CheckGraph(State* state, MemoryDisk* disk) {
  std::string err;
  std::vector<Node*> roots = state->RootNodes(&err);
  FUZZ_CHECK(err.empty() == (!roots.empty() || state->edges().empty()));
  err.clear();
  std::vector<Node*> defaults = state->DefaultNodes(&err);
  (void)defaults;

  for (const Node& node : state->nodes()) {
    FUZZ_CHECK(!node.path.empty());
    FUZZ_CHECK(IsCanonicalPath(node.path));
    FUZZ_CHECK(state->LookupNode(node.path) == &node);
    if (node.in_edge) {
      const auto& outs = node.in_edge->outputs;
      FUZZ_CHECK(std::find(outs.begin(), outs.end(), &node) != outs.end());
    }
    for (const Edge* user : node.out_edges) {
      // A phony edge naming its own output as an input loses that input
      // (-w phonycycle=warn) but stays the node's user, as in Ninja.
      if (user->is_phony() && user->outputs[0] == &node) continue;
      const auto& ins = user->inputs;
      FUZZ_CHECK(std::find(ins.begin(), ins.end(), &node) != ins.end());
    }
  }
  for (const Edge* edge : state->edges()) {
    FUZZ_CHECK(edge->rule != nullptr && edge->pool != nullptr && edge->scope != nullptr);
    FUZZ_CHECK(!edge->outputs.empty());
    fuzz::CheckEdgeLinks(edge);
    CheckCommand(edge);
    CheckBindings(edge);
  }
  CheckNotedBindings(state);
  // Discovered dependencies, as the dirty scan loads them: depfiles come
  // from the in-memory files (a chunk named like the edge's `depfile`), the
  // deps log is empty. Each edge once, like the scan.
  DepsLog deps_log;
  Explanations explanations(true);
  DepLoader loader(state, &deps_log, disk, &explanations);
  for (Edge* edge : state->edges()) {
    g_fuzz_eval_budget = 1 << 16;
    std::string deps_err;
    try {
      loader.LoadDeps(edge, &deps_err);
    } catch (const FuzzFatalError& e) {
      FUZZ_CHECK(e.message.rfind("cycle in rule variables: ", 0) == 0);
    }
    FUZZ_CHECK(static_cast<size_t>(edge->implicit_deps) + edge->order_only_deps <= edge->inputs.size());
    std::string command;
    g_fuzz_eval_budget = 1 << 16;
    edge->TryEvaluateCommand(&command, true);
  }

  if (!state->nodes().empty()) {
    std::string near(state->nodes().front().path);
    near.push_back('x');
    state->SpellcheckNode(near);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);

  MemoryDisk disk;
  size_t start = 0;
  for (size_t index = 0; index < kMaxFiles && start <= input.size(); ++index) {
    size_t end = input.find('\x01', start);
    if (end == std::string_view::npos || index + 1 == kMaxFiles) end = input.size();
    std::string_view chunk = input.substr(start, end - start);
    if (index == 0) {
      disk.Add("build.ninja", std::string(chunk));
    } else {
      size_t newline = chunk.find('\n');
      if (newline == std::string_view::npos) newline = chunk.size();
      std::string name(chunk.substr(0, newline));
      std::string_view text = chunk.substr(std::min(chunk.size(), newline + 1));
      disk.Add(name, std::string(text));
    }
    start = end + 1;
  }

  fuzz::ResetEvalBudget();
  {
    State state;
    ManifestParserOptions options;
    options.quiet = true;
    options.phony_cycle_is_error = (size & 1) != 0;
    ManifestParser parser(&state, &disk, options);
    std::string err;
    bool loaded = false;
    try {
      loaded = parser.Load("build.ninja", &err);
      if (!loaded) FUZZ_CHECK(!err.empty());
    } catch (const FuzzFatalError& e) {
      FUZZ_CHECK(IsExpectedFatal(e.message));
    }
    if (loaded) CheckGraph(&state, &disk);
  }
  fuzz::ResetGraphArena();
  return 0;
}
