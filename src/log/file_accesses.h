// What one command did to files, as the access monitor saw it: every path
// its processes named in a path system call, absolute and lexically
// canonical, with what was asked of it. Attempts, not results: the
// monitor lets each call go on (it never sees the return value), so a
// failed open of a missing file is here too. The comparison with the
// graph (audit/edge_audit.h) asks the disk afterwards what came of it.
#ifndef RONIN_LOG_FILE_ACCESSES_H_
#define RONIN_LOG_FILE_ACCESSES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ronin {

enum class FileAccess : uint8_t {
  kRead = 1 << 0,     // opened for reading
  kProbe = 1 << 1,    // stat, access: its existence or metadata
  kExecute = 1 << 2,  // execve
  kWrite = 1 << 3,    // opened for writing, created, truncated, renamed or linked to, touched
  kRemove = 1 << 4,   // unlinked, or renamed away
};

class FileAccesses {
 public:
  // Bits of FileAccess, plus whether the path was read (or probed, or
  // executed) before the command first wrote or removed it: only such a
  // read can see what was there before the command ran.
  struct Record {
    uint8_t accesses = 0;
    bool read_before_write = false;

    bool Has(FileAccess access) const { return accesses & static_cast<uint8_t>(access); }
    bool Wrote() const { return Has(FileAccess::kWrite) || Has(FileAccess::kRemove); }
    bool Looked() const { return Has(FileAccess::kRead) || Has(FileAccess::kProbe) || Has(FileAccess::kExecute); }
  };

  // `path` must be absolute and canonical (CanonicalAbsolutePath).
  void Note(std::string_view path, FileAccess access);

  const std::unordered_map<std::string, Record>& records() const { return records_; }
  bool empty() const { return records_.empty(); }
  // How many accesses were noted (the same path counts again each time).
  uint64_t count() const { return count_; }

 private:
  std::unordered_map<std::string, Record> records_;
  uint64_t count_ = 0;
};

// `path` joined to `base` when relative (`base` absolute), then with ".",
// ".." and empty components folded lexically, as the kernel would without
// symlinks ("/.." is "/"). No trailing slash except for "/" itself.
std::string CanonicalAbsolutePath(std::string_view base, std::string_view path);

}  // namespace ronin

#endif  // RONIN_LOG_FILE_ACCESSES_H_
