// The prefetcher's stats (scan/prefetch.h), taken the way each platform's
// scan takes them, so that the scan finds the answer it would have had:
// * POSIX (prefetch_stats_posix.cc): fstatat against directory descriptors
//   each thread keeps open (scan/directory_descriptors.h).
// * Windows (prefetch_stats_win.cc): as ninja.exe's stat cache does, each
//   directory is listed once with FindFirstFileEx, for all the threads (the
//   first thread to need a directory lists it; one that needs it meanwhile
//   waits for that listing rather than list it again); with
//   `-d nostatcache`, each file's own attributes. Both through
//   base/directory_listing.h, as the scan's.
#ifndef RONIN_SCAN_PREFETCH_STATS_H_
#define RONIN_SCAN_PREFETCH_STATS_H_

#include <cstddef>
#include <memory>

#include "scan/directory_descriptors.h"

namespace ronin {

struct Node;

class PrefetchStats {
 public:
  // For `threads` threads statting at once; made while the caller is the
  // only thread. `list_directories`: Windows' scan lists directories (its
  // stat cache; false for `-d nostatcache`); POSIX ignores it.
  PrefetchStats(int threads, bool list_directories);
  ~PrefetchStats();
  PrefetchStats(const PrefetchStats&) = delete;
  PrefetchStats& operator=(const PrefetchStats&) = delete;

  // What one thread stats through.
  class Thread {
   public:
    explicit Thread(PrefetchStats* shared);
    // Stats the `count` nodes adjacent in memory from `first`: each one
    // found gets its mtime and existence; one whose stat fails stays
    // unknown, for the scan, which reports the error.
    void StatAll(Node* first, size_t count);

   private:
    PrefetchStats* shared_;
    DirectoryDescriptors dirs_;  // POSIX's (Windows keeps none)
  };

 private:
  struct Shared;  // what the platform's threads share
  std::unique_ptr<Shared> shared_;
  int dirs_per_thread_ = 0;  // directory descriptors each thread may keep (POSIX)
};

}  // namespace ronin

#endif  // RONIN_SCAN_PREFETCH_STATS_H_
