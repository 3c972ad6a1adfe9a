#include "scan/content_digest.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <memory>

#include "base/file_io.h"
#include "base/hash.h"

namespace ronin {

namespace {

const uint64_t kSeedLow = 0x636f6e74656e7431ull;   // "content1"
const uint64_t kSeedHigh = 0x636f6e74656e7432ull;  // "content2"
const size_t kBlock = 64 << 10;  // hashed twice while in L2 cache
const size_t kReadSize = 1 << 20;

// Two independent 64-bit chains, each block's hash seeding the next.
class Digester {
 public:
  void Add(const char* data, size_t size) {
    for (size_t offset = 0; offset < size; offset += kBlock) {
      size_t n = size - offset < kBlock ? size - offset : kBlock;
      low_ = RapidHashSeeded(data + offset, n, low_);
      high_ = RapidHashSeeded(data + offset, n, high_);
    }
    total_ += size;
  }
  ContentDigest Finish() const {
    // The length closes both chains (an empty file gets a digest too).
    return {RapidHashSeeded(&total_, sizeof(total_), low_), RapidHashSeeded(&total_, sizeof(total_), high_)};
  }

 private:
  uint64_t low_ = kSeedLow;
  uint64_t high_ = kSeedHigh;
  uint64_t total_ = 0;
};

TimeStamp MtimeOf(const FileStatus& info) {
  return info.mtime == 0 ? 1 : info.mtime;  // as RealDiskInterface::Stat
}

}  // namespace

ContentDigest DigestBytes(const void* data, size_t size) {
  Digester digester;
  // Block boundaries as DigestFile sees them: every read but the last is a
  // multiple of the block size.
  digester.Add(static_cast<const char*>(data), size);
  return digester.Finish();
}

bool DigestFile(const std::string& path, FileDigest* result, std::string* err) {
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) {
    *err = strerror(errno);
    return false;
  }
  FileStatus before, after;
  bool ok = StatDescriptor(fd, &before) && before.is_file();
  if (!ok) *err = "not a regular file";
  Digester digester;
  std::unique_ptr<char[]> buffer(ok ? new char[kReadSize] : nullptr);
  // Reads fill whole blocks (only a short read at the end of the file is
  // not one), so the digest never depends on how the kernel split reads.
  size_t filled = 0;
  while (ok) {
    int64_t n = read(fd, buffer.get() + filled, kReadSize - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = strerror(errno);
      ok = false;
      break;
    }
    filled += static_cast<size_t>(n);
    if (n == 0 || filled == kReadSize) {
      digester.Add(buffer.get(), filled);
      filled = 0;
    }
    if (n == 0) break;
  }
  if (ok && (!StatDescriptor(fd, &after) || MtimeOf(after) != MtimeOf(before) || after.size != before.size)) {
    *err = "changed while being read";
    ok = false;
  }
  close(fd);
  if (!ok) return false;
  result->mtime = MtimeOf(before);
  result->size = static_cast<int64_t>(before.size);
  result->digest = digester.Finish();
  return true;
}

}  // namespace ronin
