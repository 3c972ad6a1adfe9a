// --keep-free-memory=SIZE: memory-aware admission of jobs. A job is not
// started while starting it would take the machine's available memory below
// SIZE. Its expected need is its own peak RSS from its last run, or the
// median of its rule's (sched/resource_history.h), or 0 when nothing is known.
// Jobs already running count with their expected need until their process
// group's resident memory reaches it (after that it shows in the available
// memory), so a burst of starts cannot overshoot. At least one job always
// runs, so the build always makes progress.
//
// It is a stage of the work chain (work_chain.h): the best ready local edge
// that may not start goes back to the queue, and nothing else starts until
// a job ends (a remote job's memory is the farm's, not this machine's).
#ifndef RONIN_SCHED_MEMORY_ADMISSION_H_
#define RONIN_SCHED_MEMORY_ADMISSION_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sched/work_chain.h"

namespace ronin {

class ResourceHistory;
struct Edge;

// The memory available to new jobs, in bytes, or -1 if unknown: MemAvailable
// from /proc/meminfo and, inside a cgroup v2, the tighter of that and
// memory.max - memory.current of the cgroup and its ancestors.
// For tests, RONIN_MEMORY_INFO_DIR=DIR reads DIR/meminfo and (when present)
// DIR/memory.max and DIR/memory.current instead.
int64_t AvailableMemory();

// The summed resident memory (bytes) of the processes in each process group
// (on Windows, which has no such groups: of each process and its
// descendants).
std::vector<int64_t> ResidentMemoryOfGroups(const std::vector<pid_t>& pgids);

// The parts of the above the platform files (memory_admission_posix.cc,
// memory_admission_win.cc) share:
// The system's own answer for AvailableMemory (no test directory).
int64_t SystemAvailableMemory();
// A whole small file; false if it cannot be read.
bool ReadSmallFile(const std::string& path, std::string* content);
// "MemAvailable:   123456 kB" -> bytes, or -1.
int64_t MemAvailableFrom(const std::string& meminfo);
// What a cgroup directory still allows: memory.max - memory.current, or -1.
int64_t CgroupHeadroom(const std::string& dir);
// The smaller of two limits, -1 being none.
int64_t Tighter(int64_t a, int64_t b);

class MemoryAdmission : public WorkStage {
 public:
  // `history` (whose recorder keeps each job's peak for next time) gives
  // each job's expected need. With `explain` (-d explain), each edge held
  // back says why.
  MemoryAdmission(int64_t keep_free_bytes, const ResourceHistory* history, bool explain = false);

  // WorkStage:
  Work Next(bool local_room) override;
  void Started(const Work& work, const CommandRunner& runner) override;
  void Finished(const Work& work) override { JobFinished(work.edge); }

  // Whether `edge` may start now; if not, *why says what it would need.
  bool MayStart(const Edge* edge, std::string* why);
  // A job started in its own process group `pgid` (-1: it shares ours; it
  // then counts with its whole expected need until it ends).
  void JobStarted(const Edge* edge, pid_t pgid);
  void JobFinished(const Edge* edge);

 private:
  struct RunningJob {
    const Edge* edge;
    pid_t pgid;
    int64_t need;
    bool reached;  // its memory shows in the available memory now
  };
  // What running jobs are still expected to take on top of what they hold.
  int64_t UnreachedNeed();

  int64_t keep_free_;
  const ResourceHistory* history_;
  bool explain_;
  std::vector<RunningJob> running_;
};

}  // namespace ronin

#endif  // RONIN_SCHED_MEMORY_ADMISSION_H_
