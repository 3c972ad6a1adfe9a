#include "log/state_table.h"

#include <string.h>

#include <algorithm>
#include <tuple>

#include "base/hash.h"

namespace ronin {

uint64_t StateTable::Hash(uint8_t kind, std::string_view key) {
  return RapidHashSeeded(key.data(), key.size(), kind);
}

size_t StateTable::Slot(uint8_t kind, std::string_view key, uint64_t hash) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Record* record = slots_[i];
    if (!record || (record->kind == kind && std::string_view(record->key(), record->key_size) == key)) return i;
  }
}

std::optional<std::string_view> StateTable::Find(uint8_t kind, std::string_view key) const {
  if (slots_.empty()) return std::nullopt;
  const Record* record = slots_[Slot(kind, key, Hash(kind, key))];
  if (!record) return std::nullopt;
  return std::string_view(record->payload(), record->payload_size);
}

StateTable::Record* StateTable::NewRecord(uint8_t kind, std::string_view key, std::string_view payload) {
  // Room to spare: text payloads (times, sizes) change length a little.
  size_t room = (payload.size() + 7) & ~static_cast<size_t>(7);
  size_t words = (sizeof(Record) + key.size() + room + 3) / 4;
  Record* record = reinterpret_cast<Record*>(arena_.AllocateArray<uint32_t>(words));
  record->key_size = static_cast<uint32_t>(key.size());
  record->payload_size = static_cast<uint32_t>(payload.size());
  record->room = static_cast<uint32_t>(room);
  record->kind = kind;
  if (!key.empty()) memcpy(record->payload() - key.size(), key.data(), key.size());
  if (!payload.empty()) memcpy(record->payload(), payload.data(), payload.size());
  return record;
}

void StateTable::Clear() {
  arena_.Clear();
  std::vector<Record*>().swap(slots_);
  count_ = 0;
}

void StateTable::Grow() {
  std::vector<Record*> old;
  old.swap(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, nullptr);
  for (Record* record : old) {
    if (!record) continue;
    std::string_view key(record->key(), record->key_size);
    slots_[Slot(record->kind, key, Hash(record->kind, key))] = record;
  }
}

bool StateTable::Set(uint8_t kind, std::string_view key, std::string_view payload) {
  if ((count_ + 1) * 4 > slots_.size() * 3) Grow();
  size_t slot = Slot(kind, key, Hash(kind, key));
  Record* record = slots_[slot];
  if (!record) {
    slots_[slot] = NewRecord(kind, key, payload);
    ++count_;
    return true;
  }
  if (std::string_view(record->payload(), record->payload_size) == payload) return false;
  if (payload.size() <= record->room) {
    if (!payload.empty()) memcpy(record->payload(), payload.data(), payload.size());
    record->payload_size = static_cast<uint32_t>(payload.size());
  } else {
    slots_[slot] = NewRecord(kind, key, payload);
  }
  return true;
}

std::vector<const StateTable::Record*> StateTable::Sorted(int kind) const {
  std::vector<const Record*> records;
  for (const Record* record : slots_)
    if (record && (kind < 0 || record->kind == kind)) records.push_back(record);
  std::sort(records.begin(), records.end(), [](const Record* a, const Record* b) {
    return std::make_tuple(a->kind, std::string_view(a->key(), a->key_size)) <
           std::make_tuple(b->kind, std::string_view(b->key(), b->key_size));
  });
  return records;
}

void StateTable::ForEach(uint8_t kind,
                         const std::function<void(std::string_view key, std::string_view payload)>& visit) const {
  for (const Record* record : Sorted(kind))
    visit(std::string_view(record->key(), record->key_size),
          std::string_view(record->payload(), record->payload_size));
}

void StateTable::ForEachRecord(
    const std::function<void(uint8_t kind, std::string_view key, std::string_view payload)>& visit) const {
  for (const Record* record : Sorted(-1))
    visit(record->kind, std::string_view(record->key(), record->key_size),
          std::string_view(record->payload(), record->payload_size));
}

}  // namespace ronin
