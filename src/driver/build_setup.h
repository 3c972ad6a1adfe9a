// Where a build is set up: the one place that turns the options into the
// builder's seams (sched/builder.h). It picks the runner (the real one,
// watching commands under --audit, -n's, or one a test gives) and puts
// the build cache around it, links the stages that decide what may start
// next (--shuffle's order, remote slots, memory admission, the jobserver,
// -j and -l), picks the output checks (-n looks at no file;
// --content-hash cuts off early) and lists the recorders (the logs, and
// the features that keep their own: --events among them, a stage and a
// recorder both, events/edge_events.h).
// The builder then runs with whatever it is given, asking no option.
#ifndef RONIN_DRIVER_BUILD_SETUP_H_
#define RONIN_DRIVER_BUILD_SETUP_H_

#include <memory>

#include "base/build_config.h"
#include "log/build_recorder.h"
#include "log/log_recorders.h"
#include "scan/output_cutoff.h"
#include "sched/builder.h"
#include "sched/output_times.h"
#include "sched/work_chain.h"

namespace ronin {

class AuditRecorder;
class BuildCache;
class ContentHashStore;
class DependencyScan;
class EdgeEvents;
class EdgeOutcomeRecorder;
class EventStream;
class Explanations;
class Jobserver;
class MemoryAdmission;
class ResourceHistory;
class SkipSettlement;

// What the driver opened for this build; null: off.
struct BuildFeatures {
  Jobserver* jobserver = nullptr;           // make's, or ours (--jobserver-pool)
  BuildCache* cache = nullptr;              // --cache
  ContentHashStore* content = nullptr;      // --content-hash (also under -n, for the scan)
  MemoryAdmission* memory = nullptr;        // --keep-free-memory
  ResourceHistory* resources = nullptr;     // --keep-free-memory
  EdgeOutcomeRecorder* outcomes = nullptr;  // for -t trace, with .ronin_state
  AuditRecorder* audit = nullptr;           // --audit (never under -n)
  SkipSettlement* settlement = nullptr;     // --content-hash, unless -n
  EventStream* events = nullptr;            // --events
  const Explanations* explanations = nullptr;  // -d explain's, for --events
};

// The scan's part: content checks, and where the skips they lead to go.
void SetUpScan(const BuildFeatures& features, DependencyScan* scan);

class BuildSetup {
 public:
  // `runner`: null for the real one (or -n's); a test's otherwise. The
  // cache wraps whichever it is.
  BuildSetup(const BuildConfig& config, const State& state, BuildLog* build_log, DepsLog* deps_log,
             DiskInterface* disk, const BuildFeatures& features, std::unique_ptr<CommandRunner> runner = nullptr);
  ~BuildSetup();

  const BuildSeams& seams() const { return seams_; }

 private:
  void SetUpRunner(const BuildConfig& config, const BuildFeatures& features, std::unique_ptr<CommandRunner> runner);
  void SetUpStages(const BuildConfig& config, const BuildFeatures& features);
  // Chains a stage this setup made, and keeps it for the build's length.
  void AddOwnedStage(WorkStage* stage);
  void SetUpOutputChecks(const BuildConfig& config, const BuildFeatures& features, const State& state,
                         DiskInterface* disk);
  void SetUpRecorders(const BuildConfig& config, const BuildFeatures& features, DepsLog* deps_log,
                      DiskInterface* disk);

  std::vector<std::unique_ptr<WorkStage>> owned_stages_;
  std::unique_ptr<OutputTimes> times_;
  NoOutputCutoff no_cutoff_;
  BuildLogRecorder build_log_recorder_;
  std::unique_ptr<DepsLogRecorder> deps_log_recorder_;
  std::unique_ptr<EdgeEvents> edge_events_;
  BuildRecorders recorders_;
  // Last, so first to go: its jobs end before the stages give back what
  // they held (the jobserver's tokens).
  std::unique_ptr<CommandRunner> runner_;
  BuildSeams seams_;
};

}  // namespace ronin

#endif  // RONIN_DRIVER_BUILD_SETUP_H_
