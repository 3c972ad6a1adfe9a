#include "log/state_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "base/build_config.h"
#include "base/file_io.h"
#include "base/hash.h"
#include "base/util.h"

namespace ronin {

namespace {

const char kSignature[] = "# ronin state\n";
const size_t kSignatureSize = sizeof(kSignature) - 1;
const size_t kHeaderSize = kSignatureSize + 4;
// Record: u32 body size, body (u8 kind, u32 key size, key, payload), u64
// checksum of the size and body. Integers are little-endian.
const size_t kRecordOverhead = 4 + 8;
const size_t kBodyMinimum = 1 + 4;
const uint64_t kChecksumSeed = 0x726f6e696e737461ull;  // "roninsta"

void PutU32(std::string* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}

void PutU64(std::string* out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}

uint64_t GetLE(const char* p, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(p[i]);
  return value;
}

uint64_t Checksum(const char* data, size_t size) { return RapidHashSeeded(data, size, kChecksumSeed); }

// Reads the file's header: whether it is ours, this version. *size: the
// bytes read (-1: a read error).
bool ReadHeader(int fd, int64_t* size) {
  char header[kHeaderSize];
  *size = ReadUpTo(fd, header, kHeaderSize);
  return *size == static_cast<int64_t>(kHeaderSize) && memcmp(header, kSignature, kSignatureSize) == 0 &&
         GetLE(header + kSignatureSize, 4) == StateFile::kCurrentVersion;
}

}  // namespace

std::string StateFileHeader(uint32_t version) {
  std::string header(kSignature, kSignatureSize);
  PutU32(&header, version);
  return header;
}

std::string EncodeStateRecord(StateFile::Kind kind, std::string_view key, std::string_view payload) {
  std::string record;
  record.reserve(kRecordOverhead + kBodyMinimum + key.size() + payload.size());
  PutU32(&record, static_cast<uint32_t>(kBodyMinimum + key.size() + payload.size()));
  record.push_back(static_cast<char>(kind));
  PutU32(&record, static_cast<uint32_t>(key.size()));
  record.append(key);
  record.append(payload);
  PutU64(&record, Checksum(record.data(), record.size()));
  return record;
}

bool StateFileWanted(const BuildConfig& config) {
  return config.ronin.content_hash || config.ronin.keep_free_memory > 0 || !config.ronin.cache.empty() ||
         config.ronin.audit != RoninOptions::Audit::kOff;
}

bool StateFile::IsKnownKind(uint8_t kind) {
  return kind >= static_cast<uint8_t>(Kind::kFileDigest) && kind <= static_cast<uint8_t>(Kind::kAuditedBuild);
}

void StateFile::LoadOnFirstUse(const std::string& path) {
  path_ = path;
  load_pending_ = true;
}

void StateFile::EnsureLoaded() const {
  if (!load_pending_) return;
  // Loading fills the tables: logically still the same (unread) state.
  StateFile* self = const_cast<StateFile*>(this);
  self->load_pending_ = false;
  std::string err;
  if (!self->Load(path_, &err)) {
    Warning("%s: %s; not used by this run", path_.c_str(), err.c_str());
    self->writes_disabled_ = true;
  } else if (!err.empty()) {
    Warning("%s: %s", path_.c_str(), err.c_str());
  }
}

bool StateFile::LoadReadOnly(const std::string& path, std::string* err) {
  writes_disabled_ = read_only_ = true;
  return Load(path, err);
}

bool StateFile::Load(const std::string& path, std::string* err) {
  path_ = path;
  load_pending_ = false;
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) {
    if (errno == ENOENT) return true;
    *err = strerror(errno);
    return false;
  }
  int64_t header_size;
  bool header_ok = ReadHeader(fd, &header_size);
  off_t good_end = header_ok ? LoadRecords(fd,
                                          [this](uint8_t kind, std::string_view key, std::string_view payload) {
                                            if (IsKnownKind(kind)) table_.Set(kind, key, payload);
                                            ++loaded_records_;
                                          })
                              : 0;
  FileStatus info;
  bool failed = header_size < 0 || good_end < 0 || !StatDescriptor(fd, &info);
  int failure = errno;
  close(fd);
  if (failed) {
    *err = strerror(failure);
    return false;
  }
  if (header_size == 0) return true;  // created, but the header never fit
  if (!header_ok) {
    // Only ronin's own optimisations depend on it: start over.
    *err = "bad signature or version; starting over";
    if (!read_only_ && unlink(path.c_str()) < 0 && errno != ENOENT) {
      *err = std::string("removing it: ") + strerror(errno);
      return false;
    }
    return true;
  }
  if (good_end < static_cast<off_t>(info.size)) {
    // A write cut short (crash, full disk): keep every whole record.
    if (!read_only_ && truncate(path.c_str(), good_end) < 0) {
      *err = std::string("truncate failed: ") + strerror(errno);
      return false;
    }
    *err = "premature end of file; recovering";
  }
  return true;
}

off_t StateFile::LoadRecords(int fd, const RecordVisitor& visit) {
  // Whole records are taken from a chunk; a record cut by its end waits
  // for the next one (the buffer grows for one larger than a chunk).
  const size_t kChunk = 128 << 10;
  std::string buffer(kChunk, '\0');
  size_t begin = 0, end = 0;
  off_t good_end = static_cast<off_t>(kHeaderSize);
  for (;;) {
    size_t size;
    Parsed parsed;
    while ((parsed = ParseRecord(std::string_view(buffer.data() + begin, end - begin), &size, visit)) ==
           Parsed::kRecord) {
      begin += size;
      good_end += static_cast<off_t>(size);
    }
    if (parsed == Parsed::kBad) break;
    memmove(&buffer[0], buffer.data() + begin, end - begin);
    end -= begin;
    begin = 0;
    if (end + kChunk > buffer.size()) buffer.resize(end + kChunk);
    int64_t n = ReadUpTo(fd, &buffer[end], buffer.size() - end);
    if (n < 0) return -1;
    if (n == 0) break;  // a tail shorter than a record stays behind good_end
    end += static_cast<size_t>(n);
  }
  return good_end;
}

StateFile::Parsed StateFile::ParseRecord(std::string_view data, size_t* size, const RecordVisitor& visit) {
  if (data.size() < kRecordOverhead + kBodyMinimum) return Parsed::kIncomplete;
  const char* record = data.data();
  uint64_t body_size = GetLE(record, 4);
  if (body_size < kBodyMinimum || body_size > kMaxRecordSize) return Parsed::kBad;
  if (data.size() < kRecordOverhead + body_size) return Parsed::kIncomplete;
  if (GetLE(record + 4 + body_size, 8) != Checksum(record, 4 + body_size)) return Parsed::kBad;
  uint8_t kind = static_cast<uint8_t>(record[4]);
  uint64_t key_size = GetLE(record + 5, 4);
  if (key_size > body_size - kBodyMinimum) return Parsed::kBad;
  const char* key = record + 4 + kBodyMinimum;
  visit(kind, std::string_view(key, key_size), std::string_view(key + key_size, body_size - kBodyMinimum - key_size));
  *size = kRecordOverhead + body_size;
  return Parsed::kRecord;
}

std::optional<std::string_view> StateFile::Find(Kind kind, std::string_view key) const {
  EnsureLoaded();
  return table_.Find(static_cast<uint8_t>(kind), key);
}

void StateFile::ForEach(Kind kind,
                        const std::function<void(std::string_view key, std::string_view payload)>& visit) const {
  EnsureLoaded();
  table_.ForEach(static_cast<uint8_t>(kind), visit);
}

size_t StateFile::live_count() const { return table_.size(); }

bool StateFile::Put(Kind kind, std::string_view key, std::string_view payload, std::string* err) {
  EnsureLoaded();
  if (!table_.Set(static_cast<uint8_t>(kind), key, payload)) return true;  // nothing new to write
  if (writes_disabled_ || path_.empty()) return true;
  return AppendRecord(kind, key, payload, err);
}

bool StateFile::Append(Kind kind, std::string_view key, std::string_view payload, std::string* err) {
  if (!load_pending_ || writes_disabled_) return Put(kind, key, payload, err);
  if (fd_ < 0 && NeedsLoadBeforeAppend()) {
    // Damage to repair or dead records to drop: once through the loaded
    // path, which does both, then the records leave memory again.
    bool ok = Put(kind, key, payload, err);
    if (!writes_disabled_) Unload();  // (a file that could not be read stays unread)
    return ok;
  }
  return AppendRecord(kind, key, payload, err);
}

bool StateFile::NeedsLoadBeforeAppend() const {
  int fd = OpenFile(path_.c_str(), O_RDONLY);
  if (fd < 0) return errno != ENOENT;  // a missing file is created by the append
  int64_t header_size;
  bool header_ok = ReadHeader(fd, &header_size);
  // One hash per record tells live from dead well enough to decide on
  // recompaction (a collision only makes it a little later).
  std::vector<uint64_t> keys;
  off_t good_end = header_ok ? LoadRecords(fd,
                                          [&keys](uint8_t kind, std::string_view key, std::string_view) {
                                            keys.push_back(RapidHashSeeded(key.data(), key.size(), kind));
                                          })
                             : 0;
  FileStatus info;
  bool failed = good_end < 0 || !StatDescriptor(fd, &info);
  close(fd);
  if (header_size == 0 && !failed) return false;  // created, but the header never fit: rewritten
  if (!header_ok || failed || good_end < static_cast<off_t>(info.size)) return true;
  size_t records = keys.size();
  std::sort(keys.begin(), keys.end());
  size_t live = static_cast<size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
  return NeedsRecompaction(records, live);
}

bool StateFile::NeedsRecompaction(size_t records, size_t live) {
  const size_t kMinCompactionRecords = 1000;
  const size_t kCompactionRatio = 3;
  return records > kMinCompactionRecords && records > kCompactionRatio * live;
}

void StateFile::Unload() {
  table_.Clear();
  loaded_records_ = 0;
  load_pending_ = true;
}

bool StateFile::AppendRecord(Kind kind, std::string_view key, std::string_view payload, std::string* err) {
  if (kBodyMinimum + key.size() + payload.size() > kMaxRecordSize) {
    *err = "record too large";
    return false;
  }
  if (fd_ < 0) {
    bool recompacted = false;
    if (!OpenForAppend(&recompacted, err)) return false;
    if (recompacted) return true;  // the rewritten file holds this record already
  }
  FileStatus info;
  if (!StatDescriptor(fd_, &info)) {
    *err = strerror(errno);
    return false;
  }
  if (!WriteAll(fd_, EncodeStateRecord(kind, key, payload), err)) {
    // Never leave half a record for the next one to follow.
    if (!TruncateFile(fd_, static_cast<int64_t>(info.size))) {
      // The next load cuts it instead.
    }
    return false;
  }
  return true;
}

bool StateFile::OpenForAppend(bool* recompacted, std::string* err) {
  if (NeedsRecompaction(loaded_records_, live_count())) {
    std::string compact_err;
    // Failing (no room for the copy) is fine: the old file stays valid.
    *recompacted = Recompact(&compact_err);
  }
  fd_ = OpenFile(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (fd_ < 0) {
    *err = strerror(errno);
    return false;
  }
  FileStatus info;
  if (!StatDescriptor(fd_, &info) || (info.size == 0 && !WriteAll(fd_, StateFileHeader(), err))) {
    if (err->empty()) *err = strerror(errno);
    if (!TruncateFile(fd_, 0)) {
      // A header cut short is "bad signature" to the next load: starts over.
    }
    close(fd_);
    fd_ = -1;
    return false;
  }
  return true;
}

bool StateFile::WriteAll(int fd, const std::string& bytes, std::string* err) {
  if (WriteFully(fd, bytes.data(), bytes.size())) return true;
  *err = strerror(errno);
  return false;
}

bool StateFile::Recompact(std::string* err) {
  EnsureLoaded();
  Close();
  std::string temp_path = path_ + ".recompact";
  int fd = OpenFile(temp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    *err = strerror(errno);
    return false;
  }
  std::string bytes = StateFileHeader();
  bool ok = true;
  table_.ForEachRecord([&](uint8_t kind, std::string_view key, std::string_view payload) {
    bytes += EncodeStateRecord(static_cast<Kind>(kind), key, payload);
    if (bytes.size() >= (128 << 10)) {
      ok = ok && WriteAll(fd, bytes, err);
      bytes.clear();
    }
  });
  ok = ok && WriteAll(fd, bytes, err);
  if (close(fd) < 0 && ok) {
    *err = strerror(errno);
    ok = false;
  }
  if (ok && !RenameReplacing(temp_path.c_str(), path_.c_str())) {
    *err = strerror(errno);
    ok = false;
  }
  if (!ok) {
    unlink(temp_path.c_str());
    return false;
  }
  loaded_records_ = live_count();
  return true;
}

bool StateFile::Close() {
  if (fd_ < 0) return true;
  bool ok = close(fd_) == 0;
  fd_ = -1;
  return ok;
}

}  // namespace ronin
