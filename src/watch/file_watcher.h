// The kernel's word on which files changed, for `--watch`. Directories are
// watched, not files: one watch sees every entry of its directory (not of
// its subdirectories), so a build tree costs a watch per directory that
// holds a node. Changes are reported when settled: a file closed after
// writing, renamed into place, removed, or given new times; a file still
// being written is reported when its writer closes it (and, marked, when
// it is created: the caller tells a new link or directory from a file that
// is not written yet).
//
// The watcher keeps no paths (a large tree has thousands of directories):
// the caller names each directory's changes from the id it was given.
//
// One header, one file per platform: file_watcher_posix.cc (inotify, Linux);
// file_watcher_win.cc has none yet (ReadDirectoryChangesW is the way there):
// --watch is refused on Windows.
#ifndef RONIN_WATCH_FILE_WATCHER_H_
#define RONIN_WATCH_FILE_WATCHER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ronin {

class FileWatcher {
 public:
  // What one Wait saw. Directories are named by the id Watch gave them (the
  // caller knows their paths: the watcher keeps none).
  struct Changes {
    struct Entry {
      int watch;         // the directory's id
      std::string name;  // the entry's name in it
      // A new entry, reported at once: it may be a regular file still being
      // written (its writer's close is reported too), or something that
      // needs no writing (a directory, a link).
      bool created = false;
    };
    std::vector<Entry> entries;
    // Watched directories that went away (removed, renamed, unmounted):
    // their watches are gone (the ids may be given out again) and anything
    // in them may have changed.
    std::vector<int> lost;
    // The kernel dropped events (its queue overflowed): anything anywhere
    // may have changed.
    bool overflow = false;
    // Some entry came or went (created, deleted, moved away): what follows
    // at once (the new file's close, the file put back) belongs with it.
    // Without one, every change is settled (a writer closed its file, a
    // file was renamed into place or touched) and the wait ends at once.
    bool may_continue = false;
    // SIGINT, SIGTERM or SIGHUP arrived while waiting.
    bool interrupted = false;
    bool empty() const { return entries.empty() && lost.empty() && !overflow && !interrupted; }
  };

  enum class WatchResult {
    kWatching,     // watched: *watch is its id (the same for a directory reached twice)
    kMissing,      // no such directory (yet)
    kOutOfWatches, // the system's limit on watches is reached
    kFailed,       // any other error, in *err
  };

  // Whether this platform has a watcher; false with *err saying why (for
  // --watch's refusal, before anything is built).
  static bool Available(std::string* err);
  // A watcher for this platform, allowed at most `max_watches` watches
  // (besides the system's own limit; -1: none of ours). Null with *err
  // where the platform has none or the kernel refuses.
  static std::unique_ptr<FileWatcher> Create(int64_t max_watches, std::string* err);
  virtual ~FileWatcher() = default;

  // Watches the entries of directory `dir` ("" is the current directory).
  // Asking again for a directory watched is harmless but costs a system
  // call: callers keep track.
  virtual WatchResult Watch(const std::string& dir, int* watch, std::string* err) = 0;
  // Blocks, using no CPU, until something changed, `timeout_millis` passed
  // (-1: no limit) or a terminating signal arrived. It then takes every
  // change queued, and when one may continue (Changes::may_continue) goes
  // on collecting until `settle_millis` pass without another (a file
  // deleted and written again is one set of changes), but not past
  // `settle_limit_millis`. Settled changes alone end the wait at once: a
  // save is built without a fixed delay.
  // False with *err only on an error of the watcher itself.
  virtual bool Wait(int64_t timeout_millis, int64_t settle_millis, int64_t settle_limit_millis,
                    Changes* changes, std::string* err) = 0;
  // A terminating signal arrived since the watcher was made (they are
  // noted, not fatal, for its whole life: Wait then returns at once).
  virtual bool interrupted() const = 0;
  // Directories watched now.
  virtual size_t watch_count() const = 0;
  // The system's limit on watches, for messages: e.g.
  // "fs.inotify.max_user_watches = 8192".
  virtual std::string LimitDescription() const = 0;
};

}  // namespace ronin

#endif  // RONIN_WATCH_FILE_WATCHER_H_
