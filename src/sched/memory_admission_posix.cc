// memory_admission.h's memory facts on Linux: /proc/meminfo, the cgroup
// v2 limits, each process's resident pages in /proc/PID/stat.
#include "sched/memory_admission.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>

namespace ronin {

namespace {

// The tightest headroom of our cgroup v2 and its ancestors, or -1.
int64_t CgroupAvailable() {
  std::string self;
  if (!ReadSmallFile("/proc/self/cgroup", &self)) return -1;
  size_t at = self.find("0::/");
  if (at == std::string::npos) return -1;  // not cgroup v2
  std::string path = self.substr(at + 3, self.find('\n', at) - at - 3);
  int64_t tightest = -1;
  for (;;) {
    int64_t headroom = CgroupHeadroom("/sys/fs/cgroup" + path);
    if (headroom >= 0 && (tightest < 0 || headroom < tightest)) tightest = headroom;
    if (path.size() <= 1) break;
    path.erase(path.rfind('/'));
    if (path.empty()) path = "/";
  }
  return tightest;
}

}  // namespace

int64_t SystemAvailableMemory() {
  std::string meminfo;
  int64_t available = ReadSmallFile("/proc/meminfo", &meminfo) ? MemAvailableFrom(meminfo) : -1;
  return Tighter(available, CgroupAvailable());
}

std::vector<int64_t> ResidentMemoryOfGroups(const std::vector<pid_t>& pgids) {
  std::vector<int64_t> rss(pgids.size(), 0);
  DIR* proc = opendir("/proc");
  if (!proc) return rss;
  static const long page_size = sysconf(_SC_PAGESIZE);
  std::string stat;
  while (dirent* entry = readdir(proc)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    if (!ReadSmallFile(std::string("/proc/") + entry->d_name + "/stat", &stat)) continue;
    // "pid (comm) state ppid pgrp ... rss": comm may hold anything, so
    // fields are counted from its closing parenthesis.
    size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::vector<long long> fields;  // from field 3 (state, read as 0) on
    const char* p = stat.c_str() + paren + 1;
    while (*p == ' ') ++p;
    while (*p && fields.size() < 22) {
      fields.push_back(strtoll(p, nullptr, 10));
      while (*p && *p != ' ') ++p;
      while (*p == ' ') ++p;
    }
    if (fields.size() < 22) continue;
    pid_t pgrp = static_cast<pid_t>(fields[2]);  // field 5
    auto it = std::find(pgids.begin(), pgids.end(), pgrp);
    if (it != pgids.end()) rss[it - pgids.begin()] += fields[21] * page_size;  // field 24
  }
  closedir(proc);
  return rss;
}

}  // namespace ronin
