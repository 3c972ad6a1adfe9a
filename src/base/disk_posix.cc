// RealDiskInterface on POSIX: stat(2), open(2), remove(3).
#include "base/disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file_io.h"

namespace ronin {

class RealDiskInterface::StatCache {};

RealDiskInterface::RealDiskInterface() = default;
RealDiskInterface::~RealDiskInterface() = default;

bool RealDiskInterface::HasStatCache() { return false; }

void RealDiskInterface::AllowStatCache(bool) {}

TimeStamp RealDiskInterface::Stat(const std::string& path, std::string* err) const {
  struct stat st;
  if (stat(path.c_str(), &st) < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return 0;
    *err = "stat(" + path + "): " + strerror(errno);
    return -1;
  }
  TimeStamp mtime = static_cast<TimeStamp>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  // An existing file dated at the epoch must not look missing.
  return mtime == 0 ? 1 : mtime;
}

FileReader::Status RealDiskInterface::ReadFile(const std::string& path, std::string* contents,
                                               std::string* err) {
  contents->clear();
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) {
    *err = strerror(errno);
    return errno == ENOENT ? Status::kNotFound : Status::kOtherError;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    // read() would fail with EISDIR; report it the way Ninja does.
    *err = strerror(EISDIR);
    close(fd);
    return Status::kOtherError;
  }
  // Read straight into the string; the size is only a hint (the file may
  // change, or be a pipe), so keep reading until end of file.
  size_t size = 0;
  contents->resize(st.st_size > 0 ? static_cast<size_t>(st.st_size) + 1 : 4096);
  for (;;) {
    if (size == contents->size()) contents->resize(contents->size() * 2);
    ssize_t n = read(fd, &(*contents)[size], contents->size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = strerror(errno);
      close(fd);
      contents->clear();
      return Status::kOtherError;
    }
    if (n == 0) break;
    size += static_cast<size_t>(n);
  }
  close(fd);
  contents->resize(size);
  return Status::kOkay;
}

int RealDiskInterface::RemoveFile(const std::string& path) {
  // remove() also deletes empty directories, as Ninja's clean does.
  if (remove(path.c_str()) == 0) return 0;
  if (errno == ENOENT) return 1;
  Error("remove(%s): %s", path.c_str(), strerror(errno));
  return -1;
}

bool RealDiskInterface::SetMtime(const std::string& path, TimeStamp mtime, std::string* err) {
  struct timespec times[2];
  times[0].tv_sec = 0;
  times[0].tv_nsec = UTIME_OMIT;  // the access time stays
  times[1].tv_sec = static_cast<time_t>(mtime / 1000000000);
  times[1].tv_nsec = static_cast<long>(mtime % 1000000000);
  if (utimensat(AT_FDCWD, path.c_str(), times, 0) == 0) return true;
  *err = "utimensat(" + path + "): " + strerror(errno);
  return false;
}

}  // namespace ronin
