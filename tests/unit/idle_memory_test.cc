// Tests for ReleaseMemoryBeforeIdle (base/idle_memory.h): the code pages go
// out of the process and come back on use, and nothing written is lost
// (relocated data, the heap).
#include "base/idle_memory.h"

#include <stdio.h>
#include <string.h>

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ronin {
namespace {

// Resident kB of this process's read-only mappings of files.
long ResidentFileKilobytes() {
  FILE* smaps = fopen("/proc/self/smaps", "re");
  if (!smaps) return -1;
  char line[4096];
  bool counting = false;
  long total = 0;
  while (fgets(line, sizeof line, smaps)) {
    unsigned long begin, end;
    char perms[5];
    int path_at = 0;
    if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &begin, &end, perms, &path_at) == 3 && path_at > 0) {
      counting = perms[1] == '-' && line[path_at] == '/';
      continue;
    }
    long kilobytes;
    if (counting && sscanf(line, "Rss: %ld kB", &kilobytes) == 1) total += kilobytes;
  }
  fclose(smaps);
  return total;
}

int Twice(int x) { return 2 * x; }

TEST(IdleMemoryTest, CodePagesGoAndComeBackAndWrittenDataStays) {
  std::vector<std::string> heap(1000, std::string(100, 'x'));
  std::function<int(int)> through_pointer = Twice;  // a call through data written at run time
  long before = ResidentFileKilobytes();
  ASSERT_GT(before, 0);
  ReleaseMemoryBeforeIdle();
  long after = ResidentFileKilobytes();
  EXPECT_LT(after, before);
  EXPECT_EQ(42, through_pointer(21));
  EXPECT_EQ(std::string(100, 'x'), heap[999]);
  char text[64];
  snprintf(text, sizeof text, "%d %s", 7, "ok");  // library code, faulted back in
  EXPECT_STREQ("7 ok", text);
}

}  // namespace
}  // namespace ronin
