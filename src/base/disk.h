// The file system as the build sees it. An interface so that tests and
// fuzzers can run the parser and scanner over an in-memory tree.
#ifndef RONIN_BASE_DISK_H_
#define RONIN_BASE_DISK_H_

#include <memory>
#include <string>
#include <string_view>

#include "base/util.h"

namespace ronin {

class FileReader {
 public:
  enum class Status { kOkay, kNotFound, kOtherError };
  virtual ~FileReader() = default;
  // Reads a whole file. On failure *err holds strerror's text.
  virtual Status ReadFile(const std::string& path, std::string* contents, std::string* err) = 0;
};

// Reads a file whose absence is normal (a depfile not written yet): a
// missing file reads as empty. False (with *err) only on other errors.
bool ReadFileIfExists(FileReader* reader, const std::string& path, std::string* contents, std::string* err);

class DiskInterface : public FileReader {
 public:
  // mtime in ns (never 0 for an existing file), 0 if missing, -1 on error.
  virtual TimeStamp Stat(const std::string& path, std::string* err) const = 0;
  // Creates one directory; true if it exists afterwards.
  virtual bool MakeDir(const std::string& path) = 0;
  virtual bool WriteFile(const std::string& path, std::string_view contents) = 0;
  // 0 on success, 1 if the file did not exist, -1 on error (reported).
  virtual int RemoveFile(const std::string& path) = 0;
  // Sets the file's mtime (ns); false with *err ("utimensat(PATH): why").
  virtual bool SetMtime(const std::string& path, TimeStamp mtime, std::string* err) = 0;

  // Creates every missing parent directory of `path`.
  bool MakeDirs(std::string_view path);
};

// The real file system: disk_posix.cc and disk_win.cc.
class RealDiskInterface : public DiskInterface {
 public:
  RealDiskInterface();
  ~RealDiskInterface() override;
  TimeStamp Stat(const std::string& path, std::string* err) const override;
  bool MakeDir(const std::string& path) override;
  bool WriteFile(const std::string& path, std::string_view contents) override;
  Status ReadFile(const std::string& path, std::string* contents, std::string* err) override;
  int RemoveFile(const std::string& path) override;
  bool SetMtime(const std::string& path, TimeStamp mtime, std::string* err) override;

  // Whether this platform has Ninja's stat cache (Windows: each directory
  // listed once with FindFirstFileEx while the build's targets are
  // scanned; `-d nostatcache` turns it off).
  static bool HasStatCache();
  // Lets Stat answer from the cache until turned off again (which empties
  // it): on for the dirty scan, off before commands run, so that restat
  // sees fresh times. A no-op where there is no cache.
  void AllowStatCache(bool allow);

 private:
  class StatCache;
  mutable std::unique_ptr<StatCache> stat_cache_;  // null while not allowed
};

}  // namespace ronin

#endif  // RONIN_BASE_DISK_H_
