// A small vector of pointers for the graph (an edge's inputs and outputs, a
// node's users): 16 bytes instead of std::vector's 24, with its elements in
// the graph arena instead of one heap block each. There are hundreds of
// thousands of these in a large build; most hold a handful of elements, and
// most of all exactly one (a source file used by one command, an edge's
// single output): one element is kept in place of the pointer, with no
// arena memory at all.
//
// Memory is never returned: growth copies into a new arena block and
// abandons the old one (so the waste is bounded by the final size).
#ifndef RONIN_BASE_COMPACT_VECTOR_H_
#define RONIN_BASE_COMPACT_VECTOR_H_

#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <type_traits>

#include "base/arena.h"

namespace ronin {

// The process-wide arena behind every CompactVector (graph lifetime).
Arena* GraphArena();

template <typename T>
class CompactVector {
  static_assert(std::is_trivially_copyable<T>::value, "elements are moved with memcpy");
  static_assert(sizeof(T) <= sizeof(T*) && alignof(T) <= alignof(T*), "one element fits the pointer's place");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<T*>;
  using const_reverse_iterator = std::reverse_iterator<const T*>;

  CompactVector() { storage_.many = nullptr; }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Where the elements are: in this object while there is room for one.
  T* data() { return capacity_ <= 1 ? &storage_.one : storage_.many; }
  const T* data() const { return capacity_ <= 1 ? &storage_.one : storage_.many; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("CompactVector::at");
    return data()[i];
  }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    if (capacity == 1) {
      capacity_ = 1;  // in place: nothing to allocate
      return;
    }
    T* grown = GraphArena()->AllocateArray<T>(capacity);
    if (size_) memcpy(grown, data(), size_ * sizeof(T));
    storage_.many = grown;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  void push_back(const T& value) {
    // One element in place; then 4 in the arena, then doubling.
    if (size_ == capacity_) reserve(capacity_ == 0 ? 1 : capacity_ == 1 ? 4 : capacity_ * 2);
    data()[size_++] = value;
  }

  // Two passes, for lists whose final size only a pass over the graph
  // tells: CountForLater() once per element to come, then AllocateCounted()
  // before each push_back: one exact allocation instead of doubling. Only a
  // list that owns no arena memory yet counts; others grow as usual.
  void CountForLater() {
    if (size_ != 0 || (capacity_ > 1 && storage_.many)) return;
    if (++capacity_ == 2) storage_.many = nullptr;  // counted, not allocated
  }
  void AllocateCounted() {
    if (capacity_ <= 1 || storage_.many) return;
    storage_.many = GraphArena()->AllocateArray<T>(capacity_);
  }

  // Takes `size` (at least 2) elements that another owner keeps for the
  // graph's lifetime as this list, in place (no copy). Nothing here changes
  // them in place afterwards but erase(); growing copies them, as usual.
  void Adopt(T* elements, size_t size) {
    storage_.many = elements;
    size_ = capacity_ = static_cast<uint32_t>(size);
  }

  // Inserts `count` copies of `value` before `position`; returns where they start.
  iterator insert(const_iterator position, size_t count, const T& value) {
    size_t index = static_cast<size_t>(position - data());
    MakeRoom(index, count);
    T* elements = data();
    for (size_t i = 0; i < count; ++i) elements[index + i] = value;
    return elements + index;
  }

  template <typename InputIterator>
  iterator insert(const_iterator position, InputIterator first, InputIterator last) {
    size_t index = static_cast<size_t>(position - data());
    size_t count = static_cast<size_t>(std::distance(first, last));
    MakeRoom(index, count);
    T* elements = data();
    for (size_t i = 0; i < count; ++i, ++first) elements[index + i] = *first;
    return elements + index;
  }

  iterator erase(const_iterator first, const_iterator last) {
    T* elements = data();
    size_t index = static_cast<size_t>(first - elements);
    size_t count = static_cast<size_t>(last - first);
    size_t after = size_ - index - count;
    // An element in place has nothing after it.
    if (after && capacity_ > 1) memmove(storage_.many + index, storage_.many + index + count, after * sizeof(T));
    size_ -= static_cast<uint32_t>(count);
    return elements + index;
  }

  void clear() { size_ = 0; }

 private:
  // Opens a gap of `count` elements at `index`.
  void MakeRoom(size_t index, size_t count) {
    size_t wanted = size_ + count;
    if (wanted > capacity_) reserve(wanted > capacity_ * 2u ? wanted : capacity_ * 2u);
    // Up to one element stays in place, where there is nothing to move.
    if (wanted > 1 && size_ > index)
      memmove(storage_.many + index + count, storage_.many + index, (size_ - index) * sizeof(T));
    size_ = static_cast<uint32_t>(wanted);
  }

  union Storage {
    T* many;  // capacity_ > 1: the arena array (null while only counted)
    T one;    // capacity_ <= 1
  } storage_;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

}  // namespace ronin

#endif  // RONIN_BASE_COMPACT_VECTOR_H_
