// The table of ronin's own options (driver/ronin_options.h).
#include "driver/ronin_options.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include <algorithm>
#include <random>

#include "audit/access_monitor.h"
#include "base/util.h"
#include "sched/remote_launchers.h"
#include "status/status.h"
#include "watch/file_watcher.h"

namespace ronin {
namespace {

bool ApplyJobserverPool(const char*, BuildConfig* config, std::string*) {
  config->ronin.jobserver_pool = true;
  return true;
}

bool ApplyContentHash(const char*, BuildConfig* config, std::string*) {
  config->ronin.content_hash = true;
  return true;
}

bool ApplyKeepFreeMemory(const char* value, BuildConfig* config, std::string* err) {
  int64_t bytes = 0;
  if (!ParseSize(value, &bytes)) {
    *err = "expected a size such as 2G, 512M or 800000K";
    return false;
  }
  config->ronin.keep_free_memory = bytes;
  return true;
}

bool ApplyProgress(const char* value, BuildConfig* config, std::string* err) {
  std::string mode = value;
  if (mode == "live") {
    config->ronin.progress = RoninOptions::Progress::kLive;
  } else if (mode == "classic") {
    config->ronin.progress = RoninOptions::Progress::kClassic;
  } else {
    *err = "expected live or classic";
    return false;
  }
  return true;
}

bool ApplyRemoteJobs(const char* value, BuildConfig* config, std::string* err) {
  char* end = nullptr;
  errno = 0;
  long jobs = isdigit(static_cast<unsigned char>(*value)) ? strtol(value, &end, 10) : 0;
  if (jobs <= 0 || *end || errno == ERANGE || jobs > 1000000) {
    *err = std::string("invalid value '") + value + "' (a number of jobs, at least 1)";
    return false;
  }
  config->ronin.remote_jobs = static_cast<int>(jobs);
  return true;
}

bool ApplyRemoteLaunchers(const char* value, BuildConfig* config, std::string* err) {
  return ParseLauncherNames(value, &config->ronin.remote_launchers, err);
}

// Without a value: $XDG_CACHE_HOME/ronin, or ~/.cache/ronin.
std::string DefaultCacheDir() {
  const char* xdg = getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/ronin";
  const char* home = getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/ronin";
}

bool ApplyCache(const char* value, BuildConfig* config, std::string* err) {
  std::string spec = value ? value : DefaultCacheDir();
  if (spec.empty()) {
    *err = "expected a directory or an http:// URL";
    return false;
  }
  if (spec.find("://") != std::string::npos && spec.compare(0, 7, "http://") != 0) {
    *err = "only http:// URLs are supported (put a TLS terminator in front for https)";
    return false;
  }
  config->ronin.cache = spec;
  return true;
}

// A smaller limit would trim away what a build just stored (0: no limit).
const int64_t kMinCacheSize = int64_t{1} << 20;

bool ApplyCacheSize(const char* value, BuildConfig* config, std::string* err) {
  int64_t bytes = 0;
  if (!ParseSize(value, &bytes)) {
    *err = "expected a size such as 5G or 500M";
    return false;
  }
  if (bytes > 0 && bytes < kMinCacheSize) {
    *err = "at least 1M (a smaller cache keeps nothing), or 0 for no limit";
    return false;
  }
  config->ronin.cache_size = bytes;
  return true;
}

bool ApplyCacheRules(const char* value, BuildConfig* config, std::string*) {
  std::string rule;
  for (const char* p = value;; ++p) {
    if (*p == ',' || *p == 0) {
      if (!rule.empty()) config->ronin.cache_rules.push_back(rule);
      rule.clear();
      if (*p == 0) break;
    } else {
      rule += *p;
    }
  }
  return true;
}

bool ApplyCacheBaseDir(const char* value, BuildConfig* config, std::string* err) {
  std::string dir = value;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (dir.empty() || dir[0] != '/') {
    *err = "expected an absolute directory";
    return false;
  }
  config->ronin.cache_base_dir = dir;
  return true;
}

bool ApplyJobReaper(const char* value, BuildConfig* config, std::string* err) {
  std::string setting = value;
  if (setting != "on" && setting != "off") {
    *err = "expected on or off";
    return false;
  }
  config->ronin.job_reaper = setting == "on";
  return true;
}

bool ApplyCleanEdgeOutputs(const char*, BuildConfig* config, std::string*) {
  config->ronin.clean_edge_outputs = true;
  return true;
}

bool ApplyStatus(const char* value, BuildConfig* config, std::string*) {
  config->has_status_format = true;
  config->status_format = value;
  return true;
}

bool ApplyQuestion(const char*, BuildConfig* config, std::string*) {
  config->ronin.question = true;
  return true;
}

bool ApplyWatch(const char*, BuildConfig* config, std::string* err) {
  if (!FileWatcher::Available(err)) return false;
  config->ronin.watch = true;
  return true;
}

bool ApplyEvents(const char* value, BuildConfig* config, std::string* err) {
  if (!*value) {
    *err = "expected a file or fd:N";
    return false;
  }
  config->ronin.events = value;
  return true;
}

bool ApplyAudit(const char* value, BuildConfig* config, std::string* err) {
  if (value && std::string(value) != "strict") {
    *err = "expected strict, or no value";
    return false;
  }
  if (!AccessMonitorAvailable(err)) return false;
  config->ronin.audit = value ? RoninOptions::Audit::kStrict : RoninOptions::Audit::kReport;
  return true;
}

bool ApplyAuditRoot(const char* value, BuildConfig* config, std::string* err) {
  if (!*value) {
    *err = "expected a directory";
    return false;
  }
  config->ronin.audit_roots.push_back(value);
  return true;
}

// Without a value, a seed of its own (printed with the build).
bool ApplyShuffle(const char* value, BuildConfig* config, std::string* err) {
  int64_t seed = 0;
  if (!value) {
    seed = std::random_device()() & 0xffffffffu;
  } else if (!ParseCount(value, &seed) || seed > 0xffffffffll) {
    *err = std::string("invalid seed '") + value + "' (a number from 0 to 4294967295)";
    return false;
  }
  config->ronin.shuffle_seed = seed;
  return true;
}

}  // namespace

const std::vector<RoninOptionSpec>& RoninOptionTable() {
  static const std::vector<RoninOptionSpec> table = {
      {"jobserver-pool", nullptr, false, "be a GNU make jobserver for the commands (-j slots)",
       ApplyJobserverPool},
      {"content-hash", nullptr, false, "skip commands whose inputs changed mtime but not content",
       ApplyContentHash},
      {"keep-free-memory", "SIZE", false, "start no job that would leave under SIZE (K, M, G) of RAM free",
       ApplyKeepFreeMemory},
      {"progress", "live|classic", false, "live: show the running jobs below the status line",
       ApplyProgress},
      {"remote-jobs", "N", false, "run N distcc/icecc/sccache commands at once beside -j",
       ApplyRemoteJobs},
      {"remote-launchers", "NAME,...", false, "more launchers for --remote-jobs",
       ApplyRemoteLaunchers},
      {"cache", "DIR|URL", true, "reuse outputs of identical commands (default dir ~/.cache/ronin)",
       ApplyCache},
      {"cache-size", "SIZE", false, "size limit of a directory cache (default 5G; 0: none)", ApplyCacheSize},
      {"cache-rules", "NAME,...", false, "also cache these rules' commands", ApplyCacheRules},
      {"cache-base-dir", "DIR", false, "paths under DIR are relative in cache keys", ApplyCacheBaseDir},
      {"job-reaper", "on|off", false, "off: commands outlive a ninja that is killed (default on)",
       ApplyJobReaper},
      {"clean-edge-outputs", nullptr, false, "-t clean TARGET: also every other output of its edge",
       ApplyCleanEdgeOutputs},
      {"status", "FMT", false, "status line format with $variables (Ninja 1.14; beats NINJA_STATUS)",
       ApplyStatus},
      {"question", nullptr, false, "build nothing; exit 0 if up to date, 1 if work is due, 2 on errors",
       ApplyQuestion},
      {"watch", nullptr, false, "stay running: build again what each saved change makes dirty", ApplyWatch},
      {"events", "PATH|fd:N", false, "write what the build does as JSON lines (doc/events.md)", ApplyEvents},
      {"audit", "strict", true, "check what commands read and write against the graph (strict: fail)",
       ApplyAudit},
      {"audit-root", "DIR", false, "--audit: DIR is part of the project too", ApplyAuditRoot},
      {"shuffle", "SEED", true, "start ready edges in a random order (seeded, reproducible)", ApplyShuffle},
  };
  return table;
}

std::string RoninOptionsUsage() {
  std::vector<std::string> usages;
  size_t column = 0;  // where the help starts: after the longest usage
  for (const RoninOptionSpec& spec : RoninOptionTable()) {
    std::string usage = std::string("  --") + spec.name;
    if (spec.value_name) {
      usage += spec.value_optional ? "[=" : "=";
      usage += spec.value_name;
      if (spec.value_optional) usage += "]";
    }
    column = std::max(column, usage.size() + 2);
    usages.push_back(usage);
  }
  std::string text = "\nronin options (also read from the RONIN_FLAGS environment variable):\n";
  for (size_t i = 0; i < usages.size(); ++i) {
    usages[i].resize(column, ' ');
    text += usages[i] + RoninOptionTable()[i].help + "\n";
  }
  return text;
}

bool ParseSize(const char* text, int64_t* bytes) {
  if (!isdigit(static_cast<unsigned char>(*text))) return false;
  errno = 0;
  char* end;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno == ERANGE) return false;
  int shift = 0;
  switch (toupper(static_cast<unsigned char>(*end))) {
    case 0: break;
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    default: return false;
  }
  if (*end && end[1] && !(toupper(static_cast<unsigned char>(end[1])) == 'B' && !end[2]))
    return false;  // "4G" and "4GB" but nothing else after the suffix
  if (value > (static_cast<unsigned long long>(INT64_MAX) >> shift)) return false;
  *bytes = static_cast<int64_t>(value << shift);
  return true;
}

bool IsSeparateOptionalValue(const char* word) {
  std::string_view text = word;
  return text.find("://") != std::string_view::npos || text.compare(0, 1, "/") == 0 ||
         text.compare(0, 2, "./") == 0 || text.compare(0, 3, "../") == 0;
}

bool MeantAsRoninOption(const char* word) {
  std::string_view text = word;
  if (text.compare(0, 2, "--") != 0) return false;
  text.remove_prefix(2);
  text = text.substr(0, text.find('='));
  std::vector<std::string_view> names;
  for (const RoninOptionSpec& spec : RoninOptionTable()) names.push_back(spec.name);
  return !SpellcheckString(text, names).empty();
}

std::vector<std::string> SplitFlagWords(const char* text) {
  std::vector<std::string> words;
  for (std::string_view field : WhitespaceFields(text)) words.emplace_back(field);
  return words;
}

}  // namespace ronin
