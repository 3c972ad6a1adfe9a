#include "log/build_log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "base/disk.h"
#include "base/file_io.h"
#include "base/hash.h"
#include "graph/graph.h"

namespace ronin {

namespace {

const char kSignaturePrefix[] = "# ninja log v";

}  // namespace

int BuildLog::ParseVersionLine(std::string_view line) {
  std::string_view prefix = kSignaturePrefix;
  if (line.substr(0, prefix.size()) != prefix) return 0;
  return atoi(std::string(line.substr(prefix.size())).c_str());
}

const char* BuildLog::VersionProblem(int version) {
  if (version < kOldestReadableVersion) return "build log version is too old";
  if (version > kCurrentVersion) return "build log version is too new";
  return nullptr;
}

uint64_t BuildLog::HashCommand(std::string_view command) {
  return RapidHash(command.data(), command.size());
}

bool BuildLog::CommandMatches(Entry* entry, std::string_view command) {
  if (!entry->legacy_hash) return entry->command_hash == HashCommand(command);
  if (entry->command_hash != MurmurHash64A(command.data(), command.size())) return false;
  // Verified against the old hash: from now on it is a version 7 entry.
  entry->command_hash = HashCommand(command);
  entry->legacy_hash = false;
  return true;
}

BuildLog::Entry* BuildLog::Lookup(std::string_view output) { return by_output_.Find(output); }

BuildLog::Entry* BuildLog::LookupFirstOutput(const Edge* edge) {
  if (!by_edge_complete_) return Lookup(edge->outputs[0]->path);
  Entry* entry = edge->id < by_edge_.size() ? by_edge_[edge->id] : nullptr;
  return entry && !entry->dropped ? entry : nullptr;
}

void BuildLog::FileUnderEdge(uint32_t edge_id, Entry* entry) {
  if (edge_id >= by_edge_.size()) by_edge_.resize(std::max<size_t>(edge_id + 1, by_edge_.size() * 2), nullptr);
  by_edge_[edge_id] = entry;
}

bool BuildLog::IsLive(const Entry& entry) const { return !entry.dropped; }

BuildLog::Entry* BuildLog::FindOrAdd(std::string_view output, uint64_t hash, const BuildLogUser* user) {
  if (Entry* entry = by_output_.Find(output, hash)) return entry;
  entries_.emplace_back();
  Entry* entry = &entries_.back();
  uint32_t edge_id = UINT32_MAX;
  std::string_view shared = user ? user->InternedPath(output, hash, &edge_id) : std::string_view();
  entry->output = shared.empty() ? arena_.Copy(output) : shared;
  by_output_.Insert(entry, hash);
  if (edge_id != UINT32_MAX) FileUnderEdge(edge_id, entry);
  return entry;
}

void BuildLog::Drop(const std::vector<Entry*>& entries) {
  if (entries.empty()) return;
  for (Entry* entry : entries) entry->dropped = true;
  // Rebuilt rather than erased from: drops happen only when recompacting.
  by_output_.Clear();
  for (Entry& entry : entries_)
    if (!entry.dropped) by_output_.Insert(&entry);
}

// One entry line, its fields cut in place (each NUL-terminated).
struct BuildLog::Line {
  char* fields[5];  // start, end, mtime, path, hash
  std::string_view path;
  uint64_t path_hash;
};

char* BuildLog::SplitLines(char* line, char* end, Line* lines, size_t room, size_t* count) {
  // Each line: start \t end \t mtime \t path \t hash. Lines with fewer
  // fields are skipped; a last line without '\n' was cut short and is ignored.
  *count = 0;
  while (line < end && *count < room) {
    char* newline = static_cast<char*>(memchr(line, '\n', end - line));
    if (!newline) return end;
    Line& out = lines[*count];
    int fields = 0;
    char* field = line;
    while (fields < 4) {
      char* tab = static_cast<char*>(memchr(field, '\t', newline - field));
      if (!tab) break;
      out.fields[fields++] = field;
      *tab = '\0';
      field = tab + 1;
    }
    if (fields == 4) {
      out.fields[4] = field;
      *newline = '\0';
      out.path = std::string_view(out.fields[3], out.fields[4] - 1 - out.fields[3]);
      ++*count;
    }
    line = newline + 1;
  }
  return line;
}

size_t BuildLog::ParseLines(char* begin, char* end, bool legacy, const BuildLogUser* user) {
  // A group of lines is cut and hashed first, and the slots of both tables
  // their paths go to are prefetched; then the group's entries are made.
  // Each line costs a few cache misses in the two tables, and this way they
  // overlap instead of following one another.
  const size_t kGroup = 16;
  Line lines[kGroup];
  size_t parsed = 0;
  for (char* line = begin; line < end;) {
    size_t count = 0;
    line = SplitLines(line, end, lines, kGroup, &count);
    for (size_t i = 0; i < count; ++i) {
      lines[i].path_hash = HashString(lines[i].path);
      by_output_.Prefetch(lines[i].path_hash);
      if (user) user->WillAskForPath(lines[i].path_hash);
    }
    for (size_t i = 0; i < count; ++i) {
      char** fields = lines[i].fields;
      Entry* entry = FindOrAdd(lines[i].path, lines[i].path_hash, user);
      // As Ninja: atoi, strtoll and strtoull(16), whatever the text holds.
      entry->start_time = static_cast<int>(ParseDecimal(fields[0]));
      entry->end_time = static_cast<int>(ParseDecimal(fields[1]));
      entry->mtime = ParseDecimal(fields[2]);
      entry->command_hash = ParseHex(fields[4]);
      entry->legacy_hash = legacy;
    }
    parsed += count;
  }
  return parsed;
}

BuildLog::LoadStatus BuildLog::Load(const std::string& path, std::string* err, const BuildLogUser* user) {
  // Every entry this load adds asks the user for its path: by_edge_ then
  // holds each edge's first output's entry, or that there is none.
  by_edge_complete_ = user && entries_.empty();
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) {
    if (errno == ENOENT) return LoadStatus::kNotFound;
    *err = strerror(errno);
    return LoadStatus::kError;
  }
  // Read in chunks, parsing whole lines: the log is never held whole, and a
  // small log gets a buffer of its own size. 128 KiB: the log is loaded
  // while the graph image is written, at the first run's peak of memory.
  FileStatus info;
  size_t file_size = StatDescriptor(fd, &info) ? static_cast<size_t>(info.size) : 0;
  std::vector<char> buffer(std::min<size_t>(file_size, 128 << 10) + 64);
  // A line takes ~100 bytes (three numbers, a path, a hash): room for that
  // many entries spares the table a rehash of all it holds at each doubling.
  const size_t kTypicalLineBytes = 128;
  by_output_.Reserve(by_output_.size() + file_size / kTypicalLineBytes);
  size_t filled = 0;       // bytes in buffer
  size_t file_offset = 0;  // file offset of buffer[0]
  int version = -1;
  bool legacy = false, at_eof = false;
  size_t total = 0;
  while (!at_eof) {
    if (filled == buffer.size()) buffer.resize(buffer.size() * 2);  // a huge line
    ssize_t n = read(fd, buffer.data() + filled, buffer.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = strerror(errno);
      close(fd);
      return LoadStatus::kError;
    }
    at_eof = n == 0;
    filled += static_cast<size_t>(n);
    char* begin = buffer.data();
    char* end = begin + filled;
    char* last_newline = const_cast<char*>(FindLastByte(begin, '\n', filled));
    if (version < 0) {
      if (!last_newline && !at_eof) continue;  // the header line is incomplete
      const char* header_end = last_newline ? static_cast<char*>(memchr(begin, '\n', filled)) : end;
      if (filled == 0) break;  // an empty file
      version = ParseVersionLine(std::string_view(begin, header_end - begin));
      if (const char* problem = VersionProblem(version)) {
        close(fd);
        *err = std::string(problem) + "; starting over";
        unlink(path.c_str());
        // Not a failure: without a log every output is rebuilt anyway.
        // Reported as "not found" (with the warning), as Ninja does: -t
        // recompact and -t restat then leave the deleted log alone.
        return LoadStatus::kNotFound;
      }
      legacy = version < kCurrentVersion;
    }
    if (!last_newline) continue;
    char* parsed_end = last_newline + 1;
    total += ParseLines(begin, parsed_end, legacy, user);
    size_t consumed = static_cast<size_t>(parsed_end - begin);
    memmove(begin, parsed_end, filled - consumed);
    filled -= consumed;
    file_offset += consumed;
  }
  close(fd);
  // A crash can leave a partial last line: it is cut before the first
  // append (by the writer, under the build directory's lock), not here, as
  // a reader (-n, a tool) must not touch a log another ninja may be writing.
  partial_tail_offset_ = filled > 0 ? static_cast<off_t>(file_offset) : -1;
  if (version < 0) return LoadStatus::kSuccess;  // empty

  size_t unique = by_output_.size();
  needs_upgrade_ = legacy;
  loaded_version_ = version;
  // Rewrite a log that has grown mostly stale lines.
  const size_t kMinCompactionEntryCount = 100;
  const size_t kCompactionRatio = 3;
  if (total > kMinCompactionEntryCount && total > unique * kCompactionRatio) needs_recompaction_ = true;
  return LoadStatus::kSuccess;
}

bool BuildLog::OpenForWrite(const std::string& path, const BuildLogUser& user, std::string* /*err*/) {
  user_ = &user;
  if (needs_recompaction_ && !needs_upgrade_) {
    // A recompaction that fails (a full disk) keeps the old log, which
    // stays valid; appending goes on as if it had not been tried.
    std::string recompact_err;
    Recompact(path, user, &recompact_err);
  }
  // Opened lazily: a build that runs nothing writes no log.
  file_path_ = path;
  return true;
}

bool BuildLog::OpenForWriteIfNeeded() {
  if (file_ || file_path_.empty()) return true;
  if (partial_tail_offset_ >= 0) {
    // So the next line is not glued to the partial one.
    if (!TruncatePath(file_path_.c_str(), partial_tail_offset_) && errno != ENOENT) return false;
    partial_tail_offset_ = -1;
  }
  if (needs_upgrade_ && user_) {
    std::string err;
    if (!Recompact(file_path_, *user_, &err)) return false;
  }
  file_ = OpenStream(file_path_.c_str(), "ab");
  if (!file_) return false;
  if (setvbuf(file_, nullptr, _IOLBF, BUFSIZ) != 0) return false;
  // Windows' C library leaves an append stream at 0 until the first write:
  // without the seek an existing log would get a second signature line.
  fseek(file_, 0, SEEK_END);
  if (ftell(file_) == 0) {
    if (fprintf(file_, "%s%d\n", kSignaturePrefix, kCurrentVersion) < 0) return false;
    if (fflush(file_) != 0) return false;
  }
  return true;
}

bool BuildLog::WriteEntry(FILE* file, const Entry& entry) {
  return fprintf(file, "%d\t%d\t%" PRId64 "\t%s\t%" PRIx64 "\n", entry.start_time,
                 entry.end_time, entry.mtime, entry.output.data(), entry.command_hash) > 0;
}

bool BuildLog::RecordCommand(Edge* edge, int start_time, int end_time, TimeStamp mtime) {
  uint64_t hash = HashCommand(edge->EvaluateCommand(true));
  // Opening may first rewrite the whole log (an old version's upgrade).
  if (!OpenForWriteIfNeeded()) return false;
  for (Node* output : edge->outputs) {
    Entry* entry = FindOrAdd(output->path);
    if (output == edge->outputs[0] && by_edge_complete_) FileUnderEdge(edge->id, entry);
    entry->command_hash = hash;
    entry->legacy_hash = false;
    entry->start_time = start_time;
    entry->end_time = end_time;
    entry->mtime = mtime;
    if (file_) {
      if (!WriteEntry(file_, *entry)) return false;
      if (fflush(file_) != 0) return false;
    }
  }
  return true;
}

void BuildLog::Close() {
  if (file_) fclose(file_);
  file_ = nullptr;
}

bool BuildLog::WriteAll(FILE* file, const BuildLogUser* user) {
  // Without a manifest nothing can be verified: keep an old log's version
  // so its hashes stay meaningful.
  int version = !user && needs_upgrade_ ? loaded_version_ : kCurrentVersion;
  if (fprintf(file, "%s%d\n", kSignaturePrefix, version) < 0) return false;
  std::vector<Entry*> dropped;
  std::string command;
  for (Entry& entry : entries_) {
    if (!IsLive(entry)) continue;
    if (user && user->IsPathDead(entry.output)) {
      dropped.push_back(&entry);
      continue;
    }
    if (user && entry.legacy_hash && user->CurrentCommand(entry.output, &command) &&
        !CommandMatches(&entry, command)) {
      // The command changed since the old ninja ran it: dirty either way.
      dropped.push_back(&entry);
      continue;
    }
    if (!WriteEntry(file, entry)) return false;
  }
  Drop(dropped);
  return true;
}

namespace {

// The length of the file up to and including its last newline.
off_t CompleteLinesLength(const std::string& path) {
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) return 0;
  FileStatus st;
  int64_t end = StatDescriptor(fd, &st) ? static_cast<int64_t>(st.size) : 0;
  char buffer[4096];
  while (end > 0) {
    int64_t start = end > static_cast<int64_t>(sizeof(buffer)) ? end - static_cast<int64_t>(sizeof(buffer)) : 0;
    int64_t n = ReadAt(fd, buffer, static_cast<size_t>(end - start), start);
    if (n <= 0) break;
    if (const char* newline = FindLastByte(buffer, '\n', static_cast<size_t>(n))) {
      end = start + (newline - buffer) + 1;
      break;
    }
    end = start;
  }
  close(fd);
  return end;
}

}  // namespace

bool BuildLog::WriteFile(const std::string& path, const BuildLogUser* user) {
  FILE* file = OpenStream(path.c_str(), "wb");
  bool ok = file && WriteAll(file, user);
  if (file && fclose(file) != 0) ok = false;
  return ok;
}

bool BuildLog::WriteReplacement(const std::string& path, const std::string& temp_path,
                                const BuildLogUser* user, std::string* err) {
  // Written to a temporary file and renamed over the log: the log is
  // replaced whole or not at all. A failure (a full disk) leaves no
  // temporary file behind.
  if (WriteFile(temp_path, user) && RenameReplacing(temp_path.c_str(), path.c_str())) {
    partial_tail_offset_ = -1;
    return true;
  }
  int saved = errno;  // the caller looks at it (ENOSPC)
  *err = strerror(saved);
  unlink(temp_path.c_str());
  errno = saved;
  return false;
}

bool BuildLog::Recompact(const std::string& path, const BuildLogUser& user, std::string* err) {
  Close();
  std::string temp_path = path + ".recompact";
  if (!WriteReplacement(path, temp_path, &user, err)) {
    if (!IsDiskFull(errno)) return false;
    // No room for a second copy: rewrite the log in place, which only needs
    // the room it frees (the compacted log is smaller). A crash meanwhile
    // can only lose lines, whose outputs then rebuild: the trade Ninja
    // always makes.
    if (!RewriteInPlace(path, &user, err)) return false;
  }
  needs_recompaction_ = false;
  needs_upgrade_ = false;
  return true;
}

bool BuildLog::RewriteInPlace(const std::string& path, const BuildLogUser* user, std::string* err) {
  if (WriteFile(path, user)) {
    partial_tail_offset_ = -1;
    return true;
  }
  *err = strerror(errno);
  // Whatever was written ends somewhere in a line: cut there before appending.
  partial_tail_offset_ = CompleteLinesLength(path);
  return false;
}

bool BuildLog::Restat(const std::string& path, const DiskInterface& disk,
                      const std::vector<std::string>& outputs, std::string* err) {
  Close();
  for (Entry& entry : entries_) {
    if (!IsLive(entry)) continue;
    bool wanted = outputs.empty();
    for (const std::string& output : outputs) wanted = wanted || output == entry.output;
    if (!wanted) continue;
    TimeStamp mtime = disk.Stat(std::string(entry.output), err);
    if (mtime == -1) return false;
    entry.mtime = mtime;
  }
  return WriteReplacement(path, path + ".restat", nullptr, err);
}

}  // namespace ronin
