#include "sched/plan.h"

#include <stdint.h>

#include <algorithm>

#include "scan/scan.h"

namespace ronin {

void Plan::Reset() {
  for (Edge* edge : plan_edges_) edge->want = Edge::Want::kNotInPlan;
  plan_edges_.clear();
  targets_.clear();
  ready_ = decltype(ready_)();
  finished_.clear();
  wanted_edges_ = 0;
  command_edges_ = 0;
}

bool Plan::AddTarget(const Node* target, std::string* err) {
  targets_.push_back(target);
  return AddSubTarget(target, nullptr, err, nullptr);
}

void Plan::EdgeWanted(const Edge* edge) {
  ++wanted_edges_;
  if (!edge->is_phony()) {
    ++command_edges_;
    if (delegate_) delegate_->OnEdgeAddedToPlan(edge);
  }
}

bool Plan::AddSubTarget(const Node* target, const Node* target_dependent, std::string* err,
                        std::set<Edge*, EdgeIdLess>* dyndep_walk) {
  // Depth-first over inputs with an explicit stack; returns whether the
  // target itself needed adding.
  struct Item {
    const Node* node;
    const Node* dependent;
    size_t next_input;
  };
  const size_t kFirstVisit = static_cast<size_t>(-1);
  std::vector<Item> stack{{target, target_dependent, kFirstVisit}};
  bool target_added = false;
  while (!stack.empty()) {
    Item& item = stack.back();
    if (item.next_input == kFirstVisit) {
      const Node* node = item.node;
      Edge* edge = node->in_edge;
      if (!edge) {
        // A source file. Dirty means missing, which is fatal unless only a
        // depfile or dyndep file mentioned it (deleted headers are fine).
        if (node->dirty && !node->generated_by_dep_loader) {
          std::string referenced;
          if (item.dependent) referenced = ", needed by '" + std::string(item.dependent->path) + "',";
          *err = "'" + std::string(node->path) + "'" + referenced + " missing and no known rule to make it";
          return false;
        }
        stack.pop_back();
        continue;
      }
      if (edge->outputs_ready) {
        stack.pop_back();
        continue;
      }
      bool first_time = edge->want == Edge::Want::kNotInPlan;
      if (first_time) {
        edge->want = Edge::Want::kNothing;
        plan_edges_.push_back(edge);
      }
      if (dyndep_walk && edge->want == Edge::Want::kToFinish) {
        stack.pop_back();
        continue;
      }
      if (node->dirty && edge->want == Edge::Want::kNothing) {
        edge->want = Edge::Want::kToStart;
        EdgeWanted(edge);
      }
      if (dyndep_walk) dyndep_walk->insert(edge);
      if (stack.size() == 1) target_added = true;
      if (!first_time) {
        stack.pop_back();
        continue;
      }
      item.next_input = 0;
    }
    const Edge* edge = item.node->in_edge;
    if (item.next_input < edge->inputs.size()) {
      const Node* input = edge->inputs[item.next_input++];
      // Most inputs are files present or already built (an object's
      // headers): their visit would do nothing, so it is skipped here.
      if (input->in_edge ? input->in_edge->outputs_ready : (!input->dirty || input->generated_by_dep_loader))
        continue;
      const Node* dependent = item.node;
      stack.push_back({input, dependent, kFirstVisit});  // invalidates `item`
      continue;
    }
    stack.pop_back();
  }
  return target_added;
}

void Plan::ComputeCriticalPath(const DurationModel& durations) {
  // Topological order (producers before consumers) of the plan's edges
  // reachable from the targets, by an iterative post-order walk. Only
  // they matter: an edge's weight comes from the edges between it and the
  // targets, and every such edge of an edge to run is in the plan too (it
  // waits for that edge's output, so it is not ready). The rest of the
  // graph, often all but a few edges of it, is not walked.
  auto in_plan = [](const Edge* edge) { return edge && edge->want != Edge::Want::kNotInPlan; };
  std::vector<Edge*> sorted;
  std::vector<bool> visited;
  auto mark_visited = [&visited](const Edge* edge) {
    if (edge->id >= visited.size()) visited.resize(edge->id + 1024, false);
    if (visited[edge->id]) return false;
    visited[edge->id] = true;
    return true;
  };
  struct Item {
    Edge* edge;
    size_t next_input;
  };
  std::vector<Item> stack;
  for (const Node* target : targets_) {
    Edge* producer = target->in_edge;
    if (!in_plan(producer) || !mark_visited(producer)) continue;
    stack.push_back({producer, 0});
    while (!stack.empty()) {
      Item& item = stack.back();
      if (item.next_input < item.edge->inputs.size()) {
        Edge* next = item.edge->inputs[item.next_input++]->in_edge;
        if (in_plan(next) && mark_visited(next)) stack.push_back({next, 0});
        continue;
      }
      sorted.push_back(item.edge);
      stack.pop_back();
    }
  }

  // Weight = the sum of expected durations on the longest chain from the
  // edge to a target (the number of commands when no duration is known);
  // phony edges count zero.
  for (Edge* edge : sorted) edge->critical_path_weight = durations.Weight(edge);
  for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
    Edge* edge = *it;
    for (const Node* input : edge->inputs) {
      Edge* producer = input->in_edge;
      if (!in_plan(producer)) continue;
      int64_t candidate = static_cast<int64_t>(edge->critical_path_weight) + durations.Weight(producer);
      candidate = std::min<int64_t>(candidate, INT32_MAX);  // days of work: saturate
      if (candidate > producer->critical_path_weight)
        producer->critical_path_weight = static_cast<int32_t>(candidate);
    }
  }
}

void Plan::PrepareQueue(const DurationModel& durations) {
  ComputeCriticalPath(durations);
  ScheduleInitialEdges();
}

void Plan::ScheduleInitialEdges() {
  std::vector<Pool*> pools;
  for (Edge* edge : plan_edges_) {
    if (edge->want != Edge::Want::kToStart || !edge->AllInputsReady()) continue;
    Pool* pool = edge->pool;
    if (pool->ShouldDelayEdge()) {
      // Delayed edges are released together below, best priority first.
      edge->want = Edge::Want::kToFinish;
      pool->DelayEdge(edge);
      if (std::find(pools.begin(), pools.end(), pool) == pools.end()) pools.push_back(pool);
    } else {
      ScheduleWork(edge);
    }
  }
  for (Pool* pool : pools) pool->RetrieveReadyEdges(&ready_);
}

void Plan::ScheduleWork(Edge* edge) {
  if (edge->want == Edge::Want::kToFinish) return;  // already scheduled
  edge->want = Edge::Want::kToFinish;
  Pool* pool = edge->pool;
  if (pool->ShouldDelayEdge()) {
    pool->DelayEdge(edge);
    pool->RetrieveReadyEdges(&ready_);
  } else {
    pool->EdgeScheduled();
    ready_.push(edge);
  }
}

Edge* Plan::FindWork() {
  if (ready_.empty()) return nullptr;
  Edge* edge = ready_.top();
  ready_.pop();
  return edge;
}

bool Plan::EdgeFinished(Edge* edge, EdgeResult result, std::string* err) {
  bool directly_wanted = edge->want != Edge::Want::kNothing;
  if (directly_wanted) edge->pool->EdgeFinished();
  edge->pool->RetrieveReadyEdges(&ready_);
  if (result != EdgeResult::kSucceeded) return true;

  if (directly_wanted) --wanted_edges_;
  edge->want = Edge::Want::kNotInPlan;
  edge->outputs_ready = true;
  finished_.push_back(edge);
  if (draining_) return true;

  // Finishing an edge can finish clean dependents, which finish theirs...
  draining_ = true;
  bool ok = true;
  while (ok && !finished_.empty()) {
    Edge* done = finished_.back();
    finished_.pop_back();
    for (Node* output : done->outputs) {
      if (!NodeFinished(output, err)) {
        ok = false;
        break;
      }
    }
  }
  finished_.clear();
  draining_ = false;
  return ok;
}

bool Plan::NodeFinished(Node* node, std::string* err) {
  if (node->dyndep_pending) {
    // The dyndep file is now up to date: loading it also extends the plan.
    return delegate_ && delegate_->LoadDyndeps(node, err);
  }
  for (Edge* dependent : node->out_edges) {
    if (dependent->want == Edge::Want::kNotInPlan) continue;
    if (!EdgeMaybeReady(dependent, err)) return false;
  }
  return true;
}

bool Plan::EdgeMaybeReady(Edge* edge, std::string* err) {
  if (!edge->AllInputsReady()) return true;
  if (edge->want != Edge::Want::kNothing) {
    ScheduleWork(edge);
    return true;
  }
  // Not needed itself, but its dependents may be.
  return EdgeFinished(edge, EdgeResult::kSucceeded, err);
}

bool Plan::CleanNode(DependencyScan* scan, Node* node, std::string* err) {
  // Emulates the natural recursion (clean a node, then for each dependent
  // edge that became clean, clean its outputs) with an explicit stack.
  struct Frame {
    Node* node;
    size_t next_edge;
    Edge* cleaning;  // a dependent edge whose outputs are being cleaned
    size_t next_output;
  };
  std::vector<Frame> stack{{node, 0, nullptr, 0}};
  node->dirty = false;
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (Edge* edge = frame.cleaning) {
      if (frame.next_output < edge->outputs.size()) {
        Node* output = edge->outputs[frame.next_output++];
        output->dirty = false;
        stack.push_back({output, 0, nullptr, 0});  // invalidates `frame`
        continue;
      }
      edge->want = Edge::Want::kNothing;
      --wanted_edges_;
      if (!edge->is_phony()) {
        --command_edges_;
        if (delegate_) delegate_->OnEdgeRemovedFromPlan(edge);
      }
      frame.cleaning = nullptr;
      continue;
    }
    if (frame.next_edge >= frame.node->out_edges.size()) {
      stack.pop_back();
      continue;
    }
    Edge* dependent = frame.node->out_edges[frame.next_edge++];
    // Only edges we meant to run, and whose deps loaded, can be dropped.
    if (dependent->want == Edge::Want::kNotInPlan || dependent->want == Edge::Want::kNothing) continue;
    if (dependent->deps_missing) continue;
    auto begin = dependent->inputs.begin();
    auto end = dependent->inputs.end() - dependent->order_only_deps;
    if (std::any_of(begin, end, [](const Node* input) { return input->dirty; })) continue;

    Node* most_recent_input = nullptr;
    for (auto it = begin; it != end; ++it) {
      if (!most_recent_input || (*it)->mtime > most_recent_input->mtime) most_recent_input = *it;
    }
    bool outputs_dirty = false;
    if (!scan->RecomputeOutputsDirty(dependent, most_recent_input, &outputs_dirty, err)) return false;
    if (!outputs_dirty) {
      frame.cleaning = dependent;
      frame.next_output = 0;
    }
  }
  return true;
}

bool Plan::DyndepsLoaded(DependencyScan* scan, const Node* node, const DyndepFile& file,
                         std::string* err) {
  if (!RefreshDyndepDependents(scan, node, err)) return false;

  // Edges already in the plan that got new inputs: walk the newly
  // reachable part of the graph into the plan.
  std::set<Edge*, EdgeIdLess> walk;
  for (const auto& entry : file) {
    Edge* edge = entry.first;
    if (edge->outputs_ready || edge->want == Edge::Want::kNotInPlan) continue;
    for (Node* input : entry.second.implicit_inputs) {
      if (!AddSubTarget(input, edge->outputs[0], err, &walk) && !err->empty()) return false;
    }
  }
  // As NodeFinished would have done without dyndep.
  for (Edge* dependent : node->out_edges) {
    if (dependent->want != Edge::Want::kNotInPlan) walk.insert(dependent);
  }
  for (Edge* edge : walk) {
    if (edge->want == Edge::Want::kNotInPlan) continue;
    if (!EdgeMaybeReady(edge, err)) return false;
  }
  return true;
}

bool Plan::RefreshDyndepDependents(DependencyScan* scan, const Node* node, std::string* err) {
  // Everything downstream of the dyndep file must be rescanned.
  std::vector<Node*> dependents;
  std::set<Node*> seen;
  std::vector<const Node*> work{node};
  while (!work.empty()) {
    const Node* current = work.back();
    work.pop_back();
    for (Edge* edge : current->out_edges) {
      if (edge->want == Edge::Want::kNotInPlan || edge->mark == Edge::Visit::kNone) continue;
      edge->mark = Edge::Visit::kNone;
      for (Node* output : edge->outputs) {
        if (seen.insert(output).second) {
          dependents.push_back(output);
          work.push_back(output);
        }
      }
    }
  }

  for (Node* dependent : dependents) {
    std::vector<Node*> validations;
    if (!scan->RecomputeDirty(dependent, &validations, err)) return false;
    for (Node* validation : validations) {
      Edge* producer = validation->in_edge;
      if (producer && !producer->outputs_ready && !AddTarget(validation, err)) return false;
    }
    if (!dependent->dirty) continue;
    // Known dirty now that the dyndep information is in: want its edge.
    Edge* edge = dependent->in_edge;
    if (edge->want == Edge::Want::kNothing) {
      edge->want = Edge::Want::kToStart;
      EdgeWanted(edge);
    }
  }
  return true;
}

}  // namespace ronin
