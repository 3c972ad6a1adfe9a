#include "insight/critical_path.h"

#include <algorithm>

#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {

std::vector<const Edge*> EdgesOfJobs(const State& state, const std::vector<LoggedJob>& jobs) {
  std::vector<const Edge*> edges;
  edges.reserve(jobs.size());
  for (const LoggedJob& job : jobs) {
    const Node* node = state.LookupNode(job.outputs.front());
    edges.push_back(node ? node->in_edge : nullptr);
  }
  return edges;
}

namespace {

// Longest chains ending at each edge, computed once per edge, dependencies
// first.
class ChainFinder {
 public:
  ChainFinder(const State& state, const std::vector<LoggedJob>& jobs,
              const std::vector<const Edge*>& edges)
      : edge_count_(state.edges().size()),
        job_of_edge_(edge_count_, -1),
        longest_(edge_count_, 0),
        previous_(edge_count_, nullptr),
        visit_(edge_count_, kUnvisited),
        jobs_(jobs) {
    for (size_t i = 0; i < edges.size(); ++i)
      if (edges[i]) job_of_edge_[edges[i]->id] = static_cast<int>(i);
  }

  // The longest chain ending at `edge` (with `edge`), computed now if needed.
  void Visit(const Edge* root) {
    std::vector<const Edge*> stack{root};
    while (!stack.empty()) {
      const Edge* edge = stack.back();
      if (visit_[edge->id] == kDone) {
        stack.pop_back();
      } else if (visit_[edge->id] == kOpen) {
        Finish(edge);
        stack.pop_back();
      } else {
        visit_[edge->id] = kOpen;
        for (const Node* input : edge->inputs) {
          const Edge* dep = input->in_edge;
          if (dep && visit_[dep->id] == kUnvisited) stack.push_back(dep);
        }
      }
    }
  }

  CriticalPath Path(const Edge* last) const {
    CriticalPath path;
    for (const Edge* edge = last; edge; edge = previous_[edge->id]) {
      int job = job_of_edge_[edge->id];
      if (job < 0) continue;
      path.jobs.push_back(static_cast<size_t>(job));
      path.total_ms += Weight(edge);
    }
    std::reverse(path.jobs.begin(), path.jobs.end());
    return path;
  }

  int64_t longest(const Edge* edge) const { return longest_[edge->id]; }

 private:
  enum VisitState : char { kUnvisited, kOpen, kDone };

  int64_t Weight(const Edge* edge) const {
    int job = job_of_edge_[edge->id];
    return job < 0 ? 0 : std::max(0, jobs_[job].duration_ms());
  }

  // All dependencies are done (or open: a cycle, ignored).
  void Finish(const Edge* edge) {
    int64_t best = -1;
    const Edge* best_dep = nullptr;
    for (const Node* input : edge->inputs) {
      const Edge* dep = input->in_edge;
      if (!dep || visit_[dep->id] != kDone) continue;
      if (longest_[dep->id] > best) {
        best = longest_[dep->id];
        best_dep = dep;
      }
    }
    longest_[edge->id] = Weight(edge) + std::max<int64_t>(best, 0);
    previous_[edge->id] = best_dep;
    visit_[edge->id] = kDone;
  }

  size_t edge_count_;
  std::vector<int> job_of_edge_;
  std::vector<int64_t> longest_;
  std::vector<const Edge*> previous_;
  std::vector<char> visit_;
  const std::vector<LoggedJob>& jobs_;
};

}  // namespace

CriticalPath FindCriticalPath(const State& state, const std::vector<LoggedJob>& jobs,
                              const std::vector<const Edge*>& edges) {
  ChainFinder finder(state, jobs, edges);
  const Edge* last = nullptr;
  for (const Edge* edge : edges) {
    if (!edge) continue;
    finder.Visit(edge);
    if (!last || finder.longest(edge) > finder.longest(last)) last = edge;
  }
  if (!last) return CriticalPath();
  return finder.Path(last);
}

}  // namespace ronin
