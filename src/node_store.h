// Where State keeps its nodes: chunks of 4096 that never move, in creation
// order. A node's index (its place in that order, as the graph image
// numbers nodes) is found from its address among a few dozen chunks, and a
// Snapshot lets another thread read the first N nodes while more are added:
// the image writer needs both, and a table of 100k pointers and indices for
// it cost 1.9 MB at the first run's peak.
#ifndef RONIN_NODE_STORE_H_
#define RONIN_NODE_STORE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "graph.h"

namespace ronin {

class NodeStore {
  static constexpr size_t kChunkBits = 12;
  static constexpr size_t kChunk = size_t{1} << kChunkBits;
  static_assert(std::is_trivially_destructible<Node>::value, "chunks are freed without destructors");

  struct FreeChunk {
    void operator()(Node* chunk) const { ::operator delete(chunk); }
  };
  using Chunk = std::unique_ptr<Node, FreeChunk>;

 public:
  template <typename Value>
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Node;
    using difference_type = std::ptrdiff_t;
    using pointer = Value*;
    using reference = Value&;
    Iterator(const Chunk* chunks, size_t index) : chunks_(chunks), index_(index) {}
    Value& operator*() const { return chunks_[index_ >> kChunkBits].get()[index_ & (kChunk - 1)]; }
    Value* operator->() const { return &**this; }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return index_ == other.index_; }
    bool operator!=(const Iterator& other) const { return index_ != other.index_; }

   private:
    const Chunk* chunks_;
    size_t index_;
  };
  using iterator = Iterator<Node>;
  using const_iterator = Iterator<const Node>;

  // The first size() nodes as they were when taken; readable from another
  // thread while the store grows (it holds its own list of chunks).
  class Snapshot {
   public:
    // Walks the nodes as pointers, in order.
    class Pointers {
     public:
      Pointers(const Snapshot* snapshot, size_t index) : snapshot_(snapshot), index_(index) {}
      const Node* operator*() const { return (*snapshot_)[index_]; }
      Pointers& operator++() {
        ++index_;
        return *this;
      }
      bool operator!=(const Pointers& other) const { return index_ != other.index_; }

     private:
      const Snapshot* snapshot_;
      size_t index_;
    };

    size_t size() const { return size_; }
    const Node* operator[](size_t index) const { return chunks_[index >> kChunkBits] + (index & (kChunk - 1)); }
    Pointers begin() const { return Pointers(this, 0); }
    Pointers end() const { return Pointers(this, size_); }
    // The index of a node among the first size().
    uint32_t IndexOf(const Node* node) const {
      // The last chunk starting at or before the node.
      auto it = std::upper_bound(by_address_.begin(), by_address_.end(), node,
                                 [](const Node* a, const std::pair<const Node*, size_t>& b) {
                                   return std::less<const Node*>()(a, b.first);
                                 });
      --it;
      return static_cast<uint32_t>((it->second << kChunkBits) + static_cast<size_t>(node - it->first));
    }

   private:
    friend class NodeStore;
    std::vector<const Node*> chunks_;
    std::vector<std::pair<const Node*, size_t>> by_address_;  // chunk start, chunk number
    size_t size_ = 0;
  };

  NodeStore() = default;
  NodeStore(const NodeStore&) = delete;
  NodeStore& operator=(const NodeStore&) = delete;

  Node& emplace_back(std::string_view path) {
    if ((size_ & (kChunk - 1)) == 0 && size_ >> kChunkBits == chunks_.size())
      chunks_.emplace_back(static_cast<Node*>(::operator new(sizeof(Node) * kChunk)));
    Node* node = new (chunks_[size_ >> kChunkBits].get() + (size_ & (kChunk - 1))) Node(path);
    ++size_;
    return *node;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Node& operator[](size_t index) { return *iterator(chunks_.data(), index); }
  const Node& operator[](size_t index) const { return *const_iterator(chunks_.data(), index); }
  Node& back() { return (*this)[size_ - 1]; }
  const Node& front() const { return (*this)[0]; }
  iterator begin() { return iterator(chunks_.data(), 0); }
  iterator end() { return iterator(chunks_.data(), size_); }
  const_iterator begin() const { return const_iterator(chunks_.data(), 0); }
  const_iterator end() const { return const_iterator(chunks_.data(), size_); }

  Snapshot Take() const {
    Snapshot snapshot;
    snapshot.size_ = size_;
    for (size_t i = 0; i < chunks_.size(); ++i) {
      snapshot.chunks_.push_back(chunks_[i].get());
      snapshot.by_address_.emplace_back(chunks_[i].get(), i);
    }
    std::sort(snapshot.by_address_.begin(), snapshot.by_address_.end(),
              [](const std::pair<const Node*, size_t>& a, const std::pair<const Node*, size_t>& b) {
                return std::less<const Node*>()(a.first, b.first);
              });
    return snapshot;
  }

 private:
  std::vector<Chunk> chunks_;
  size_t size_ = 0;
};

}  // namespace ronin

#endif  // RONIN_NODE_STORE_H_
