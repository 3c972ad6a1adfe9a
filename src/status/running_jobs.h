// The jobs the live view (status/live_status.h) shows as running, oldest first.
// Starting and finishing a job is the view's only work per command, so a
// finished job's slot, with its strings' buffers, serves the next job: no
// allocation and no string moves, only a few words of bookkeeping.
#ifndef RONIN_STATUS_RUNNING_JOBS_H_
#define RONIN_STATUS_RUNNING_JOBS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ronin {

struct Edge;

struct RunningJob {
  const Edge* edge = nullptr;
  int64_t start_millis = 0;  // when it started, in the builder's clock
  std::string description;   // filled (printable) when first drawn
  bool described = false;
  std::string last_line;   // the last line of output it printed so far
  size_t output_seen = 0;  // bytes of its output looked at so far
};

class RunningJobs {
 public:
  // A job that starts now, after every running one; its description is not
  // yet known.
  RunningJob& Add(const Edge* edge, int64_t start_millis) {
    uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    RunningJob& job = slots_[slot];
    job.edge = edge;
    job.start_millis = start_millis;
    job.described = false;
    job.last_line.clear();
    job.output_seen = 0;
    order_.push_back(slot);
    return job;
  }
  // The running job of `edge`, or null.
  RunningJob* Find(const Edge* edge) {
    for (uint32_t slot : order_)
      if (slots_[slot].edge == edge) return &slots_[slot];
    return nullptr;
  }
  // Ends the job of `edge` if it runs.
  void Remove(const Edge* edge) {
    for (size_t i = 0; i < order_.size(); ++i) {
      if (slots_[order_[i]].edge != edge) continue;
      free_.push_back(order_[i]);
      order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
  void Clear() {
    free_.insert(free_.end(), order_.begin(), order_.end());
    order_.clear();
  }

  size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }
  // The i-th oldest running job.
  RunningJob& operator[](size_t i) { return slots_[order_[i]]; }
  const RunningJob& operator[](size_t i) const { return slots_[order_[i]]; }

 private:
  std::vector<RunningJob> slots_;  // grows to the most jobs ever running at once
  std::vector<uint32_t> order_;    // the running jobs' slots, oldest first
  std::vector<uint32_t> free_;     // slots of finished jobs, to reuse
};

}  // namespace ronin

#endif  // RONIN_STATUS_RUNNING_JOBS_H_
