// A bump allocator for strings that live as long as the build graph:
// canonical paths, variable values and persisted rule bindings. One
// allocation per 64 KiB block instead of one per string. Once an arena holds
// a large graph's worth (kLargeBytes), it takes 2 MiB blocks in huge pages
// (base/huge_pages.h), and so does any single allocation of 2 MiB or more.
#ifndef RONIN_BASE_ARENA_H_
#define RONIN_BASE_ARENA_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "base/huge_pages.h"

namespace ronin {

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() { Clear(); }

  // Frees everything allocated so far; the arena starts over empty.
  void Clear() {
    for (const Block& block : blocks_) {
      if (block.mapped_bytes)
        UnmapHugeBlock(block.data, block.mapped_bytes);
      else
        delete[] block.data;
    }
    std::vector<Block>().swap(blocks_);
    block_size_ = kBlockSize;
    cursor_ = nullptr;
    left_ = 0;
    current_mapped_ = false;
    reserved_ = 0;
  }

  char* Allocate(size_t size) {
#ifdef RONIN_FUZZING
    // Fuzz builds only (never in ninja): one heap block per allocation, so
    // AddressSanitizer sees an overrun that a shared block would hide.
    return AllocateDedicated(size);
#endif
    if (size > block_size_ / 4) return AllocateDedicated(size);
    if (size > left_) Grow();
    char* result = cursor_;
    cursor_ += size;
    left_ -= size;
    return result;
  }

  // Memory for `count` objects of type T, suitably aligned (not constructed).
  template <typename T>
  T* AllocateArray(size_t count) {
    // Skip to the alignment within the block (blocks themselves are
    // suitably aligned by new[]).
    size_t misalignment = reinterpret_cast<uintptr_t>(cursor_) & (alignof(T) - 1);
    size_t padding = misalignment ? alignof(T) - misalignment : 0;
    if (padding <= left_) {
      cursor_ += padding;
      left_ -= padding;
    }
    char* raw = Allocate(sizeof(T) * count);
    if (reinterpret_cast<uintptr_t>(raw) & (alignof(T) - 1)) {
      // A fresh block started after the padding was applied: align again.
      raw = Allocate(sizeof(T) * count + alignof(T) - 1);
      uintptr_t address = reinterpret_cast<uintptr_t>(raw);
      address = (address + alignof(T) - 1) & ~static_cast<uintptr_t>(alignof(T) - 1);
      return reinterpret_cast<T*>(address);
    }
    return reinterpret_cast<T*>(raw);
  }

  // Copies `text` into the arena; the returned view is NUL-terminated.
  std::string_view Copy(std::string_view text) {
    char* data = Allocate(text.size() + 1);
    if (!text.empty()) memcpy(data, text.data(), text.size());
    data[text.size()] = '\0';
    return std::string_view(data, text.size());
  }

  size_t bytes_reserved() const { return reserved_; }

  // The unused rest of the current block, when that is a block of huge
  // pages, goes back to the kernel (for a process about to sit idle: a
  // huge page is resident whole however little of it is used). Later
  // allocations there fault fresh pages.
  void ReleaseUnusedTail() {
    if (current_mapped_ && left_ > 0) ReleaseUnusedPages(cursor_, left_);
  }

 private:
  static constexpr size_t kBlockSize = 64 * 1024;
  // Past this many bytes the graph is large: a small build never pays for
  // a huge page it half uses.
  static constexpr size_t kLargeBytes = 8u << 20;

  struct Block {
    char* data;
    size_t mapped_bytes;  // 0: from new[]
  };

  void Grow() {
    size_t size = block_size_;  // NewBlock may raise block_size_ for the next one
    cursor_ = NewBlock(size);
    current_mapped_ = blocks_.back().mapped_bytes != 0;
    left_ = size;
  }

  // Large strings get a block of their own so the current block keeps its space.
  char* AllocateDedicated(size_t size) { return NewBlock(size); }

  char* NewBlock(size_t size) {
    char* data = size >= kHugePageBytes ? MapHugeBlock(size) : nullptr;
    blocks_.push_back(Block{data, data ? size : 0});
    if (!data) blocks_.back().data = data = new char[size];
    reserved_ += size;
    if (reserved_ >= kLargeBytes) block_size_ = kHugePageBytes;
    return data;
  }

  std::vector<Block> blocks_;
  size_t block_size_ = kBlockSize;
  char* cursor_ = nullptr;
  size_t left_ = 0;
  bool current_mapped_ = false;  // cursor_'s block is a huge-page block
  size_t reserved_ = 0;
};

}  // namespace ronin

#endif  // RONIN_BASE_ARENA_H_
