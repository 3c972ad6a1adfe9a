// Everything the manifest declares: interned nodes, edges, pools, the root
// scope and the default targets. Owns all of it; pointers stay valid for
// the State's lifetime.
#ifndef RONIN_GRAPH_STATE_H_
#define RONIN_GRAPH_STATE_H_

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/arena.h"
#include "base/chunked_store.h"
#include "base/string_table.h"
#include "graph/eval.h"
#include "graph/graph.h"

namespace ronin {

// The built-in "phony" rule: no command, outputs are aliases.
extern const Rule kPhonyRule;

// Told about every node as it is interned (the stat prefetcher listens).
class NodeObserver {
 public:
  virtual ~NodeObserver() = default;
  virtual void NodeCreated(Node* node) = 0;
  // A loader that can tell roughly how many nodes it will create says so
  // before it creates them (the graph image can, from its size and then
  // its node count; the parser cannot). Only an estimate.
  virtual void NodesExpected(size_t /*count*/) {}
};

class State {
 public:
  // The graph image (graph_image_*.cc) saves and restores the containers
  // below as they are, in order.
  friend class GraphImageWriter;
  friend class GraphImageReader;

  State();
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  // Interns a canonical path. A node made here keeps `slash_bits`, the
  // spelling of its first mention (Windows; platform.h).
  Node* GetNode(std::string_view path) { return GetNode(path, HashString(path)); }
  Node* GetNode(std::string_view path, uint64_t hash, uint64_t slash_bits = 0);
  // Starts loading the path table slot for `hash` into the cache.
  void PrefetchNode(uint64_t hash) const { paths_.Prefetch(hash); }
  Node* LookupNode(std::string_view path) const;
  Node* LookupNode(std::string_view path, uint64_t hash) const { return paths_.Find(path, hash); }
  // The node whose path is closest to `path` (edit distance <= 3), if any.
  Node* SpellcheckNode(std::string_view path) const;

  Edge* AddEdge(const Rule* rule, Scope* scope);
  // Gives the edge its own bindings (copied into the arena); a name bound
  // again replaces the earlier value.
  void SetEdgeBindings(Edge* edge, const std::vector<Edge::Binding>& bindings);
  void AddEdgeBinding(Edge* edge, std::string_view name, std::string_view value);
  // One arena copy per distinct variable name.
  std::string_view InternName(std::string_view name);
  // Connects an output; fails on a second producer ("multiple rules generate").
  bool AddOut(Edge* edge, std::string_view path, std::string* err) {
    return AddOut(edge, path, HashString(path), err);
  }
  bool AddOut(Edge* edge, std::string_view path, uint64_t hash, std::string* err) {
    return AddOut(edge, GetNode(path, hash), err);
  }
  bool AddOut(Edge* edge, Node* node, std::string* err);
  void AddIn(Edge* edge, std::string_view path) { AddIn(edge, path, HashString(path)); }
  void AddIn(Edge* edge, std::string_view path, uint64_t hash) { AddIn(edge, GetNode(path, hash)); }
  void AddIn(Edge* edge, Node* node);
  // As AddIn, but the node learns of its user only in LinkUsers. The parser
  // adds every input so, and each node's user list is then allocated once
  // at its final size instead of growing by doubling in the arena.
  void AddInLater(Edge* edge, Node* node) {
    edge->inputs.push_back(node);
    node->generated_by_dep_loader = false;
  }
  // Gives nodes their users for the edges from `first_edge` on, in edge
  // order as AddIn would have; `extra_users` (edge, node), in edge order,
  // are users beyond the edges' inputs.
  void LinkUsers(size_t first_edge, const std::vector<std::pair<Edge*, Node*>>& extra_users);
  void AddValidation(Edge* edge, std::string_view path);
  // Edges that list `node` as a validation (rare, so kept outside Node).
  const CompactVector<Edge*>& ValidationUsers(const Node* node) const;
  bool AddDefault(std::string_view path, std::string* err);

  void AddPool(Pool* pool) { pools_.Set(pool->name, pool); }
  Pool* LookupPool(std::string_view name) const;
  Pool* default_pool() { return &default_pool_; }
  Pool* console_pool() { return &console_pool_; }

  // Outputs that are nobody's input, in manifest order.
  std::vector<Node*> RootNodes(std::string* err) const;
  // `default` targets if any, else the root nodes.
  std::vector<Node*> DefaultNodes(std::string* err) const;

  // Forgets everything learned from the disk (mtimes, dirtiness).
  void Reset();
  // Forgets what the last scan decided (dirtiness, visits, readiness,
  // previous durations) but keeps what it read from the disk: the stats of
  // files and the discovered deps loaded. --watch scans again so, having
  // stat'ed only the files that changed (Node::Stat).
  void ForgetVerdicts();
  // ...of one node or edge (scan/stale_verdicts.h forgets only those a
  // change makes stale).
  static void ForgetVerdictOf(Node* node);
  static void ForgetVerdictOf(Edge* edge);

  void set_observer(NodeObserver* observer) { observer_ = observer; }
  // True once any edge has a dyndep binding.
  bool uses_dyndep() const { return uses_dyndep_; }
  void set_uses_dyndep() { uses_dyndep_ = true; }

  Scope* root_scope() { return &root_scope_; }
  const Scope* root_scope() const { return &root_scope_; }
  Arena* arena() { return &arena_; }
  // A new scope owned by this State (subninja files, edge bindings).
  Scope* NewScope(Scope* parent);
  // Once the manifest is loaded: each scope notes which reserved names its
  // chain defines (Scope::NoteReservedNames).
  void NoteReservedNames();
  Rule* NewRule(std::string_view name);
  Pool* NewPool(std::string_view name, int depth);

  // Edges by id, as pointers.
  ChunkedStore<Edge>::Pointers edges() const { return edges_.pointers(); }
  const ChunkedStore<Node>& nodes() const { return nodes_; }
  const std::vector<Node*>& defaults() const { return defaults_; }
  std::vector<Pool*> pools() const;
  // For -d stats: the path table's size and bucket count.
  size_t path_count() const { return paths_.size(); }
  size_t path_buckets() const { return paths_.bucket_count(); }

 private:
  Arena arena_;
  ChunkedStore<Node> nodes_;
  StringTable<Node, &Node::path> paths_;
  ChunkedStore<Edge> edges_;
  std::deque<Scope> scopes_;
  std::unordered_set<std::string_view> names_;
  std::unordered_map<const Node*, CompactVector<Edge*>> validation_users_;
  std::deque<Rule> rules_;
  std::deque<Pool> pool_storage_;
  SmallMap<Pool*> pools_;
  Pool default_pool_;
  Pool console_pool_;
  Scope root_scope_;
  std::vector<Node*> defaults_;
  NodeObserver* observer_ = nullptr;
  bool uses_dyndep_ = false;
};

}  // namespace ronin

#endif  // RONIN_GRAPH_STATE_H_
