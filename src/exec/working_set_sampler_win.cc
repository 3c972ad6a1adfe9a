#include "exec/working_set_sampler.h"

#include "base/background_thread.h"
#include "base/win32.h"  // before psapi.h, which needs windows.h

#include <psapi.h>

#include <algorithm>
#include <chrono>

namespace ronin {

int64_t PeakWorkingSetOf(HANDLE process) {
  PROCESS_MEMORY_COUNTERS counters;
  if (!GetProcessMemoryInfo(process, &counters, sizeof counters)) return 0;
  return static_cast<int64_t>(counters.PeakWorkingSetSize);
}

namespace {

int64_t PeakWorkingSetOfId(DWORD pid) {
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!process) return 0;
  int64_t peak = PeakWorkingSetOf(process);
  CloseHandle(process);
  return peak;
}

// The first process of the command `pid` descends from, or 0. Ids are
// reused, so the walk up is bounded.
template <typename Commands>
DWORD CommandOf(DWORD pid, const std::map<DWORD, DWORD>& parents, const Commands& commands) {
  DWORD at = pid;
  for (size_t steps = 0; steps <= parents.size(); ++steps) {
    auto up = parents.find(at);
    if (up == parents.end() || up->second == 0 || up->second == at) return 0;
    at = up->second;
    if (commands.count(at)) return at;
  }
  return 0;
}

}  // namespace

WorkingSetSampler::~WorkingSetSampler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void WorkingSetSampler::Watch(HANDLE process) {
  int64_t peak = PeakWorkingSetOf(process);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_[GetProcessId(process)] = Command{process, peak};
    if (!thread_.joinable()) thread_ = StartBackgroundThread(&WorkingSetSampler::Run, this);
  }
  changed_.notify_one();
}

int64_t WorkingSetSampler::Forget(HANDLE process) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto command = commands_.find(GetProcessId(process));
  if (command == commands_.end()) return 0;
  int64_t peak = command->second.peak;
  commands_.erase(command);
  return peak;
}

void WorkingSetSampler::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (commands_.empty()) {
      changed_.wait(lock);
      continue;
    }
    lock.unlock();
    SampleAll();
    lock.lock();
    changed_.wait_for(lock, std::chrono::milliseconds(kSampleMillis), [this] { return stopping_; });
  }
}

void WorkingSetSampler::SampleAll() {
  // The slow part, the system's list of processes, is taken unlocked, so
  // that a command's end does not wait for it.
  std::map<DWORD, DWORD> parents = ParentProcessIds();
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& command : commands_)
    command.second.peak = std::max(command.second.peak, PeakWorkingSetOf(command.second.process));
  for (const auto& process : parents) {
    DWORD first = CommandOf(process.first, parents, commands_);
    if (!first) continue;
    Command& command = commands_[first];
    command.peak = std::max(command.peak, PeakWorkingSetOfId(process.first));
  }
}

}  // namespace ronin
