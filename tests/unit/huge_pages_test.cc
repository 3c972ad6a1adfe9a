// Tests for base/huge_pages.h and the allocators that use it (base/arena.h): blocks
// are aligned, zeroed and usable, advised for huge pages only where asked,
// and an arena switches to 2 MiB blocks only once it holds a large graph.
#include "base/huge_pages.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "base/arena.h"

namespace ronin {
namespace {

// Whether the page holding `address` is resident (mincore).
bool Resident(const char* address) {
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t start = reinterpret_cast<uintptr_t>(address) & ~(page - 1);
  unsigned char state = 0;
  if (mincore(reinterpret_cast<void*>(start), page, &state) != 0) ADD_FAILURE() << "mincore failed";
  return state & 1;
}

// Whether MapHugeBlock maps at all (not under the sanitizers).
bool MappedBlocksOn() {
  char* probe = MapHugeBlock(4096);
  UnmapHugeBlock(probe, 4096);
  return probe != nullptr;
}

// The VmFlags of the mapping that holds `address` ("hg": MADV_HUGEPAGE).
std::string VmFlagsAt(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  uintptr_t target = reinterpret_cast<uintptr_t>(address);
  bool inside = false;
  std::string line;
  while (std::getline(smaps, line)) {
    uintptr_t start = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> start >> dash >> end && dash == '-') {
      inside = start <= target && target < end;
    } else if (inside && line.compare(0, 8, "VmFlags:") == 0) {
      return line.substr(8) + " ";
    }
  }
  return "";
}

TEST(HugePagesTest, BlockIsAlignedZeroedAndAdvisedWhereAsked) {
  const size_t bytes = 3 * kHugePageBytes + 4096;
  char* block = MapHugeBlock(bytes, kHugePageBytes + 100);
  if (!block) GTEST_SKIP() << "mapped blocks are off in this build (sanitizers)";
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(block) % kHugePageBytes);
  for (size_t i = 0; i < bytes; i += 4096) ASSERT_EQ(0, block[i]) << i;
  block[bytes - 1] = 1;  // the whole length is writable
  // The first whole 2 MiB page is advised; what follows `huge_bytes` is not.
  EXPECT_NE(std::string::npos, VmFlagsAt(block).find(" hg "));
  EXPECT_EQ(std::string::npos, VmFlagsAt(block + 2 * kHugePageBytes).find(" hg "));
  UnmapHugeBlock(block, bytes);
}

TEST(HugePagesTest, SmallBlockIsNotAdvised) {
  char* block = MapHugeBlock(kHugePageBytes - 4096);
  if (!block) GTEST_SKIP() << "mapped blocks are off in this build (sanitizers)";
  EXPECT_EQ(std::string::npos, VmFlagsAt(block).find(" hg "));
  UnmapHugeBlock(block, kHugePageBytes - 4096);
}

TEST(HugePagesTest, ReleasedPagesAreNoLongerResidentAndTheRestIsKept) {
  const size_t bytes = 2 * kHugePageBytes;
  char* block = MapHugeBlock(bytes);
  if (!block) GTEST_SKIP() << "mapped blocks are off in this build (sanitizers)";
  for (size_t i = 0; i < bytes; i += 4096) block[i] = 'u';
  const size_t used = kHugePageBytes / 2 + 100;  // ends inside a page: that page stays
  block[used - 1] = 'e';
  ReleaseUnusedPages(block + used, bytes - used);
  EXPECT_TRUE(Resident(block));
  EXPECT_TRUE(Resident(block + used - 1));
  EXPECT_EQ('e', block[used - 1]);
  EXPECT_EQ('u', block[(used / 4096) * 4096]);  // the page the used part ends in
  EXPECT_FALSE(Resident(block + used + 4096));
  EXPECT_FALSE(Resident(block + kHugePageBytes + 8192));
  EXPECT_FALSE(Resident(block + bytes - 1));
  // ...and are kept out of huge pages, which would make them resident again.
  EXPECT_NE(std::string::npos, VmFlagsAt(block + bytes - 1).find(" nh "));
  // Released pages are usable again: fresh, zeroed.
  EXPECT_EQ(0, block[bytes - 1]);
  block[bytes - 1] = 'z';
  EXPECT_EQ('z', block[bytes - 1]);
  UnmapHugeBlock(block, bytes);
}

TEST(HugePagesTest, ArenaReleasesTheUnusedTailOfItsHugeBlockAndGoesOn) {
  Arena arena;
  while (arena.bytes_reserved() < (8u << 20)) arena.Allocate(1000);
  std::string_view kept = arena.Copy(std::string(300 * 1024, 'k'));  // in a fresh 2 MiB block
  arena.ReleaseUnusedTail();
  EXPECT_EQ(std::string(300 * 1024, 'k'), kept);
  char* next = arena.Allocate(400 * 1024);  // where the released pages were
  EXPECT_EQ(kept.data() + kept.size() + 1, next);
  memset(next, 'n', 400 * 1024);
  EXPECT_EQ('n', next[400 * 1024 - 1]);
  EXPECT_EQ('k', kept.back());
  if (MappedBlocksOn()) {
    EXPECT_FALSE(Resident(next + 400 * 1024 + 8192));
  }
}

TEST(HugePagesTest, ArenaTakesHugeBlocksOnlyOnceLarge) {
  Arena arena;
  // Small pieces: 64 KiB blocks while the arena holds under 8 MiB.
  size_t blocks_of_64k = 0;
  while (arena.bytes_reserved() < (8u << 20)) {
    size_t before = arena.bytes_reserved();
    char* piece = arena.Allocate(1000);
    piece[999] = 'x';
    if (arena.bytes_reserved() != before) {
      EXPECT_EQ(64u * 1024, arena.bytes_reserved() - before);
      ++blocks_of_64k;
    }
  }
  EXPECT_EQ(128u, blocks_of_64k);
  // Then 2 MiB blocks, which hold pieces of up to a quarter of that.
  size_t before = arena.bytes_reserved();
  char* first = arena.Allocate(400 * 1024);
  EXPECT_EQ(kHugePageBytes, arena.bytes_reserved() - before);
  char* second = arena.Allocate(400 * 1024);
  EXPECT_EQ(first + 400 * 1024, second);
  EXPECT_EQ(kHugePageBytes, arena.bytes_reserved() - before);
  // A single allocation over 2 MiB gets a block of its own, usable to its end.
  std::string_view big = arena.Copy(std::string(5u << 20, 'y'));
  EXPECT_EQ('y', big.back());
  EXPECT_EQ('\0', big.data()[big.size()]);
}

}  // namespace
}  // namespace ronin
