// The build cache as the builder sees it (issue 15): before a cacheable edge
// runs, its key is looked up and, on a hit, the outputs are written and the
// depfile or /showIncludes lines and the printed output the command left
// last time are handed over, so the builder finishes the edge exactly as
// after a run (its .ninja_log entry and .ninja_deps record included). After
// a successful run, Store records what the command produced. The builder
// reaches both through a CommandRunner wrapper (Wrap), so a hit takes no
// job slot.
//
// Keys: cache/cache_key.h; which edges: cache/cache_policy.h; the entry under a key
// (runs, their discovered files and outputs): cache/discovered_deps_manifest.h;
// storage: cache/cache_store.h (directory) or the HTTP backend.
#ifndef RONIN_CACHE_BUILD_CACHE_H_
#define RONIN_CACHE_BUILD_CACHE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/build_config.h"
#include "cache/cache_key.h"
#include "cache/cache_store.h"
#include "cache/discovered_deps_manifest.h"
#include "status/cache_counts.h"

namespace ronin {

class CommandRunner;
struct Edge;

class BuildCache {
 public:
  // A restored edge's runner result says `cached` (the builder records it
  // for -t trace and -t report with the run's other outcomes).
  // `keep_depfile` (-d keepdepfile): a hit writes a deps = gcc depfile,
  // which otherwise the builder never sees on disk.
  BuildCache(std::unique_ptr<CacheStore> store, const RoninOptions& options, bool keep_depfile = false);
  ~BuildCache();

  // A runner that serves hits itself and passes misses to `inner`. With
  // `may_defer` (the build has no jobserver or memory admission that must
  // see a command start at once), lookups on a store whose lookups are
  // round trips (CacheStore::LookupsAreRoundTrips: the HTTP store) run on
  // worker threads, several at a time: a cacheable edge holds the slot it
  // was started on while it is looked up, and runs on it if it misses.
  std::unique_ptr<CommandRunner> Wrap(std::unique_ptr<CommandRunner> inner, bool may_defer = false);

  // A lookup before `edge` runs, in three steps, so that the middle one
  // (the store's round trips and the output writes) may run on another
  // thread: Prepare reads what it needs of the graph (false: not
  // cacheable), Fetch touches only the Restore, the store and the files,
  // Finish counts and records (true: a hit).
  struct Restore {
    Edge* edge = nullptr;
    std::string first_key;
    // The files the key read (declared inputs, programs): local path and
    // digest, checked again when the run is stored.
    std::vector<FileHash> keyed_files;
    std::vector<std::string> outputs;  // paths, as the manifest names them
    std::string depfile;               // "" if none
    bool gcc = false;                  // deps = gcc: the builder reads the depfile
    bool msvc = false;
    std::string msvc_prefix;
    // Fetch's result.
    bool hit = false;
    // What the command printed (for msvc deps, preceded by its
    // /showIncludes lines, which the builder filters as after a run).
    std::string output;
    // With deps = gcc the depfile is not written (the builder would read
    // it and delete it at once): the builder gets its inputs instead.
    std::vector<std::string> discovered;
    int64_t bytes = 0;  // restored
    // What the store held under first_key (no runs if nothing): a miss's
    // run is added to it when stored, without reading it again.
    DepsManifest manifest;
  };
  bool Prepare(Edge* edge, Restore* restore);
  void Fetch(Restore* restore);
  // Takes the manifest of a miss (kept until its run is stored).
  bool Finish(Restore* restore);
  // After `edge` ran successfully and printed `output` (unfiltered). A
  // deps = gcc depfile's inputs, when it was read, go to *discovered for
  // the builder.
  void Store(Edge* edge, const std::string& output, std::optional<std::vector<std::string>>* discovered);

  // "-d stats": hits, misses and bytes.
  std::string StatsLine() const;
  int hits() const { return counts_.hits; }
  // Live counts, for the status views.
  const CacheCounts& counts() const { return counts_; }

 private:
  // The first-level key; *keyed_files gets the files it read.
  std::string FirstKey(const Edge* edge, std::vector<FileHash>* keyed_files);
  // The discovered deps of a run that just finished, in key form with
  // digests; false if they cannot be known (then nothing is stored).
  bool DiscoveredDeps(const Edge* edge, const std::string& output, TimeStamp started,
                      std::vector<FileHash>* deps, std::string* filtered_output,
                      std::optional<std::vector<std::string>>* discovered);
  // The manifest under `first_key` into *manifest and, on a hit, *run (its
  // first run whose files all match) with its blobs.
  bool LookUp(const std::string& first_key, DepsManifest* manifest, const DepsManifest::Run** run,
              std::vector<std::string>* blobs, std::string* log);
  // Blobs through the store, except the empty one: its name is known, so
  // it is never written or read (a compiler's printed output usually is
  // empty, and so are stamp files).
  bool GetBlob(const std::string& digest, int64_t size, std::string* bytes);
  bool PutBlob(std::string_view bytes, std::string* digest);
  bool WriteOutputs(const Restore& restore, const CacheEntry& entry, const std::vector<std::string>& blobs);
  std::string RestoredDepsText(const Restore& restore, const std::vector<FileHash>& deps) const;
  // A store that failed: one warning, and the cache is off for the rest.
  void Fail(const std::string& what);

  std::unique_ptr<CacheStore> store_;
  const RoninOptions& options_;
  bool keep_depfile_;
  BaseDirMapper mapper_;
  FileHasher hasher_;
  struct Running {
    std::string first_key;
    std::vector<FileHash> keyed_files;  // as Restore::keyed_files
    // When it started, in file times' units (FileTimeNow: on Windows not
    // nanoseconds since 1970), to compare with its files' mtimes.
    TimeStamp started;
    DepsManifest manifest;              // as Restore::manifest
  };
  std::map<const Edge*, Running> running_;  // misses now running
  bool failed_ = false;
  CacheCounts counts_;
};

}  // namespace ronin

#endif  // RONIN_CACHE_BUILD_CACHE_H_
