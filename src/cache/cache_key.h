// The build cache's key. It covers what is known before a command runs:
// its command line, the content of its declared inputs, the programs it
// starts with, and its output names. The files the command reported
// reading (its discovered dependencies) are matched against the runs the
// entry under the key lists (cache/discovered_deps_manifest.h). Absolute paths
// under --cache-base-dir are written relative to it, so two checkouts at
// different paths share keys.
#ifndef RONIN_CACHE_CACHE_KEY_H_
#define RONIN_CACHE_CACHE_KEY_H_

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/arena.h"

namespace ronin {

// Rewrites paths between a checkout and the key's checkout-free form.
class BaseDirMapper {
 public:
  explicit BaseDirMapper(std::string base_dir) : base_(std::move(base_dir)) {}
  // "BASE/x/y" (and "BASE" itself) -> "<base>/x/y"; other paths unchanged.
  std::string ToKeyPath(std::string_view path) const;
  // The inverse: "<base>/x/y" -> "BASE/x/y".
  std::string ToLocalPath(std::string_view path) const;
  // Every occurrence of BASE in a command line that is a whole path
  // component (followed by '/', the end, or a character no path name
  // continues with) becomes "<base>".
  std::string RelativizeCommand(std::string_view command) const;

 private:
  std::string base_;  // empty: no rewriting
};

// SHA-256 of files, each read once per build (memoised by path, mtime, size).
// A memo entry is ~130 bytes (the path in an arena, the digest as its 32
// bytes): a std::string key and a hex std::string digest cost ~280, 1.5 MB
// for the ~5.5k files of a 5k-edge build, most of the cache's memory.
class FileHasher {
 public:
  // The file's digest, or "missing"/"unreadable" (keys stay well defined
  // for inputs that are not regular files). With `mtime_ns`, also the
  // modification time seen, in FileStatus::mtime's units (on Windows not
  // nanoseconds; -1 if missing), so that a caller asking "was it
  // written since?" needs no second stat: one stat serves both, and a file
  // that changed while it was read reports its newer time.
  std::string Digest(const std::string& path, int64_t* mtime_ns = nullptr);

 private:
  struct Known {
    int64_t mtime_ns;
    int64_t size;
    uint8_t digest[32];
  };
  std::mutex mutex_;  // lookups hash discovered files on worker threads
  Arena paths_;       // the memo's keys
  std::unordered_map<std::string_view, Known> known_;
};

// A file and its digest, as listed in keys and manifests.
using FileHash = std::pair<std::string, std::string>;

// The first-level key: sha256 over the tagged, length-prefixed parts.
std::string FirstLevelKey(const std::string& command, const std::vector<FileHash>& inputs,
                          const std::vector<std::string>& program_identities,
                          const std::vector<std::string>& outputs);

}  // namespace ronin

#endif  // RONIN_CACHE_CACHE_KEY_H_
