// The build cache's storage: action entries looked up by key, and blobs by
// their SHA-256, verified on read. Two backends implement it: the directory
// below, the local form of --cache=DIR, and the HTTP one of --cache=http://
// (Bazel's /ac/<key>, /cas/<sha256> layout, cache/http_cache_store.h);
// cache/cache_open.h picks one. The builder reaches it through BuildCache
// (cache/build_cache.h).
#ifndef RONIN_CACHE_CACHE_STORE_H_
#define RONIN_CACHE_CACHE_STORE_H_


#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_io.h"

namespace ronin {

class CacheStore {
 public:
  virtual ~CacheStore() = default;
  // The entry stored under `key` (64 hex digits). False if there is none.
  virtual bool GetAction(const std::string& key, std::string* entry) = 0;
  virtual bool PutAction(const std::string& key, std::string_view entry) = 0;
  // The blob named `digest`. False if absent, or if its bytes do not hash
  // to its name (a damaged copy, which is removed).
  virtual bool GetBlob(const std::string& digest, std::string* bytes) = 0;
  // Stores `bytes`; *digest gets their name.
  virtual bool PutBlob(std::string_view bytes, std::string* digest) = 0;

  // What the build cache asks of a store beyond reads and writes:
  // Keeps the store within its size limit, least recently used files
  // first, after a build added to it. Returns the bytes it freed (0: a
  // store whose size is someone else's to keep, e.g. a server's).
  virtual int64_t Trim() { return 0; }
  // Whether each lookup is a round trip worth overlapping with others (a
  // server's) rather than a local read.
  virtual bool LookupsAreRoundTrips() const { return false; }
  // Whether the store warns of its own failures; the build cache warns of
  // those of a store that does not.
  virtual bool WarnsOfItsFailures() const { return false; }
  // Why the last write failed, for a store that does not warn of it
  // itself: the step, the file and the system's reason ("": not known).
  virtual std::string WriteError() const { return std::string(); }
};

// A cache in a directory: DIR/ac/<2 hex>/<key>, DIR/cas/<2 hex>/<sha256>.
// Every write goes to DIR/tmp and is renamed into place, so readers in
// other builds see a whole file or none. Reads refresh a file's mtime,
// which Trim uses as "last used", unless it is less than an hour old: LRU
// to the hour, and a hit does not write the inodes it reads.
class DirectoryCacheStore : public CacheStore {
 public:
  // `max_bytes`: Trim's size limit (0: none).
  DirectoryCacheStore(std::string root, int64_t max_bytes);

  bool GetAction(const std::string& key, std::string* entry) override;
  bool PutAction(const std::string& key, std::string_view entry) override;
  bool GetBlob(const std::string& digest, std::string* bytes) override;
  bool PutBlob(std::string_view bytes, std::string* digest) override;

  // Deletes the least recently used files until the cache holds at most
  // 90% of the limit. Returns the bytes it freed.
  int64_t Trim() override;

  std::string WriteError() const override { return write_error_; }

 private:
  std::string PathFor(const char* kind, const std::string& name) const;
  // Every file under ac/ and cas/ with what stat said of it.
  void ForEachFile(const std::function<void(const std::string& path, const FileStatus& st)>& visit);
  bool ReadFile(const std::string& path, std::string* bytes);
  bool WriteAtomically(const std::string& path, std::string_view bytes);
  // Notes `what` failed with errno, removes `tmp` (unless empty): false.
  bool WriteFailed(const std::string& what, const std::string& tmp);

  std::string root_;
  int64_t max_bytes_;
  std::string tmp_prefix_;  // DIR/tmp/<pid>.
  std::string write_error_;
};

// Reads an open file of `size` bytes (as fstat gave it) into *bytes: one
// read where a loop to end of file would take two. False if the file ends
// sooner; a file that grew meanwhile is read to `size` (the cache's files
// never change once renamed into place, and a digest or checksum check
// refuses a cut copy).
bool ReadFdExactly(int fd, int64_t size, std::string* bytes);

}  // namespace ronin

#endif  // RONIN_CACHE_CACHE_STORE_H_
