// A hash table from a string key (a view stored in the value itself) to a
// pointer: open addressing with linear probing over one-word slots.
// No per-entry allocation; used for path interning (the hot lookup of the
// parser and the deps log loader) and for the build log's entries.
#ifndef RONIN_BASE_STRING_TABLE_H_
#define RONIN_BASE_STRING_TABLE_H_

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "base/hash.h"

namespace ronin {

inline uint64_t HashString(std::string_view text) { return RapidHash(text.data(), text.size()); }

// Slots are single words: the pointer, with the top 16 bits of the hash in
// its (unused) top 16 bits, so most mismatches are rejected without
// touching the value.
template <typename T, std::string_view T::*kKey>
class StringTable {
 public:
  T* Find(std::string_view key) const { return Find(key, HashString(key)); }
  T* Find(std::string_view key, uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    uintptr_t tag = Tag(hash);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      uintptr_t slot = slots_[i];
      if (!slot) return nullptr;
      if (Holds(slot, tag, key)) return reinterpret_cast<T*>(slot & ~kTagMask);
    }
  }

  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }

  // Inserts a value whose key is not in the table yet.
  void Insert(T* value, uint64_t hash) {
    Place(MakeRoomFor(value) | Tag(hash), hash);
    ++size_;
  }
  void Insert(T* value) { Insert(value, HashString(value->*kKey)); }

  // Inserts `value` unless a value with its key is there (then false): one
  // probe where Find and Insert would take two.
  bool InsertIfAbsent(T* value, uint64_t hash) {
    uintptr_t address = MakeRoomFor(value);
    size_t mask = slots_.size() - 1;
    uintptr_t tag = Tag(hash);
    size_t i = hash & mask;
    for (; slots_[i]; i = (i + 1) & mask)
      if (Holds(slots_[i], tag, value->*kKey)) return false;
    slots_[i] = address | tag;
    ++size_;
    return true;
  }

  // Room for `count` values in all, so that inserting them never rehashes:
  // a loader that knows its count up front saves a rehash of every value
  // inserted before each doubling (as many again as the final size).
  void Reserve(size_t count) {
    size_t wanted = slots_.empty() ? 1024 : slots_.size();
    while ((count + 1) * 2 > wanted) wanted *= 2;
    if (wanted > slots_.size()) Resize(wanted);
  }

  void Clear() {
    slots_.clear();
    size_ = 0;
  }
  size_t size() const { return size_; }
  size_t bucket_count() const { return slots_.size(); }

 private:
  static constexpr uintptr_t kTagMask = ~static_cast<uintptr_t>(0) << 48;
  static uintptr_t Tag(uint64_t hash) { return static_cast<uintptr_t>(hash) & kTagMask; }
  // True if the (non-empty) slot holds the value with `key`; the tag
  // rejects most others without touching the value.
  static bool Holds(uintptr_t slot, uintptr_t tag, std::string_view key) {
    return (slot & kTagMask) == tag && reinterpret_cast<T*>(slot & ~kTagMask)->*kKey == key;
  }

  // The value's address as a slot (without its tag), once there is room.
  uintptr_t MakeRoomFor(T* value) {
    uintptr_t address = reinterpret_cast<uintptr_t>(value);
    // User-space addresses on Linux (x86-64, AArch64) fit in 48 bits.
    if (address & kTagMask) abort();
    // Keep the load factor under one half so probe runs stay short.
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    return address;
  }

  void Place(uintptr_t slot, uint64_t hash) {
    size_t mask = slots_.size() - 1;
    size_t i = hash & mask;
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = slot;
  }

  void Grow() { Resize(slots_.empty() ? 1024 : slots_.size() * 2); }

  void Resize(size_t slot_count) {
    std::vector<uintptr_t> old;
    old.swap(slots_);
    slots_.assign(slot_count, 0);
    // The hash is recomputed: slots keep only its top bits.
    for (uintptr_t slot : old) {
      if (!slot) continue;
      T* value = reinterpret_cast<T*>(slot & ~kTagMask);
      Place(slot, HashString(value->*kKey));
    }
  }

  std::vector<uintptr_t> slots_;
  size_t size_ = 0;
};

}  // namespace ronin

#endif  // RONIN_BASE_STRING_TABLE_H_
