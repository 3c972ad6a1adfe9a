#include "driver/ninja_main.h"

#include <errno.h>
#include <string.h>

#include <chrono>

#include "audit/audit_recorder.h"
#include "base/metrics.h"
#include "base/util.h"
#include "cache/build_cache.h"
#include "cache/cache_open.h"
#include "driver/build_setup.h"
#include "log/build_lock.h"
#include "sched/builder.h"
#include "sched/jobserver.h"

namespace ronin {

NinjaMain::NinjaMain(const char* ninja_command, const BuildConfig& config)
    : ninja_command_(ninja_command),
      config_(config),
      explanations_(config.explain),
      start_time_millis_(MonotonicMillis()) {}

bool NinjaMain::EnsureBuildDirExists() {
  build_dir_ = std::string(state_.root_scope()->LookupVariable("builddir"));
  if (!build_dir_.empty() && !config_.dry_run) {
    if (!disk_.MakeDirs(build_dir_ + "/.") && errno != EEXIST) {
      Error("creating build directory %s: %s", build_dir_.c_str(), strerror(errno));
      return false;
    }
  }
  return true;
}

bool NinjaMain::OpenBuildLog(bool recompact_only) {
  std::string path = BuildLogPath();
  std::string err;
  // Whoever may write the logs holds the build directory's lock.
  if (!config_.dry_run || recompact_only) {
    bool waited = false;
    if (!LockBuildDirectory(build_dir_.empty() ? "." : build_dir_, &waited, &err)) {
      Error("%s", err.c_str());
      return false;
    }
    waited_for_lock_ = waited_for_lock_ || waited;
  }
  BuildLog::LoadStatus status;
  {
    METRIC_RECORD(".ninja_log load");
    status = build_log_.Load(path, &err, this);
  }
  if (status == BuildLog::LoadStatus::kError) {
    Error("loading build log %s: %s", path.c_str(), err.c_str());
    return false;
  }
  if (!err.empty()) {
    Warning("%s", err.c_str());  // e.g. an unreadable version: starting over
    err.clear();
  }
  if (recompact_only) {
    if (status == BuildLog::LoadStatus::kNotFound) return true;
    bool ok = build_log_.Recompact(path, *this, &err);
    if (!ok) Error("failed recompaction: %s", err.c_str());
    return ok;
  }
  if (!config_.dry_run && !build_log_.OpenForWrite(path, *this, &err)) {
    Error("opening build log: %s", err.c_str());
    return false;
  }
  return true;
}

bool NinjaMain::OpenDepsLog(bool recompact_only) {
  std::string path = DepsLogPath();
  std::string err;
  DepsLog::LoadStatus status;
  {
    METRIC_RECORD(".ninja_deps load");
    status = deps_log_.Load(path, &state_, &err);
  }
  if (status == DepsLog::LoadStatus::kError) {
    Error("loading deps log %s: %s", path.c_str(), err.c_str());
    return false;
  }
  if (!err.empty()) {
    Warning("%s", err.c_str());
    err.clear();
  }
  if (recompact_only) {
    if (status == DepsLog::LoadStatus::kNotFound) return true;
    bool ok = deps_log_.Recompact(path, &err);
    if (!ok) Error("failed recompaction: %s", err.c_str());
    return ok;
  }
  if (!config_.dry_run && !deps_log_.OpenForWrite(path, &err)) {
    Error("opening deps log: %s", err.c_str());
    return false;
  }
  return true;
}

bool NinjaMain::OpenStateFile() {
  if (!StateFileWanted(config_)) return true;
  // Read when first asked: a no-op build never reads it.
  state_file_.LoadOnFirstUse(StateFilePath());
  if (config_.dry_run) state_file_.DisableWrites();
  if (config_.ronin.content_hash) content_store_.reset(new ContentHashStore(&state_, &state_file_));
  if (!config_.dry_run) edge_outcomes_.reset(new EdgeOutcomeRecorder(&state_file_));
  // A dry run writes nothing, so it leaves skips unsettled.
  if (content_store_ && !config_.dry_run)
    skip_settlement_.reset(
        new SkipSettlement(&build_log_, &deps_log_, &disk_, content_store_.get(), edge_outcomes_.get()));
  if (config_.ronin.keep_free_memory > 0 && !config_.dry_run) {
    resource_history_.reset(new ResourceHistory(&state_, &state_file_));
    memory_admission_.reset(
        new MemoryAdmission(config_.ronin.keep_free_memory, resource_history_.get(), config_.explain));
  }
  return true;
}

bool NinjaMain::IsPathDead(std::string_view path) const {
  const Node* node = state_.LookupNode(path);
  if (node && node->in_edge) return false;
  // Keep entries for files that still exist: generators may use them.
  std::string err;
  TimeStamp mtime = disk_.Stat(std::string(path), &err);
  if (mtime == -1) Error("%s", err.c_str());
  return mtime == 0;
}

std::string_view NinjaMain::InternedPath(std::string_view path, uint64_t path_hash, uint32_t* edge_id) const {
  const Node* node = state_.LookupNode(path, path_hash);
  if (!node) return std::string_view();
  if (node->in_edge && node->in_edge->outputs[0] == node) *edge_id = node->in_edge->id;
  return node->path;
}

bool NinjaMain::CurrentCommand(std::string_view path, std::string* command) const {
  const Node* node = state_.LookupNode(path);
  if (!node || !node->in_edge || node->in_edge->is_phony()) return false;
  *command = node->in_edge->EvaluateCommand(true);
  return true;
}

bool NinjaMain::RebuildManifest(const char* input_file, bool just_rebuilt, std::string* err, Status* status) {
  std::string path = input_file;
  if (path.empty()) {
    *err = "empty path";
    return false;
  }
  CanonicalizePath(&path);
  manifest_path_ = path;
  Node* node = state_.LookupNode(path);
  if (!node) return false;

  Builder builder(&state_, config_, &build_log_, &deps_log_, &disk_, status, &explanations_,
                  start_time_millis_);
  // No jobserver and no cache for the manifest.
  BuildFeatures features = Features();
  SetUpScan(features, builder.scan());
  if (!builder.AddTarget(node, err)) return false;
  if (!SettleSkips(err)) return false;
  if (builder.AlreadyUpToDate()) {
    // --content-hash compares the next scan's inputs with this edge's run:
    // those this manifest declares, not those of the one it replaced.
    if (just_rebuilt && content_store_ && node->in_edge) content_store_->RecordRegeneration(node->in_edge);
    return false;
  }
  BuildSetup setup(config_, state_, &build_log_, &deps_log_, &disk_, features);
  if (events_) {
    BuildStartEvent start;
    start.targets = {path};
    start.trigger = "manifest";
    start.changed = watch_changes_;  // (the build that follows has them too)
    start.start_millis = start_time_millis_;
    events_->BuildStarted(start);
  }
  ExitStatus exit_status = builder.Build(setup.seams(), err);
  if (events_) {
    BuildEndEvent end;
    if (exit_status == kExitInterrupted) end.result = "interrupted";
    end.exit_code = exit_status == kExitSuccess ? 0 : 1;  // main then says "rebuilding ...: ..."
    end.error = *err;
    events_->BuildFinished(end);
  }
  if (exit_status != kExitSuccess) return false;
  // Only a manifest that actually changed (restat may say otherwise) counts.
  if (!node->dirty) {
    state_.Reset();
    return false;
  }
  return true;
}

Node* NinjaMain::CollectTarget(const char* cpath, std::string* err) {
  std::string path = cpath;
  if (path.empty()) {
    *err = "empty path";
    return nullptr;
  }
  uint64_t slash_bits;
  CanonicalizePath(&path, &slash_bits);
  // "foo.c^" means the first output of the first edge using foo.c.
  bool first_dependent = false;
  if (path.back() == '^') {
    path.pop_back();
    first_dependent = true;
  }
  Node* node = state_.LookupNode(path);
  if (!node) {
    *err = "unknown target '" + Decanonicalize(path, slash_bits) + "'";
    if (path == "clean") {
      *err += ", did you mean 'ninja -t clean'?";
    } else if (path == "help") {
      *err += ", did you mean 'ninja -h'?";
    } else if (Node* suggestion = state_.SpellcheckNode(path)) {
      *err += ", did you mean '" + std::string(suggestion->path) + "'?";
    }
    return nullptr;
  }
  if (!first_dependent) return node;
  if (node->out_edges.empty()) {
    Node* dependent = deps_log_.GetFirstReverseDepsNode(node);
    if (!dependent) {
      *err = "'" + path + "' has no out edge";
      return nullptr;
    }
    return dependent;
  }
  Edge* edge = node->out_edges[0];
  if (edge->outputs.empty()) Fatal("edge has no outputs");
  return edge->outputs[0];
}

bool NinjaMain::CollectTargetsFromArgs(int argc, char** argv, std::vector<Node*>* targets,
                                       std::string* err) {
  if (argc == 0) {
    *targets = state_.DefaultNodes(err);
    return err->empty();
  }
  for (int i = 0; i < argc; ++i) {
    Node* node = CollectTarget(argv[i], err);
    if (!node) return false;
    targets->push_back(node);
  }
  return true;
}

ExitStatus NinjaMain::RunBuild(int argc, char** argv, Status* status) {
  BuildEndEvent end;
  if (events_) events_->BuildStarted(NextBuildStart(argc, argv));
  ExitStatus exit_status = Build(argc, argv, status, &end);
  if (events_) {
    end.exit_code = exit_status;
    events_->BuildFinished(end);
  }
  return exit_status;
}

BuildStartEvent NinjaMain::NextBuildStart(int argc, char** argv) {
  BuildStartEvent start;
  start.targets.assign(argv, argv + argc);
  start.start_millis = start_time_millis_;
  if (!watch_changes_.empty()) {
    start.trigger = "watch";
    start.changed.swap(watch_changes_);
  }
  return start;
}

int NinjaMain::PlannedCommands() const {
  int planned = 0;
  for (const Edge* edge : state_.edges())
    if (!edge->is_phony() && (edge->want == Edge::Want::kToStart || edge->want == Edge::Want::kToFinish)) ++planned;
  return planned;
}

ExitStatus NinjaMain::Build(int argc, char** argv, Status* status, BuildEndEvent* end) {
  std::string err;
  std::vector<Node*> targets;
  if (!CollectTargetsFromArgs(argc, argv, &targets, &err)) {
    Error("%s", err.c_str());
    end->result = "error";
    end->error = err;
    return kExitFailure;
  }
  // Windows lists each directory once for the scan (as ninja.exe); the
  // build itself stats afresh, so that restat sees new times.
  disk_.AllowStatCache(config_.stat_cache);

  // Ninja looks for make's jobserver here, after the targets are known and
  // before they are scanned. Declared before the build's setup, which uses it.
  std::unique_ptr<Jobserver> jobserver = StartJobserverClient(config_);
  std::unique_ptr<BuildCache> cache = OpenBuildCache();  // outlives the build's runner
  Builder builder(&state_, config_, &build_log_, &deps_log_, &disk_, status, &explanations_,
                  start_time_millis_);
  BuildFeatures features = Features();
  SetUpScan(features, builder.scan());
  for (Node* target : targets) {
    if (!builder.AddTarget(target, &err) && !err.empty()) {
      Error("%s", err.c_str());
      end->result = "error";
      end->error = err;
      return kExitFailure;
    }
  }
  disk_.AllowStatCache(false);
  if (!SettleSkips(&err)) {
    Error("%s", err.c_str());
    return kExitFailure;
  }

  if (builder.AlreadyUpToDate()) {
    if (config_.verbosity != BuildConfig::Verbosity::kNoStatusUpdate) Info("no work to do.");
    FinishLogUpgrade();
    end->result = "no_work";
    return kExitSuccess;
  }
  if (events_) end->planned = PlannedCommands();

  // --jobserver-pool: only now that commands will run (no FIFO for nothing).
  if (!jobserver) jobserver = StartJobserverPool(config_);
  std::unique_ptr<AuditRecorder> audit = StartAudit();  // likewise
  features.jobserver = jobserver.get();
  features.cache = cache.get();
  features.audit = audit.get();
  BuildSetup setup(config_, state_, &build_log_, &deps_log_, &disk_, features);
  if (cache) status->SetCacheCounts(&cache->counts());
  // This process reads no record it writes from here on, unless --watch
  // scans again after the build.
  if (!config_.ronin.watch) deps_log_.KeepRecordedDeps(false);
  if (config_.ronin.shuffle_seed >= 0) ReportShuffle(kExitSuccess);
  ExitStatus exit_status = builder.Build(setup.seams(), &err);
  status->SetCacheCounts(nullptr);  // the cache goes with this function
  if (cache && g_metrics) printf("%s", cache->StatsLine().c_str());
  FinishLogUpgrade();
  if (exit_status != kExitSuccess) {
    end->error = err;
    Info("build stopped: %s.", err.c_str());
    if (config_.ronin.shuffle_seed >= 0) ReportShuffle(exit_status);
    if (err.find("interrupted by user") != std::string::npos) exit_status = kExitInterrupted;
  }
  if (audit) exit_status = FinishAudit(*audit, exit_status);
  return exit_status;
}

BuildFeatures NinjaMain::Features() const {
  BuildFeatures features;
  features.content = content_store_.get();
  features.memory = memory_admission_.get();
  features.resources = resource_history_.get();
  features.outcomes = edge_outcomes_.get();
  features.settlement = skip_settlement_.get();
  features.events = events_;
  features.explanations = &explanations_;
  return features;
}

bool NinjaMain::SettleSkips(std::string* err) {
  if (!skip_settlement_) return true;
  return skip_settlement_->Settle(static_cast<int>(MonotonicMillis() - start_time_millis_), err);
}

std::unique_ptr<AuditRecorder> NinjaMain::StartAudit() {
  if (config_.ronin.audit == RoninOptions::Audit::kOff || config_.dry_run) return nullptr;
  std::string build_dir = CanonicalAbsolutePath("/", WorkingDirectory());
  ProjectDirs dirs(build_dir);
  dirs.AddManifestSources(state_, manifest_path_);
  for (const std::string& root : config_.ronin.audit_roots) dirs.AddRoot(root);
  std::string log_dir = CanonicalAbsolutePath(build_dir, build_dir_);
  int64_t build = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch()).count();
  return std::unique_ptr<AuditRecorder>(
      new AuditRecorder(&state_, std::move(dirs), log_dir, &disk_, &state_file_, build));
}

ExitStatus NinjaMain::FinishAudit(const AuditRecorder& audit, ExitStatus status) {
  audit.PrintSummary();
  size_t findings = audit.report().finding_count();
  if (config_.ronin.audit != RoninOptions::Audit::kStrict || findings == 0 || status != kExitSuccess) return status;
  Error("--audit=strict: the build has %zu finding%s", findings, findings == 1 ? "" : "s");
  return kExitFailure;
}

void NinjaMain::ReportShuffle(ExitStatus status) const {
  uint32_t seed = static_cast<uint32_t>(config_.ronin.shuffle_seed);
  if (status == kExitSuccess)
    Info("shuffle seed %u (--shuffle=%u repeats this order)", seed, seed);
  else
    Info("this build ran in shuffled order: --shuffle=%u repeats it", seed);
}

std::unique_ptr<BuildCache> NinjaMain::OpenBuildCache() {
  if (config_.ronin.cache.empty() || config_.dry_run) return nullptr;
  std::string err;
  std::unique_ptr<CacheStore> store = OpenCacheStore(config_.ronin.cache, config_.ronin.cache_size, &err);
  if (!store) {
    Warning("build cache: %s; building without it", err.c_str());
    return nullptr;
  }
  return std::unique_ptr<BuildCache>(new BuildCache(std::move(store), config_.ronin, config_.keep_depfile));
}

void NinjaMain::FinishLogUpgrade() {
  // A log from ninja 1.9-1.12 whose entries were checked against their old
  // hashes is rewritten as version 7, so that ninja 1.13 accepts it too.
  if (config_.dry_run || !build_log_.needs_upgrade()) return;
  std::string err;
  if (!build_log_.Recompact(BuildLogPath(), *this, &err))
    Warning("upgrading build log %s to version 7: %s; the next run tries again (ninja 1.13 discards it until then)",
            BuildLogPath().c_str(), err.c_str());
}

}  // namespace ronin
