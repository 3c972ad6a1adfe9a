// The build plan: which edges a build wants, which are ready to run, and
// how finishing one makes others ready. Ready edges are ordered by
// critical path: the longest chain of expected durations to a target first
// (sched/duration_model.h; the longest chain of commands when none is known).
#ifndef RONIN_SCHED_PLAN_H_
#define RONIN_SCHED_PLAN_H_

#include <queue>
#include <set>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "scan/dyndep.h"
#include "sched/duration_model.h"
#include "sched/work_chain.h"

namespace ronin {

class DependencyScan;

// What the plan tells the builder about, and asks of it.
class PlanDelegate {
 public:
  virtual ~PlanDelegate() = default;
  virtual void OnEdgeAddedToPlan(const Edge* edge) = 0;
  virtual void OnEdgeRemovedFromPlan(const Edge* edge) = 0;
  // A dyndep file became up to date: load it and extend the plan.
  virtual bool LoadDyndeps(Node* node, std::string* err) = 0;
};

// The first link of the work chain (work_chain.h): its ready edges are
// all local work.
class Plan : public WorkSource {
 public:
  explicit Plan(PlanDelegate* delegate = nullptr) : delegate_(delegate) {}
  ~Plan() override { Reset(); }

  // Adds the edges needed to bring `target` up to date. False with an empty
  // *err if there is nothing to do.
  bool AddTarget(const Node* target, std::string* err);

  // Computes priorities and queues the edges that can start now.
  void PrepareQueue(const DurationModel& durations = DurationModel());
  // Every edge in the plan (wanted or on the way to a target).
  const std::vector<Edge*>& edges() const { return plan_edges_; }
  // The next edge to start, or null.
  Edge* FindWork();
  // WorkSource:
  Work Next(bool local_room) override { return Work{local_room ? FindWork() : nullptr}; }
  void PutBack(const Work& work) override { ready_.push(work.edge); }
  bool more_to_do() const { return wanted_edges_ > 0 && command_edges_ > 0; }

  enum class EdgeResult { kFailed, kSucceeded };
  // Records a finished edge and makes its dependents ready as appropriate.
  bool EdgeFinished(Edge* edge, EdgeResult result, std::string* err);

  // After a restat edge left `node` unchanged: marks it clean and drops
  // dependents that are now up to date from the plan.
  bool CleanNode(DependencyScan* scan, Node* node, std::string* err);

  // Integrates a freshly loaded dyndep file into the plan.
  bool DyndepsLoaded(DependencyScan* scan, const Node* node, const DyndepFile& file, std::string* err);

  int command_edge_count() const { return command_edges_; }
  void Reset();

 private:
  bool AddSubTarget(const Node* node, const Node* dependent, std::string* err,
                    std::set<Edge*, EdgeIdLess>* dyndep_walk);
  void EdgeWanted(const Edge* edge);
  void ComputeCriticalPath(const DurationModel& durations);
  void ScheduleInitialEdges();
  void ScheduleWork(Edge* edge);
  bool EdgeMaybeReady(Edge* edge, std::string* err);
  bool NodeFinished(Node* node, std::string* err);
  bool RefreshDyndepDependents(DependencyScan* scan, const Node* node, std::string* err);

  struct ReadyOrder {
    bool operator()(const Edge* a, const Edge* b) const { return EdgePriorityLess(a, b); }
  };

  PlanDelegate* delegate_;
  std::vector<Edge*> plan_edges_;  // every edge whose want is not kNotInPlan
  std::vector<const Node*> targets_;
  std::priority_queue<Edge*, std::vector<Edge*>, ReadyOrder> ready_;
  // Edges known to be finished whose dependents still need checking; a
  // worklist instead of recursion, so long chains cannot overflow the stack.
  std::vector<Edge*> finished_;
  bool draining_ = false;
  int wanted_edges_ = 0;
  int command_edges_ = 0;
};

}  // namespace ronin

#endif  // RONIN_SCHED_PLAN_H_
