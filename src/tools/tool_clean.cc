// -t clean and -t cleandead: removing built files.
#include <stdio.h>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/remove_tree.h"
#include "base/util.h"
#include "driver/ninja_main.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

// Removes files and reports them. Verbose (`-v`, or any dry run) lists each
// file; otherwise only the count is printed. A dry run removes nothing and
// reports the files that exist.
class Cleaner {
 public:
  explicit Cleaner(NinjaMain* ninja)
      : ninja_(ninja),
        dry_run_(ninja->config_.dry_run),
        quiet_(ninja->config_.verbosity == BuildConfig::Verbosity::kQuiet),
        verbose_(!quiet_ &&
                 (ninja->config_.verbosity == BuildConfig::Verbosity::kVerbose || dry_run_)),
        edge_outputs_(ninja->config_.ronin.clean_edge_outputs) {}

  int CleanAll(bool generator);
  int CleanTargets(int count, char** targets);
  int CleanRules(int count, char** rules);
  int CleanDead();

 private:
  // Every mode is Begin(), the removals, then Finish() for the exit status.
  void Begin() {
    // "Cleaning..." then either one line per file or " N files." (--quiet
    // does not silence it: that flag only drops build status lines).
    if (!quiet_) {
      printf(verbose_ ? "Cleaning...\n" : "Cleaning... ");
      fflush(stdout);
    }
    // Dyndep files can name more outputs; read them before they are removed.
    LoadAllDyndepsQuietly(ninja_);
  }
  int Finish() {
    if (!quiet_) printf("%d files.\n", cleaned_count_);
    return status_;
  }

  void Remove(const std::string& path);
  void RemoveEdgeFiles(const Edge* edge);
  void CleanTarget(Node* target);
  void CleanRule(std::string_view rule_name);
  bool FileExists(const std::string& path);

  NinjaMain* ninja_;
  bool dry_run_;
  bool quiet_;
  bool verbose_;
  bool edge_outputs_;  // --clean-edge-outputs: a target takes its edge's other outputs
  int cleaned_count_ = 0;
  int status_ = 0;
  std::unordered_set<std::string> removed_;
  std::unordered_set<const Node*> cleaned_;
};

bool Cleaner::FileExists(const std::string& path) {
  std::string err;
  TimeStamp mtime = ninja_->disk_.Stat(path, &err);
  if (mtime == -1) Error("%s", err.c_str());
  return mtime > 0;
}

void Cleaner::Remove(const std::string& path) {
  if (!removed_.insert(path).second) return;
  bool reported;
  if (dry_run_) {
    reported = FileExists(path);
  } else {
    // A directory output goes with its contents, counted as one file, where
    // Ninja 1.13.2 fails with "Directory not empty" (base/remove_tree.h).
    std::string err;
    if (IsRealDirectory(path) && !EmptyDirectory(path, &err)) {
      Error("%s", err.c_str());
      status_ = 1;
      return;
    }
    int result = ninja_->disk_.RemoveFile(path);
    reported = result == 0;
    if (result < 0) status_ = 1;  // already reported by RemoveFile
  }
  if (!reported) return;
  ++cleaned_count_;
  if (verbose_) PrintRaw("Remove " + path + "\n");
}

// Depfiles and response files are build by-products of the edge.
void Cleaner::RemoveEdgeFiles(const Edge* edge) {
  std::string depfile = edge->GetUnescapedDepfile();
  if (!depfile.empty()) Remove(depfile);
  std::string rspfile = edge->GetUnescapedRspfile();
  if (!rspfile.empty()) Remove(rspfile);
}

int Cleaner::CleanAll(bool generator) {
  Begin();
  for (const Edge* edge : ninja_->state_.edges()) {
    if (edge->is_phony()) continue;
    // Generator outputs (usually the manifest) survive unless -g.
    if (!generator && edge->GetBindingBool(Rule::kGenerator)) continue;
    for (const Node* output : edge->outputs) Remove(std::string(output->path));
    RemoveEdgeFiles(edge);
  }
  return Finish();
}

// Removes `target` and, depth first, every file built on the way to it.
// Ninja 1.13.2 leaves the other outputs of their edges (implicit ones too);
// --clean-edge-outputs removes them after each target, as Ninja's master.
void Cleaner::CleanTarget(Node* target) {
  struct Frame {
    Node* node;
    size_t next_input;
  };
  std::unordered_set<const Node*> in_progress;  // guards against dependency cycles
  std::vector<Frame> stack;
  auto enter = [&](Node* node) {
    if (const Edge* edge = node->in_edge) {
      if (!edge->is_phony()) {
        Remove(std::string(node->path));
        if (edge_outputs_)
          for (const Node* output : edge->outputs) Remove(std::string(output->path));
        RemoveEdgeFiles(edge);
      }
    }
    in_progress.insert(node);
    stack.push_back({node, 0});
  };
  enter(target);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const Edge* edge = frame.node->in_edge;
    if (edge && frame.next_input < edge->inputs.size()) {
      Node* input = edge->inputs[frame.next_input++];
      if (!cleaned_.count(input) && !in_progress.count(input)) enter(input);
      continue;
    }
    cleaned_.insert(frame.node);
    in_progress.erase(frame.node);
    stack.pop_back();
  }
}

int Cleaner::CleanTargets(int count, char** targets) {
  Begin();
  for (int i = 0; i < count; ++i) {
    std::string name = targets[i];
    if (name.empty()) {
      Error("failed to canonicalize '': empty path");
      status_ = 1;
      continue;
    }
    CanonicalizePath(&name);
    Node* target = ninja_->state_.LookupNode(name);
    if (!target) {
      Error("unknown target '%s'", name.c_str());
      status_ = 1;
      continue;
    }
    if (verbose_) PrintRaw("Target " + name + "\n");
    CleanTarget(target);
  }
  return Finish();
}

// Edges match by rule name, so a subninja rule shadowing a root rule of the
// same name is cleaned too.
void Cleaner::CleanRule(std::string_view rule_name) {
  for (const Edge* edge : ninja_->state_.edges()) {
    if (edge->rule->name() != rule_name) continue;
    for (const Node* output : edge->outputs) Remove(std::string(output->path));
    RemoveEdgeFiles(edge);
  }
}

int Cleaner::CleanRules(int count, char** rules) {
  Begin();
  for (int i = 0; i < count; ++i) {
    // Only rules of the top-level file can be named.
    const Rule* rule = ninja_->state_.root_scope()->LookupRule(rules[i]);
    if (!rule) {
      Error("unknown rule '%s'", rules[i]);
      status_ = 1;
      continue;
    }
    if (verbose_) PrintRaw(std::string("Rule ") + rules[i] + "\n");
    CleanRule(rule->name());
  }
  return Finish();
}

// The build log's live outputs in the order Ninja's log table iterates them:
// insertion order, except that each entry dropped by a recompaction had its
// slot filled by the then-last entry (the table erases by moving the last
// element into the hole).
std::vector<const BuildLog::Entry*> LogEntriesInTableOrder(BuildLog* log) {
  std::vector<const BuildLog::Entry*> order;
  std::vector<const BuildLog::Entry*> dropped;
  for (const BuildLog::Entry& entry : log->entries()) {
    order.push_back(&entry);
    if (log->Lookup(entry.output) != &entry) dropped.push_back(&entry);
  }
  if (dropped.empty()) return order;
  // Recompaction drops entries in table order, which before any drop is
  // insertion order: replay the drops in that order.
  std::unordered_map<const BuildLog::Entry*, size_t> position;
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (const BuildLog::Entry* victim : dropped) {
    size_t hole = position[victim];
    const BuildLog::Entry* last = order.back();
    order[hole] = last;
    position[last] = hole;
    order.pop_back();
  }
  return order;
}

int Cleaner::CleanDead() {
  Begin();
  for (const BuildLog::Entry* entry : LogEntriesInTableOrder(&ninja_->build_log_)) {
    // Dead: unknown to the graph, or known only from a stale deps-log entry
    // (no producing edge and nothing consumes it).
    const Node* node = ninja_->state_.LookupNode(entry->output);
    if (!node || (!node->in_edge && node->out_edges.empty())) Remove(std::string(entry->output));
  }
  return Finish();
}

}  // namespace

int ToolClean(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  bool generator = false;
  bool clean_rules = false;
  for (int opt; (opt = args.Next("hgr")) != -1;) {
    if (opt == 'g') {
      generator = true;
    } else if (opt == 'r') {
      clean_rules = true;
    } else {
      printf(
          "usage: ninja -t clean [options] [targets]\n"
          "\n"
          "options:\n"
          "  -g     also clean files marked as ninja generator output\n"
          "  -r     interpret targets as a list of rules to clean instead\n");
      return 1;
    }
  }
  int count = args.rest_count();
  if (clean_rules && count == 0) {
    Error("expected a rule to clean");
    return 1;
  }
  Cleaner cleaner(ninja);
  if (count == 0) return cleaner.CleanAll(generator);
  if (clean_rules) return cleaner.CleanRules(count, args.rest());
  return cleaner.CleanTargets(count, args.rest());
}

int ToolCleanDead(NinjaMain* ninja, const Options*, int, char**) {
  return Cleaner(ninja).CleanDead();
}

}  // namespace ronin
