// The peak memory of each running command's process tree on Windows, for
// Subprocess::peak_rss_bytes() (exec/subprocess_win.cc only).
//
// Windows reports a process's PeakWorkingSetSize after it ended, but for
// that process alone, where POSIX's wait4() gives the largest of the whole
// tree the command waited for; and wine reports 0 for a process that has
// ended (a live one's is right). So while commands run, one thread samples
// the peak working set of each command's process and of its descendants,
// and keeps the largest. A peak working set only grows, so a sample also
// counts what came before it; what a sample cannot see is what comes after.
//
// Each command's process is sampled when it is watched, so that a command
// too short for more still has a peak. Windows gives an ended process's
// peak, so that is read once it ended; only once the system has answered 0
// for one (wine) is each command's process sampled while it runs, too. Its
// descendants, found in the system's list of processes (their parents'
// ids) at most every kListEvery (under wine a list costs milliseconds), are
// held open and sampled on the same schedule. A process is due for its
// next sample after half the time it has been followed, at least kTick and
// at most two seconds later: what comes in its last interval is not seen,
// nor a child that lives less than kListEvery. The numbers are sampled, not exact: each sample
// costs a system call per process, a round trip to wineserver under wine.
#ifndef RONIN_EXEC_WORKING_SET_SAMPLER_H_
#define RONIN_EXEC_WORKING_SET_SAMPLER_H_

#include <windows.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace ronin {

class WorkingSetSampler {
 public:
  using Clock = std::chrono::steady_clock;
  // The shortest time between two rounds of samples, and between two lists
  // of the system's processes.
  static constexpr std::chrono::milliseconds kTick{100};
  static constexpr std::chrono::milliseconds kListEvery{500};
  // The time from one sample of a process to the next, by how long it has
  // been followed.
  static Clock::duration SampleInterval(Clock::duration age);

  WorkingSetSampler() = default;
  // Stops the sampling thread; closes the descendants' handles.
  ~WorkingSetSampler();
  WorkingSetSampler(const WorkingSetSampler&) = delete;
  WorkingSetSampler& operator=(const WorkingSetSampler&) = delete;

  // Follows the command whose first process is `process` (the caller keeps
  // the handle open until Forget), sampling it once now. Any thread.
  void Watch(HANDLE process);
  // Stops following it, once it ended: the largest peak working set of its
  // tree (bytes), the system's answer for its process or what was seen.
  int64_t Forget(HANDLE process);

 private:
  // A process followed since `seen`, due for a sample at `next_sample`.
  struct Followed {
    HANDLE handle;
    Clock::time_point seen;
    Clock::time_point next_sample;
    // If it is due at `now`: samples it into *peak and says when next.
    void SampleIfDue(Clock::time_point now, int64_t* peak);
  };
  struct Command {
    Followed process;
    int64_t peak;
    std::vector<Followed> descendants;  // held open: their ids stay theirs
  };
  void Run();
  // One round at `now`: the system's list of processes if it is time, then
  // a sample of each process that is due.
  void SampleDue(Clock::time_point now);
  // Opens the processes of `parents` (a list of the system's) that descend
  // from a command and are not known yet, and samples them.
  void AddDescendants(const std::map<DWORD, DWORD>& parents);
  Clock::time_point NextSample() const;

  std::mutex mutex_;
  std::condition_variable changed_;     // a command came, or the sampler stops
  std::map<DWORD, Command> commands_;   // by their first process's id
  std::map<DWORD, DWORD> descendants_;  // their command's, by their own id
  Clock::time_point listed_;            // the last list of the system's processes
  bool sample_processes_ = false;       // the system answered 0 for an ended one
  bool stopping_ = false;
  std::thread thread_;  // started by the first Watch
};

// A process's peak working set in bytes, 0 if the system will not say.
int64_t PeakWorkingSetOf(HANDLE process);

}  // namespace ronin

#endif  // RONIN_EXEC_WORKING_SET_SAMPLER_H_
