#include "state_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "status.h"
#include "util.h"

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

bool ReadWholeFile(int fd, std::string* data) {
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    data->append(buffer, static_cast<size_t>(n));
  }
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
  return config.ronin.content_hash || config.ronin.keep_free_memory > 0 || !config.ronin.cache.empty();
}

bool StateFile::IsKnownKind(uint8_t kind) {
  return kind >= static_cast<uint8_t>(Kind::kFileDigest) && kind <= static_cast<uint8_t>(Kind::kEdgeCached);
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
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return true;
    *err = strerror(errno);
    return false;
  }
  std::string data;
  bool read_ok = ReadWholeFile(fd, &data);
  int read_errno = errno;
  close(fd);
  if (!read_ok) {
    *err = strerror(read_errno);
    return false;
  }
  if (data.empty()) return true;  // created, but the header never fit
  if (data.size() < kHeaderSize || data.compare(0, kSignatureSize, kSignature) != 0 ||
      GetLE(data.data() + kSignatureSize, 4) != kCurrentVersion) {
    // Only ronin's own optimisations depend on it: start over.
    *err = "bad signature or version; starting over";
    if (!read_only_ && unlink(path.c_str()) < 0 && errno != ENOENT) {
      *err = std::string("removing it: ") + strerror(errno);
      return false;
    }
    return true;
  }
  size_t good_end = ParseRecords(data, kHeaderSize);
  if (good_end < data.size()) {
    // A write cut short (crash, full disk): keep every whole record.
    if (!read_only_ && truncate(path.c_str(), static_cast<off_t>(good_end)) < 0) {
      *err = std::string("truncate failed: ") + strerror(errno);
      return false;
    }
    *err = "premature end of file; recovering";
  }
  return true;
}

size_t StateFile::ParseRecords(const std::string& data, size_t offset) {
  while (data.size() - offset >= kRecordOverhead + kBodyMinimum) {
    const char* record = data.data() + offset;
    uint64_t body_size = GetLE(record, 4);
    if (body_size < kBodyMinimum || body_size > kMaxRecordSize) break;
    if (data.size() - offset < kRecordOverhead + body_size) break;
    if (GetLE(record + 4 + body_size, 8) != Checksum(record, 4 + body_size)) break;
    uint8_t kind = static_cast<uint8_t>(record[4]);
    uint64_t key_size = GetLE(record + 5, 4);
    if (key_size > body_size - kBodyMinimum) break;
    const char* key = record + 4 + kBodyMinimum;
    if (IsKnownKind(kind)) {
      std::string& slot = tables_[kind][std::string(key, key_size)];
      slot.assign(key + key_size, body_size - kBodyMinimum - key_size);
    }
    ++loaded_records_;
    offset += kRecordOverhead + body_size;
  }
  return offset;
}

const std::string* StateFile::Find(Kind kind, std::string_view key) const {
  EnsureLoaded();
  auto table = tables_.find(static_cast<uint8_t>(kind));
  if (table == tables_.end()) return nullptr;
  auto it = table->second.find(key);
  return it == table->second.end() ? nullptr : &it->second;
}

void StateFile::ForEach(Kind kind,
                        const std::function<void(std::string_view key, std::string_view payload)>& visit) const {
  EnsureLoaded();
  auto table = tables_.find(static_cast<uint8_t>(kind));
  if (table == tables_.end()) return;
  for (const auto& entry : table->second) visit(entry.first, entry.second);
}

size_t StateFile::live_count() const {
  size_t count = 0;
  for (const auto& table : tables_) count += table.second.size();
  return count;
}

bool StateFile::Put(Kind kind, std::string_view key, std::string_view payload, std::string* err) {
  EnsureLoaded();
  Table& table = tables_[static_cast<uint8_t>(kind)];
  auto it = table.find(key);
  if (it != table.end() && it->second == payload) return true;  // nothing new to write
  if (it == table.end()) it = table.emplace(std::string(key), std::string()).first;
  it->second.assign(payload);
  if (writes_disabled_ || path_.empty()) return true;
  return AppendRecord(kind, key, payload, err);
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
  struct stat info;
  if (fstat(fd_, &info) < 0) {
    *err = strerror(errno);
    return false;
  }
  if (!WriteAll(fd_, EncodeStateRecord(kind, key, payload), err)) {
    // Never leave half a record for the next one to follow.
    if (ftruncate(fd_, info.st_size) < 0) {
      // The next load cuts it instead.
    }
    return false;
  }
  return true;
}

bool StateFile::OpenForAppend(bool* recompacted, std::string* err) {
  const size_t kMinCompactionRecords = 1000;
  const size_t kCompactionRatio = 3;
  if (loaded_records_ > kMinCompactionRecords && loaded_records_ > kCompactionRatio * live_count()) {
    std::string compact_err;
    // Failing (no room for the copy) is fine: the old file stays valid.
    *recompacted = Recompact(&compact_err);
  }
  fd_ = open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    *err = strerror(errno);
    return false;
  }
  struct stat info;
  if (fstat(fd_, &info) < 0 || (info.st_size == 0 && !WriteAll(fd_, StateFileHeader(), err))) {
    if (err->empty()) *err = strerror(errno);
    if (ftruncate(fd_, 0) < 0) {
      // A header cut short is "bad signature" to the next load: starts over.
    }
    close(fd_);
    fd_ = -1;
    return false;
  }
  return true;
}

bool StateFile::WriteAll(int fd, const std::string& bytes, std::string* err) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = strerror(errno);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool StateFile::Recompact(std::string* err) {
  EnsureLoaded();
  Close();
  std::string temp_path = path_ + ".recompact";
  int fd = open(temp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    *err = strerror(errno);
    return false;
  }
  std::string bytes = StateFileHeader();
  bool ok = true;
  for (const auto& table : tables_) {
    for (const auto& entry : table.second) {
      bytes += EncodeStateRecord(static_cast<Kind>(table.first), entry.first, entry.second);
      if (bytes.size() >= (1 << 20)) {
        ok = ok && WriteAll(fd, bytes, err);
        bytes.clear();
      }
    }
  }
  ok = ok && WriteAll(fd, bytes, err);
  if (close(fd) < 0 && ok) {
    *err = strerror(errno);
    ok = false;
  }
  if (ok && rename(temp_path.c_str(), path_.c_str()) < 0) {
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
