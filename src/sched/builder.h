// The builder: turns a plan into running commands. It takes each edge to
// start from the work chain (work_chain.h), starts it on the runner, waits
// for commands, extracts their discovered dependencies, checks their
// outputs (restat, early cutoff) and tells the recorders
// (log/build_recorder.h); it handles dyndep and failures, and cleans up
// after an interrupt. Which runner, stages, checks and recorders a build
// has is decided once where it is set up (driver/build_setup.h), never in
// the loop.
#ifndef RONIN_SCHED_BUILDER_H_
#define RONIN_SCHED_BUILDER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/command_runner.h"
#include "log/build_recorder.h"
#include "scan/explain.h"
#include "scan/output_cutoff.h"
#include "scan/scan.h"
#include "sched/output_times.h"
#include "sched/plan.h"
#include "sched/work_chain.h"
#include "status/status.h"

namespace ronin {

class BuildLog;
class DepsLog;
class DiskInterface;
class State;

// What a build's loop works with besides the graph, the logs and the
// status: none of it may be null.
struct BuildSeams {
  CommandRunner* runner = nullptr;   // the real one, -n's or a test's, behind the cache if any
  std::vector<WorkStage*> stages;    // after the plan, in order (work_chain.h)
  OutputTimes* times = nullptr;      // start stamps and restat
  OutputCutoff* cutoff = nullptr;    // early cutoff (NoOutputCutoff: none)
  BuildRecorder* recorder = nullptr;  // told of each command that ends
};

class Builder : public PlanDelegate {
 public:
  // None may be null (the build log is written only if opened for writing).
  Builder(State* state, const BuildConfig& config, BuildLog* build_log, DepsLog* deps_log,
          DiskInterface* disk, Status* status, Explanations* explanations, int64_t start_time_millis);
  ~Builder() override;

  // Scans `target` and adds what it needs to the plan. False with an empty
  // *err when it is already up to date.
  bool AddTarget(Node* target, std::string* err);
  bool AlreadyUpToDate() const { return !plan_.more_to_do(); }
  // Runs the plan with `seams`, which are used only during the call.
  // Returns the exit status; *err says why it stopped.
  ExitStatus Build(const BuildSeams& seams, std::string* err);

  // PlanDelegate:
  void OnEdgeAddedToPlan(const Edge* edge) override;
  void OnEdgeRemovedFromPlan(const Edge* edge) override { status_->EdgeRemovedFromPlan(edge); }
  bool LoadDyndeps(Node* node, std::string* err) override;

  DependencyScan* scan() { return &scan_; }

 private:
  // The loop: start what the work chain gives, wait for one command, repeat.
  ExitStatus RunCommands(std::string* err);
  bool StartEdge(const Work& work, std::string* err);
  bool FinishCommand(CommandRunner::Result* result, std::string* err);
  // The command of `result` is no longer running: the work chain and the
  // status hear of it; what the recorders will be told of it.
  FinishedCommand Collect(const CommandRunner::Result& result, const std::vector<Node*>* deps);
  // Restat and early cutoff: outputs the command left as they were clean
  // what depends on them.
  bool CheckOutputs(Edge* edge, FinishedCommand* command, std::string* err);
  bool CleanNodes(const std::vector<Node*>& nodes, std::string* err);
  bool ExtractDeps(CommandRunner::Result* result, const std::string& deps_type,
                   const std::string& deps_prefix, std::vector<Node*>* deps_nodes, std::string* err);
  // After a failure or interrupt: stop jobs, delete outputs they touched.
  void Cleanup();
  void RemoveLockFile();
  // Redraws the status view once `deadline` (Status::RefreshDeadline
  // before the wait) has passed; called after a finished command is
  // recorded, so that it is not drawn. A redraw with no job left to show
  // only erases the block.
  void RefreshStatus(int64_t deadline, int64_t now);

  State* state_;
  const BuildConfig& config_;
  Plan plan_;
  DiskInterface* disk_;
  Status* status_;
  Explanations* explanations_;
  DependencyScan scan_;
  BuildSeams seams_;  // during Build
  WorkChain* work_ = nullptr;  // during Build
  struct RunningEdge {
    Work work;
    int64_t start_millis = 0;   // since the build started, for the log and status
    TimeStamp start_stamp = 0;  // the lock file's mtime at the start (0 if unknown)
  };
  std::map<Edge*, RunningEdge> running_edges_;
  int64_t start_time_millis_;
  int64_t clock_millis_ = -1;  // the latest MonotonicMillis() reading of the build loop
  std::string lock_file_path_;
};

}  // namespace ronin

#endif  // RONIN_SCHED_BUILDER_H_
