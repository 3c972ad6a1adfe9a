// The build graph: one Node per canonical path, one Edge per build
// statement, Pools that bound concurrency. Edges evaluate their rule's
// bindings lazily (EdgeEnv in graph/graph.cc), following Ninja's lookup order.
#ifndef RONIN_GRAPH_GRAPH_H_
#define RONIN_GRAPH_GRAPH_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/compact_vector.h"
#include "base/util.h"
#include "graph/eval.h"

namespace ronin {

class DiskInterface;
struct Edge;

// A file of the graph. On Windows it also keeps its path's slash bits
// (base/platform.h): the spelling $in and $out give back.
struct Node : SlashBits {
  explicit Node(std::string_view path) : path(path) {}
  // The path as first written (with its '\' separators on Windows).
  std::string PathDecanonicalized() const { return Decanonicalize(path, slash_bits()); }

  enum class Existence : uint8_t { kUnknown, kMissing, kExists };

  // Stats the file once; later calls are free. False (with *err) on stat errors.
  bool StatIfNecessary(DiskInterface* disk, std::string* err) {
    return existence != Existence::kUnknown || Stat(disk, err);
  }
  bool Stat(DiskInterface* disk, std::string* err);
  bool exists() const { return existence == Existence::kExists; }
  bool status_known() const { return existence != Existence::kUnknown; }
  void ResetState() {
    mtime = -1;
    existence = Existence::kUnknown;
    dirty = false;
  }
  // A phony output that is not a file takes the newest input's mtime.
  void UpdatePhonyMtime(TimeStamp newest_input) {
    if (!exists() && newest_input > mtime) mtime = newest_input;
  }
  void MarkMissing() {
    mtime = 0;
    existence = Existence::kMissing;
  }

  std::string_view path;  // canonical, arena-owned, NUL-terminated
  TimeStamp mtime = -1;
  Edge* in_edge = nullptr;
  CompactVector<Edge*> out_edges;
  int32_t deps_log_id = -1;
  Existence existence = Existence::kUnknown;
  bool dirty = false;
  bool dyndep_pending = false;
  // True for nodes that only a depfile, the deps log or a dyndep file named:
  // such a node going missing is not an error.
  bool generated_by_dep_loader = true;
};

struct Pool {
  Pool(std::string_view name, int depth, bool is_console = false)
      : name(name), depth(depth), is_console(is_console) {}

  bool IsValid() const { return depth >= 0; }
  bool ShouldDelayEdge() const { return depth != 0; }
  void EdgeScheduled() {
    if (depth != 0) ++current_use;
  }
  void EdgeFinished() {
    if (depth != 0) --current_use;
  }
  void DelayEdge(Edge* edge) { delayed.insert(edge); }
  // Moves delayed edges, highest priority first, into `ready` while capacity lasts.
  template <typename Queue>
  void RetrieveReadyEdges(Queue* ready);

  struct PriorityOrder {
    bool operator()(const Edge* a, const Edge* b) const;
  };

  std::string_view name;
  int depth;
  bool is_console;
  int current_use = 0;
  std::set<Edge*, PriorityOrder> delayed;
};

struct Edge {
  enum class Visit : uint8_t { kNone, kInStack, kDone };
  // Where the edge stands in the build plan.
  enum class Want : uint8_t {
    kNotInPlan,    // not reached by any requested target
    kNothing,      // reached, but clean: only its dependents may need work
    kToStart,      // dirty, waiting for its inputs
    kToFinish,     // scheduled (ready, delayed by its pool, or running)
  };

  // An indented "name = value" line under the build statement. Both texts
  // are NUL-terminated (arena copies, or the graph image's strings) and a
  // manifest value cannot hold a NUL, so no lengths are kept: 16 bytes
  // instead of 32, for ~100k bindings in a large build.
  struct Binding {
    // `name` and `value` must be NUL-terminated views.
    static Binding Of(std::string_view name, std::string_view value) { return {name.data(), value.data()}; }
    std::string_view name() const { return name_text; }
    // name() == `name`, without measuring name_text first (lookups ask
    // every binding of an edge, and most differ at the first character).
    bool NameIs(std::string_view name) const {
      for (size_t i = 0; i < name.size(); ++i)
        if (name_text[i] != name[i] || name_text[i] == '\0') return false;
      return name_text[name.size()] == '\0';
    }
    std::string_view value() const { return value_text; }
    const char* name_text;
    const char* value_text;
  };

  // What few edges have, kept apart so the others do not pay for it.
  struct Extras {
    CompactVector<Node*> validations;
    Node* dyndep = nullptr;
  };

  // Ordered by size, so that no padding is needed: an edge is 120 bytes.
  Edge() : outputs_ready(false), deps_loaded(false), deps_missing(false) {}
  const Rule* rule = nullptr;
  Pool* pool = nullptr;
  Scope* scope = nullptr;  // the scope of the file that declared the edge
  const Binding* bindings = nullptr;  // the edge's own bindings (arena-owned)
  CompactVector<Node*> inputs;   // explicit, then implicit, then order-only
  CompactVector<Node*> outputs;  // explicit, then implicit
  Extras* extras = nullptr;      // arena-owned, made by MutableExtras()
  uint64_t command_hash = 0;
  uint32_t binding_count = 0;
  int32_t implicit_deps = 0;
  int32_t order_only_deps = 0;
  int32_t implicit_outs = 0;
  // How many of the implicit inputs were discovered (deps log, depfile)
  // rather than declared: the last ones before the order-only inputs
  // (dyndep inputs, declared, go before them). The build cache keys only
  // declared ones; --audit's dependency paths follow only declared ones.
  int32_t discovered_deps = 0;
  uint32_t id = 0;
  int32_t critical_path_weight = -1;
  int32_t prev_elapsed_time_millis = -1;
  // How many leading inputs were found built (AllInputsReady's cursor).
  mutable uint32_t ready_inputs = 0;
  Visit mark = Visit::kNone;
  Want want = Want::kNotInPlan;
  // command_hash is EvaluateCommand(true)'s hash, computed ahead
  // (scan/prefetch.cc). A byte of its own: the prefetcher's threads write it
  // while the main thread may write the bits below.
  bool command_hash_known = false;
  bool outputs_ready : 1;
  bool deps_loaded : 1;
  bool deps_missing : 1;

  const CompactVector<Node*>& validations() const;
  Node* dyndep() const { return extras ? extras->dyndep : nullptr; }
  Extras* MutableExtras();

  bool is_phony() const { return rule->IsPhony(); }
  // The edge's own binding of `name`, if it has one.
  bool FindOwnBinding(std::string_view name, std::string_view* value) const {
    for (uint32_t i = 0; i < binding_count; ++i) {
      if (bindings[i].NameIs(name)) {
        *value = bindings[i].value();
        return true;
      }
    }
    return false;
  }
  bool use_console() const { return pool && pool->is_console; }
  bool is_implicit(size_t index) const {
    return index >= inputs.size() - order_only_deps - implicit_deps && !is_order_only(index);
  }
  bool is_order_only(size_t index) const { return index >= inputs.size() - order_only_deps; }
  bool is_implicit_out(size_t index) const { return index >= outputs.size() - implicit_outs; }
  size_t explicit_input_count() const { return inputs.size() - implicit_deps - order_only_deps; }
  size_t explicit_output_count() const { return outputs.size() - implicit_outs; }
  // All inputs (order-only included) are built. Resumes at ready_inputs:
  // while a plan runs an input only goes from unbuilt to built, so each
  // input is looked at about once per build instead of once per finished
  // input (link edges have thousands).
  bool AllInputsReady() const;
  // To be called when that no longer holds: inputs inserted or removed, an
  // input given a producer (dyndep), built outputs made unbuilt (Reset).
  void ForgetReadyInputs() const { ready_inputs = 0; }
  // Ninja's "phonycycle" diagnostic applies only to this simple shape.
  bool maybe_phonycycle_diagnostic() const {
    return is_phony() && outputs.size() == 1 && implicit_outs == 0 && implicit_deps == 0;
  }

  // Evaluated bindings; $in and $out are shell-quoted.
  std::string GetBinding(std::string_view key) const;
  std::string GetBinding(Rule::Binding key) const;
  bool GetBindingBool(Rule::Binding key) const { return !GetBinding(key).empty(); }
  // The value of `key` when it is the rule's literal text (or nothing), as
  // known without a lookup through the scopes; false: evaluate it.
  bool RuleLiteralIsBinding(Rule::Binding key, std::string_view* value) const;
  // The command, plus ";rspfile=" and the rspfile content when asked (for hashing).
  std::string EvaluateCommand(bool include_rspfile = false) const;
  // The same, but a rule-variable cycle returns false instead of exiting.
  bool TryEvaluateCommand(std::string* command, bool include_rspfile) const;
  // Path-valued bindings, with $in/$out unquoted.
  std::string GetUnescapedDepfile() const;
  std::string GetUnescapedDyndep() const;
  std::string GetUnescapedRspfile() const;
};

// Variables as the paths of a build statement see them: the edge's own
// bindings, then its file's scopes (no $in/$out, no rule bindings).
class EdgeBindingEnv : public Env {
 public:
  explicit EdgeBindingEnv(const Edge* edge) : edge_(edge) {}
  void AppendVariable(std::string_view name, std::string* out) const override {
    std::string_view own;
    if (edge_->FindOwnBinding(name, &own))
      out->append(own);
    else
      out->append(edge_->scope->LookupVariable(name));
  }

 private:
  const Edge* edge_;
};

template <typename Queue>
void Pool::RetrieveReadyEdges(Queue* ready) {
  auto it = delayed.begin();
  while (it != delayed.end()) {
    if (current_use + 1 > depth) break;
    ready->push(*it);
    ++current_use;
    it = delayed.erase(it);
  }
}

// Orders the ready queue: longest critical path first, then manifest order.
inline bool EdgePriorityLess(const Edge* a, const Edge* b) {
  if (a->critical_path_weight != b->critical_path_weight)
    return a->critical_path_weight < b->critical_path_weight;
  return a->id > b->id;
}

inline bool Pool::PriorityOrder::operator()(const Edge* a, const Edge* b) const {
  return EdgePriorityLess(b, a);
}

}  // namespace ronin

#endif  // RONIN_GRAPH_GRAPH_H_
