#include "scan/prefetch.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "base/background_thread.h"
#include "graph/graph.h"
#include "log/build_log.h"

namespace ronin {

namespace {

// Small enough that when the queue runs dry, the main thread waits little
// for the workers' last batches (~0.5 ms of stats each).
const size_t kBatch = 256;
const size_t kEdgeBatch = 2048;
const size_t kStartThreshold = 16 * 1024;
// How long a worker spins for its first batch before it sleeps: long enough
// to cover an image's key check and strings (a few ms on a 100k-node tree).
constexpr std::chrono::milliseconds kFirstWorkSpin(20);
// Tries at the queue's lock before sleeping on it (each ~a few ns to ~100 ns).
constexpr int kLockSpins = 2000;

// Tells the core a spin-wait is going on (it then spends less on it).
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

bool EnvSwitchOff(const char* name) {
  const char* setting = getenv(name);
  return setting && strcmp(setting, "0") == 0;
}

bool ParallelStat() {
  static const bool enabled = !EnvSwitchOff("RONIN_PARALLEL_STAT");
  return enabled;
}

}  // namespace

bool PrefetchEnabled() {
  static const bool enabled = !EnvSwitchOff("RONIN_PREFETCH");
  return enabled;
}

size_t PrefetchThreads() {
  if (!ParallelStat()) return 1;
  size_t cores = std::thread::hardware_concurrency();
  return cores < 1 ? 1 : cores > 16 ? 16 : cores;
}

Prefetcher::Prefetcher(State* state, bool list_directories) : state_(state), list_directories_(list_directories) {
  state_->set_observer(this);
}

void Prefetcher::NodeCreated(Node* node) {
  Work* last = pending_.empty() ? nullptr : &pending_.back();
  if (last && node == last->first + last->count && last->count < kBatch)
    ++last->count;
  else
    pending_.push_back(Work{node, 1});
  ++pending_nodes_;
  if (workers_.empty()) {
    // A small graph is scanned faster than a thread starts: the workers
    // only come into being for a large one.
    if (pending_nodes_ < kStartThreshold) return;
    StartWorkers();
  }
  if (pending_nodes_ >= kBatch) Publish();
}

void Prefetcher::NodesExpected(size_t count) {
  if (workers_.empty() && pending_nodes_ + count >= kStartThreshold) StartWorkers();
}

void Prefetcher::StartWorkers() {
  // The main thread is busy until Join(), where it helps: one thread fewer
  // than the cores keeps each core busy with one thread.
  size_t threads = PrefetchThreads();
  size_t count = threads > 1 ? threads - 1 : 1;
  // The main thread stats too, once it helps.
  stats_.reset(new PrefetchStats(static_cast<int>(count + 1), list_directories_));
  for (size_t i = 0; i < count; ++i) workers_.push_back(StartBackgroundThread(&Prefetcher::Drain, this, false));
}

void Prefetcher::Publish() {
  if (pending_nodes_ == 0 || workers_.empty()) return;
  {
    std::unique_lock<std::mutex> lock = LockQueue();
    queue_.insert(queue_.end(), pending_.begin(), pending_.end());
  }
  posted_.store(true, std::memory_order_release);
  pending_.clear();
  pending_nodes_ = 0;
  wake_.notify_one();
}

void Prefetcher::ParsingDone() {
  if (workers_.empty()) return;
  Publish();
  size_t edge_count = state_->edges().size();
  {
    std::unique_lock<std::mutex> lock = LockQueue();
    for (size_t begin = 0; begin < edge_count; begin += kEdgeBatch) {
      queue_.emplace_back();
      queue_.back().edge_begin = begin;
      queue_.back().edge_end = std::min(edge_count, begin + kEdgeBatch);
    }
  }
  posted_.store(true, std::memory_order_release);
  wake_.notify_all();
}

Prefetcher::~Prefetcher() {
  abandon_ = true;
  Join();
}

void Prefetcher::Join() {
  // Once joined, the state may already be gone (a regeneration round
  // deletes it): a second call touches nothing.
  if (joined_) return;
  joined_ = true;
  state_->set_observer(nullptr);
  if (workers_.empty()) return;
  Publish();
  {
    std::unique_lock<std::mutex> lock = LockQueue();
    stopping_ = true;
  }
  posted_.store(true, std::memory_order_release);
  wake_.notify_all();
  if (!abandon_ && ParallelStat()) Drain(/*help_only=*/true);
  for (std::thread& worker : workers_) worker.join();
}

// The queue is held for a push or a pop only, so a thread that finds it
// taken spins a little before it sleeps on the lock: a sleeping thread's
// core can go idle, and waking it again can take milliseconds on a virtual
// machine (a no-op's worker slept on the lock ~15 times a run).
std::unique_lock<std::mutex> Prefetcher::LockQueue() {
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  for (int spin = 0; !lock.owns_lock() && spin < kLockSpins; ++spin) {
    CpuRelax();
    lock.try_lock();
  }
  if (!lock.owns_lock()) lock.lock();
  return lock;
}

// A worker started early (NodesExpected) would otherwise fall asleep just
// before its first batch, and on a virtual machine waking a core that went
// idle can take milliseconds (measured: 0.1-5 ms on the 2-core bench box).
void Prefetcher::AwaitFirstWork() {
  auto deadline = std::chrono::steady_clock::now() + kFirstWorkSpin;
  while (!posted_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
}

void Prefetcher::Drain(bool help_only) {
  if (!help_only) AwaitFirstWork();
  PrefetchStats::Thread stats(stats_.get());
  for (;;) {
    Work work;
    {
      std::unique_lock<std::mutex> lock = LockQueue();
      if (!help_only) wake_.wait(lock, [&] { return next_ < queue_.size() || stopping_; });
      if (next_ == queue_.size()) return;  // stopping (or only helping), and nothing left
      work = queue_[next_++];
    }
    if (abandon_) return;
    if (work.count)
      stats.StatAll(work.first, work.count);
    else
      HashCommands(work.edge_begin, work.edge_end);
  }
}

void Prefetcher::HashCommands(size_t begin, size_t end) {
  auto edges = state_->edges();
  std::string scratch;
  for (size_t i = begin; i < end && !abandon_; ++i) HashCommandAhead(edges[i], &scratch);
}

void HashCommandAhead(Edge* edge, std::string* scratch) {
  // Phony edges have no command; a graph image may bring hashes along.
  if (edge->is_phony() || edge->command_hash_known) return;
  // A rule-variable cycle is left to the scan, which reports it.
  if (edge->TryEvaluateCommand(scratch, /*include_rspfile=*/true)) {
    edge->command_hash = BuildLog::HashCommand(*scratch);
    edge->command_hash_known = true;
  }
}

}  // namespace ronin
