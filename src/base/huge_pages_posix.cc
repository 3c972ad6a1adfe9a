#include "base/huge_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace ronin {

// Under AddressSanitizer (and in fuzz builds) the callers' own heap blocks
// are used instead: mapped memory has no redzones to catch an overrun.
#if defined(RONIN_FUZZING) || defined(__SANITIZE_ADDRESS__)
constexpr bool kMapBlocks = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kMapBlocks = false;
#else
constexpr bool kMapBlocks = true;
#endif
#else
constexpr bool kMapBlocks = true;
#endif

char* MapHugeBlock(size_t bytes, size_t huge_bytes) {
  if (!kMapBlocks || bytes == 0) return nullptr;
  // Room to slide to a 2 MiB boundary; what lies outside the block is
  // handed back at once.
  size_t mapped = bytes + kHugePageBytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t block = (start + kHugePageBytes - 1) & ~static_cast<uintptr_t>(kHugePageBytes - 1);
  if (block > start) munmap(raw, block - start);
  size_t tail = start + mapped - (block + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(block + bytes), tail);
  size_t whole_pages = (huge_bytes < bytes ? huge_bytes : bytes) & ~(kHugePageBytes - 1);
#ifdef MADV_HUGEPAGE
  // Advice only: where the kernel has no huge pages the block still works.
  if (whole_pages > 0) madvise(reinterpret_cast<void*>(block), whole_pages, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<char*>(block);
}

void UnmapHugeBlock(char* block, size_t bytes) {
  if (block) munmap(block, bytes);
}

void ReleaseUnusedPages(char* begin, size_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + page - 1) & ~(page - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(begin) + bytes) & ~(page - 1);
  if (end <= first) return;
  // On a huge page this splits it: the used part stays, in small pages.
  madvise(reinterpret_cast<void*>(first), end - first, MADV_DONTNEED);
#ifdef MADV_NOHUGEPAGE
  // Else khugepaged would in time make the extent one huge page again (it
  // collapses extents with as few as one page present, by default), and
  // resident whole.
  madvise(reinterpret_cast<void*>(first), end - first, MADV_NOHUGEPAGE);
#endif
}

}  // namespace ronin
