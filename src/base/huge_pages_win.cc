// huge_pages.h on Windows: no block is mapped (large pages there need a
// privilege ordinary users lack); callers then take the heap's memory.
#include "base/huge_pages.h"

namespace ronin {

char* MapHugeBlock(size_t, size_t) { return nullptr; }

void UnmapHugeBlock(char*, size_t) {}

void ReleaseUnusedPages(char*, size_t) {}

}  // namespace ronin
