// Content digests for --content-hash: 128 bits of a file's bytes, computed
// at memory speed (rapidhash, base/hash.h, run with two seeds over 64 KiB blocks
// that stay in cache), the file read in 1 MiB reads.
#ifndef RONIN_SCAN_CONTENT_DIGEST_H_
#define RONIN_SCAN_CONTENT_DIGEST_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/util.h"

namespace ronin {

struct ContentDigest {
  uint64_t low = 0;
  uint64_t high = 0;
  bool operator==(const ContentDigest& other) const { return low == other.low && high == other.high; }
  bool operator!=(const ContentDigest& other) const { return !(*this == other); }
};

// A regular file's bytes as read, with the mtime and size it had while they
// were read.
struct FileDigest {
  TimeStamp mtime = 0;
  int64_t size = 0;
  ContentDigest digest;
};

// Digest of bytes in memory (the same value DigestFile gives for a file
// holding them).
ContentDigest DigestBytes(const void* data, size_t size);

// Reads and digests a regular file. False (with *err) when it cannot be
// read, is not a regular file, or changed while it was read.
bool DigestFile(const std::string& path, FileDigest* result, std::string* err);

}  // namespace ronin

#endif  // RONIN_SCAN_CONTENT_DIGEST_H_
