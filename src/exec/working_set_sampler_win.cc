#include "exec/working_set_sampler.h"

#include "base/background_thread.h"
#include "base/win32.h"  // before psapi.h, which needs windows.h

#include <psapi.h>

#include <algorithm>

namespace ronin {

int64_t PeakWorkingSetOf(HANDLE process) {
  PROCESS_MEMORY_COUNTERS counters;
  if (!GetProcessMemoryInfo(process, &counters, sizeof counters)) return 0;
  return static_cast<int64_t>(counters.PeakWorkingSetSize);
}

WorkingSetSampler::Clock::duration WorkingSetSampler::SampleInterval(Clock::duration age) {
  const Clock::duration kLongest = std::chrono::seconds(2);
  return std::min(kLongest, std::max<Clock::duration>(kTick, age / 2));
}

namespace {

// The command (by its first process's id) that `pid` descends from, or 0.
// Ids are reused, so the walk up is bounded.
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

void WorkingSetSampler::Followed::SampleIfDue(Clock::time_point now, int64_t* peak) {
  if (next_sample > now) return;
  *peak = std::max(*peak, PeakWorkingSetOf(handle));
  next_sample = now + SampleInterval(now - seen);
}

WorkingSetSampler::~WorkingSetSampler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  if (thread_.joinable()) thread_.join();
  for (auto& command : commands_) {
    for (const Followed& descendant : command.second.descendants) CloseHandle(descendant.handle);
  }
}

void WorkingSetSampler::Watch(HANDLE process) {
  int64_t peak = PeakWorkingSetOf(process);
  Clock::time_point now = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_[GetProcessId(process)] = Command{Followed{process, now, now + kTick}, peak, {}};
    if (!thread_.joinable()) thread_ = StartBackgroundThread(&WorkingSetSampler::Run, this);
  }
  changed_.notify_one();
}

int64_t WorkingSetSampler::Forget(HANDLE process) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto command = commands_.find(GetProcessId(process));
  if (command == commands_.end()) return 0;
  // Ended: its peak, and a descendant's while its handle is open, are
  // there to read on Windows (not under wine).
  int64_t ended = PeakWorkingSetOf(process);
  if (ended == 0) sample_processes_ = true;
  int64_t peak = std::max(command->second.peak, ended);
  for (const Followed& descendant : command->second.descendants) {
    peak = std::max(peak, PeakWorkingSetOf(descendant.handle));
    descendants_.erase(GetProcessId(descendant.handle));
    CloseHandle(descendant.handle);
  }
  commands_.erase(command);
  return peak;
}

WorkingSetSampler::Clock::time_point WorkingSetSampler::NextSample() const {
  Clock::time_point next = Clock::time_point::max();
  for (const auto& command : commands_) {
    if (sample_processes_) next = std::min(next, command.second.process.next_sample);
    for (const Followed& descendant : command.second.descendants)
      next = std::min(next, descendant.next_sample);
  }
  // The next list of processes, which may find descendants.
  return std::min(next, listed_ + kListEvery);
}

void WorkingSetSampler::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  Clock::time_point last = Clock::time_point::min();
  while (!stopping_) {
    if (commands_.empty()) {
      changed_.wait(lock);
      continue;
    }
    // Commands come due one by one: those due are sampled together, a tick
    // apart at the most often.
    Clock::time_point next = std::max(NextSample(), last + kTick);
    if (Clock::now() < next) {
      changed_.wait_until(lock, next);  // or until a command comes
      continue;
    }
    lock.unlock();
    last = Clock::now();
    SampleDue(last);
    lock.lock();
  }
}

void WorkingSetSampler::SampleDue(Clock::time_point now) {
  if (now - listed_ >= kListEvery) {
    listed_ = now;
    // Taken unlocked, so that a command's end does not wait for it.
    std::map<DWORD, DWORD> parents = ParentProcessIds();
    AddDescendants(parents);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& entry : commands_) {
    Command& command = entry.second;
    if (sample_processes_) command.process.SampleIfDue(now, &command.peak);
    for (Followed& descendant : command.descendants) descendant.SampleIfDue(now, &command.peak);
  }
}

void WorkingSetSampler::AddDescendants(const std::map<DWORD, DWORD>& parents) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& process : parents) {
    DWORD pid = process.first;
    if (commands_.count(pid) || descendants_.count(pid)) continue;
    DWORD first = CommandOf(pid, parents, commands_);
    if (!first) continue;
    HANDLE handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (!handle) continue;  // ended meanwhile
    Command& command = commands_[first];
    Clock::time_point now = Clock::now();
    command.descendants.push_back(Followed{handle, now, now + kTick});
    command.peak = std::max(command.peak, PeakWorkingSetOf(handle));
    descendants_[pid] = first;
  }
}

}  // namespace ronin
