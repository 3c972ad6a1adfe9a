// The build cache as the builder sees it (issue 15): before a cacheable edge
// runs, TryRestore looks its key up and, on a hit, writes the outputs, the
// depfile or /showIncludes lines and the printed output the command left
// last time, so the builder finishes the edge exactly as after a run (its
// .ninja_log entry and .ninja_deps record included). After a successful
// run, Store records what the command produced. The builder reaches both
// through a CommandRunner wrapper (Wrap), so a hit takes no job slot.
//
// Keys: cache_key.h; which edges: cache_policy.h; the first-level entry:
// discovered_deps_manifest.h; storage: cache_store.h (directory) or the
// HTTP backend.
#ifndef RONIN_BUILD_CACHE_H_
#define RONIN_BUILD_CACHE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cache_key.h"
#include "cache_store.h"
#include "ronin_options.h"

namespace ronin {

class CommandRunner;
class StateFile;
struct Edge;

class BuildCache {
 public:
  // `state_file` (may be null) gets a kEdgeCached record per cacheable
  // edge: whether it was restored, for -t trace.
  BuildCache(std::unique_ptr<CacheStore> store, const RoninOptions& options, StateFile* state_file);
  ~BuildCache();

  // A runner that serves hits itself and passes misses to `inner`.
  std::unique_ptr<CommandRunner> Wrap(std::unique_ptr<CommandRunner> inner);

  // Before `edge` runs: true if it was restored from the cache, with
  // *output what the command printed (for msvc deps, preceded by its
  // /showIncludes lines, which the builder filters as after a run).
  bool TryRestore(Edge* edge, std::string* output);
  // After `edge` ran successfully and printed `output` (unfiltered).
  void Store(Edge* edge, const std::string& output);

  // "-d stats": hits, misses and bytes.
  std::string StatsLine() const;
  int hits() const { return hits_; }

 private:
  std::string FirstKey(const Edge* edge);
  // The discovered deps of a run that just finished, in key form with
  // digests; false if they cannot be known (then nothing is stored).
  bool DiscoveredDeps(const Edge* edge, const std::string& output, int64_t start_ns,
                      std::vector<FileHash>* deps, std::string* filtered_output);
  bool LookUp(const std::string& first_key, CacheEntry* entry, std::vector<FileHash>* deps,
              std::vector<std::string>* blobs, std::string* log);
  bool WriteOutputs(Edge* edge, const CacheEntry& entry, const std::vector<std::string>& blobs);
  std::string RestoredDepsText(const Edge* edge, const std::vector<FileHash>& deps, bool* is_depfile);
  // A store that failed: one warning, and the cache is off for the rest.
  void Fail(const std::string& what);
  void RecordCached(const Edge* edge, bool cached);

  std::unique_ptr<CacheStore> store_;
  const RoninOptions& options_;
  BaseDirMapper mapper_;
  FileHasher hasher_;
  StateFile* state_file_;
  struct Running {
    std::string first_key;
    int64_t start_ns;  // wall clock when it started
  };
  std::map<const Edge*, Running> running_;  // misses now running
  bool failed_ = false;
  int hits_ = 0;
  int misses_ = 0;
  int64_t bytes_restored_ = 0;
  int64_t bytes_stored_ = 0;
};

}  // namespace ronin

#endif  // RONIN_BUILD_CACHE_H_
