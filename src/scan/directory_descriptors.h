// Descriptors of directories for fstatat, for one thread: the kernel then
// resolves only a file's last path component, not its whole path. Kept in
// a fixed table (no allocation: a stat worker that called malloc waited on
// the main thread's malloc lock, and a thread that sleeps on a lock can
// take milliseconds to run again on a virtual machine).
#ifndef RONIN_SCAN_DIRECTORY_DESCRIPTORS_H_
#define RONIN_SCAN_DIRECTORY_DESCRIPTORS_H_

#include <cstddef>
#include <string_view>

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

  // A descriptor for `dir` (AT_FDCWD for ""), kMissing, or -1 if unusable.
  // `dir` must stay valid while this object lives (node paths do).
  int Get(std::string_view dir);

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
