#include "prefetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>

#include "background_thread.h"
#include "build_log.h"
#include "graph.h"

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

bool EnvSwitchOff(const char* name) {
  const char* setting = getenv(name);
  return setting && strcmp(setting, "0") == 0;
}

bool ParallelStat() {
  static const bool enabled = !EnvSwitchOff("RONIN_PARALLEL_STAT");
  return enabled;
}

}  // namespace

// Directory descriptors for fstatat: the kernel then resolves only the last
// path component, not the whole path, for every file of a directory. One
// per thread.
class Prefetcher::DirectoryCache {
 public:
  ~DirectoryCache() { Clear(); }

  // A descriptor for `dir` ("" = current directory), or -1 if unusable.
  int Get(std::string_view dir) {
    if (dir.empty()) return AT_FDCWD;
    // Neighbouring nodes mostly share a directory (an edge's outputs, a
    // target's objects): the last answer spares most hash lookups.
    if (dir == last_dir_) return last_fd_;
    auto it = fds_.find(dir);
    if (it == fds_.end()) it = Open(dir);
    last_dir_ = dir;
    last_fd_ = it->second;
    return last_fd_;
  }

  static constexpr int kMissing = -2;

 private:
  std::unordered_map<std::string_view, int>::iterator Open(std::string_view dir) {
    if (fds_.size() >= kMaxOpen) Clear();
    std::string name(dir);
    int fd = open(name.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) fd = errno == ENOENT || errno == ENOTDIR ? kMissing : -1;
    return fds_.emplace(dir, fd).first;
  }

  void Clear() {
    for (auto& entry : fds_)
      if (entry.second >= 0) close(entry.second);
    fds_.clear();
    last_dir_ = std::string_view();
  }

  static constexpr size_t kMaxOpen = 256;
  // Keys are views into node paths, which live as long as the State.
  std::unordered_map<std::string_view, int> fds_;
  std::string_view last_dir_;  // empty: none (Get answers "" itself)
  int last_fd_ = -1;
};

bool PrefetchEnabled() {
  static const bool enabled = !EnvSwitchOff("RONIN_PREFETCH");
  return enabled;
}

size_t PrefetchThreads() {
  if (!ParallelStat()) return 1;
  size_t cores = std::thread::hardware_concurrency();
  return cores < 1 ? 1 : cores > 16 ? 16 : cores;
}

Prefetcher::Prefetcher(State* state) : state_(state) { state_->set_observer(this); }

void Prefetcher::NodeCreated(Node* node) {
  pending_.push_back(node);
  if (workers_.empty()) {
    // A small graph is scanned faster than a thread starts: the workers
    // only come into being for a large one.
    if (pending_.size() < kStartThreshold) return;
    StartWorkers();
  }
  if (pending_.size() >= kBatch) Publish();
}

void Prefetcher::NodesExpected(size_t count) {
  if (workers_.empty() && pending_.size() + count >= kStartThreshold) StartWorkers();
}

void Prefetcher::StartWorkers() {
  // The main thread is busy until Join(), where it helps: one thread fewer
  // than the cores keeps each core busy with one thread.
  size_t threads = PrefetchThreads();
  size_t count = threads > 1 ? threads - 1 : 1;
  for (size_t i = 0; i < count; ++i) workers_.push_back(StartBackgroundThread(&Prefetcher::Drain, this, false));
}

void Prefetcher::Publish() {
  if (pending_.empty() || workers_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.emplace_back();
    queue_.back().nodes = std::move(pending_);
  }
  posted_.store(true, std::memory_order_release);
  pending_.clear();
  pending_.reserve(kBatch);
  wake_.notify_one();
}

void Prefetcher::ParsingDone() {
  if (workers_.empty()) return;
  Publish();
  size_t edge_count = state_->edges().size();
  {
    std::lock_guard<std::mutex> lock(mutex_);
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
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  posted_.store(true, std::memory_order_release);
  wake_.notify_all();
  if (!abandon_ && ParallelStat()) Drain(/*help_only=*/true);
  for (std::thread& worker : workers_) worker.join();
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
  DirectoryCache dirs;
  for (;;) {
    Work work;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!help_only) wake_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping (or only helping), and nothing left
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    if (abandon_) return;
    if (!work.nodes.empty())
      StatAll(work.nodes, &dirs);
    else
      HashCommands(work.edge_begin, work.edge_end);
  }
}

void Prefetcher::StatAll(const std::vector<Node*>& nodes, DirectoryCache* dirs) {
  for (Node* node : nodes) {
    std::string_view path = node->path;
    std::string_view dir = DirName(path);
    int dir_fd = dirs->Get(dir);
    if (dir_fd == DirectoryCache::kMissing) {
      node->MarkMissing();
      continue;
    }
    if (dir_fd == -1) continue;  // left to the scan, which reports errors
    // The name runs to the end of the path, which is NUL-terminated.
    const char* name = dir.empty() ? path.data() : path.data() + dir.size() + (dir == "/" ? 0 : 1);
    if (!*name) continue;
    struct stat st;
    if (fstatat(dir_fd, name, &st, 0) < 0) {
      if (errno == ENOENT || errno == ENOTDIR) node->MarkMissing();
      continue;
    }
    TimeStamp mtime = static_cast<TimeStamp>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    node->mtime = mtime == 0 ? 1 : mtime;
    node->existence = Node::Existence::kExists;
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
