// .ronin_state: ronin's own per-build-directory state, beside .ninja_log.
// Ninja never reads it; ronin reads and writes it only when an option that
// needs it is on (StateFileWanted). Each feature owns one kind of record:
// a key (a path) and an opaque payload. The file is a versioned header and
// append-only checksummed records; the last record for a (kind, key) wins.
// A damaged or truncated tail is cut at the last good record, and the file
// is rewritten whole when dead records dominate. Format: doc/design.md.
#ifndef RONIN_LOG_STATE_FILE_H_
#define RONIN_LOG_STATE_FILE_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "log/state_table.h"

namespace ronin {

struct BuildConfig;

class StateFile {
 public:
  static constexpr uint32_t kCurrentVersion = 1;
  // A record larger than this is damage, not data.
  static constexpr uint32_t kMaxRecordSize = 16 << 20;

  // Each module owns one kind of record. Kinds this build does not know are
  // skipped on load (and dropped on recompaction), so newer files stay readable.
  enum class Kind : uint8_t {
    kFileDigest = 1,     // content hashing: path -> (mtime, size, digest)
    kEdgeInputs = 2,     // content hashing: first output -> digest of inputs at last run
    kEdgeResources = 3,  // scheduler: first output -> peak RSS etc. (payload owned by sched)
    kEdgeOutcome = 4,    // -t trace: first output -> what its last run showed (log/edge_outcome.h)
    kEdgeSkip = 5,       // -t trace: first output -> the build that last skipped it by content
    kEdgeCached = 6,     // obsolete (a restore is now EdgeOutcome's cached=1): no longer written or read
    kAuditedEdge = 7,    // --audit: first output -> its last audited run's findings (audit_findings.h)
    kAuditedBuild = 8,   // --audit: "" -> the last audited build (audit_findings.h)
  };

  StateFile() = default;
  ~StateFile() { Close(); }
  StateFile(const StateFile&) = delete;
  StateFile& operator=(const StateFile&) = delete;

  // Reads the file (a missing file is an empty state) and remembers where to
  // append. A damaged tail is cut and a bad header or unknown version starts
  // over; either way *err then holds a warning and the result is true.
  // False only when the file cannot be read or repaired.
  bool Load(const std::string& path, std::string* err);
  // Load, but only at the first Find, ForEach or Put: a build that never
  // asks (a no-op) never reads the file. Warnings are printed then, as
  // "ninja: warning: PATH: ..."; a file that cannot be read is then
  // treated as empty and left alone.
  void LoadOnFirstUse(const std::string& path);
  // Load for a tool that only reads (-t trace): a damaged tail or header is
  // skipped in memory but the file is left as it is, and nothing is written.
  bool LoadReadOnly(const std::string& path, std::string* err);
  // The payload last recorded for (kind, key); valid until the next Put.
  std::optional<std::string_view> Find(Kind kind, std::string_view key) const;
  // Visits every live (key, payload) of one kind, in key order.
  void ForEach(Kind kind, const std::function<void(std::string_view key, std::string_view payload)>& visit) const;
  // Records (kind, key) = payload: in memory at once, and appended to the
  // file with one write (the file is opened, and recompacted if needed, at
  // the first Put that changes something). A failed write leaves the file
  // as it was and comes back as false with *err; memory is updated anyway.
  bool Put(Kind kind, std::string_view key, std::string_view payload, std::string* err);
  // Records (kind, key) = payload for later runs, for a record this run
  // never reads back (-t trace's outcomes): while nothing has read the file
  // (LoadOnFirstUse), it goes to the file only, and the file's records are
  // not loaded into memory for it. A later Find loads the file, appended
  // records included. Otherwise the same as Put.
  bool Append(Kind kind, std::string_view key, std::string_view payload, std::string* err);
  // Keeps later Puts in memory only (-n: a dry run writes no state).
  void DisableWrites() { writes_disabled_ = true; }
  bool Close();

  // Where the file is (for messages).
  const std::string& path() const { return path_; }

  // Rewrites the file with one record per live (kind, key).
  bool Recompact(std::string* err);
  size_t live_count() const;  // (of what is loaded)
  size_t loaded_record_count() const { return loaded_records_; }

 private:
  using RecordVisitor = std::function<void(uint8_t kind, std::string_view key, std::string_view payload)>;
  static bool IsKnownKind(uint8_t kind);
  static bool NeedsRecompaction(size_t records, size_t live);
  void EnsureLoaded() const;
  // Whether an Append to the unread file must load it first: its header or
  // tail needs repair, or dead records dominate.
  bool NeedsLoadBeforeAppend() const;
  // Drops the loaded records; the next Find reads the file again.
  void Unload();
  // Reads the records after the header, a chunk at a time (the file, most
  // of it replaced records, is never in memory whole), handing each to
  // `visit`; returns the end of the last good one, or -1 with errno set
  // when reading fails.
  static off_t LoadRecords(int fd, const RecordVisitor& visit);
  enum class Parsed { kRecord, kIncomplete, kBad };
  // Visits the record at the start of `data`; *size: its bytes.
  static Parsed ParseRecord(std::string_view data, size_t* size, const RecordVisitor& visit);
  // Opens the file for appending, recompacting it first if dead records
  // dominate (*recompacted: the rewrite holds every record in memory).
  bool OpenForAppend(bool* recompacted, std::string* err);
  bool AppendRecord(Kind kind, std::string_view key, std::string_view payload, std::string* err);
  bool WriteAll(int fd, const std::string& bytes, std::string* err);

  StateTable table_;
  std::string path_;
  int fd_ = -1;
  size_t loaded_records_ = 0;
  bool writes_disabled_ = false;
  bool read_only_ = false;  // LoadReadOnly: not even a repair
  bool load_pending_ = false;
};

// Whether this run reads and writes .ronin_state at all (false without any
// ronin option that needs it: then ronin neither reads nor writes it).
bool StateFileWanted(const BuildConfig& config);

// The bytes of one record (header and checksum included), as appended.
std::string EncodeStateRecord(StateFile::Kind kind, std::string_view key, std::string_view payload);
// The file header: signature and version.
std::string StateFileHeader(uint32_t version = StateFile::kCurrentVersion);

}  // namespace ronin

#endif  // RONIN_LOG_STATE_FILE_H_
