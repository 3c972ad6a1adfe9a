// jobserver.h on POSIX: make's pipe and FIFO forms, and the pool as a FIFO.
#include "sched/jobserver.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

namespace ronin {

namespace {

// Writes one byte, waiting if the pipe is full (it never should be).
bool WriteByte(int fd, char byte) {
  for (;;) {
    ssize_t n = write(fd, &byte, 1);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd pfd = {fd, POLLOUT, 0};
      poll(&pfd, 1, -1);
      continue;
    }
    return false;
  }
}

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// A private, non-blocking descriptor for reading an inherited pipe.
// Reopening through /proc gives an open file description of our own, so
// O_NONBLOCK is not forced on make and its other children; without /proc,
// fall back to sharing make's (make <= 4.3 makes it non-blocking itself).
int PrivateNonBlockingReader(int fd) {
  char proc_path[64];
  snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
  int reopened = open(proc_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (reopened >= 0) {
    struct stat original, now;
    if (fstat(fd, &original) == 0 && fstat(reopened, &now) == 0 && original.st_ino == now.st_ino &&
        original.st_dev == now.st_dev)
      return reopened;
    close(reopened);
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -1;
  if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
  return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

// A FIFO name that survives being a MAKEFLAGS word: no blanks, and no
// backslash, which make takes for an escape.
std::string PoolDirectory() {
  const char* tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir || strpbrk(tmpdir, " \t\\")) return "/tmp";
  std::string dir = tmpdir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

}  // namespace

bool IsJobserverPipe(int read_fd, int write_fd) {
  if (read_fd < 0 || write_fd < 0) return false;
  struct stat read_stat, write_stat;
  if (fstat(read_fd, &read_stat) < 0 || fstat(write_fd, &write_stat) < 0) return false;
  if (!S_ISFIFO(read_stat.st_mode) || !S_ISFIFO(write_stat.st_mode)) return false;
  if (read_stat.st_dev != write_stat.st_dev || read_stat.st_ino != write_stat.st_ino) return false;
  int read_mode = fcntl(read_fd, F_GETFL) & O_ACCMODE;
  int write_mode = fcntl(write_fd, F_GETFL) & O_ACCMODE;
  return (read_mode == O_RDONLY || read_mode == O_RDWR) && (write_mode == O_WRONLY || write_mode == O_RDWR);
}

bool Jobserver::CanOpen(const JobserverConfig& config, std::string* reason) {
  switch (config.mode) {
    case JobserverConfig::Mode::kSemaphore:
      *reason = "Semaphore mode is not supported on Posix!";
      return false;
    case JobserverConfig::Mode::kPipe:
      // Beyond Ninja: make <= 4.3's pipe, when the descriptors really are
      // its pipe. Otherwise Ninja's warning, which is then accurate enough:
      // we cannot use what MAKEFLAGS names.
      if (IsJobserverPipe(config.read_fd, config.write_fd)) return true;
      *reason = "Pipe-based protocol is not supported!";
      return false;
    default:
      return true;
  }
}

std::unique_ptr<Jobserver> Jobserver::Open(const JobserverConfig& config, std::string* err) {
  if (config.mode == JobserverConfig::Mode::kPipe) return OpenPipe(config.read_fd, config.write_fd, err);
  return OpenFifo(config.value, err);
}

Jobserver::~Jobserver() {
  ReleaseAll();
  CloseFd(&read_fd_);
  CloseFd(&write_fd_);
  CloseFd(&child_read_fd_);
  CloseFd(&child_write_fd_);
  if (is_pool()) unlink(fifo_path_.c_str());
  if (exported_makeflags_) {
    if (had_makeflags_)
      setenv("MAKEFLAGS", old_makeflags_.c_str(), 1);
    else
      unsetenv("MAKEFLAGS");
  }
}

std::unique_ptr<Jobserver> Jobserver::OpenFifo(const std::string& path, std::string* err) {
  if (path.empty()) {
    *err = "Empty fifo path";
    return nullptr;
  }
  std::unique_ptr<Jobserver> jobserver(new Jobserver);
  jobserver->read_fd_ = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (jobserver->read_fd_ < 0) {
    *err = std::string("Error opening fifo for reading: ") + strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(jobserver->read_fd_, &st) < 0 || !S_ISFIFO(st.st_mode)) {
    *err = "Not a fifo path: " + path;
    return nullptr;
  }
  // Never blocks: we are a reader ourselves.
  jobserver->write_fd_ = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (jobserver->write_fd_ < 0) {
    *err = std::string("Error opening fifo for writing: ") + strerror(errno);
    return nullptr;
  }
  return jobserver;
}

std::unique_ptr<Jobserver> Jobserver::OpenPipe(int read_fd, int write_fd, std::string* err) {
  if (!IsJobserverPipe(read_fd, write_fd)) {
    *err = "Invalid file descriptor pair";
    return nullptr;
  }
  std::unique_ptr<Jobserver> jobserver(new Jobserver);
  jobserver->read_fd_ = PrivateNonBlockingReader(read_fd);
  // Our own duplicate: the inherited one stays open for the commands.
  jobserver->write_fd_ = fcntl(write_fd, F_DUPFD_CLOEXEC, 0);
  if (jobserver->read_fd_ < 0 || jobserver->write_fd_ < 0) {
    *err = std::string("Error opening pipe: ") + strerror(errno);
    return nullptr;
  }
  return jobserver;
}

std::unique_ptr<Jobserver> Jobserver::CreatePool(int jobs, std::string* err) {
  std::unique_ptr<Jobserver> pool(new Jobserver);
  std::string dir = PoolDirectory();
  for (int attempt = 0; pool->fifo_path_.empty(); ++attempt) {
    std::string path = dir + "/ninja-jobserver-" + std::to_string(getpid()) + "-" + std::to_string(attempt);
    if (mkfifo(path.c_str(), 0600) == 0) {
      pool->fifo_path_ = path;
    } else if (errno != EEXIST || attempt >= 100) {
      *err = "mkfifo " + path + ": " + strerror(errno);
      return nullptr;
    }
  }
  const char* path = pool->fifo_path_.c_str();
  // Our own descriptors, then the ones every command inherits (no
  // O_CLOEXEC). The inherited reader is non-blocking as make <= 4.3 sets it.
  pool->read_fd_ = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  pool->write_fd_ = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  pool->child_read_fd_ = open(path, O_RDONLY | O_NONBLOCK);
  pool->child_write_fd_ = open(path, O_WRONLY);
  if (pool->read_fd_ < 0 || pool->write_fd_ < 0 || pool->child_read_fd_ < 0 || pool->child_write_fd_ < 0) {
    *err = std::string("opening ") + path + ": " + strerror(errno);
    return nullptr;  // the destructor removes the FIFO
  }

  // A pipe holds 64 KiB by default; a larger -j needs a larger pipe.
  int tokens = jobs - 1;
#ifdef F_SETPIPE_SZ
  if (tokens > fcntl(pool->write_fd_, F_GETPIPE_SZ)) fcntl(pool->write_fd_, F_SETPIPE_SZ, tokens);
#endif
  std::string preload(static_cast<size_t>(tokens > 0 ? tokens : 0), '+');
  size_t written = 0;
  while (written < preload.size()) {
    ssize_t n = write(pool->write_fd_, preload.data() + written, preload.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // full: the pool is as large as the pipe allows
    written += static_cast<size_t>(n);
  }

  const char* old = getenv("MAKEFLAGS");
  pool->had_makeflags_ = old != nullptr;
  pool->old_makeflags_ = old ? old : "";
  std::string makeflags = PoolMakeflags(pool->old_makeflags_, jobs, pool->fifo_path_, pool->child_read_fd_,
                                        pool->child_write_fd_);
  setenv("MAKEFLAGS", makeflags.c_str(), 1);
  pool->exported_makeflags_ = true;
  return pool;
}

bool Jobserver::ReadToken() {
  if (broken_) return false;
  char byte;
  for (;;) {
    ssize_t n = read(read_fd_, &byte, 1);
    if (n == 1) {
      tokens_.push_back(byte);
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    // EAGAIN: none free now. End of file or an error: the pool is gone;
    // stop polling it (the implicit slot still lets the build go on).
    if (n == 0 || errno != EAGAIN) broken_ = true;
    return false;
  }
}

void Jobserver::ReturnToken() {
  char byte = tokens_.back();
  tokens_.pop_back();
  if (!broken_ && !WriteByte(write_fd_, byte)) broken_ = true;
}

}  // namespace ronin
