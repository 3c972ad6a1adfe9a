// One load-and-build cycle of the `ninja` command: the state it loads
// (manifest, logs), manifest regeneration, and the build of the requested
// targets. Tools (tools/tools.cc) work on the same object.
#ifndef RONIN_DRIVER_NINJA_MAIN_H_
#define RONIN_DRIVER_NINJA_MAIN_H_

#include <memory>
#include <string>
#include <vector>

#include "base/disk.h"
#include "driver/build_setup.h"
#include "events/event_stream.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "log/deps_log.h"
#include "log/edge_outcome.h"
#include "log/state_file.h"
#include "scan/content_hash_store.h"
#include "scan/explain.h"
#include "sched/memory_admission.h"
#include "sched/resource_history.h"
#include "sched/skip_settlement.h"
#include "status/status.h"

namespace ronin {

class AuditRecorder;
class BuildCache;
struct Tool;

// Command-line options that are not part of the BuildConfig.
struct Options {
  const char* input_file = "build.ninja";
  const char* working_dir = nullptr;
  const Tool* tool = nullptr;
  bool phony_cycle_should_err = false;
};

class NinjaMain : public BuildLogUser {
 public:
  NinjaMain(const char* ninja_command, const BuildConfig& config);

  // Creates $builddir (unless -n).
  bool EnsureBuildDirExists();
  // Loads .ninja_log / .ninja_deps and prepares them for writing (or just
  // recompacts them, for -t recompact).
  bool OpenBuildLog(bool recompact_only = false);
  bool OpenDepsLog(bool recompact_only = false);
  // Prepares .ronin_state when a ronin option needs it (StateFileWanted):
  // it is read at its first use, under the lock OpenBuildLog took.
  bool OpenStateFile();

  // Builds the manifest if it is a target and out of date. True if it was
  // rebuilt (the caller then reloads); false with *err on failure.
  // `just_rebuilt`: this manifest is the one the previous round made.
  bool RebuildManifest(const char* input_file, bool just_rebuilt, std::string* err, Status* status);
  ExitStatus RunBuild(int argc, char** argv, Status* status);

  // Resolves command-line targets ("foo", "foo.c^"); defaults when none.
  bool CollectTargetsFromArgs(int argc, char** argv, std::vector<Node*>* targets, std::string* err);
  Node* CollectTarget(const char* path, std::string* err);

  // BuildLogUser:
  bool IsPathDead(std::string_view path) const override;
  bool CurrentCommand(std::string_view path, std::string* command) const override;
  std::string_view InternedPath(std::string_view path, uint64_t path_hash, uint32_t* edge_id) const override;
  void WillAskForPath(uint64_t path_hash) const override { state_.PrefetchNode(path_hash); }

  std::string BuildLogPath() const { return LogPath(".ninja_log"); }
  std::string DepsLogPath() const { return LogPath(".ninja_deps"); }
  // --cache: the build cache for this run (null: off, or it cannot be opened).
  std::unique_ptr<BuildCache> OpenBuildCache();
  // What OpenStateFile opened, for a build (driver/build_setup.h).
  BuildFeatures Features() const;
  std::string StateFilePath() const { return LogPath(".ronin_state"); }

  const char* ninja_command_;
  const BuildConfig& config_;
  State state_;
  RealDiskInterface disk_;
  BuildLog build_log_;
  DepsLog deps_log_;
  StateFile state_file_;  // loaded only when StateFileWanted(config_)
  std::unique_ptr<ContentHashStore> content_store_;  // --content-hash
  std::unique_ptr<ResourceHistory> resource_history_;  // --keep-free-memory
  std::unique_ptr<EdgeOutcomeRecorder> edge_outcomes_;  // for -t trace, with the state file
  std::unique_ptr<SkipSettlement> skip_settlement_;  // --content-hash, unless -n
  std::unique_ptr<MemoryAdmission> memory_admission_;
  Explanations explanations_;
  std::string build_dir_;
  std::string manifest_path_ = "build.ninja";  // canonical, as RebuildManifest was given it
  int64_t start_time_millis_;
  // Another ninja had the build directory: what was stat'ed before is stale.
  bool waited_for_lock_ = false;
  // --events: the run's stream (opened by main.cc), or null.
  EventStream* events_ = nullptr;
  // Under --watch: what changed, for the next build_start (its trigger).
  std::vector<std::string> watch_changes_;

 private:
  // RunBuild's steps; *end says how it ended, for --events.
  ExitStatus Build(int argc, char** argv, Status* status, BuildEndEvent* end);
  BuildStartEvent NextBuildStart(int argc, char** argv);
  // Commands in the plan: edges the scan found dirty.
  int PlannedCommands() const;
  void FinishLogUpgrade();
  // --content-hash: leaves the edges the scan of the targets skipped by
  // content as a run would have, for Ninja (sched/skip_settlement.h).
  bool SettleSkips(std::string* err);
  // --audit: the recorder for this build (null: off, or a dry run).
  std::unique_ptr<AuditRecorder> StartAudit();
  // After the build: the findings and summary; under --audit=strict a
  // build with findings fails.
  ExitStatus FinishAudit(const AuditRecorder& audit, ExitStatus status);
  // The seed in use, so that a build can be repeated in the same order.
  void ReportShuffle(ExitStatus status) const;
  std::string LogPath(const char* name) const {
    return build_dir_.empty() ? std::string(name) : build_dir_ + "/" + name;
  }
};

}  // namespace ronin

#endif  // RONIN_DRIVER_NINJA_MAIN_H_
