#include "prefetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "background_thread.h"
#include "build_log.h"
#include "graph.h"

namespace ronin {

namespace {

const size_t kBatch = 1024;
const size_t kEdgeBatch = 2048;
const size_t kStartThreshold = 16 * 1024;

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
    auto it = fds_.find(dir);
    if (it != fds_.end()) return it->second;
    if (fds_.size() >= kMaxOpen) Clear();
    std::string name(dir);
    int fd = open(name.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) fd = errno == ENOENT || errno == ENOTDIR ? kMissing : -1;
    fds_.emplace(dir, fd);
    return fd;
  }

  static constexpr int kMissing = -2;

 private:
  void Clear() {
    for (auto& entry : fds_)
      if (entry.second >= 0) close(entry.second);
    fds_.clear();
  }

  static constexpr size_t kMaxOpen = 256;
  // Keys are views into node paths, which live as long as the State.
  std::unordered_map<std::string_view, int> fds_;
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
  wake_.notify_all();
  if (!abandon_ && ParallelStat()) Drain(/*help_only=*/true);
  for (std::thread& worker : workers_) worker.join();
}

void Prefetcher::Drain(bool help_only) {
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
    std::string name(dir.empty() ? path : path.substr(dir.size() + (dir == "/" ? 0 : 1)));
    if (name.empty()) continue;
    struct stat st;
    if (fstatat(dir_fd, name.c_str(), &st, 0) < 0) {
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
