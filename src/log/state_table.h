// The records of .ronin_state in memory (log/state_file.h): the payload last
// stored for each (kind, key). A record is one arena block (a 16-byte
// header, the key, the payload with a little room to change in place),
// found through an open-addressing index of pointers. A std::map of
// std::string pairs cost ~240 bytes a record (tree node, two strings, two
// heap blocks): 15.7 MB for the bench's 76k records, ~5 MB like this.
// Memory of a payload that outgrows its room is not reused (a build
// changes each record at most a few times).
#ifndef RONIN_LOG_STATE_TABLE_H_
#define RONIN_LOG_STATE_TABLE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "base/arena.h"

namespace ronin {

class StateTable {
 public:
  StateTable() = default;
  StateTable(const StateTable&) = delete;
  StateTable& operator=(const StateTable&) = delete;

  // The payload stored for (kind, key); valid until the next Set.
  std::optional<std::string_view> Find(uint8_t kind, std::string_view key) const;
  // Stores `payload` for (kind, key); false if it was stored already.
  bool Set(uint8_t kind, std::string_view key, std::string_view payload);
  size_t size() const { return count_; }
  // Forgets every record (and frees their memory).
  void Clear();
  // Every (key, payload) of one kind, in key order.
  void ForEach(uint8_t kind, const std::function<void(std::string_view key, std::string_view payload)>& visit) const;
  // Every record, by kind and then key.
  void ForEachRecord(
      const std::function<void(uint8_t kind, std::string_view key, std::string_view payload)>& visit) const;

 private:
  struct Record {
    uint32_t key_size;
    uint32_t payload_size;
    uint32_t room;  // bytes reserved for the payload
    uint8_t kind;
    const char* key() const { return reinterpret_cast<const char*>(this + 1); }
    char* payload() { return reinterpret_cast<char*>(this + 1) + key_size; }
    const char* payload() const { return key() + key_size; }
  };

  static uint64_t Hash(uint8_t kind, std::string_view key);
  // The slot holding (kind, key), or the empty slot where it belongs.
  size_t Slot(uint8_t kind, std::string_view key, uint64_t hash) const;
  Record* NewRecord(uint8_t kind, std::string_view key, std::string_view payload);
  void Grow();
  std::vector<const Record*> Sorted(int kind) const;  // kind < 0: all

  Arena arena_;
  std::vector<Record*> slots_;  // power-of-two size, at most 3/4 full
  size_t count_ = 0;
};

}  // namespace ronin

#endif  // RONIN_LOG_STATE_TABLE_H_
