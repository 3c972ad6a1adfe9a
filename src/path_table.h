// Interning table from canonical path to Node: open addressing with linear
// probing over (hash, node) slots. One probe sequence, no per-entry
// allocation; the hot lookup of the parser and the deps log loader.
#ifndef RONIN_PATH_TABLE_H_
#define RONIN_PATH_TABLE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "hash.h"

namespace ronin {

struct Node;

class PathTable {
 public:
  static uint64_t Hash(std::string_view path) { return RapidHash(path.data(), path.size()); }

  Node* Find(std::string_view path) const { return Find(path, Hash(path)); }
  Node* Find(std::string_view path, uint64_t hash) const;
  // Inserts a node whose path is not in the table yet.
  void Insert(Node* node, uint64_t hash);

  size_t size() const { return size_; }
  size_t bucket_count() const { return slots_.size(); }

 private:
  struct Slot {
    uint64_t hash;
    Node* node;  // null: empty
  };
  void Grow();

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace ronin

#endif  // RONIN_PATH_TABLE_H_
