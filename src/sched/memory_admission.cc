#include "sched/memory_admission.h"

#include <stdlib.h>

#include <algorithm>

#include "base/file_io.h"
#include "base/metrics.h"
#include "base/util.h"
#include "exec/command_runner.h"
#include "graph/graph.h"
#include "scan/explain.h"
#include "sched/resource_history.h"

namespace ronin {

bool ReadSmallFile(const std::string& path, std::string* content) {
  FILE* file = OpenStream(path.c_str(), "rb");
  if (!file) return false;
  char buffer[4096];
  content->clear();
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), file)) > 0) content->append(buffer, n);
  fclose(file);
  return true;
}

// "MemAvailable:   123456 kB" -> bytes, or -1.
int64_t MemAvailableFrom(const std::string& meminfo) {
  size_t at = meminfo.find("MemAvailable:");
  if (at == std::string::npos) return -1;
  char* end;
  long long kib = strtoll(meminfo.c_str() + at + 13, &end, 10);
  return kib >= 0 && end != meminfo.c_str() + at + 13 ? kib * 1024 : -1;
}

// What a cgroup directory still allows: memory.max - memory.current, or -1
// when it has no limit ("max") or cannot be read.
int64_t CgroupHeadroom(const std::string& dir) {
  std::string max, current;
  if (!ReadSmallFile(dir + "/memory.max", &max) || !ReadSmallFile(dir + "/memory.current", &current))
    return -1;
  if (max.compare(0, 3, "max") == 0) return -1;
  long long limit = strtoll(max.c_str(), nullptr, 10);
  long long used = strtoll(current.c_str(), nullptr, 10);
  return std::max(0LL, limit - used);
}

int64_t Tighter(int64_t a, int64_t b) {
  if (a < 0) return b;
  if (b < 0) return a;
  return std::min(a, b);
}

namespace {

std::string MiB(int64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

int64_t AvailableMemory() {
  if (const char* dir = getenv("RONIN_MEMORY_INFO_DIR")) {
    std::string meminfo;
    int64_t available = ReadSmallFile(std::string(dir) + "/meminfo", &meminfo) ? MemAvailableFrom(meminfo) : -1;
    return Tighter(available, CgroupHeadroom(dir));
  }
  return SystemAvailableMemory();
}

MemoryAdmission::MemoryAdmission(int64_t keep_free_bytes, const ResourceHistory* history, bool explain)
    : keep_free_(keep_free_bytes), history_(history), explain_(explain) {}

Work MemoryAdmission::Next(bool local_room) {
  Work work = upstream_->Next(local_room);
  if (!work.edge || work.slot == JobSlot::kRemote || work.edge->is_phony()) return work;
  std::string why;
  if (MayStart(work.edge, &why)) return work;
  METRIC_RECORD("memory admission held a job back");
  if (explain_)
    PrintExplanation("not starting %s yet: %s", std::string(work.edge->outputs[0]->path).c_str(), why.c_str());
  upstream_->PutBack(work);  // the best edge waits for memory; so does the rest
  return Work();
}

void MemoryAdmission::Started(const Work& work, const CommandRunner& runner) {
  JobStarted(work.edge, runner.ProcessGroupOf(work.edge));
}

int64_t MemoryAdmission::UnreachedNeed() {
  std::vector<pid_t> pgids;
  for (const RunningJob& job : running_) {
    if (!job.reached && job.pgid > 0) pgids.push_back(job.pgid);
  }
  std::vector<int64_t> rss = pgids.empty() ? std::vector<int64_t>() : ResidentMemoryOfGroups(pgids);
  int64_t unreached = 0;
  for (RunningJob& job : running_) {
    if (job.reached) continue;
    int64_t held = 0;
    if (job.pgid > 0) held = rss[std::find(pgids.begin(), pgids.end(), job.pgid) - pgids.begin()];
    if (job.pgid > 0 && held >= job.need) {
      job.reached = true;
      continue;
    }
    unreached += job.need - held;
  }
  return unreached;
}

bool MemoryAdmission::MayStart(const Edge* edge, std::string* why) {
  if (running_.empty()) return true;  // at least one job always runs
  int64_t need = std::max<int64_t>(0, history_->ExpectedPeakRss(edge));
  // The jobs' memory before the machine's: a job seen to reach its need
  // then counts as shown in the available memory, which must be read after
  // that (read before, it could predate the job's growth, and the job's
  // memory would be counted by neither).
  int64_t unreached = UnreachedNeed();
  int64_t available = AvailableMemory();
  if (available < 0) return true;  // nothing to go by: -j alone decides
  if (available - unreached - need >= keep_free_) return true;
  *why = "needs ~" + MiB(need) + ", " + MiB(available) + " available of which running jobs may still take " +
         MiB(unreached) + ", keeping " + MiB(keep_free_) + " free";
  return false;
}

void MemoryAdmission::JobStarted(const Edge* edge, pid_t pgid) {
  int64_t need = std::max<int64_t>(0, history_->ExpectedPeakRss(edge));
  running_.push_back(RunningJob{edge, pgid, need, need == 0});
}

void MemoryAdmission::JobFinished(const Edge* edge) {
  running_.erase(std::remove_if(running_.begin(), running_.end(),
                                [edge](const RunningJob& job) { return job.edge == edge; }),
                 running_.end());
}

}  // namespace ronin
