// What the build cache (cache/build_cache.h) has done so far in this build, for
// the views that show it while the build runs (NINJA_STATUS's %C, the live
// view's summary row) and for `-d stats` at the end. The build loop counts
// and the views read them on the same thread; atomics keep them safe to
// read from any other (one increment per lookup costs nothing measurable).
#ifndef RONIN_STATUS_CACHE_COUNTS_H_
#define RONIN_STATUS_CACHE_COUNTS_H_

#include <atomic>
#include <cstdint>
#include <string>

namespace ronin {

struct CacheCounts {
  std::atomic<int> hits{0};
  std::atomic<int> misses{0};
  std::atomic<int64_t> bytes_restored{0};
  std::atomic<int64_t> bytes_stored{0};

  // "H/L": hits out of lookups, NINJA_STATUS's %C.
  std::string HitsOfLookups() const {
    int h = hits.load(std::memory_order_relaxed);
    return std::to_string(h) + "/" + std::to_string(h + misses.load(std::memory_order_relaxed));
  }
};

}  // namespace ronin

#endif  // RONIN_STATUS_CACHE_COUNTS_H_
