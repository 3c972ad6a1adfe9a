// The runner that runs commands (real_command_runner.h).
#include "exec/real_command_runner.h"

#include <errno.h>
#include <stdint.h>

#include <algorithm>
#include <memory>
#include <string>

#include "base/util.h"
#include "exec/job_reaper.h"
#include "graph/eval.h"
#include "graph/graph.h"
#include "status/status.h"

namespace ronin {

bool RealCommandRunner::HasRoom() const {
  size_t limit = throttle_.Limit(SIZE_MAX);
  // Jobs that ended and are not yet collected still count: each holds
  // what the system lacked until it is reaped.
  return limit == SIZE_MAX || subprocs_.running_count() + subprocs_.finished_count() < limit;
}

bool RealCommandRunner::StartCommand(Edge* edge) {
  std::string command = edge->EvaluateCommand();
  if (ValueTooLarge(command)) {
    Error("the command for '%s' is longer than %zu MiB once its variables are expanded",
          std::string(edge->outputs[0]->path).c_str(), kMaxValueSize >> 20);
    return false;
  }
  Subprocess* subprocess;
  JobFiles files;  // what to remove if ninja dies during the command
  if (subprocs_.reaps_jobs()) files = JobFilesOf(*edge);
  while (!(subprocess = subprocs_.Add(command, edge->use_console(), &files))) {
    int error = errno;
    if (!subprocs_.monitor_error().empty()) {
      Error("--audit: cannot watch commands: %s", subprocs_.monitor_error().c_str());
      return false;
    }
    bool transient = IsTransientSpawnError(error);
    if (!transient || subprocs_.running_count() == 0) {
      // Retrying cannot help: the edge fails, as a command that failed,
      // and the build goes on as -k says.
      Result failed;
      failed.edge = edge;
      failed.status = kExitFailure;
      failed.output = "ninja: error: " + DescribeSpawnFailure(edge, command, error, transient) + "\n";
      unstarted_.push_back(std::move(failed));
      return true;
    }
    throttle_.Lower(subprocs_.running_count(), error);
    if (!subprocs_.WaitForRoom()) {
      interrupted_ = true;  // reported by the next WaitForCommand
      return true;
    }
  }
  edges_[subprocess] = edge;
  return true;
}

bool RealCommandRunner::WaitForCommand(Result* result, int64_t deadline, int64_t now, int wake_fd) {
  if (interrupted_) {
    result->status = kExitInterrupted;
    return false;
  }
  if (!unstarted_.empty()) {
    *result = std::move(unstarted_.front());
    unstarted_.pop_front();
    return true;
  }
  std::unique_ptr<Subprocess> subprocess = subprocs_.NextFinished();
  if (deadline >= 0 && now < 0) now = MonotonicMillis();
  while (!subprocess) {
    bool woken = false;
    int64_t timeout = deadline < 0 ? -1 : std::max<int64_t>(0, deadline - now);
    if (subprocs_.DoWork(wake_fd, &woken, timeout)) {
      result->status = kExitInterrupted;
      return false;
    }
    subprocess = subprocs_.NextFinished();
    if (subprocess) break;
    if (deadline >= 0) now = MonotonicMillis();  // woken by output or `wake_fd`: what is left?
    if (woken || (deadline >= 0 && now >= deadline)) return true;
  }
  result->status = subprocess->Finish();
  result->output = subprocess->output();
  result->peak_rss_bytes = subprocess->peak_rss_bytes();
  result->accesses = subprocess->accesses();
  auto it = edges_.find(subprocess.get());
  result->edge = it->second;
  edges_.erase(it);
  return true;
}

pid_t RealCommandRunner::ProcessGroupOf(const Edge* edge) const {
  for (const auto& entry : edges_) {
    // Console jobs stay in ninja's process group.
    if (entry.second == edge) return entry.first->use_console() ? -1 : entry.first->pid();
  }
  return -1;
}

std::vector<Edge*> RealCommandRunner::GetActiveEdges() {
  std::vector<Edge*> edges;
  for (const auto& entry : edges_) edges.push_back(entry.second);
  return edges;
}

void RealCommandRunner::ReportRunningOutput(Status* status) const {
  for (const auto& entry : edges_) status->BuildEdgeOutputSoFar(entry.second, entry.first->output());
}

}  // namespace ronin
