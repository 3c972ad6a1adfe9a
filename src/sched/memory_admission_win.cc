// memory_admission.h's memory facts on Windows: the physical memory
// available (GlobalMemoryStatusEx), and the working sets of a job's process
// and its descendants (a job is started as a process group of its own,
// whose id is its first process's, but Windows lists no group members).
#include "sched/memory_admission.h"

#include "base/win32.h"  // before psapi.h, which needs windows.h

#include <psapi.h>

#include <algorithm>
#include <map>

namespace ronin {

int64_t SystemAvailableMemory() {
  MEMORYSTATUSEX status;
  status.dwLength = sizeof status;
  if (!GlobalMemoryStatusEx(&status)) return -1;
  return static_cast<int64_t>(status.ullAvailPhys);
}

namespace {

int64_t WorkingSetOf(DWORD pid) {
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!process) return 0;
  PROCESS_MEMORY_COUNTERS counters;
  int64_t bytes = GetProcessMemoryInfo(process, &counters, sizeof counters) ? counters.WorkingSetSize : 0;
  CloseHandle(process);
  return bytes;
}

}  // namespace

std::vector<int64_t> ResidentMemoryOfGroups(const std::vector<pid_t>& pgids) {
  std::vector<int64_t> rss(pgids.size(), 0);
  std::map<DWORD, DWORD> parents = ParentProcessIds();
  for (const auto& process : parents) {
    DWORD pid = process.first;
    // The job whose first process this one descends from (ids are reused,
    // so the walk is bounded).
    DWORD at = pid;
    for (size_t steps = 0; steps <= parents.size(); ++steps) {
      auto group = std::find(pgids.begin(), pgids.end(), static_cast<pid_t>(at));
      if (group != pgids.end()) {
        rss[group - pgids.begin()] += WorkingSetOf(pid);
        break;
      }
      auto up = parents.find(at);
      if (up == parents.end() || up->second == 0 || up->second == at) break;
      at = up->second;
    }
  }
  return rss;
}

}  // namespace ronin
