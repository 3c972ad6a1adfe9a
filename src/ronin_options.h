// ronin's own options: long options that Ninja does not have. Each is
// accepted on the command line and through the RONIN_FLAGS environment
// variable (read first, so the command line wins), and listed in the
// "ronin options" block of `ninja -h`. Adding one is a row in the table in
// ronin_options.cc and a field here; doc/manual.md documents each.
#ifndef RONIN_RONIN_OPTIONS_H_
#define RONIN_RONIN_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ronin {

struct BuildConfig;

struct RoninOptions {
  // --jobserver-pool: be a GNU make jobserver for the commands (jobserver.h).
  bool jobserver_pool = false;
  // --content-hash: an input whose mtime changed but whose content did not
  // rebuilds nothing (content_hash_store.h); kept in .ronin_state.
  bool content_hash = false;
  // --keep-free-memory=SIZE: start no job that would take the machine's
  // available memory below SIZE bytes (memory_admission.h); 0 = off.
  int64_t keep_free_memory = 0;
  // --progress=live: a live view of the running jobs (live_status.h).
  enum class Progress { kClassic, kLive };
  Progress progress = Progress::kClassic;
  // --remote-jobs: commands run through a distributed launcher take one of
  // this many remote slots instead of a -j slot (remote_jobs.h; 0: off).
  int remote_jobs = 0;
  // --remote-launchers: launchers beyond distcc, icecc and sccache.
  std::vector<std::string> remote_launchers;
  // --cache[=DIR|URL]: the shared build cache (build_cache.h); empty: off.
  std::string cache;
  // --cache-size: the directory cache's size limit (LRU eviction).
  int64_t cache_size = int64_t{5} << 30;
  // --cache-rules: rules cached beyond those that report their inputs.
  std::vector<std::string> cache_rules;
  // --cache-base-dir: absolute paths under it are relative in cache keys.
  std::string cache_base_dir;
  // --job-reaper=off: commands of a ninja that dies live on (job_reaper.h).
  bool job_reaper = true;
  // --clean-edge-outputs: `-t clean TARGET` also removes the other outputs
  // of each edge it cleans, implicit ones included (tool_clean.cc).
  bool clean_edge_outputs = false;
};

// One ronin option: its name (without "--"), the name of its value for -h
// (nullptr: no value), whether the value may be left out, a line of help,
// and what it does to the configuration. `apply` gets nullptr for a
// missing optional value and says what is wrong in *err.
struct RoninOptionSpec {
  const char* name;
  const char* value_name;
  bool value_optional;
  const char* help;
  bool (*apply)(const char* value, BuildConfig* config, std::string* err);
};

// Every ronin option, in the order -h lists them.
const std::vector<RoninOptionSpec>& RoninOptionTable();

// The "ronin options" block printed at the end of `ninja -h`.
std::string RoninOptionsUsage();

// Parses a size with an optional K, M or G suffix (powers of 1024) into
// bytes. False for anything else ("lots", "", "-1", "5X", overflow).
bool ParseSize(const char* text, int64_t* bytes);

// Splits RONIN_FLAGS' value into words on white space.
std::vector<std::string> SplitFlagWords(const char* text);

}  // namespace ronin

#endif  // RONIN_RONIN_OPTIONS_H_
