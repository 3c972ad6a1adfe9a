// base/idle_memory.h on POSIX (Linux: malloc_trim, /proc/self/smaps, madvise).
#include "base/idle_memory.h"

#include <malloc.h>
#include <stdio.h>
#include <sys/mman.h>

namespace ronin {
namespace {

// This program's code and read-only data, mapped from its file: their pages
// are let go of, not freed. They stay in the page cache (where the job
// reaper's mapping keeps them too), and the next round finds them there
// with minor faults; the file is never read again for them. Only mappings
// that hold no anonymous page (smaps says so): a read-only mapping may hold
// relocated, that is written, pages, which must stay (counted as shared,
// not private, once the job reaper's fork shares them).
void ReleaseFilePages() {
  struct Range {
    unsigned long begin, end;
  };
  Range ranges[16];
  int count = 0;
  FILE* smaps = fopen("/proc/self/smaps", "re");
  if (!smaps) return;
  char line[4096];
  Range current = {0, 0};
  bool candidate = false;  // the current mapping: read-only, from a file
  while (fgets(line, sizeof line, smaps) && count < 16) {
    // (Parsed into a scratch range: "Anonymous:" starts with a hex digit.)
    Range header;
    char perms[5];
    int path_at = 0;
    if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &header.begin, &header.end, perms, &path_at) == 3 &&
        path_at > 0) {
      current = header;
      candidate = perms[1] == '-' && line[path_at] == '/';  // not the vdso, nothing anonymous
      continue;
    }
    unsigned long kilobytes;
    if (candidate && sscanf(line, "Anonymous: %lu kB", &kilobytes) == 1) {
      if (kilobytes == 0) ranges[count++] = current;
      candidate = false;
    }
  }
  fclose(smaps);
  // Only now: reading smaps needed code that would come straight back.
  for (int i = 0; i < count; ++i)
    madvise(reinterpret_cast<void*>(ranges[i].begin), ranges[i].end - ranges[i].begin, MADV_DONTNEED);
}

}  // namespace

void ReleaseMemoryBeforeIdle() {
  malloc_trim(0);
  ReleaseFilePages();
}

}  // namespace ronin
