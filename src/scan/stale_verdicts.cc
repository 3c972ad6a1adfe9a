#include "scan/stale_verdicts.h"

#include <algorithm>
#include <utility>

#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {
namespace {

// A walk downstream from the stale edges, with an explicit work list (the
// graph's depth never becomes the stack's).
class StaleWalk {
 public:
  explicit StaleWalk(State& state) {
    size_t edges = 0;
    for (Edge* edge : state.edges()) {
      edges = std::max<size_t>(edges, edge->id + 1);
      for (Node* validation : edge->validations()) validated_by_.emplace_back(validation, edge);
    }
    forgotten_.resize(edges, false);
    std::sort(validated_by_.begin(), validated_by_.end());
  }

  void ForgetEdge(Edge* edge) {
    if (!edge || forgotten_[edge->id]) return;
    forgotten_[edge->id] = true;
    work_.push_back(edge);
  }

  // What reads the node: its users, and the edges it is a validation of.
  void ForgetUsersOf(Node* node) {
    for (Edge* user : node->out_edges) ForgetEdge(user);
    auto first = std::lower_bound(validated_by_.begin(), validated_by_.end(), node,
                                  [](const std::pair<Node*, Edge*>& a, const Node* b) { return a.first < b; });
    for (auto it = first; it != validated_by_.end() && it->first == node; ++it) ForgetEdge(it->second);
  }

  void Drain() {
    while (!work_.empty()) {
      Edge* edge = work_.back();
      work_.pop_back();
      State::ForgetVerdictOf(edge);
      for (Node* output : edge->outputs) {
        State::ForgetVerdictOf(output);
        ForgetUsersOf(output);
      }
    }
  }

 private:
  std::vector<bool> forgotten_;  // by edge id
  std::vector<Edge*> work_;
  std::vector<std::pair<Node*, Edge*>> validated_by_;  // sorted: (validation, edge it validates)
};

bool IsChangedSource(const Node* node, const std::vector<Node*>& changed_sources) {
  return std::find(changed_sources.begin(), changed_sources.end(), node) != changed_sources.end();
}

}  // namespace

void ForgetStaleVerdicts(State& state, const std::vector<Node*>& changed, const std::vector<Edge*>& ran) {
  StaleWalk walk(state);
  // A source file a depfile named is not among its user's out_edges (the
  // dep loader keeps them short): the edges' discovered deps say.
  std::vector<Node*> changed_sources;
  for (Node* node : changed) {
    State::ForgetVerdictOf(node);
    walk.ForgetEdge(node->in_edge);
    walk.ForgetUsersOf(node);
    if (!node->in_edge) changed_sources.push_back(node);
  }
  for (Edge* edge : ran) walk.ForgetEdge(edge);
  for (Edge* edge : state.edges()) {
    if (edge->mark != Edge::Visit::kDone || !edge->outputs_ready) {
      walk.ForgetEdge(edge);
      continue;
    }
    if (changed_sources.empty() || edge->discovered_deps == 0) continue;
    size_t first = edge->inputs.size() - edge->order_only_deps - edge->discovered_deps;
    for (size_t i = first; i < first + edge->discovered_deps; ++i)
      if (IsChangedSource(edge->inputs[i], changed_sources)) walk.ForgetEdge(edge);
  }
  walk.Drain();
}

}  // namespace ronin
