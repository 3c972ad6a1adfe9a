// Directory cache storage (cache/cache_store.h).
#include "cache/cache_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <functional>

#include "base/file_io.h"
#include "base/sha256.h"
#include "base/util.h"

namespace ronin {
namespace {

// A file read less than this many seconds after its mtime keeps it.
constexpr int64_t kUsedRecently = 3600;

// Whether `st` was modified within kUsedRecently of now.
bool RecentlyModified(const FileStatus& st) {
  return FileTimeNow() - st.mtime <= kUsedRecently * kFileTimeUnitsPerSecond;
}

bool MakeDirs(const std::string& path) {
  for (size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!MakeDirectory(prefix.c_str()) && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

}  // namespace

DirectoryCacheStore::DirectoryCacheStore(std::string root, int64_t max_bytes)
    : root_(std::move(root)), max_bytes_(max_bytes), tmp_prefix_(root_ + "/tmp/" + std::to_string(getpid()) + ".") {}

std::string DirectoryCacheStore::PathFor(const char* kind, const std::string& name) const {
  return root_ + "/" + kind + "/" + name.substr(0, 2) + "/" + name;
}

bool DirectoryCacheStore::ReadFile(const std::string& path, std::string* bytes) {
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  FileStatus st;
  bool whole = StatDescriptor(fd, &st) && ReadFdExactly(fd, static_cast<int64_t>(st.size), bytes);
  if (whole && !RecentlyModified(st)) TouchDescriptor(fd);  // used now: last to go in Trim
  close(fd);
  return whole;
}

bool DirectoryCacheStore::WriteAtomically(const std::string& path, std::string_view bytes) {
  static std::atomic<unsigned> counter{0};
  // Directories are made only when missing: in a used cache they exist,
  // and a store per command should cost no mkdir calls.
  std::string dir = path.substr(0, path.rfind('/'));
  std::string tmp = tmp_prefix_ + std::to_string(counter++);
  int fd = OpenFile(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0 && errno == ENOENT && MakeDirs(root_ + "/tmp"))
    fd = OpenFile(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return WriteFailed("creating " + tmp, "");
  bool written = WriteFully(fd, bytes.data(), bytes.size());
  int error = errno;
  if (close(fd) != 0 && written) {
    written = false;
    error = errno;
  }
  errno = error;
  if (!written) return WriteFailed("writing " + tmp, tmp);
  if (RenameReplacing(tmp.c_str(), path.c_str())) return true;
  if (errno == ENOENT && MakeDirs(dir) && RenameReplacing(tmp.c_str(), path.c_str())) return true;
  return WriteFailed("renaming " + tmp + " to " + path, tmp);
}

bool DirectoryCacheStore::WriteFailed(const std::string& what, const std::string& tmp) {
  write_error_ = what + ": " + strerror(errno);  // before unlink() may change errno
  if (!tmp.empty()) unlink(tmp.c_str());
  return false;
}

bool DirectoryCacheStore::GetAction(const std::string& key, std::string* entry) {
  return IsSha256Hex(key) && ReadFile(PathFor("ac", key), entry);
}

bool DirectoryCacheStore::PutAction(const std::string& key, std::string_view entry) {
  return IsSha256Hex(key) && WriteAtomically(PathFor("ac", key), entry);
}

bool DirectoryCacheStore::GetBlob(const std::string& digest, std::string* bytes) {
  if (!IsSha256Hex(digest)) return false;
  std::string path = PathFor("cas", digest);
  if (!ReadFile(path, bytes)) return false;
  if (Sha256Hex(*bytes) == digest) return true;
  unlink(path.c_str());  // damaged: the next store of these bytes replaces it
  bytes->clear();
  return false;
}

bool DirectoryCacheStore::PutBlob(std::string_view bytes, std::string* digest) {
  *digest = Sha256Hex(bytes);
  return WriteAtomically(PathFor("cas", *digest), bytes);
}

void DirectoryCacheStore::ForEachFile(const std::function<void(const std::string& path, const FileStatus& st)>& visit) {
  for (const char* kind : {"ac", "cas"}) {
    std::string top = root_ + "/" + kind;
    DIR* shards = opendir(top.c_str());
    if (!shards) continue;
    while (dirent* shard = readdir(shards)) {
      if (shard->d_name[0] == '.') continue;
      std::string shard_path = top + "/" + shard->d_name;
      DIR* dir = opendir(shard_path.c_str());
      if (!dir) continue;
      while (dirent* file = readdir(dir)) {
        if (file->d_name[0] == '.') continue;
        std::string path = shard_path + "/" + file->d_name;
        FileStatus st;
        if (StatPath(path.c_str(), &st)) visit(path, st);
      }
      closedir(dir);
    }
    closedir(shards);
  }
}

int64_t DirectoryCacheStore::Trim() {
  if (max_bytes_ <= 0) return 0;
  // Sizes first: a cache under its limit (the usual case, at the end of
  // every build that stored something) costs no list of its files, which
  // for a large cache would be the build's largest allocation.
  int64_t total = 0;
  ForEachFile([&](const std::string&, const FileStatus& st) { total += static_cast<int64_t>(st.size); });
  if (total <= max_bytes_) return 0;
  struct File {
    int64_t mtime_ns;
    int64_t size;
    std::string path;
  };
  std::vector<File> files;
  total = 0;
  ForEachFile([&](const std::string& path, const FileStatus& st) {
    files.push_back({st.mtime, static_cast<int64_t>(st.size), path});
    total += static_cast<int64_t>(st.size);
  });
  int64_t target = max_bytes_ / 10 * 9;
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.mtime_ns < b.mtime_ns; });
  int64_t freed = 0;
  for (const File& file : files) {
    if (total - freed <= target) break;
    // Another build may have removed it already: it is gone either way.
    if (unlink(file.path.c_str()) == 0 || errno == ENOENT) freed += file.size;
  }
  return freed;
}

bool ReadFdExactly(int fd, int64_t size, std::string* bytes) {
  bytes->resize(static_cast<size_t>(size));
  return ReadUpTo(fd, &(*bytes)[0], bytes->size()) == size;
}

}  // namespace ronin
