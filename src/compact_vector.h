// A small vector of pointers for the graph (an edge's inputs and outputs, a
// node's users): 16 bytes instead of std::vector's 24, with its elements in
// the graph arena instead of one heap block each. There are hundreds of
// thousands of these in a large build; most hold a handful of elements.
//
// Memory is never returned: growth copies into a new arena block and
// abandons the old one (so the waste is bounded by the final size).
#ifndef RONIN_COMPACT_VECTOR_H_
#define RONIN_COMPACT_VECTOR_H_

#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <type_traits>

#include "arena.h"

namespace ronin {

// The process-wide arena behind every CompactVector (graph lifetime).
Arena* GraphArena();

template <typename T>
class CompactVector {
  static_assert(std::is_trivially_copyable<T>::value, "elements are moved with memcpy");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<T*>;
  using const_reverse_iterator = std::reverse_iterator<const T*>;

  CompactVector() = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("CompactVector::at");
    return data_[i];
  }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    T* grown = GraphArena()->AllocateArray<T>(capacity);
    if (size_) memcpy(grown, data_, size_ * sizeof(T));
    data_ = grown;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  void push_back(const T& value) {
    // Most lists hold one element (a source file used by one command), so
    // the first allocation is exact; then 4, then doubling.
    if (size_ == capacity_) reserve(capacity_ == 0 ? 1 : capacity_ == 1 ? 4 : capacity_ * 2);
    data_[size_++] = value;
  }

  // Two passes, for lists whose final size only a pass over the graph
  // tells: CountForLater() once per element to come, then AllocateCounted()
  // before each push_back: one exact allocation instead of doubling. Only a
  // list that owns no memory yet counts; others grow as usual.
  void CountForLater() {
    if (!data_) ++capacity_;
  }
  void AllocateCounted() {
    if (data_ || !capacity_) return;
    size_t counted = capacity_;
    capacity_ = 0;
    reserve(counted);
  }

  // Inserts `count` copies of `value` before `position`; returns where they start.
  iterator insert(const_iterator position, size_t count, const T& value) {
    size_t index = static_cast<size_t>(position - data_);
    MakeRoom(index, count);
    for (size_t i = 0; i < count; ++i) data_[index + i] = value;
    return data_ + index;
  }

  template <typename InputIterator>
  iterator insert(const_iterator position, InputIterator first, InputIterator last) {
    size_t index = static_cast<size_t>(position - data_);
    size_t count = static_cast<size_t>(std::distance(first, last));
    MakeRoom(index, count);
    for (size_t i = 0; i < count; ++i, ++first) data_[index + i] = *first;
    return data_ + index;
  }

  iterator erase(const_iterator first, const_iterator last) {
    size_t index = static_cast<size_t>(first - data_);
    size_t count = static_cast<size_t>(last - first);
    if (count == 0) return data_ + index;  // data_ may be null: no memmove
    memmove(data_ + index, data_ + index + count, (size_ - index - count) * sizeof(T));
    size_ -= static_cast<uint32_t>(count);
    return data_ + index;
  }

  void clear() { size_ = 0; }

 private:
  // Opens a gap of `count` elements at `index`.
  void MakeRoom(size_t index, size_t count) {
    if (count == 0) return;  // data_ may be null: no memmove
    if (size_ + count > capacity_) {
      size_t wanted = size_ + count;
      reserve(wanted > capacity_ * 2u ? wanted : capacity_ * 2u);
    }
    memmove(data_ + index + count, data_ + index, (size_ - index) * sizeof(T));
    size_ += static_cast<uint32_t>(count);
  }

  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

}  // namespace ronin

#endif  // RONIN_COMPACT_VECTOR_H_
