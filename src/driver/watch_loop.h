// `--watch`: build the requested targets, then stay running with the graph,
// the logs and the files' stats in memory. The kernel says which files
// changed (watch/file_watcher.h); each settled set of changes is a round:
// the changed files alone are stat'ed again, and the targets are built as
// a one-shot ninja would build them now (the same scan over the same graph,
// the same output), after a line saying what changed. A change to a
// manifest file, a regenerated manifest or a rebuilt dyndep file means a
// fresh run instead: the caller loads everything again.
//
// What the rounds keep between them (watch_loop.cc): every node's stat (a
// file not seen to change keeps its mtime), the discovered deps each edge
// loaded (forgotten for the edges that ran, whose deps changed), the logs
// (open, and updated in memory by the build).
#ifndef RONIN_DRIVER_WATCH_LOOP_H_
#define RONIN_DRIVER_WATCH_LOOP_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/exit_status.h"
#include "status/status.h"
#include "watch/file_watcher.h"

namespace ronin {

class NinjaMain;
struct Edge;
struct Node;

class WatchLoop {
 public:
  // The run's loaded state and its manifest files (GraphLoadOptions); the
  // targets as on the command line. `status` is the run's: replaced by a
  // fresh one for each round (a reload keeps the one its round made, so
  // the counters go on as in a one-shot run that regenerates).
  WatchLoop(NinjaMain* ninja, const char* input_file, const std::vector<std::string>& manifest_files, int argc,
            char** argv, std::unique_ptr<Status>* status);
  ~WatchLoop();

  enum class End {
    kReload,       // a manifest file changed, or was regenerated: load it all again
    kInterrupted,  // Ctrl-C (or SIGTERM, SIGHUP): the exit status is 130
    kFailed,       // the watcher itself failed (said why)
  };
  // Builds the targets, then waits for changes and builds again, until one
  // of End happens.
  End Run();

  // A test's limit on watches (RONIN_WATCH_LIMIT), -1 when none: running
  // out of them is then tried without filling the system's table.
  static int64_t WatchLimitFromEnvironment();

  // When the manifest does not load: waits until one of `files` (those it
  // read, and the input file) changes, so that it is loaded again
  // (kReload), or until interrupted.
  static End WaitForManifestChange(std::vector<std::string> files);

 private:
  struct Round;
  // Watches every directory the graph has a file in (and their parents,
  // so that a directory that appears later is seen); says so once.
  bool WatchTree();
  // Adds `dir` and the directories above it to those worth a watch.
  void WantDirectory(std::string dir);
  // ...and the directories of nodes made since the last call.
  void WantDirectoriesOfNewNodes();
  // Stats every node the graph has no stat of.
  void StatNodesNotYetSeen();
  void NoteOutOfWatches(const std::string& dir);
  // The nodes the changes may concern, stat'ed again; those whose stat
  // differs are the round's changes. Sets *reload for a manifest file.
  std::vector<Node*> ChangedNodes(const FileWatcher::Changes& changes, bool* reload);
  void AddCandidates(const std::string& path, std::vector<Node*>* candidates);
  void AddNodesIn(const std::string& dir, std::vector<Node*>* candidates);
  // Re-stats the files in directories no watch covers (out of watches).
  void AddUnwatchedCandidates(std::vector<Node*>* candidates);
  bool ManifestFileChanged(const std::string& path);
  // One build of the targets, with its "what changed" line first.
  ExitStatus BuildRound(const std::vector<Node*>& changed, bool* reload);
  // After a build: what ran has new outputs and new deps.
  void NoteWhatRan(const std::vector<Edge*>& finished, bool* reload);

  NinjaMain* ninja_;
  const char* input_file_;
  int argc_;
  char** argv_;
  std::unique_ptr<Status>* status_;
  std::unique_ptr<FileWatcher> watcher_;
  std::vector<std::string> dirs_;                  // every directory worth a watch
  std::unordered_set<std::string> wanted_dirs_;    // the same, for lookups
  std::unordered_set<std::string> unwatched_dirs_; // past the watch limit: polled
  std::unordered_map<std::string, int64_t> manifest_files_;  // canonical path -> mtime when loaded
  std::unordered_set<const Node*> dyndep_files_;
  size_t nodes_seen_ = 0;  // nodes whose directories are in dirs_
  bool said_watching_ = false;
};

}  // namespace ronin

#endif  // RONIN_DRIVER_WATCH_LOOP_H_
