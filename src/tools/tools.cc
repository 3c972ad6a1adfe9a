// The subtool registry (`ninja -t list`), the small tools (rules, targets,
// recompact, restat) and helpers shared by the tool_*.cc files.
#include "tools/tools.h"

#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

#include "base/disk.h"
#include "base/util.h"
#include "driver/ninja_main.h"
#include "events/event_history.h"
#include "insight/build_history.h"
#include "log/edge_outcome.h"
#include "log/state_file.h"
#include "scan/dyndep.h"
#include "tools/tool_common.h"

namespace ronin {

void PrintRaw(const std::string& text) { fwrite(text.data(), 1, text.size(), stdout); }

bool LoadBuildHistory(NinjaMain* ninja, StateFile* state_file, BuildHistory* history) {
  // Where the logs are ($builddir), without creating the directory as a
  // build would: a reading tool changes nothing.
  ninja->build_dir_ = std::string(ninja->state_.root_scope()->LookupVariable("builddir"));
  std::string path = ninja->BuildLogPath();
  std::string err;
  if (!history->Load(path, &err)) {
    Error("loading build log %s: %s", path.c_str(), err.c_str());
    return false;
  }
  state_file->LoadReadOnly(ninja->StateFilePath(), &err);
  history->DropJobs([&](std::string_view output, int start_ms, int end_ms) {
    return IsSkipLine(*state_file, output, start_ms, end_ms);
  });
  return true;
}

bool LoadEventHistory(NinjaMain* ninja, const std::string& path, EventHistory* events) {
  ninja->build_dir_ = std::string(ninja->state_.root_scope()->LookupVariable("builddir"));
  std::string err;
  if (events->Load(path, &err)) return true;
  Error("reading event stream: %s", err.c_str());
  return false;
}

bool WriteToolOutput(const std::string& path, const std::string& text) {
  if (path.empty()) {
    PrintRaw(text);
    return true;
  }
  RealDiskInterface disk;
  return disk.WriteFile(path, text);  // reports its own errors
}

void LoadDyndepsOrWarn(NinjaMain* ninja, Node* node) {
  DyndepFile file;
  std::string err;
  DyndepLoader loader(&ninja->state_, &ninja->disk_, &ninja->explanations_);
  // Ninja passes a message ending in "\n" to Warning(), which adds another.
  if (!loader.LoadDyndeps(node, &file, &err)) Warning("%s\n", err.c_str());
}

void LoadAllDyndepsQuietly(NinjaMain* ninja) {
  DyndepLoader loader(&ninja->state_, &ninja->disk_, &ninja->explanations_);
  // Loading can add edges' outputs but never edges, so indexing is stable.
  auto edges = ninja->state_.edges();
  for (size_t i = 0; i < edges.size(); ++i) {
    Node* dyndep = edges[i]->dyndep();
    if (!dyndep || !dyndep->dyndep_pending) continue;
    DyndepFile file;
    std::string err;
    loader.LoadDyndeps(dyndep, &file, &err);  // errors ignored: clean what is known
  }
}

int ToolRecompact(NinjaMain* ninja, const Options*, int, char**) {
  if (!ninja->EnsureBuildDirExists()) return 1;
  if (!ninja->OpenBuildLog(/*recompact_only=*/true) || !ninja->OpenDepsLog(/*recompact_only=*/true))
    return 1;
  return 0;
}

// Runs before the manifest is read (as in Ninja 1.13), so $builddir is
// unknown and the log is always ./.ninja_log.
int ToolRestat(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  if (args.Next("h") != -1) {
    printf("usage: ninja -t restat [outputs]\n");
    return 1;
  }
  std::vector<std::string> outputs(args.rest(), args.rest() + args.rest_count());

  if (!ninja->EnsureBuildDirExists()) return 1;
  std::string path = ninja->BuildLogPath();
  std::string err;
  BuildLog::LoadStatus status = ninja->build_log_.Load(path, &err);
  if (status == BuildLog::LoadStatus::kError) {
    Error("loading build log %s: %s", path.c_str(), err.c_str());
    return 1;
  }
  // Nothing to restat. This includes a log of an unusable version, which
  // Load() deleted: Ninja says nothing about it here.
  if (status == BuildLog::LoadStatus::kNotFound) return 0;
  if (!err.empty()) {
    Warning("%s", err.c_str());
    err.clear();
  }
  if (!ninja->build_log_.Restat(path, ninja->disk_, outputs, &err)) {
    Error("failed recompaction: %s", err.c_str());
    return 1;
  }
  // Like Ninja, reopen for writing: a log that asked for recompaction gets
  // it now (dropping entries for files that no longer exist).
  if (!ninja->config_.dry_run && !ninja->build_log_.OpenForWrite(path, *ninja, &err)) {
    Error("opening build log: %s", err.c_str());
    return 1;
  }
  return 0;
}

int ToolRules(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  bool print_description = false;
  for (int opt; (opt = args.Next("hd")) != -1;) {
    if (opt == 'd') {
      print_description = true;
      continue;
    }
    printf(
        "usage: ninja -t rules [options]\n"
        "\n"
        "options:\n"
        "  -d     also print the description of the rule\n"
        "  -h     print this message\n");
    return 1;
  }
  // Only the root scope's rules (phony included), by name.
  std::vector<std::pair<std::string_view, const Rule*>> rules = ninja->state_.root_scope()->rules();
  std::sort(rules.begin(), rules.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string line;
  for (const auto& entry : rules) {
    line.assign(entry.first);
    if (print_description) {
      // Unexpanded, with every variable as ${name}.
      if (const EvalString* description = entry.second->GetBinding(Rule::kDescription))
        line += ": " + description->Unparse();
    }
    line += '\n';
    PrintRaw(line);
  }
  return 0;
}

namespace {

// `targets depth N`: the tree below `roots`, N levels deep (N <= 0: all).
// Shared subtrees are printed every time they are reached, as Ninja does.
void PrintTargetTree(const std::vector<Node*>& roots, int depth, size_t node_count) {
  struct Item {
    Node* node;
    int depth;
    size_t indent;
  };
  std::vector<Item> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, depth, 0});
  std::string line;
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    line.assign(item.indent * 2, ' ');
    line.append(item.node->path);
    const Edge* edge = item.node->in_edge;
    if (!edge) {
      line += '\n';
      PrintRaw(line);
      continue;
    }
    line += ": ";
    line.append(edge->rule->name());
    line += '\n';
    PrintRaw(line);
    // A tree deeper than the node count can only come from a dependency
    // cycle; stop there instead of descending forever.
    if ((item.depth > 1 || item.depth <= 0) && item.indent < node_count) {
      for (auto it = edge->inputs.rbegin(); it != edge->inputs.rend(); ++it)
        stack.push_back({*it, item.depth - 1, item.indent + 1});
    }
  }
}

// `targets rule NAME`: outputs of NAME's edges, sorted and unique.
void PrintRuleTargets(const State& state, std::string_view rule_name) {
  std::vector<std::string_view> outputs;
  for (const Edge* edge : state.edges()) {
    if (edge->rule->name() != rule_name) continue;
    for (const Node* output : edge->outputs) outputs.push_back(output->path);
  }
  std::sort(outputs.begin(), outputs.end());
  outputs.erase(std::unique(outputs.begin(), outputs.end()), outputs.end());
  for (std::string_view output : outputs) PrintRaw(std::string(output) + "\n");
}

// `targets rule`: inputs nothing builds (sources), in edge order, repeats kept.
void PrintSourceTargets(const State& state) {
  for (const Edge* edge : state.edges()) {
    for (const Node* input : edge->inputs) {
      if (!input->in_edge) PrintRaw(std::string(input->path) + "\n");
    }
  }
}

// `targets all`: every output with its rule, in manifest order.
void PrintAllTargets(const State& state) {
  for (const Edge* edge : state.edges()) {
    for (const Node* output : edge->outputs)
      PrintRaw(std::string(output->path) + ": " + std::string(edge->rule->name()) + "\n");
  }
}

}  // namespace

int ToolTargets(NinjaMain* ninja, const Options*, int argc, char** argv) {
  const State& state = ninja->state_;
  int depth = 1;
  if (argc >= 1) {
    std::string mode = argv[0];
    if (mode == "rule") {
      if (argc > 1 && argv[1][0] != '\0')
        PrintRuleTargets(state, argv[1]);
      else
        PrintSourceTargets(state);
      return 0;
    }
    if (mode == "all") {
      PrintAllTargets(state);
      return 0;
    }
    if (mode != "depth") {
      std::string_view suggestion = SpellcheckString(mode, {"rule", "depth", "all"});
      if (!suggestion.empty())
        Error("unknown target tool mode '%s', did you mean '%s'?", mode.c_str(),
              std::string(suggestion).c_str());
      else
        Error("unknown target tool mode '%s'", mode.c_str());
      return 1;
    }
    if (argc > 1) depth = atoi(argv[1]);  // as Ninja: junk reads as 0, i.e. unlimited
  }
  std::string err;
  std::vector<Node*> roots = ninja->state_.RootNodes(&err);
  if (!err.empty()) {
    Error("%s", err.c_str());
    return 1;
  }
  PrintTargetTree(roots, depth, state.nodes().size());
  return 0;
}

namespace {

// In `ninja -t list` order; urtle has no description and stays hidden.
const Tool kTools[] = {
    {"browse", "browse dependency graph in a web browser", Tool::kRunAfterLoad, ToolBrowse},
    {"msvc", "build helper for MSVC cl.exe (DEPRECATED)", Tool::kRunAfterFlags, ToolMsvc, /*windows_only=*/true},
    {"clean", "clean built files", Tool::kRunAfterLoad, ToolClean},
    {"commands", "list all commands required to rebuild given targets", Tool::kRunAfterLoad,
     ToolCommands},
    {"inputs", "list all inputs required to rebuild given targets", Tool::kRunAfterLoad,
     ToolInputs},
    {"multi-inputs", "print one or more sets of inputs required to build targets",
     Tool::kRunAfterLoad, ToolMultiInputs},
    {"deps", "show dependencies stored in the deps log", Tool::kRunAfterLogs, ToolDeps},
    {"missingdeps", "check deps log dependencies on generated files", Tool::kRunAfterLogs,
     ToolMissingDeps},
    {"graph", "output graphviz dot file for targets", Tool::kRunAfterLoad, ToolGraph},
    {"query", "show inputs/outputs for a path", Tool::kRunAfterLogs, ToolQuery},
    {"targets", "list targets by their rule or depth in the DAG", Tool::kRunAfterLoad, ToolTargets},
    {"compdb", "dump JSON compilation database to stdout", Tool::kRunAfterLoad, ToolCompdb},
    {"compdb-targets", "dump JSON compilation database for a given list of targets to stdout",
     Tool::kRunAfterLoad, ToolCompdbTargets},
    {"recompact", "recompacts ninja-internal data structures", Tool::kRunAfterLoad, ToolRecompact},
    {"restat", "restats all outputs in the build log", Tool::kRunAfterFlags, ToolRestat},
    {"rules", "list all rules", Tool::kRunAfterLoad, ToolRules},
    {"cleandead", "clean built files that are no longer produced by the manifest",
     Tool::kRunAfterLogs, ToolCleanDead},
    {"wincodepage", "print the Windows code page used by ninja", Tool::kRunAfterFlags, ToolWinCodePage,
     /*windows_only=*/true},
    // ronin's own, after Ninja's (whose list the differential tests compare).
    {"trace", "write the last build from .ninja_log as a Chrome trace (JSON)",
     Tool::kRunAfterLoad, ToolTrace},
    {"report", "write an HTML report of where the last build spent its time",
     Tool::kRunAfterLoad, ToolReport},
    {"audit", "show what the last build with --audit found", Tool::kRunAfterLoad, ToolAudit},
    {"urtle", nullptr, Tool::kRunAfterFlags, ToolUrtle},
};

}  // namespace

const Tool* ChooseTool(const std::string& name) {
  auto here = [](const Tool& tool) { return kWindows || !tool.windows_only; };
  if (name == "list") {
    printf("ninja subtools:\n");
    for (const Tool& tool : kTools) {
      if (tool.description && here(tool)) printf("%11s  %s\n", tool.name, tool.description);
    }
    return nullptr;
  }
  std::vector<std::string_view> names;
  for (const Tool& tool : kTools) {
    if (!here(tool)) continue;
    if (name == tool.name) return &tool;
    names.push_back(tool.name);
  }
  std::string_view suggestion = SpellcheckString(name, names);
  if (!suggestion.empty())
    Fatal("unknown tool '%s', did you mean '%s'?", name.c_str(), std::string(suggestion).c_str());
  Fatal("unknown tool '%s'", name.c_str());
}

}  // namespace ronin
