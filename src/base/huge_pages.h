// Memory for a large graph in transparent huge pages.
//
// A no-op of a 100k-node tree touches ~35 MB within its first milliseconds;
// in 4 KiB pages that is ~9,000 page faults, a quarter of the time of
// `-t targets all` with a graph image. Linux backs a 2 MiB-aligned extent
// with one 2 MiB page per fault where the program asks for it
// (MADV_HUGEPAGE; "madvise" is the default mode of most distributions).
// Only blocks the graph fills at once come from here, so a small build's
// resident set does not grow by a huge page.
#ifndef RONIN_BASE_HUGE_PAGES_H_
#define RONIN_BASE_HUGE_PAGES_H_

#include <cstddef>

namespace ronin {

constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` of zeroed memory from the kernel, 2 MiB-aligned, its whole 2 MiB
// extents within the first `huge_bytes` (default: all) marked for huge
// pages; the rest gets small pages, so memory the caller may never touch is
// never made resident by a neighbour's fault. Null when the kernel refuses
// the mapping.
char* MapHugeBlock(size_t bytes, size_t huge_bytes = ~size_t{0});
void UnmapHugeBlock(char* block, size_t bytes);
// Hands the whole pages within [begin, begin + bytes) of a block from
// MapHugeBlock back to the kernel: no longer resident, their contents lost
// (they read as zeros when next touched). For a block's unused rest, which
// a huge page made resident along with the used part before it.
void ReleaseUnusedPages(char* begin, size_t bytes);

}  // namespace ronin

#endif  // RONIN_BASE_HUGE_PAGES_H_
