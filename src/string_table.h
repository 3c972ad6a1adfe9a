// A hash table from a string key (a view stored in the value itself) to a
// pointer: open addressing with linear probing over (hash, pointer) slots.
// No per-entry allocation; used for path interning (the hot lookup of the
// parser and the deps log loader) and for the build log's entries.
#ifndef RONIN_STRING_TABLE_H_
#define RONIN_STRING_TABLE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "hash.h"

namespace ronin {

inline uint64_t HashString(std::string_view text) { return RapidHash(text.data(), text.size()); }

template <typename T, std::string_view T::*kKey>
class StringTable {
 public:
  T* Find(std::string_view key) const { return Find(key, HashString(key)); }
  T* Find(std::string_view key, uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (!slot.value) return nullptr;
      if (slot.hash == hash && slot.value->*kKey == key) return slot.value;
    }
  }

  // Inserts a value whose key is not in the table yet.
  void Insert(T* value, uint64_t hash) {
    // Keep the load factor under one half so probe runs stay short.
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    Place({hash, value});
    ++size_;
  }
  void Insert(T* value) { Insert(value, HashString(value->*kKey)); }

  void Clear() {
    slots_.clear();
    size_ = 0;
  }
  size_t size() const { return size_; }
  size_t bucket_count() const { return slots_.size(); }

 private:
  struct Slot {
    uint64_t hash;
    T* value;  // null: empty
  };

  void Place(const Slot& slot) {
    size_t mask = slots_.size() - 1;
    size_t i = slot.hash & mask;
    while (slots_[i].value) i = (i + 1) & mask;
    slots_[i] = slot;
  }

  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{0, nullptr});
    for (const Slot& slot : old)
      if (slot.value) Place(slot);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace ronin

#endif  // RONIN_STRING_TABLE_H_
