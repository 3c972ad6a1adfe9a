#include "scan/directory_descriptors.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"

namespace ronin {

const int DirectoryDescriptors::kWorkingDirectory = AT_FDCWD;

DirectoryDescriptors::Found DirectoryDescriptors::StatAt(int dir, const char* name, TimeStamp* mtime) {
  struct stat st;
  if (fstatat(dir, name, &st, 0) < 0) return errno == ENOENT || errno == ENOTDIR ? Found::kMissing : Found::kUnknown;
  TimeStamp time = static_cast<TimeStamp>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  *mtime = time == 0 ? 1 : time;
  return Found::kExists;
}

int DirectoryDescriptors::Get(std::string_view dir) {
  if (dir.empty() || max_open_ <= 0) return AT_FDCWD;
  if (dir == last_dir_) return last_fd_;
  Slot* slot = Find(dir);
  if (slot->dir.empty()) {
    if (used_ >= max_open_) {
      Clear();  // many directories in turn: start over rather than evict
      slot = Find(dir);
    }
    *slot = Slot{dir, Open(dir)};
    ++used_;
  }
  last_dir_ = dir;
  last_fd_ = slot->fd;
  return last_fd_;
}

DirectoryDescriptors::Slot* DirectoryDescriptors::Find(std::string_view dir) {
  size_t mask = kSlots - 1;
  size_t i = RapidHash(dir.data(), dir.size()) & mask;
  while (!slots_[i].dir.empty() && slots_[i].dir != dir) i = (i + 1) & mask;
  return &slots_[i];
}

int DirectoryDescriptors::Open(std::string_view dir) {
  char name[PATH_MAX];
  if (dir.size() >= sizeof name) return -1;
  memcpy(name, dir.data(), dir.size());
  name[dir.size()] = '\0';
  int fd = open(name, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR ? kMissing : -1;
  return fd;
}

void DirectoryDescriptors::Clear() {
  for (Slot& slot : slots_) {
    if (!slot.dir.empty() && slot.fd >= 0) close(slot.fd);
    slot = Slot();
  }
  used_ = 0;
  last_dir_ = std::string_view();
}

int DirectoryDescriptors::OpenPerThread(int threads, int spare) {
  rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || threads < 1) return 0;
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= static_cast<rlim_t>(spare + threads * kMaxOpen))
    return kMaxOpen;
  long left = static_cast<long>(limit.rlim_cur) - spare;
  return left > 0 ? static_cast<int>(left / threads) : 0;
}

void ReserveDescriptorRoom(int extra) {
  rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) < 0) return;
  int probe = open(".", O_PATH | O_CLOEXEC);
  if (probe < 0) return;
  // The table then reaches past the highest descriptor asked for.
  long wanted = static_cast<long>(probe) + extra;
  if (limit.rlim_cur != RLIM_INFINITY && wanted >= static_cast<long>(limit.rlim_cur))
    wanted = static_cast<long>(limit.rlim_cur) - 1;
  int high = wanted > probe ? fcntl(probe, F_DUPFD_CLOEXEC, static_cast<int>(wanted)) : -1;
  if (high >= 0) close(high);
  close(probe);
}

}  // namespace ronin
