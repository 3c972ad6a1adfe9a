// The peak memory of each running command's process tree on Windows, for
// Subprocess::peak_rss_bytes() (exec/subprocess_win.cc only).
//
// Windows reports a process's PeakWorkingSetSize after it ended, but for
// that process alone, where POSIX's wait4() gives the largest of the whole
// tree the command waited for; and wine reports 0 for a process that has
// ended (a live one's is right). So while commands run, one thread samples
// every kSampleMillis the peak working set of each command's process and of
// its descendants (found through their parents' ids), and keeps the largest;
// each process is also sampled once when it is watched, so that a command
// too short for a tick still has a peak. A child that peaks and ends
// between two ticks is missed: the numbers are sampled, not exact.
#ifndef RONIN_EXEC_WORKING_SET_SAMPLER_H_
#define RONIN_EXEC_WORKING_SET_SAMPLER_H_

#include <windows.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace ronin {

class WorkingSetSampler {
 public:
  // Between two samples of the running commands' trees.
  static constexpr DWORD kSampleMillis = 100;

  WorkingSetSampler() = default;
  // Stops the sampling thread.
  ~WorkingSetSampler();
  WorkingSetSampler(const WorkingSetSampler&) = delete;
  WorkingSetSampler& operator=(const WorkingSetSampler&) = delete;

  // Follows the command whose first process is `process` (the caller keeps
  // the handle open until Forget), sampling it once now. Any thread.
  void Watch(HANDLE process);
  // Stops following it: the largest peak working set seen in its tree
  // (bytes), 0 if none was.
  int64_t Forget(HANDLE process);

 private:
  struct Command {
    HANDLE process;
    int64_t peak;
  };
  void Run();
  // One sample of every command's tree.
  void SampleAll();

  std::mutex mutex_;
  std::condition_variable changed_;  // a command came, or the sampler stops
  std::map<DWORD, Command> commands_;  // by their first process's id
  bool stopping_ = false;
  std::thread thread_;  // started by the first Watch
};

// A process's peak working set in bytes, 0 if the system will not say.
int64_t PeakWorkingSetOf(HANDLE process);

}  // namespace ronin

#endif  // RONIN_EXEC_WORKING_SET_SAMPLER_H_
