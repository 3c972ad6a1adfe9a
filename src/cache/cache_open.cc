// Choosing the cache backend (cache/cache_open.h).
#include "cache/cache_open.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/http_cache_store.h"

namespace ronin {

std::unique_ptr<CacheStore> OpenCacheStore(const std::string& spec, int64_t max_bytes, std::string* err) {
  if (spec.compare(0, 7, "http://") == 0) return OpenHttpCacheStore(spec, err);
  // The directory is created (with its parents) at the first write; a path
  // that exists but is not a directory is an error now, not one per edge.
  struct stat st;
  if (stat(spec.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    *err = spec + ": not a directory";
    return nullptr;
  }
  if (stat(spec.c_str(), &st) != 0 && errno != ENOENT) {
    *err = spec + ": " + strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<CacheStore>(new DirectoryCacheStore(spec, max_bytes));
}

}  // namespace ronin
