// .ninja_log: one line per output of every finished command, recording
// when it ran, the mtime to compare inputs against, and a hash of the
// command line. Byte-compatible with Ninja 1.13's version 7.
//
// Beyond Ninja: logs of versions 5 and 6 (MurmurHash64A, written by ninja
// 1.9-1.12) are read too; their entries are checked against the old hash
// and the file is rewritten as version 7, so nothing up to date rebuilds.
#ifndef RONIN_LOG_BUILD_LOG_H_
#define RONIN_LOG_BUILD_LOG_H_

#include <stdio.h>
#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/arena.h"
#include "base/string_table.h"
#include "base/util.h"

namespace ronin {

struct Edge;

// What the log needs to know about the current manifest.
class BuildLogUser {
 public:
  virtual ~BuildLogUser() = default;
  // True if the path is neither produced by the manifest nor present on disk.
  virtual bool IsPathDead(std::string_view path) const = 0;
  // The hashed command (command plus rspfile suffix) of the edge that
  // produces `path` now; false if no edge does.
  virtual bool CurrentCommand(std::string_view path, std::string* command) const = 0;
  // A copy of `path` that outlives the log (the graph's interned path), or
  // an empty view if there is none; saves the log a copy of its own. When
  // `path` is the first output of an edge, *edge_id gets the edge's id.
  // `path_hash` is HashString(path), which the log has computed already.
  virtual std::string_view InternedPath(std::string_view path, uint64_t path_hash, uint32_t* edge_id) const = 0;
  // A hint that InternedPath will soon be asked for the path with this hash.
  virtual void WillAskForPath(uint64_t /*path_hash*/) const {}
};

class BuildLog {
 public:
  static constexpr int kCurrentVersion = 7;
  static constexpr int kOldestReadableVersion = 5;

  struct Entry {
    std::string_view output;  // arena-owned
    uint64_t command_hash = 0;
    int start_time = 0;
    int end_time = 0;
    TimeStamp mtime = 0;
    // Set for entries read from a v5/v6 log: command_hash is a MurmurHash64A.
    bool legacy_hash = false;
    bool dropped = false;  // removed by a recompaction
  };

  enum class LoadStatus { kError, kSuccess, kNotFound };

  BuildLog() = default;
  ~BuildLog() { Close(); }
  BuildLog(const BuildLog&) = delete;
  BuildLog& operator=(const BuildLog&) = delete;

  // A warning comes back in *err: an unreadable version is deleted and
  // reported as kNotFound with "starting over".
  // With a `user`, paths the graph already knows are shared, not copied.
  LoadStatus Load(const std::string& path, std::string* err, const BuildLogUser* user = nullptr);
  // Remembers where to write; the file is created on the first record.
  // Recompacts first when the loaded log asked for it.
  bool OpenForWrite(const std::string& path, const BuildLogUser& user, std::string* err);
  bool RecordCommand(Edge* edge, int start_time, int end_time, TimeStamp mtime);
  void Close();

  Entry* Lookup(std::string_view output);
  // Lookup(edge->outputs[0]->path), without the lookup when the log was
  // loaded with a user: each entry read was then filed under the edge whose
  // first output it is (the dirty scan asks this for every edge).
  Entry* LookupFirstOutput(const Edge* edge);
  // True if `command` matches the entry's hash (whatever hash kind it has).
  // A matching legacy entry is converted to the current hash in memory.
  static bool CommandMatches(Entry* entry, std::string_view command);
  static uint64_t HashCommand(std::string_view command);
  // The version a header line ("# ninja log v7") names, 0 if it is none.
  static int ParseVersionLine(std::string_view line);
  // Why a log of `version` cannot be read ("build log version is too old"),
  // or null if it can. Readers of the log (tools) report it the same way.
  static const char* VersionProblem(int version);

  // Rewrites the log with one line per live output (dropping dead ones).
  bool Recompact(const std::string& path, const BuildLogUser& user, std::string* err);
  // Re-stats outputs (all, or those listed) and rewrites their recorded mtimes.
  bool Restat(const std::string& path, const class DiskInterface& disk,
              const std::vector<std::string>& outputs, std::string* err);

  // True when the loaded file was a v5/v6 log that still needs rewriting.
  bool needs_upgrade() const { return needs_upgrade_; }
  const std::deque<Entry>& entries() const { return entries_; }
  size_t entry_count() const { return by_output_.size(); }

 private:
  Entry* FindOrAdd(std::string_view output, const BuildLogUser* user = nullptr) {
    return FindOrAdd(output, HashString(output), user);
  }
  Entry* FindOrAdd(std::string_view output, uint64_t hash, const BuildLogUser* user);
  struct Line;
  // Cuts the fields of each complete line in [line, end) into `lines`, up to
  // `room` of them; returns where the next line starts.
  static char* SplitLines(char* line, char* end, Line* lines, size_t room, size_t* count);
  void FileUnderEdge(uint32_t edge_id, Entry* entry);
  // False for entries dropped by a recompaction (they stay in the deque).
  bool IsLive(const Entry& entry) const;
  void Drop(const std::vector<Entry*>& entries);
  bool OpenForWriteIfNeeded();
  bool WriteAll(FILE* file, const BuildLogUser* user);
  // Creates or truncates `path` and writes every live entry to it.
  bool WriteFile(const std::string& path, const BuildLogUser* user);
  // Truncates the log and writes every live entry (when no room is left
  // for a temporary copy).
  bool RewriteInPlace(const std::string& path, const BuildLogUser* user, std::string* err);
  // Writes every live entry to temp_path and renames it over path.
  bool WriteReplacement(const std::string& path, const std::string& temp_path, const BuildLogUser* user,
                        std::string* err);
  // Parses entry lines in place; returns how many there were.
  size_t ParseLines(char* begin, char* end, bool legacy, const BuildLogUser* user);
  static bool WriteEntry(FILE* file, const Entry& entry);

  Arena arena_;
  std::deque<Entry> entries_;
  StringTable<Entry, &Entry::output> by_output_;
  // Entries by the id of the edge whose first output they are; complete
  // (every such entry filed) only after a load with a user.
  std::vector<Entry*> by_edge_;
  bool by_edge_complete_ = false;
  FILE* file_ = nullptr;
  std::string file_path_;
  const BuildLogUser* user_ = nullptr;
  bool needs_recompaction_ = false;
  bool needs_upgrade_ = false;
  off_t partial_tail_offset_ = -1;  // where a cut-off last line starts, if any
  int loaded_version_ = kCurrentVersion;
};

}  // namespace ronin

#endif  // RONIN_LOG_BUILD_LOG_H_
