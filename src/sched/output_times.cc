// Start stamps and restat (output_times.h).
#include "sched/output_times.h"

#include "base/disk.h"
#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {

std::string LockFilePath(const State& state) {
  std::string_view build_dir = state.root_scope()->LookupVariable("builddir");
  return build_dir.empty() ? std::string(".ninja_lock") : std::string(build_dir) + "/.ninja_lock";
}

TimeStamp DiskOutputTimes::StartStamp() {
  std::string err;
  disk_->WriteFile(lock_file_path_, "");
  TimeStamp stamp = disk_->Stat(lock_file_path_, &err);
  return stamp == -1 ? 0 : stamp;
}

bool DiskOutputTimes::Check(Edge* edge, TimeStamp start_stamp, std::vector<Node*>* untouched,
                            TimeStamp* record_mtime, std::string* err) {
  bool restat = edge->GetBindingBool(Rule::kRestat);
  *record_mtime = start_stamp;
  if (start_stamp != 0 && !restat && !edge->GetBindingBool(Rule::kGenerator)) return true;
  size_t before = untouched->size();
  for (Node* output : edge->outputs) {
    TimeStamp new_mtime = disk_->Stat(std::string(output->path), err);
    if (new_mtime == -1) return false;
    if (new_mtime > *record_mtime) *record_mtime = new_mtime;
    if (restat && output->mtime == new_mtime) untouched->push_back(output);
  }
  if (untouched->size() > before) *record_mtime = start_stamp;
  return true;
}

}  // namespace ronin
