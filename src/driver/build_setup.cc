// The builder's seams, chosen from the options (build_setup.h).
#include "driver/build_setup.h"

#include <limits.h>

#include "audit/audit_recorder.h"
#include "base/util.h"
#include "cache/build_cache.h"
#include "events/edge_events.h"
#include "events/event_stream.h"
#include "exec/dry_run_command_runner.h"
#include "exec/real_command_runner.h"
#include "log/edge_outcome.h"
#include "scan/content_hash_store.h"
#include "scan/scan.h"
#include "sched/jobserver_slots.h"
#include "sched/local_slots.h"
#include "sched/memory_admission.h"
#include "sched/remote_jobs.h"
#include "sched/resource_history.h"
#include "sched/shuffled_order.h"
#include "sched/skip_settlement.h"

namespace ronin {

void SetUpScan(const BuildFeatures& features, DependencyScan* scan) {
  scan->set_content_store(features.content);
  scan->set_content_skips(features.settlement ? features.settlement->skips() : nullptr);
  if (features.events) scan->add_skip_recorder(features.events);
}

BuildSetup::BuildSetup(const BuildConfig& config, const State& state, BuildLog* build_log, DepsLog* deps_log,
                       DiskInterface* disk, const BuildFeatures& features, std::unique_ptr<CommandRunner> runner)
    : build_log_recorder_(build_log) {
  // (-n records nothing: no entry of the build log is the command's.)
  if (features.events)
    edge_events_.reset(new EdgeEvents(features.events, features.explanations, config.dry_run ? nullptr : build_log));
  SetUpRunner(config, features, std::move(runner));
  SetUpStages(config, features);
  SetUpOutputChecks(config, features, state, disk);
  SetUpRecorders(config, features, deps_log, disk);
}

BuildSetup::~BuildSetup() = default;

void BuildSetup::SetUpRunner(const BuildConfig& config, const BuildFeatures& features,
                             std::unique_ptr<CommandRunner> runner) {
  if (!runner) {
    if (config.dry_run)
      runner.reset(new DryRunCommandRunner);
    else
      runner.reset(new RealCommandRunner(config.ronin.job_reaper, features.audit != nullptr));
  }
  // Lookups may hold a slot and start later unless a start must be seen
  // at once (a jobserver token or memory is taken when a command starts).
  if (features.cache) runner = features.cache->Wrap(std::move(runner), !features.jobserver && !features.memory);
  runner_ = std::move(runner);
  seams_.runner = runner_.get();
}

void BuildSetup::SetUpStages(const BuildConfig& config, const BuildFeatures& features) {
  // First, so that it orders all that is ready (under -n too: the order printed).
  if (config.ronin.shuffle_seed >= 0) {
    owned_stages_.emplace_back(new ShuffledOrder(static_cast<uint32_t>(config.ronin.shuffle_seed)));
    seams_.stages.push_back(owned_stages_.back().get());
  }
  // It holds nothing back and reorders nothing: it only hears of the
  // starts (and of an abort).
  if (edge_events_) seams_.stages.push_back(edge_events_.get());
  if (config.ronin.remote_jobs > 0) {
    AddOwnedStage(new RemoteJobs(RemoteLaunchers(config.ronin.remote_launchers), config.ronin.remote_jobs));
  }
  if (features.memory) seams_.stages.push_back(features.memory);
  if (features.jobserver) AddOwnedStage(new JobserverSlots(features.jobserver));
  // -n starts every ready edge at once: nothing runs, so nothing limits it.
  if (!config.dry_run) {
    // With a jobserver its tokens are the limit (-l still applies).
    int limit = features.jobserver ? INT_MAX : config.parallelism;
    AddOwnedStage(new LocalSlots(limit, config.max_load_average, *runner_, GetLoadAverage));
  }
}

void BuildSetup::AddOwnedStage(WorkStage* stage) {
  owned_stages_.emplace_back(stage);
  seams_.stages.push_back(stage);
}

void BuildSetup::SetUpOutputChecks(const BuildConfig& config, const BuildFeatures& features, const State& state,
                                   DiskInterface* disk) {
  // -n: nothing ran, so no file is written or looked at, and nothing is
  // cut off.
  if (config.dry_run) {
    times_.reset(new DryRunOutputTimes);
    seams_.cutoff = &no_cutoff_;
  } else {
    times_.reset(new DiskOutputTimes(disk, LockFilePath(state)));
    seams_.cutoff = features.content ? static_cast<OutputCutoff*>(features.content) : &no_cutoff_;
  }
  seams_.times = times_.get();
}

void BuildSetup::SetUpRecorders(const BuildConfig& config, const BuildFeatures& features, DepsLog* deps_log,
                                DiskInterface* disk) {
  seams_.recorder = &recorders_;
  if (config.dry_run) {
    // Nothing ran: the build log records in memory only (it was not
    // opened for writing), and nothing else is kept.
    recorders_.Add(&build_log_recorder_);
    if (edge_events_) recorders_.Add(edge_events_.get());
    return;
  }
  // First what stops the build when it cannot be written, so that
  // .ninja_log never holds a command whose peak was not kept.
  if (features.resources) recorders_.Add(features.resources);
  recorders_.Add(&build_log_recorder_);
  deps_log_recorder_.reset(new DepsLogRecorder(deps_log, disk));
  recorders_.Add(deps_log_recorder_.get());
  if (features.content) recorders_.Add(features.content);
  if (features.outcomes) recorders_.Add(features.outcomes);
  // What the command did to files, compared once it is kept; never stops the build.
  if (features.audit) recorders_.Add(features.audit);
  // What the plan skipped after a command, once the command is recorded.
  if (features.settlement) recorders_.Add(features.settlement);
  // Last: an edge_end tells what .ninja_log recorded (a settled skip's line
  // included).
  if (edge_events_) recorders_.Add(edge_events_.get());
}

}  // namespace ronin
