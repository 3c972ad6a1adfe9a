// Descriptors of directories for fstatat, for one thread: the kernel then
// resolves only a file's last path component, not its whole path. POSIX
// only (directory_descriptors_posix.cc): on Windows the scan and the
// prefetcher list each directory once instead (base/directory_listing.h,
// scan/prefetch_stats_win.cc; directory_descriptors_win.cc has no
// descriptors to give). Kept in
// a fixed table (no allocation: a stat worker that called malloc waited on
// the main thread's malloc lock, and a thread that sleeps on a lock can
// take milliseconds to run again on a virtual machine).
#ifndef RONIN_SCAN_DIRECTORY_DESCRIPTORS_H_
#define RONIN_SCAN_DIRECTORY_DESCRIPTORS_H_

#include <cstddef>
#include <string_view>

#include "base/util.h"

namespace ronin {

class DirectoryDescriptors {
 public:
  // At most this many are open at once per thread: a process that stats on
  // N threads wants room for N times this many descriptors.
  static constexpr int kMaxOpen = 256;
  // How many each of `threads` may keep open under the descriptor limit,
  // leaving `spare` for the rest of the process (its lock, logs, image).
  static int OpenPerThread(int threads, int spare);
  // Get()'s answer for a directory that does not exist.
  static constexpr int kMissing = -2;

  // Keeps at most `max_open` (no more than kMaxOpen) open; with 0, Get()
  // answers AT_FDCWD for every directory (stat the whole path then).
  explicit DirectoryDescriptors(int max_open = kMaxOpen) : max_open_(max_open < kMaxOpen ? max_open : kMaxOpen) {}
  DirectoryDescriptors(const DirectoryDescriptors&) = delete;
  DirectoryDescriptors& operator=(const DirectoryDescriptors&) = delete;
  ~DirectoryDescriptors() { Clear(); }

  // A descriptor for `dir` (kWorkingDirectory for ""), kMissing, or -1 if
  // unusable. `dir` must stay valid while this object lives (node paths do).
  int Get(std::string_view dir);

  // What Get() answers for the working directory (AT_FDCWD).
  static const int kWorkingDirectory;
  // Stats `name` in the directory `dir` (a Get() answer; with
  // kWorkingDirectory `name` may be a whole path): kExists with its mtime
  // as RealDiskInterface::Stat reports it, kMissing, or kUnknown (an error,
  // left to the scan, which reports it).
  enum class Found { kExists, kMissing, kUnknown };
  static Found StatAt(int dir, const char* name, TimeStamp* mtime);

 private:
  struct Slot {
    std::string_view dir;  // empty: a free slot
    int fd = -1;
  };
  static constexpr size_t kSlots = 2 * kMaxOpen;  // a table at most half full

  // The slot holding `dir`, or the free slot where it belongs.
  Slot* Find(std::string_view dir);
  int Open(std::string_view dir);
  void Clear();

  Slot slots_[kSlots];
  int max_open_;
  int used_ = 0;
  // Neighbouring nodes mostly share a directory (an edge's outputs, a
  // target's objects): the last answer spares most lookups.
  std::string_view last_dir_;
  int last_fd_ = -1;
};

// Grows the process's descriptor table now to hold `extra` more
// descriptors than are open, while the caller is the only thread: the
// kernel grows a table that several threads share only after an RCU grace
// period, which stalled a stat worker for milliseconds at each doubling.
void ReserveDescriptorRoom(int extra);

}  // namespace ronin

#endif  // RONIN_SCAN_DIRECTORY_DESCRIPTORS_H_
