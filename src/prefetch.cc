#include "prefetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <unordered_map>

#include "build_log.h"
#include "graph.h"

namespace ronin {

namespace {

const size_t kBatch = 1024;
const size_t kStartThreshold = 16 * 1024;

// Directory descriptors for fstatat: the kernel then resolves only the last
// path component, not the whole path, for every file of a directory.
class DirectoryCache {
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

}  // namespace

bool PrefetchEnabled() {
  static const bool enabled = [] {
    const char* setting = getenv("RONIN_PREFETCH");
    return !(setting && strcmp(setting, "0") == 0);
  }();
  return enabled;
}

Prefetcher::Prefetcher(State* state) : state_(state) { state_->set_observer(this); }

void Prefetcher::NodeCreated(Node* node) {
  pending_.push_back(node);
  if (!worker_.joinable()) {
    // A small graph is scanned faster than a thread starts: the worker
    // only comes into being for a large one.
    if (pending_.size() < kStartThreshold) return;
    worker_ = std::thread(&Prefetcher::Run, this);
  }
  if (pending_.size() >= kBatch) Publish();
}

void Prefetcher::Publish() {
  if (pending_.empty() || !worker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(pending_));
  }
  pending_.clear();
  pending_.reserve(kBatch);
  wake_.notify_one();
}

void Prefetcher::ParsingDone() {
  Publish();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    parsing_done_ = true;
  }
  wake_.notify_one();
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
  if (!worker_.joinable()) return;
  Publish();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  worker_.join();
}

void Prefetcher::Run() {
  DirectoryCache dirs;
  size_t hashed = 0;
  for (;;) {
    std::vector<Node*> batch;
    size_t edge_count = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] {
        return !queue_.empty() || stopping_ || (parsing_done_ && hashed < state_->edges().size());
      });
      if (!queue_.empty()) {
        batch = std::move(queue_.front());
        queue_.erase(queue_.begin());
      } else if (parsing_done_ && hashed < state_->edges().size()) {
        edge_count = state_->edges().size();
      } else {
        return;  // stopping, and nothing left
      }
    }
    if (abandon_) return;
    if (!batch.empty()) {
      for (Node* node : batch) {
        std::string_view path = node->path;
        std::string_view dir = DirName(path);
        int dir_fd = dirs.Get(dir);
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
      continue;
    }
    HashCommands(hashed, edge_count);
    hashed = edge_count;
  }
}

void Prefetcher::HashCommands(size_t begin, size_t end) {
  const std::vector<Edge*>& edges = state_->edges();
  for (size_t i = begin; i < end && !abandon_; ++i) {
    Edge* edge = edges[i];
    if (edge->is_phony()) continue;
    std::string command;
    // A rule-variable cycle is left to the scan, which reports it.
    if (edge->TryEvaluateCommand(&command, /*include_rspfile=*/true)) {
      edge->command_hash = BuildLog::HashCommand(command);
      edge->command_hash_known = true;
    }
  }
}

}  // namespace ronin
