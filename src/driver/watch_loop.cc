#include "driver/watch_loop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "base/file_io.h"
#include "base/idle_memory.h"
#include "base/util.h"
#include "driver/ninja_main.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "scan/dep_loader.h"
#include "scan/stale_verdicts.h"
#include "sched/skip_settlement.h"
#include "status/live_status.h"
#include "status/status_forwarder.h"

namespace ronin {
namespace {

// A burst of writes (a script, a checkout, an editor's save) is one set of
// changes if no gap in it is longer than this...
constexpr int64_t kSettleMillis = 3;
// ...but a stream of writes does not hold a round back longer than this.
constexpr int64_t kSettleLimitMillis = 100;
// How long the tree stays quiet after a round before the watch gives back
// memory it need not hold while idle.
constexpr int64_t kQuietMillis = 250;
// Directories past the watch limit have their files stat'ed this often.
constexpr int64_t kPollMillis = 1000;
// A "what changed" line names at most this many files.
constexpr size_t kNamedChanges = 5;
// The current directory as a watched directory's path.
constexpr std::string_view kCurrentDir = "";

TimeStamp MtimeOf(const std::string& path) {
  FileStatus status;
  return StatPath(path.c_str(), &status) ? status.mtime : 0;
}

// The edges whose commands ended during a build (their outputs and deps
// are new), told by the status as they end.
class FinishedEdges : public StatusForwarder {
 public:
  explicit FinishedEdges(Status* inner) : StatusForwarder(inner) {}
  void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                         ExitStatus exit_code, const std::string& output) override {
    edges.push_back(const_cast<Edge*>(edge));
    StatusForwarder::BuildEdgeFinished(edge, start_time_millis, end_time_millis, exit_code, output);
  }
  std::vector<Edge*> edges;
};

void PrintWhatChanged(const std::vector<std::string_view>& changed) {
  std::string line = "ninja: watch: ";
  if (changed.size() > 1) line += std::to_string(changed.size()) + " files changed: ";
  for (size_t i = 0; i < changed.size() && i < kNamedChanges; ++i) {
    if (i) line += ", ";
    line += changed[i];
  }
  if (changed.size() > kNamedChanges) line += " and " + std::to_string(changed.size() - kNamedChanges) + " more";
  if (changed.size() == 1) line += " changed";
  printf("%s\n", line.c_str());
  fflush(stdout);
}

std::vector<std::string_view> PathsOf(const std::vector<Node*>& nodes) {
  std::vector<std::string_view> paths;
  for (const Node* node : nodes) paths.push_back(node->path);
  return paths;
}

}  // namespace

int64_t WatchLoop::WatchLimitFromEnvironment() {
  const char* text = getenv("RONIN_WATCH_LIMIT");
  if (!text || !*text) return -1;
  char* end = nullptr;
  errno = 0;
  long long limit = strtoll(text, &end, 10);
  return *end || errno || limit < 0 ? -1 : limit;
}

WatchLoop::End WatchLoop::WaitForManifestChange(std::vector<std::string> files) {
  std::string err;
  std::unique_ptr<FileWatcher> watcher = FileWatcher::Create(WatchLimitFromEnvironment(), &err);
  if (!watcher) {
    Error("--watch: %s", err.c_str());
    return End::kFailed;
  }
  std::unordered_map<std::string, int64_t> stamps;
  for (std::string& path : files) {
    CanonicalizePath(&path);
    stamps[path] = MtimeOf(path);
    int watch;
    if (watcher->Watch(std::string(DirName(path)), &watch, &err) == FileWatcher::WatchResult::kFailed)
      Warning("--watch: %s", err.c_str());
  }
  printf("ninja: watching the manifest for changes (Ctrl-C to stop)\n");
  fflush(stdout);
  for (;;) {
    FileWatcher::Changes changes;
    if (!watcher->Wait(-1, kSettleMillis, kSettleLimitMillis, &changes, &err)) {
      Error("--watch: %s", err.c_str());
      return End::kFailed;
    }
    if (changes.interrupted) return End::kInterrupted;
    std::vector<std::string_view> changed;
    for (const auto& stamp : stamps)
      if (MtimeOf(stamp.first) != stamp.second) changed.push_back(stamp.first);
    if (changed.empty() && !changes.overflow) continue;
    PrintWhatChanged(changed);
    return End::kReload;
  }
}

WatchLoop::WatchLoop(NinjaMain* ninja, const char* input_file, std::vector<std::string>&& manifest_files,
                     int argc, char** argv, std::unique_ptr<Status>* status)
    : ninja_(ninja), input_file_(input_file), argc_(argc), argv_(argv), status_(status) {
  std::string err;
  watcher_ = FileWatcher::Create(WatchLimitFromEnvironment(), &err);
  if (!watcher_) Error("--watch: %s", err.c_str());
  manifest_files_.reserve(manifest_files.size());
  for (std::string& path : manifest_files) {
    CanonicalizePath(&path);
    int64_t mtime = MtimeOf(path);
    manifest_files_.emplace_back(std::move(path), mtime);
  }
  manifest_files.clear();
  std::sort(manifest_files_.begin(), manifest_files_.end());
  manifest_files_.erase(std::unique(manifest_files_.begin(), manifest_files_.end(),
                                    [](const auto& a, const auto& b) { return a.first == b.first; }),
                        manifest_files_.end());
  std::vector<std::string_view> dirs;
  for (const auto& file : manifest_files_) dirs.push_back(DirName(file.first));
  WantDirectories(dirs);
  WantDirectoriesOfNewNodes();
  for (Edge* edge : ninja_->state_.edges())
    if (edge->dyndep()) dyndep_files_.insert(edge->dyndep());
}

WatchLoop::~WatchLoop() = default;

void WatchLoop::WantDirectories(const std::vector<std::string_view>& more) {
  // The directories, and those above them: a watch on the parent sees a
  // directory come back. "..", "../.." and the like are not climbed past.
  std::unordered_set<std::string_view> seen;  // (only while this runs)
  std::vector<Dir> added;
  for (std::string_view dir : more) {
    for (;;) {
      if (dir.empty()) dir = kCurrentDir;  // a view with storage: "no directory" is a null view
      if (FindDir(dir) || !seen.insert(dir).second) break;
      added.push_back({dir, -1, DirState::kNotWatched});
      bool dotdot = dir == ".." || (dir.size() > 3 && dir.substr(dir.size() - 3) == "/..");
      if (dir.empty() || dir == "/" || dotdot) break;
      dir = DirName(dir);
    }
  }
  if (added.empty()) return;
  dirs_.insert(dirs_.end(), added.begin(), added.end());
  std::sort(dirs_.begin(), dirs_.end(), [](const Dir& a, const Dir& b) { return a.path < b.path; });
  dirs_.shrink_to_fit();
}

WatchLoop::Dir* WatchLoop::FindDir(std::string_view path) {
  auto it = std::lower_bound(dirs_.begin(), dirs_.end(), path,
                             [](const Dir& dir, std::string_view key) { return dir.path < key; });
  return it != dirs_.end() && it->path == path ? &*it : nullptr;
}

void WatchLoop::WantDirectoriesOfNewNodes() {
  std::vector<std::string_view> dirs;
  std::string_view last_dir("\0", 1);  // nodes come in runs of one directory: each run costs one lookup
  size_t index = 0;
  for (const Node& node : ninja_->state_.nodes()) {
    if (index++ < nodes_seen_) continue;  // (a step costs an increment)
    std::string_view dir = DirName(node.path);
    if (dir != last_dir) dirs.push_back(dir);
    last_dir = dir;
  }
  nodes_seen_ = index;
  WantDirectories(dirs);
}

WatchLoop::End WatchLoop::Run() {
  if (!watcher_) return End::kFailed;
  // Watched before the first scan: a change made while it runs is not lost.
  if (!WatchTree()) return End::kFailed;
  bool reload = false;
  ExitStatus result = BuildRound({}, &reload);
  // An idle watch holds no more memory than a one-shot run would: once a
  // round is over and the tree has been quiet for a moment (the round's
  // own outputs wake the watch once more, and would bring back the code
  // pages given back before), what it need not hold goes back to the
  // kernel, once (a polling watch wakes every second).
  bool release_pending = true;
  bool quiet = false;  // the last wait ended with nothing to report
  for (;;) {
    if (result == kExitInterrupted) return End::kInterrupted;
    if (reload) return End::kReload;
    // Files the build discovered (deps) or no scan reached have no stat
    // yet: taken now, so that a later change is a difference from it.
    StatNodesNotYetSeen();
    // Directories the build created are watched from now on.
    if (!WatchTree()) return End::kFailed;
    if (!said_watching_) {
      said_watching_ = true;
      printf("ninja: watching for changes (%zu directories; Ctrl-C to stop)\n", watcher_->watch_count());
      fflush(stdout);
    }
    if (release_pending && quiet) {
      ReleaseIdleMemory();
      release_pending = false;
    }
    FileWatcher::Changes changes;
    std::string err;
    int64_t timeout = any_polled_ ? kPollMillis : -1;
    if (release_pending) timeout = timeout < 0 ? kQuietMillis : std::min(timeout, kQuietMillis);
    if (!watcher_->Wait(timeout, kSettleMillis, kSettleLimitMillis, &changes, &err)) {
      Error("--watch: %s", err.c_str());
      return End::kFailed;
    }
    quiet = changes.empty();
    if (changes.interrupted) return End::kInterrupted;
    std::vector<Node*> changed = ChangedNodes(changes, &reload);
    if (changed.empty() && !reload) {
      if (!WatchTree()) return End::kFailed;  // a directory may be back
      continue;
    }
    if (reload) {
      *status_ = NewStatus(ninja_->config_);  // the fresh run's
      return End::kReload;
    }
    result = BuildRound(changed, &reload);
    release_pending = true;
    quiet = false;
  }
}

void WatchLoop::ReleaseIdleMemory() {
  ninja_->state_.arena()->ReleaseUnusedTail();
  ReleaseMemoryBeforeIdle();
}

void WatchLoop::StatNodesNotYetSeen() {
  for (const Node& node : ninja_->state_.nodes()) {
    if (node.status_known()) continue;
    Node* unseen = ninja_->state_.LookupNode(node.path);
    std::string err;
    if (!unseen->Stat(&ninja_->disk_, &err)) unseen->ResetState();  // the scan reports the error
  }
}

bool WatchLoop::WatchTree() {
  WantDirectoriesOfNewNodes();  // a build discovers files (deps), in new directories too
  size_t newly_polled = 0;
  for (Dir& dir : dirs_) {
    if (dir.state != DirState::kNotWatched) continue;
    std::string err;
    int watch;
    switch (watcher_->Watch(std::string(dir.path), &watch, &err)) {
      case FileWatcher::WatchResult::kWatching:
        dir.state = DirState::kWatched;
        dir.watch = watch;
        break;
      case FileWatcher::WatchResult::kMissing:  // its parent's watch will tell when it comes
        break;
      case FileWatcher::WatchResult::kOutOfWatches:
        dir.state = DirState::kPolled;
        ++newly_polled;
        break;
      case FileWatcher::WatchResult::kFailed:
        Warning("--watch: %s; its files are checked every second instead", err.c_str());
        dir.state = DirState::kPolled;
        break;
    }
    any_polled_ = any_polled_ || dir.state == DirState::kPolled;
  }
  if (newly_polled > 0) {
    Warning("--watch: out of file watches (%s) with %zu directories watched: the files of %zu more are "
            "checked every second instead (raise the limit to watch them all)",
            watcher_->LimitDescription().c_str(), watcher_->watch_count(), newly_polled);
  }
  return true;
}

std::vector<std::string_view> WatchLoop::DirsOfWatch(int watch) const {
  // A walk over the directories: events are few, and a table by id would
  // be memory held while idle.
  std::vector<std::string_view> dirs;
  for (const Dir& dir : dirs_)
    if (dir.state == DirState::kWatched && dir.watch == watch) dirs.push_back(dir.path);
  return dirs;
}

void WatchLoop::LoseWatch(int watch, std::vector<Node*>* candidates) {
  for (Dir& dir : dirs_) {
    if (dir.state != DirState::kWatched || dir.watch != watch) continue;
    dir.state = DirState::kNotWatched;  // watched again when it is back
    AddNodesIn(dir.path, candidates);
  }
}

const std::pair<std::string, int64_t>* WatchLoop::FindManifestFile(std::string_view path) const {
  using File = std::pair<std::string, int64_t>;
  auto file = std::lower_bound(manifest_files_.begin(), manifest_files_.end(), path,
                               [](const File& a, std::string_view b) { return a.first < b; });
  return file != manifest_files_.end() && file->first == path ? &*file : nullptr;
}

bool WatchLoop::ManifestFileChanged(const std::string& path) {
  const auto* file = FindManifestFile(path);
  return file && MtimeOf(path) != file->second;
}

void WatchLoop::AddNodesIn(std::string_view dir, std::vector<Node*>* candidates) {
  // Rare (a directory came or went): a walk over every node will do.
  for (const Node& node : ninja_->state_.nodes())
    if (DirName(node.path) == dir) candidates->push_back(ninja_->state_.LookupNode(node.path));
}

void WatchLoop::AddCandidates(const std::string& path, std::vector<Node*>* candidates) {
  State& state = ninja_->state_;
  if (Node* node = state.LookupNode(path)) candidates->push_back(node);
  // An entry that came or went changes its directory's mtime too.
  if (Node* dir = state.LookupNode(DirName(path))) candidates->push_back(dir);
  // A directory worth a watch appeared: its files are new to us.
  if (FindDir(path)) AddNodesIn(path, candidates);
}

void WatchLoop::AddPolledCandidates(std::vector<Node*>* candidates) {
  for (const Node& node : ninja_->state_.nodes()) {
    Dir* dir = FindDir(DirName(node.path));
    if (dir && dir->state == DirState::kPolled) candidates->push_back(ninja_->state_.LookupNode(node.path));
  }
}

bool WatchLoop::StillBeingWritten(const std::string& path) {
  FileStatus status;
  return StatLink(path.c_str(), &status) && status.is_file() && status.links == 1;
}

std::vector<Node*> WatchLoop::ChangedNodes(const FileWatcher::Changes& changes, bool* reload) {
  State& state = ninja_->state_;
  std::vector<Node*> candidates;
  std::vector<std::string_view> manifest_changes;
  std::vector<std::string_view> dirs;
  int dirs_of = -1;  // the watch `dirs` are of (events come in runs of one)
  for (const FileWatcher::Changes::Entry& entry : changes.entries) {
    if (entry.watch != dirs_of) {
      dirs = DirsOfWatch(entry.watch);
      dirs_of = entry.watch;
    }
    for (std::string_view dir : dirs) {
      std::string path = dir.empty() ? entry.name : std::string(dir) + (dir == "/" ? "" : "/") + entry.name;
      // A regular file just created is looked at when its writer closes it.
      if (entry.created && StillBeingWritten(path)) continue;
      if (ManifestFileChanged(path)) {
        *reload = true;
        manifest_changes.push_back(FindManifestFile(path)->first);
      }
      AddCandidates(path, &candidates);
    }
  }
  for (int watch : changes.lost) LoseWatch(watch, &candidates);
  if (changes.overflow) {
    // Events were lost: anything may have changed. Nothing is guessed.
    candidates.clear();
    for (const Node& node : state.nodes()) candidates.push_back(state.LookupNode(node.path));
    for (const auto& file : manifest_files_)
      if (MtimeOf(file.first) != file.second) {
        *reload = true;
        manifest_changes.push_back(file.first);
      }
  }
  if (any_polled_) AddPolledCandidates(&candidates);
  if (*reload) {
    PrintWhatChanged(manifest_changes);
    ninja_->watch_changes_.assign(manifest_changes.begin(), manifest_changes.end());  // the fresh run's trigger
    return {};
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<Node*> changed;
  for (Node* node : candidates) {
    Node::Existence existence = node->existence;
    TimeStamp mtime = node->mtime;
    std::string err;
    if (!node->Stat(&ninja_->disk_, &err)) node->ResetState();  // the scan reports the error
    // (A node never stat'ed before is new to the graph, not changed.)
    bool was_known = existence != Node::Existence::kUnknown;
    if (!node->status_known() || (was_known && (node->existence != existence || node->mtime != mtime)))
      changed.push_back(node);
    if (dyndep_files_.count(node) && node->status_known() && (node->existence != existence || node->mtime != mtime))
      *reload = true;  // the graph holds what the dyndep file said: read it all again
  }
  // By path, for the line.
  std::sort(changed.begin(), changed.end(), [](const Node* a, const Node* b) { return a->path < b->path; });
  if (*reload) {
    std::vector<std::string_view> paths = PathsOf(changed);
    PrintWhatChanged(paths);
    ninja_->watch_changes_.assign(paths.begin(), paths.end());  // the fresh run's trigger
    return {};
  }
  return changed;
}

ExitStatus WatchLoop::BuildRound(const std::vector<Node*>& changed, bool* reload) {
  const BuildConfig& config = ninja_->config_;
  if (!changed.empty()) {
    PrintWhatChanged(PathsOf(changed));
    ninja_->watch_changes_.clear();  // for --events
    for (const Node* node : changed) ninja_->watch_changes_.emplace_back(node->path);
    // What a one-shot run starts with: its own status, explanations and
    // clock, and no verdict of an earlier scan.
    *status_ = NewStatus(config);
    ninja_->explanations_ = Explanations(config.explain);
    ninja_->start_time_millis_ = MonotonicMillis();
    // Only what the changes (and the last round's commands) reach is
    // scanned again: the rest keeps its verdict.
    ForgetStaleVerdicts(ninja_->state_, changed, ran_);
    ran_.clear();
    if (ninja_->skip_settlement_) ninja_->skip_settlement_->ForgetSettled();
  }
  FinishedEdges finished(status_->get());
  std::string err;
  if (!changed.empty()) {
    // As a one-shot run: the manifest first.
    bool rebuilt = ninja_->RebuildManifest(input_file_, false, &err, &finished);
    NoteWhatRan(finished.edges, reload);
    if (rebuilt) {
      *reload = true;
      manifest_rebuilt_ = true;
      return kExitSuccess;
    }
    if (!err.empty()) {
      Error("rebuilding '%s': %s", input_file_, err.c_str());
      return kExitFailure;
    }
    finished.edges.clear();
  }
  // A Ctrl-C while the round scanned: no build to start.
  if (watcher_->interrupted()) return kExitInterrupted;
  ExitStatus result = ninja_->RunBuild(argc_, argv_, &finished);
  NoteWhatRan(finished.edges, reload);
  return result;
}

void WatchLoop::NoteWhatRan(const std::vector<Edge*>& finished, bool* reload) {
  ran_.insert(ran_.end(), finished.begin(), finished.end());
  for (Edge* edge : finished) {
    for (Node* output : edge->outputs) {
      std::string err;
      if (!output->Stat(&ninja_->disk_, &err)) output->ResetState();
      // A rebuilt dyndep file or manifest file: the graph holds the old one.
      if (dyndep_files_.count(output) || ManifestFileChanged(std::string(output->path))) *reload = true;
    }
    ForgetDiscoveredDeps(ninja_->state_, edge);
  }
}

}  // namespace ronin
