#include "log/build_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <map>

namespace ronin {

namespace {

// Directories already locked by this process (regeneration cycles reuse
// them), with the descriptor holding each lock.
std::map<std::pair<dev_t, ino_t>, int>& HeldLocks() {
  static std::map<std::pair<dev_t, ino_t>, int> held;
  return held;
}

// The pid holding a flock on (dev, ino), from /proc/locks; -1 if unknown.
pid_t FindLockHolder(dev_t dev, ino_t ino) {
  FILE* locks = fopen("/proc/locks", "re");
  if (!locks) return -1;
  char line[512];
  pid_t holder = -1;
  while (holder < 0 && fgets(line, sizeof(line), locks)) {
    // "1: FLOCK  ADVISORY  WRITE 2170 00:2e:1048577 0 EOF"
    char kind[32];
    long pid;
    unsigned major_id, minor_id;
    unsigned long long inode;
    if (sscanf(line, "%*s %31s %*s %*s %ld %x:%x:%llu", kind, &pid, &major_id, &minor_id, &inode) != 5)
      continue;
    if (strcmp(kind, "FLOCK") == 0 && major_id == major(dev) && minor_id == minor(dev) && inode == ino)
      holder = static_cast<pid_t>(pid);
  }
  fclose(locks);
  return holder;
}

pid_t ParentOf(pid_t pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/stat";
  FILE* stat = fopen(path.c_str(), "re");
  if (!stat) return -1;
  char content[1024];
  size_t n = fread(content, 1, sizeof(content) - 1, stat);
  fclose(stat);
  content[n] = '\0';
  // The command name may contain spaces and parentheses: skip past the last ')'.
  const char* close = strrchr(content, ')');
  long ppid = -1;
  if (!close || sscanf(close + 1, " %*c %ld", &ppid) != 1) return -1;
  return static_cast<pid_t>(ppid);
}

bool IsAncestor(pid_t candidate) {
  for (pid_t pid = getppid(); pid > 1; pid = ParentOf(pid)) {
    if (pid == candidate) return true;
  }
  return false;
}

}  // namespace

bool LockBuildDirectory(const std::string& dir, bool* waited, std::string* err) {
  *waited = false;
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *err = "opening build directory " + dir + ": " + strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) < 0 || HeldLocks().count({st.st_dev, st.st_ino})) {
    close(fd);
    return true;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
    HeldLocks()[{st.st_dev, st.st_ino}] = fd;
    return true;  // the descriptor stays open: the lock lasts until exit
  }
  if (errno != EWOULDBLOCK) {
    close(fd);  // locking unsupported here (e.g. some network file systems)
    return true;
  }
  pid_t holder = FindLockHolder(st.st_dev, st.st_ino);
  if (holder > 0 && IsAncestor(holder)) {
    close(fd);  // started by the running build itself
    return true;
  }
  // A ninja that died leaves its lock to its job reaper (exec/job_reaper.h) for
  // the moment it takes to end its commands: not a ninja to announce. (In
  // a pid namespace, /proc/locks shows a dead holder as pid 0.)
  bool holder_died = holder == 0 || (holder > 0 && kill(holder, 0) < 0 && errno == ESRCH);
  fflush(stdout);
  if (holder > 0 && !holder_died)
    fprintf(stderr, "ninja: waiting for the ninja already running in this build directory (pid %d)...\n", holder);
  else if (!holder_died)
    fprintf(stderr, "ninja: waiting for the ninja already running in this build directory...\n");
  *waited = true;
  while (flock(fd, LOCK_EX) < 0) {
    if (errno != EINTR) {
      close(fd);
      return true;
    }
  }
  HeldLocks()[{st.st_dev, st.st_ino}] = fd;
  return true;
}

std::vector<int> HeldBuildLockDescriptors() {
  std::vector<int> fds;
  for (const auto& held : HeldLocks()) fds.push_back(held.second);
  return fds;
}

std::vector<std::string> BuildLockHandoverNames() { return {}; }

}  // namespace ronin
