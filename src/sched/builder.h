// The builder: turns a plan into running commands. Starts ready edges as
// capacity allows, waits for them, records results in the logs, handles
// restat, dyndep and failures, and cleans up after an interrupt.
#ifndef RONIN_SCHED_BUILDER_H_
#define RONIN_SCHED_BUILDER_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/command_runner.h"
#include "exec/subprocess.h"
#include "scan/explain.h"
#include "scan/scan.h"
#include "sched/plan.h"
#include "sched/remote_jobs.h"
#include "sched/skip_settlement.h"
#include "status/status.h"

namespace ronin {

class BuildCache;
class BuildLog;
class ContentHashStore;
class DepsLog;
class DiskInterface;
class EdgeOutcomeRecorder;
class State;
class Jobserver;
class MemoryAdmission;

class Builder : public PlanDelegate {
 public:
  Builder(State* state, const BuildConfig& config, BuildLog* build_log, DepsLog* deps_log,
          DiskInterface* disk, Status* status, Explanations* explanations, int64_t start_time_millis);
  ~Builder() override;

  // Scans `target` and adds what it needs to the plan. False with an empty
  // *err when it is already up to date.
  bool AddTarget(Node* target, std::string* err);
  bool AlreadyUpToDate() const { return !plan_.more_to_do(); }
  // --content-hash: leaves the edges the scans skipped by content as a run
  // would have, for Ninja (skip_settlement.h). Call after the last
  // AddTarget; Build and finished commands settle later skips themselves.
  bool SettleSkippedEdges(std::string* err);
  // Runs the plan. Returns the exit status; *err says why it stopped.
  ExitStatus Build(std::string* err);

  void SetJobserver(Jobserver* jobserver) { jobserver_ = jobserver; }
  void SetCommandRunner(std::unique_ptr<CommandRunner> runner) { runner_ = std::move(runner); }
  // --content-hash: the scan checks content, finished commands are recorded
  // and cut off early when their outputs did not change (null: off).
  void SetContentHashStore(ContentHashStore* store) {
    content_ = store;
    scan_.set_content_store(store);
    settlement_.set_content_store(store);
    // A dry run writes nothing, so it leaves skips unsettled.
    scan_.set_content_skips(store && !config_.dry_run ? settlement_.skips() : nullptr);
  }

  // --keep-free-memory: jobs start only when memory allows (null: off).
  void SetMemoryAdmission(MemoryAdmission* memory) { memory_ = memory; }
  // --cache: cacheable edges are restored instead of run (null: off).
  void SetBuildCache(BuildCache* cache) { cache_ = cache; }
  // What each command's run showed, for -t trace (null: not recorded).
  void SetEdgeOutcomes(EdgeOutcomeRecorder* outcomes) {
    outcomes_ = outcomes;
    settlement_.set_edge_outcomes(outcomes);
  }

  // PlanDelegate:
  void OnEdgeAddedToPlan(const Edge* edge) override;
  void OnEdgeRemovedFromPlan(const Edge* edge) override { status_->EdgeRemovedFromPlan(edge); }
  bool LoadDyndeps(Node* node, std::string* err) override;

  DependencyScan* scan() { return &scan_; }

 private:
  // The next ready edge there is a slot for, or null.
  Edge* NextWork();
  bool StartEdge(Edge* edge, std::string* err);
  bool FinishCommand(CommandRunner::Result* result, std::string* err);
  // Whether memory admission lets `edge` start now.
  bool MemoryAllows(const Edge* edge, int pending_commands);
  bool ExtractDeps(CommandRunner::Result* result, const std::string& deps_type,
                   const std::string& deps_prefix, std::vector<Node*>* deps_nodes, std::string* err);
  // After a failure or interrupt: stop jobs, delete outputs they touched.
  void Cleanup();
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
  DepsLog* deps_log_;
  std::unique_ptr<CommandRunner> runner_;
  Jobserver* jobserver_ = nullptr;
  ContentHashStore* content_ = nullptr;
  MemoryAdmission* memory_ = nullptr;
  BuildCache* cache_ = nullptr;
  EdgeOutcomeRecorder* outcomes_ = nullptr;
  SkipSettlement settlement_;
  std::unique_ptr<RemoteJobs> remote_;  // --remote-jobs (null: off)
  struct RunningEdge {
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
