// Tests for base/huge_pages.h and the allocators that use it (base/arena.h): blocks
// are aligned, zeroed and usable, advised for huge pages only where asked,
// and an arena switches to 2 MiB blocks only once it holds a large graph.
#include "base/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "base/arena.h"

namespace ronin {
namespace {

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
