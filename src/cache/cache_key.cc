// Cache keys and base-dir relativisation (cache/cache_key.h).
#include "cache/cache_key.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "base/file_io.h"
#include "base/sha256.h"

namespace ronin {
namespace {

const char kBaseMarker[] = "<base>";

bool ContinuesPathName(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == '+' || c == '~';
}

// A part of a key: a tag, then the length, then the bytes, so no two
// different lists of parts hash the same bytes.
void AddPart(Sha256* hash, char tag, std::string_view bytes) {
  std::string header = std::string(1, tag) + std::to_string(bytes.size()) + ":";
  hash->Update(header);
  hash->Update(bytes);
}

}  // namespace

std::string BaseDirMapper::ToKeyPath(std::string_view path) const {
  if (base_.empty() || path.substr(0, base_.size()) != base_) return std::string(path);
  if (path.size() != base_.size() && path[base_.size()] != '/') return std::string(path);
  return kBaseMarker + std::string(path.substr(base_.size()));
}

std::string BaseDirMapper::ToLocalPath(std::string_view path) const {
  std::string_view marker = kBaseMarker;
  if (base_.empty() || path.substr(0, marker.size()) != marker) return std::string(path);
  if (path.size() != marker.size() && path[marker.size()] != '/') return std::string(path);
  return base_ + std::string(path.substr(marker.size()));
}

std::string BaseDirMapper::RelativizeCommand(std::string_view command) const {
  if (base_.empty()) return std::string(command);
  std::string result;
  size_t from = 0;
  for (size_t at; (at = command.find(base_, from)) != std::string_view::npos;) {
    size_t end = at + base_.size();
    bool whole = end == command.size() || !ContinuesPathName(command[end]);
    result.append(command.substr(from, at - from));
    result.append(whole ? std::string_view(kBaseMarker) : command.substr(at, base_.size()));
    from = end;
  }
  result.append(command.substr(from));
  return result;
}

std::string FileHasher::Digest(const std::string& path, int64_t* mtime_ns) {
  int64_t ignored;
  if (!mtime_ns) mtime_ns = &ignored;
  *mtime_ns = -1;
  FileStatus st;
  if (!StatPath(path.c_str(), &st)) return "missing";
  *mtime_ns = st.mtime;
  if (!st.is_file()) return "unreadable";
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = known_.find(path);
    if (it != known_.end() && it->second.mtime_ns == *mtime_ns && it->second.size == static_cast<int64_t>(st.size))
      return Sha256DigestHex(it->second.digest);
  }
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) return "unreadable";
  Sha256 hash;
  char buffer[65536];
  int64_t got;
  while ((got = read(fd, buffer, sizeof buffer)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    hash.Update(buffer, static_cast<size_t>(got));
  }
  // Written while it was read: the digest may mix two versions. It is not
  // remembered, and the caller sees the newer time.
  FileStatus after;
  bool stat_ok = StatDescriptor(fd, &after);
  close(fd);
  if (got != 0 || !stat_ok) return "unreadable";
  bool steady = after.mtime == st.mtime && after.size == st.size;
  Known known{*mtime_ns, static_cast<int64_t>(st.size), {}};
  hash.Digest(known.digest);
  std::string digest = Sha256DigestHex(known.digest);
  if (!steady) {
    *mtime_ns = std::max(*mtime_ns, after.mtime);
    return digest;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = known_.find(path);
  if (it == known_.end()) {
    known_.emplace(paths_.Copy(path), known);
  } else {
    it->second = known;  // the file changed: its new digest
  }
  return digest;
}

std::string FirstLevelKey(const std::string& command, const std::vector<FileHash>& inputs,
                          const std::vector<std::string>& program_identities,
                          const std::vector<std::string>& outputs) {
  Sha256 hash;
  AddPart(&hash, 'V', "ronin-cache-key 2");  // 2: the entry holds the runs' outputs
  AddPart(&hash, 'C', command);
  for (const FileHash& input : inputs) {
    AddPart(&hash, 'I', input.first);
    AddPart(&hash, 'D', input.second);
  }
  for (const std::string& program : program_identities) AddPart(&hash, 'P', program);
  for (const std::string& output : outputs) AddPart(&hash, 'O', output);
  return hash.HexDigest();
}

}  // namespace ronin
