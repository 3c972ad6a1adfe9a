#include "path_table.h"

#include "graph.h"

namespace ronin {

Node* PathTable::Find(std::string_view path, uint64_t hash) const {
  if (slots_.empty()) return nullptr;
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (!slot.node) return nullptr;
    if (slot.hash == hash && slot.node->path == path) return slot.node;
  }
}

void PathTable::Insert(Node* node, uint64_t hash) {
  // Keep the load factor under one half so probe runs stay short.
  if ((size_ + 1) * 2 > slots_.size()) Grow();
  size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].node) i = (i + 1) & mask;
  slots_[i] = {hash, node};
  ++size_;
}

void PathTable::Grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{0, nullptr});
  size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (!slot.node) continue;
    size_t i = slot.hash & mask;
    while (slots_[i].node) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace ronin
