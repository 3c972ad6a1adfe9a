// Objects that live as long as the graph (nodes, edges), in chunks of 4096
// that never move, in creation order. Unlike a std::deque (blocks of four
// edges, a heap header each, and a map of them) it costs nothing per object,
// and an object's index (its place in creation order) is found from its
// address among a few dozen chunks. A Snapshot lets another thread read the
// first N objects while more are added: the graph image writer numbers nodes
// so (a table of 100k pointers and indices cost 1.9 MB at the first run's
// peak).
#ifndef RONIN_BASE_CHUNKED_STORE_H_
#define RONIN_BASE_CHUNKED_STORE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/huge_pages.h"

namespace ronin {

template <typename T>
class ChunkedStore {
  static constexpr size_t kChunkBits = 12;
  static constexpr size_t kChunk = size_t{1} << kChunkBits;
  static_assert(std::is_trivially_destructible<T>::value, "chunks are freed without destructors");

  struct FreeChunk {
    void operator()(T* chunk) const { ::operator delete(chunk); }
  };
  using Chunk = std::unique_ptr<T, FreeChunk>;

  // Walks objects by index, as `Value&` or as `Value*` (kPointers).
  template <typename Value, bool kPointers>
  class Walker {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::conditional_t<kPointers, Value*, Value>;
    using difference_type = std::ptrdiff_t;
    using pointer = value_type*;
    using reference = std::conditional_t<kPointers, Value*, Value&>;
    Walker(T* const* chunks, size_t index) : chunks_(chunks), index_(index) {}
    reference operator*() const {
      Value* object = chunks_[index_ >> kChunkBits] + (index_ & (kChunk - 1));
      if constexpr (kPointers)
        return object;
      else
        return *object;
    }
    Value* operator->() const { return chunks_[index_ >> kChunkBits] + (index_ & (kChunk - 1)); }
    Walker& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const Walker& other) const { return index_ == other.index_; }
    bool operator!=(const Walker& other) const { return index_ != other.index_; }

   private:
    T* const* chunks_;
    size_t index_;
  };

 public:
  using iterator = Walker<T, false>;
  using const_iterator = Walker<const T, false>;

  // The objects as pointers, like a std::vector<T*> (State::edges()).
  class Pointers {
   public:
    explicit Pointers(const ChunkedStore* store) : store_(store) {}
    size_t size() const { return store_->size(); }
    bool empty() const { return store_->empty(); }
    T* operator[](size_t index) const { return store_->At(index); }
    Walker<T, true> begin() const { return Walker<T, true>(store_->chunks_.data(), 0); }
    Walker<T, true> end() const { return Walker<T, true>(store_->chunks_.data(), store_->size()); }

   private:
    const ChunkedStore* store_;
  };

  // The first size() objects as they were when taken; readable from another
  // thread while the store grows (it holds its own list of chunks).
  class Snapshot {
   public:
    size_t size() const { return size_; }
    const T* operator[](size_t index) const { return chunks_[index >> kChunkBits] + (index & (kChunk - 1)); }
    Walker<const T, true> begin() const { return Walker<const T, true>(chunks_.data(), 0); }
    Walker<const T, true> end() const { return Walker<const T, true>(chunks_.data(), size_); }
    // The index of an object among the first size().
    uint32_t IndexOf(const T* object) const {
      // The last chunk starting at or before the object.
      auto it = std::upper_bound(by_address_.begin(), by_address_.end(), object,
                                 [](const T* a, const std::pair<const T*, size_t>& b) {
                                   return std::less<const T*>()(a, b.first);
                                 });
      --it;
      return static_cast<uint32_t>((it->second << kChunkBits) + static_cast<size_t>(object - it->first));
    }

   private:
    friend class ChunkedStore;
    std::vector<T*> chunks_;
    std::vector<std::pair<const T*, size_t>> by_address_;  // chunk start, chunk number
    size_t size_ = 0;
  };

  ChunkedStore() = default;
  ChunkedStore(const ChunkedStore&) = delete;
  ChunkedStore& operator=(const ChunkedStore&) = delete;
  ~ChunkedStore() {
    for (const auto& block : mapped_) UnmapHugeBlock(block.first, block.second);
  }

  // Room for `count` objects in all. When that is a large graph's worth,
  // the chunks come at once from one block of huge pages (base/huge_pages.h):
  // the graph image loader knows its counts before it adds an object.
  void Reserve(size_t count) {
    size_t chunks = (count + kChunk - 1) >> kChunkBits;
    if (chunks <= chunks_.size()) return;
    size_t chunk_bytes = sizeof(T) * kChunk;
    size_t bytes = (chunks - chunks_.size()) * chunk_bytes;
    if (bytes < kHugePageBytes) return;  // a small store takes its chunks one by one
    // Only the part `count` objects fill is advised: a fault past them
    // would make a whole 2 MiB resident for nothing.
    size_t used_bytes = (count - (chunks_.size() << kChunkBits)) * sizeof(T);
    char* block = MapHugeBlock(bytes, used_bytes);
    if (!block) return;
    mapped_.emplace_back(block, bytes);
    for (size_t offset = 0; offset < bytes; offset += chunk_bytes) chunks_.push_back(reinterpret_cast<T*>(block + offset));
  }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if ((size_ & (kChunk - 1)) == 0 && size_ >> kChunkBits == chunks_.size()) {
      chunks_.push_back(static_cast<T*>(::operator new(sizeof(T) * kChunk)));
      owned_.emplace_back(chunks_.back());
    }
    T* object = new (At(size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *object;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t index) { return *At(index); }
  const T& operator[](size_t index) const { return *At(index); }
  T& back() { return *At(size_ - 1); }
  const T& front() const { return *At(0); }
  iterator begin() { return iterator(chunks_.data(), 0); }
  iterator end() { return iterator(chunks_.data(), size_); }
  const_iterator begin() const { return const_iterator(chunks_.data(), 0); }
  const_iterator end() const { return const_iterator(chunks_.data(), size_); }
  Pointers pointers() const { return Pointers(this); }

  Snapshot Take() const {
    Snapshot snapshot;
    snapshot.size_ = size_;
    snapshot.chunks_ = chunks_;
    for (size_t i = 0; i < chunks_.size(); ++i) snapshot.by_address_.emplace_back(chunks_[i], i);
    std::sort(snapshot.by_address_.begin(), snapshot.by_address_.end(),
              [](const std::pair<const T*, size_t>& a, const std::pair<const T*, size_t>& b) {
                return std::less<const T*>()(a.first, b.first);
              });
    return snapshot;
  }

 private:
  T* At(size_t index) const { return chunks_[index >> kChunkBits] + (index & (kChunk - 1)); }

  std::vector<T*> chunks_;
  std::vector<Chunk> owned_;
  std::vector<std::pair<char*, size_t>> mapped_;  // blocks of chunks from Reserve
  size_t size_ = 0;
};

}  // namespace ronin

#endif  // RONIN_BASE_CHUNKED_STORE_H_
