// `--watch`: build the requested targets, then stay running with the graph,
// the logs and the files' stats in memory. The kernel says which files
// changed (watch/file_watcher.h); each settled set of changes is a round:
// the changed files alone are stat'ed again, and the targets are built as
// a one-shot ninja would build them now (the same scan over the same graph,
// the same output; only what the changes reach is scanned again), after a line saying what changed. A change to a
// manifest file, a regenerated manifest or a rebuilt dyndep file means a
// fresh run instead: the caller loads everything again.
//
// What the rounds keep between them (watch_loop.cc): every node's stat (a
// file not seen to change keeps its mtime), the discovered deps each edge
// loaded (forgotten for the edges that ran, whose deps changed), the logs
// (open, and updated in memory by the build), and the verdicts of the
// last scan that no change reached (scan/stale_verdicts.h).
#ifndef RONIN_DRIVER_WATCH_LOOP_H_
#define RONIN_DRIVER_WATCH_LOOP_H_

#include <memory>
#include <string>
#include <string_view>
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
  WatchLoop(NinjaMain* ninja, const char* input_file, std::vector<std::string>&& manifest_files, int argc,
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
  // After kReload: the round rebuilt the manifest (the fresh run's
  // RebuildManifest is told, as after a one-shot regeneration).
  bool manifest_rebuilt() const { return manifest_rebuilt_; }

  // A test's limit on watches (RONIN_WATCH_LIMIT), -1 when none: running
  // out of them is then tried without filling the system's table.
  static int64_t WatchLimitFromEnvironment();

  // When the manifest does not load: waits until one of `files` (those it
  // read, and the input file) changes, so that it is loaded again
  // (kReload), or until interrupted.
  static End WaitForManifestChange(std::vector<std::string> files);

 private:
  // Watches every directory the graph has a file in (and their parents,
  // so that a directory that appears later is seen); says so once.
  bool WatchTree();
  // Adds these directories, and those above them, to those worth a watch.
  void WantDirectories(const std::vector<std::string_view>& dirs);
  // ...the directories of nodes made since the last call.
  void WantDirectoriesOfNewNodes();
  struct Dir;
  Dir* FindDir(std::string_view path);
  // Which directories a watch id stands for (usually one; two names of one
  // directory, through a link, share an id).
  std::vector<std::string_view> DirsOfWatch(int watch) const;
  // A watch is gone: its directories' files are candidates, and they are
  // watched again when they are back.
  void LoseWatch(int watch, std::vector<Node*>* candidates);
  // Stats every node the graph has no stat of.
  void StatNodesNotYetSeen();
  // The nodes the changes may concern, stat'ed again; those whose stat
  // differs are the round's changes. Sets *reload for a manifest file.
  std::vector<Node*> ChangedNodes(const FileWatcher::Changes& changes, bool* reload);
  void AddCandidates(const std::string& path, std::vector<Node*>* candidates);
  void AddNodesIn(std::string_view dir, std::vector<Node*>* candidates);
  // The files in directories no watch covers (out of watches).
  void AddPolledCandidates(std::vector<Node*>* candidates);
  // A regular file just created, not yet closed by its writer (maybe).
  static bool StillBeingWritten(const std::string& path);
  const std::pair<std::string, int64_t>* FindManifestFile(std::string_view path) const;
  bool ManifestFileChanged(const std::string& path);
  // One build of the targets, with its "what changed" line first.
  ExitStatus BuildRound(const std::vector<Node*>& changed, bool* reload);
  // Before sleeping: memory an idle watch need not hold goes back to the
  // kernel (base/idle_memory.h, the graph arena's unused tail).
  void ReleaseIdleMemory();
  // After a build: what ran has new outputs and new deps.
  void NoteWhatRan(const std::vector<Edge*>& finished, bool* reload);

  NinjaMain* ninja_;
  const char* input_file_;
  int argc_;
  char** argv_;
  std::unique_ptr<Status>* status_;
  std::unique_ptr<FileWatcher> watcher_;
  // Every directory worth a watch, sorted by path, and what became of its
  // watch. Paths are views into the graph's node paths (or the keys of
  // manifest_files_), which live as long as the loop: a large tree has
  // thousands of directories, and an idle watch holds no more memory than
  // a one-shot run.
  enum class DirState : uint8_t { kNotWatched, kWatched, kPolled };
  struct Dir {
    std::string_view path;
    int watch;  // its watch id, when kWatched
    DirState state;
  };
  std::vector<Dir> dirs_;
  bool any_polled_ = false;  // some directory is past the watch limit
  // Canonical path and mtime when loaded, sorted by path.
  std::vector<std::pair<std::string, int64_t>> manifest_files_;
  std::unordered_set<const Node*> dyndep_files_;
  // The edges that ran since the last scan: their verdicts are stale.
  std::vector<Edge*> ran_;
  size_t nodes_seen_ = 0;  // nodes whose directories are in dirs_
  bool said_watching_ = false;
  bool manifest_rebuilt_ = false;
};

}  // namespace ronin

#endif  // RONIN_DRIVER_WATCH_LOOP_H_
