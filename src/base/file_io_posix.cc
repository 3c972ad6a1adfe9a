// file_io.h on POSIX: the system calls themselves, O_CLOEXEC added.
#include "base/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

namespace ronin {

int OpenFile(const char* path, int flags, int mode) { return open(path, flags | O_CLOEXEC, mode); }

FILE* OpenStream(const char* path, const char* mode) {
  FILE* file = fopen(path, mode);
  if (file) {
    int fd = fileno(file);
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
  }
  return file;
}

int64_t ReadAt(int fd, char* data, size_t size, int64_t offset) {
  for (;;) {
    ssize_t n = pread(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    return n;
  }
}

bool WriteAt(int fd, const char* data, size_t size, int64_t offset) {
  while (size > 0) {
    ssize_t n = pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return true;
}

bool TruncateFile(int fd, int64_t size) { return ftruncate(fd, static_cast<off_t>(size)) == 0; }

bool TruncatePath(const char* path, int64_t size) { return truncate(path, static_cast<off_t>(size)) == 0; }

bool RenameReplacing(const char* from, const char* to) { return rename(from, to) == 0; }

bool SyncFile(int fd) { return fsync(fd) == 0; }

bool MakeDirectory(const char* path) { return mkdir(path, 0777) == 0; }

bool TouchDescriptor(int fd) { return futimens(fd, nullptr) == 0; }

const int64_t kFileTimeUnitsPerSecond = 1000000000;

TimeStamp FileTimeNow() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<TimeStamp>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

namespace {

void Convert(const struct stat& st, FileStatus* status) {
  status->kind = S_ISREG(st.st_mode)   ? FileStatus::Kind::kFile
                 : S_ISDIR(st.st_mode) ? FileStatus::Kind::kDirectory
                                       : FileStatus::Kind::kOther;
  status->executable = (st.st_mode & S_IXUSR) != 0;
  status->size = static_cast<uint64_t>(st.st_size);
  status->mtime = static_cast<TimeStamp>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  status->device = static_cast<uint64_t>(st.st_dev);
  status->inode = static_cast<uint64_t>(st.st_ino);
  status->links = static_cast<uint32_t>(st.st_nlink);
}

}  // namespace

bool StatPath(const char* path, FileStatus* status) {
  struct stat st;
  if (stat(path, &st) < 0) return false;
  Convert(st, status);
  return true;
}

bool StatLink(const char* path, FileStatus* status) {
  struct stat st;
  if (lstat(path, &st) < 0) return false;
  Convert(st, status);
  return true;
}

bool StatDescriptor(int fd, FileStatus* status) {
  struct stat st;
  if (fstat(fd, &st) < 0) return false;
  Convert(st, status);
  return true;
}

int64_t CopyFileRange(int from, int to, size_t size) {
  return copy_file_range(from, nullptr, to, nullptr, size, 0);
}

int64_t OpenFileLimit() {
  rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) < 0) return -1;
  return limit.rlim_cur == RLIM_INFINITY ? INT64_MAX : static_cast<int64_t>(limit.rlim_cur);
}

bool IsDiskFull(int error) { return error == ENOSPC || error == EDQUOT; }

bool MayExecute(const char* path) { return access(path, X_OK) == 0; }

bool IsExecutableFile(const char* path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

std::string RealPath(const char* path) {
  char resolved[PATH_MAX];
  return realpath(path, resolved) ? resolved : std::string();
}

std::string ExecutablePath() {
  char path[PATH_MAX];
  ssize_t size = readlink("/proc/self/exe", path, sizeof path - 1);
  if (size <= 0) return std::string();
  return std::string(path, static_cast<size_t>(size));
}

}  // namespace ronin
