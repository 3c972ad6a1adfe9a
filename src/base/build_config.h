// How the user asked for this build to run: Ninja's flags (-j, -k, -l, -n,
// -v, -d keep*, -d explain) and ronin's own long options. main.cc fills it
// in once (driver/ronin_options.h parses the long options); everything
// after reads it.
#ifndef RONIN_BASE_BUILD_CONFIG_H_
#define RONIN_BASE_BUILD_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ronin {

struct RoninOptions {
  // --jobserver-pool: be a GNU make jobserver for the commands (sched/jobserver.h).
  bool jobserver_pool = false;
  // --content-hash: an input whose mtime changed but whose content did not
  // rebuilds nothing (scan/content_hash_store.h); kept in .ronin_state.
  bool content_hash = false;
  // --keep-free-memory=SIZE: start no job that would take the machine's
  // available memory below SIZE bytes (sched/memory_admission.h); 0 = off.
  int64_t keep_free_memory = 0;
  // --progress=live: a live view of the running jobs (status/live_status.h).
  enum class Progress { kClassic, kLive };
  Progress progress = Progress::kClassic;
  // --remote-jobs: commands run through a distributed launcher take one of
  // this many remote slots instead of a -j slot (sched/remote_jobs.h; 0: off).
  int remote_jobs = 0;
  // --remote-launchers: launchers beyond distcc, icecc and sccache.
  std::vector<std::string> remote_launchers;
  // --cache[=DIR|URL]: the shared build cache (cache/build_cache.h); empty: off.
  std::string cache;
  // --cache-size: the directory cache's size limit (LRU eviction).
  int64_t cache_size = int64_t{5} << 30;
  // --cache-rules: rules cached beyond those that report their inputs.
  std::vector<std::string> cache_rules;
  // --cache-base-dir: absolute paths under it are relative in cache keys.
  std::string cache_base_dir;
  // --job-reaper=off: commands of a ninja that dies live on (exec/job_reaper.h).
  bool job_reaper = true;
  // --clean-edge-outputs: `-t clean TARGET` also removes the other outputs
  // of each edge it cleans, implicit ones included (tools/tool_clean.cc).
  bool clean_edge_outputs = false;
  // --question: build nothing, print nothing; the exit status says whether
  // the targets are up to date (0), something would run (1), or an error (2).
  bool question = false;
  // --watch: stay running and build again what each change makes dirty
  // (driver/watch_loop.h).
  bool watch = false;
  // --events=PATH|fd:N: the build as a stream of JSON lines (doc/events.md,
  // events/event_stream.h); empty: none.
  std::string events;
  // --audit[=strict]: each command runs under the file-access monitor and
  // what it read and wrote is compared with the graph (src/audit/); with
  // strict, findings fail the build.
  enum class Audit { kOff, kReport, kStrict };
  Audit audit = Audit::kOff;
  // --audit-root=DIR: more directories of the project (project_dirs.h).
  std::vector<std::string> audit_roots;
  // --shuffle[=SEED]: ready edges start in an order drawn from the seed
  // (Plan::Shuffle); -1: off.
  int64_t shuffle_seed = -1;
};

struct BuildConfig {
  enum class Verbosity { kQuiet, kNoStatusUpdate, kNormal, kVerbose };
  Verbosity verbosity = Verbosity::kNormal;
  bool dry_run = false;
  int parallelism = 1;
  bool parallelism_from_cmdline = false;
  int failures_allowed = 1;
  double max_load_average = -0.0;  // <= 0: no limit
  bool keep_depfile = false;
  bool keep_rsp = false;
  bool explain = false;
  // -d nostatcache: no per-directory stat cache while scanning (Windows,
  // base/disk.h; the flag is taken everywhere, as Ninja does).
  bool stat_cache = true;
  // --status FMT (Ninja 1.14): the status line's format with $variables
  // (status_format.h); it takes the place of NINJA_STATUS when set.
  bool has_status_format = false;
  std::string status_format;
  RoninOptions ronin;  // ronin's own options (driver/ronin_options.h parses them)
};

}  // namespace ronin

#endif  // RONIN_BASE_BUILD_CONFIG_H_
