#include "sched/skip_settlement.h"

#include <errno.h>
#include <string.h>

#include <algorithm>
#include <chrono>

#include "base/disk.h"
#include "graph/graph.h"
#include "log/build_log.h"
#include "log/deps_log.h"
#include "log/edge_outcome.h"
#include "scan/content_hash_store.h"

namespace ronin {

namespace {

// Found clean by a scan of this run and not to be run: nothing else will
// write its outputs or log lines.
bool CleanAfterScan(const Edge* edge) {
  if (edge->mark != Edge::Visit::kDone) return false;
  if (edge->want == Edge::Want::kToStart || edge->want == Edge::Want::kToFinish) return false;
  return std::none_of(edge->outputs.begin(), edge->outputs.end(), [](const Node* output) { return output->dirty; });
}

// The newest mtime among the inputs Ninja compares with the outputs.
TimeStamp NewestInput(const Edge* edge) {
  TimeStamp newest = 0;
  for (auto it = edge->inputs.begin(); it != edge->inputs.end() - edge->order_only_deps; ++it)
    newest = std::max(newest, (*it)->mtime);
  return newest;
}

// Now, in the units of mtimes (the file system's clock lags it, if anything).
TimeStamp WallClockNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Whether `edge` compares `node`'s mtime with its outputs' (order-only
// inputs are not compared).
bool ReadsMtimeOf(const Edge* edge, const Node* node) {
  auto end = edge->inputs.end() - edge->order_only_deps;
  return std::find(edge->inputs.begin(), end, node) != end;
}

}  // namespace

bool SkipSettlement::Settle(int at_millis, std::string* err) {
  if (skips_.empty()) return true;
  // Every edge is settled with the same stamp, so their order does not matter.
  TimeStamp stamp = 0;
  TimeStamp now = WallClockNow();
  std::vector<Edge*> queue;
  for (Edge* edge : skips_) {
    TimeStamp newest = NewestInput(edge);
    if (newest > now) continue;
    stamp = std::max(stamp, newest);
    queue.push_back(edge);
  }
  skips_.clear();
  while (!queue.empty()) {
    Edge* edge = queue.back();
    queue.pop_back();
    if (!settled_.insert(edge).second) continue;
    bool moved = false;
    if (!SettleEdge(edge, stamp, at_millis, &moved, err)) return false;
    if (moved) QueueUsers(edge, &queue);
  }
  return true;
}

bool SkipSettlement::SettleEdge(Edge* edge, TimeStamp stamp, int at_millis, bool* moved, std::string* err) {
  if (edge->is_phony()) {
    // An alias (no file) has its newest input's mtime, for Ninja too.
    for (Node* output : edge->outputs) {
      TimeStamp before = output->mtime;
      output->UpdatePhonyMtime(stamp);
      *moved = *moved || output->mtime != before;
    }
    return true;
  }
  TimeStamp record_mtime = stamp;
  if (!edge->GetBindingBool(Rule::kRestat)) {
    std::vector<TimeStamp> mtimes_before;
    std::string why;
    bool touched = TouchOutputs(edge, stamp, &mtimes_before, &why);
    for (size_t i = 0; i < mtimes_before.size(); ++i) {
      record_mtime = std::max(record_mtime, edge->outputs[i]->mtime);
      *moved = *moved || edge->outputs[i]->mtime != mtimes_before[i];
    }
    content_->OutputsRetouched(edge, mtimes_before);
    if (!touched) {
      // Left as it was, the edge is what it was before: stale for Ninja.
      Warning("%s; '%s' was skipped by --content-hash, but Ninja and ninja without the option will run it again",
              why.c_str(), std::string(edge->outputs[0]->path).c_str());
      return true;
    }
  }
  if (!build_log_->RecordCommand(edge, at_millis, at_millis, record_mtime)) {
    *err = std::string("Error writing to build log: ") + strerror(errno);
    return false;
  }
  if (*moved && !edge->GetBinding(Rule::kDeps).empty() && !RecordDeps(edge, err)) return false;
  if (outcomes_) outcomes_->Skipped(edge, at_millis);
  return true;
}

bool SkipSettlement::TouchOutputs(Edge* edge, TimeStamp stamp, std::vector<TimeStamp>* mtimes_before,
                                  std::string* err) {
  for (Node* output : edge->outputs) {
    if (output->mtime < stamp && !disk_->SetMtime(std::string(output->path), stamp, err)) return false;
    mtimes_before->push_back(output->mtime);
    output->mtime = std::max(output->mtime, stamp);
  }
  return true;
}

bool SkipSettlement::RecordDeps(Edge* edge, std::string* err) {
  // The discovered dependencies the scan loaded, just before the order-only inputs.
  Node* const* end = edge->inputs.end() - edge->order_only_deps;
  int count = edge->discovered_deps;
  for (Node* output : edge->outputs) {
    if (!deps_log_->RecordDeps(output, output->mtime, count, end - count)) {
      *err = std::string("Error writing to deps log: ") + strerror(errno);
      return false;
    }
  }
  return true;
}

void SkipSettlement::QueueUsers(const Edge* edge, std::vector<Edge*>* queue) const {
  for (const Node* output : edge->outputs) {
    for (Edge* user : output->out_edges) {
      if (!settled_.count(user) && CleanAfterScan(user) && ReadsMtimeOf(user, output)) queue->push_back(user);
    }
  }
}

}  // namespace ronin
