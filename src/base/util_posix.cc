// util.h's facts about the machine on POSIX: CPUs (affinity and cgroup
// quota), the load average, the monotonic clock, the working directory.
#include "base/util.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vector>

namespace ronin {

namespace {

// First line of a small file ("" if unreadable). Plain stdio: iostreams
// would cost start-up time and memory in every run.
std::string ReadFirstLine(const std::string& path) {
  FILE* file = fopen(path.c_str(), "re");
  if (!file) return std::string();
  char buffer[4096];
  std::string line;
  if (fgets(buffer, sizeof(buffer), file)) line = buffer;
  fclose(file);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

// CPU quota from a cgroup v2 "cpu.max" or v1 "cpu.cfs_{quota,period}_us".
int CgroupCpuLimit() {
  FILE* cgroups = fopen("/proc/self/cgroup", "re");
  if (!cgroups) return -1;
  std::string v2_path, v1_path;
  char buffer[4096];
  while (fgets(buffer, sizeof(buffer), cgroups)) {
    std::string line(buffer);
    while (!line.empty() && line.back() == '\n') line.pop_back();
    // "ID:CONTROLLERS:PATH"
    size_t first = line.find(':');
    size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers.empty()) v2_path = path;
    size_t start = 0;
    while (start <= controllers.size()) {
      size_t comma = controllers.find(',', start);
      if (comma == std::string::npos) comma = controllers.size();
      if (controllers.compare(start, comma - start, "cpu") == 0) v1_path = path;
      start = comma + 1;
    }
  }
  fclose(cgroups);
  if (!v2_path.empty() || v1_path.empty()) {
    std::string max = ReadFirstLine("/sys/fs/cgroup" + v2_path + "/cpu.max");
    long long quota = 0, period = 0;
    if (sscanf(max.c_str(), "%lld %lld", &quota, &period) == 2 && period > 0)
      return static_cast<int>(quota / period);
  }
  if (!v1_path.empty()) {
    for (const char* mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
      std::string quota = ReadFirstLine(std::string(mount) + v1_path + "/cpu.cfs_quota_us");
      std::string period = ReadFirstLine(std::string(mount) + v1_path + "/cpu.cfs_period_us");
      if (quota.empty() || period.empty()) continue;
      long long q = atoll(quota.c_str()), p = atoll(period.c_str());
      if (q > 0 && p > 0) return static_cast<int>(q / p);
    }
  }
  return -1;
}

}  // namespace

int GetProcessorCount() {
  int count = -1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) count = CPU_COUNT(&set);
  int quota = CgroupCpuLimit();
  if (quota >= 0 && (count < 0 || quota < count)) count = quota;
  if (count < 0) count = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  return count;
}

double GetLoadAverage() {
  double load[3];
  if (getloadavg(load, 3) < 0) return -0.0;
  return load[0];
}

int64_t MonotonicMillis() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

int64_t CommandLineLimit() { return sysconf(_SC_ARG_MAX); }

bool ActiveCodePageIsUtf8() { return true; }

std::string LastSystemError() { return strerror(errno); }

std::string RawCommandLine() { return std::string(); }

void PutEnvironmentEntry(const std::string& entry) {
  putenv(strdup(entry.c_str()));  // putenv keeps the string: it must live on
}

void UseOneMallocArena() { mallopt(M_ARENA_MAX, 1); }

std::string WorkingDirectory() {
  std::vector<char> buffer(1024);
  while (!getcwd(buffer.data(), buffer.size())) {
    if (errno != ERANGE) Fatal("cannot determine working directory: %s", strerror(errno));
    buffer.resize(buffer.size() * 2);
  }
  return buffer.data();
}

}  // namespace ronin
