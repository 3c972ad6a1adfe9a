// Opens the store a --cache value names: a directory, or an http:// URL
// (the HTTP backend, cache/http_cache_store.h).
#ifndef RONIN_CACHE_CACHE_OPEN_H_
#define RONIN_CACHE_CACHE_OPEN_H_

#include <cstdint>
#include <memory>
#include <string>

#include "cache/cache_store.h"

namespace ronin {

// `max_bytes`: the directory cache's size limit (0: none). Null with *err
// when the store cannot be used.
std::unique_ptr<CacheStore> OpenCacheStore(const std::string& spec, int64_t max_bytes, std::string* err);

}  // namespace ronin

#endif  // RONIN_CACHE_CACHE_OPEN_H_
