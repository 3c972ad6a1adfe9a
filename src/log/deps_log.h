// .ninja_deps: the binary log of dependencies discovered by commands
// (deps = gcc / msvc), byte-compatible with Ninja's version 4. Nodes are
// referred to by dense ids assigned in file order; every record is
// validated before use, and a damaged tail is cut off, not trusted.
#ifndef RONIN_LOG_DEPS_LOG_H_
#define RONIN_LOG_DEPS_LOG_H_

#include <stdio.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/util.h"

namespace ronin {

struct Edge;
struct Node;
class State;

class DepsLog {
 public:
  static constexpr int kCurrentVersion = 4;
  static constexpr unsigned kMaxRecordSize = (1 << 19) - 1;

  // One output's recorded dependencies, read through DepNode. A record
  // loaded from the file holds the nodes themselves, in a block with room
  // ahead and behind for the other inputs of the edge that builds the
  // output: the scan hands the whole block to the edge as its input list
  // (TakeInputsBlock), so the deps of a large build (millions) are in
  // memory once, not as ids here and pointers in the edges. A record made
  // by this run (RecordDeps) holds 4-byte ids: nothing scans it.
  struct Deps {
    TimeStamp mtime = 0;
    int node_count = 0;
    int capacity = 0;  // entries the array has room for
    union {
      const int32_t* ids;  // !resolved: owned by the log
      Node** nodes;        // resolved: `before` entries after a block's start
    };
    uint16_t before = 0;    // room ahead of `nodes`
    uint16_t after = 0;     // room behind the node_count nodes
    bool resolved = false;
    bool taken = false;     // the block now belongs to an edge's inputs
    Deps() : ids(nullptr) {}
  };

  enum class LoadStatus { kError, kSuccess, kNotFound };

  DepsLog() = default;
  ~DepsLog() { Close(); }
  DepsLog(const DepsLog&) = delete;
  DepsLog& operator=(const DepsLog&) = delete;

  // A recovered problem (bad header, damaged tail) comes back in *err with kSuccess.
  LoadStatus Load(const std::string& path, State* state, std::string* err);
  // Remembers where to write; the file is created on the first record.
  bool OpenForWrite(const std::string& path, std::string* err);
  // Records `node`'s deps unless identical to what is stored.
  bool RecordDeps(Node* node, TimeStamp mtime, const std::vector<Node*>& deps);
  bool RecordDeps(Node* node, TimeStamp mtime, int count, Node* const* deps);
  // Whether RecordDeps keeps the record it wrote in memory (the default).
  // A build turns it off: it records each output once, after the output's
  // edge was scanned, and nothing later in the build reads a record back
  // (the next run reads the file). A clean build of a large tree would
  // otherwise hold every dependency it discovered until it exits. The
  // record then reads as absent here: never stale.
  void KeepRecordedDeps(bool keep) { keep_recorded_ = keep; }
  void Close();

  Deps* GetDeps(const Node* node) const;
  // The i-th dependency of a record of this log.
  Node* DepNode(const Deps* deps, int i) const { return deps->resolved ? deps->nodes[i] : nodes_[deps->ids[i]]; }
  // For `edge`, whose first output `deps` belongs to: the block of the
  // record with the edge's inputs before and after the deps (explicit and
  // implicit ones first, order-only ones last), or null when the record
  // has no room for them or was taken. The edge then owns the block and
  // must never change it in place (CompactVector only ever reallocates to
  // grow). The record still reads its deps from it.
  Node** TakeInputsBlock(Deps* deps, const Edge* edge, size_t* size);
  // The first output whose deps list `node` (for "target^" fallback).
  Node* GetFirstReverseDepsNode(const Node* node) const;

  bool Recompact(const std::string& path, std::string* err);
  // Entries whose output is still built by an edge with a `deps` binding.
  static bool IsDepsEntryLiveFor(const Node* node);

  const std::vector<Node*>& nodes() const { return nodes_; }
  const std::vector<Deps*>& deps() const { return deps_; }

 private:
  bool OpenForWriteIfNeeded();
  bool RecordId(Node* node);
  // Stores deps for an id; true if it replaced an earlier record.
  bool UpdateDeps(int out_id, Deps* deps);
  // A Deps whose id array (count ids) is to be filled by the caller.
  Deps* NewDeps(TimeStamp mtime, int count, int32_t** ids);
  // A resolved Deps for `output` whose nodes (count) the caller fills.
  Deps* NewResolvedDeps(TimeStamp mtime, int count, const Node* output);
  Deps* NewDepsRecord();
  // `count` elements from shared blocks (or one of their own if large).
  template <typename T>
  T* AllocateArray(size_t count, std::vector<std::unique_ptr<T[]>>* blocks, size_t* left,
                   std::vector<std::unique_ptr<T[]>>* big);
  // Parse one record of the file; false if it is invalid.
  bool ReadDepsRecord(const char* payload, uint32_t size, int* total, int* unique);
  bool ReadPathRecord(const char* payload, uint32_t size, State* state);

  std::vector<Node*> nodes_;  // by id
  std::vector<Deps*> deps_;   // by output id; null when none
  std::vector<std::unique_ptr<Deps[]>> deps_blocks_;
  std::vector<std::unique_ptr<int32_t[]>> id_blocks_;
  std::vector<std::unique_ptr<int32_t[]>> big_id_arrays_;
  std::vector<std::unique_ptr<Node*[]>> node_blocks_;
  std::vector<std::unique_ptr<Node*[]>> big_node_arrays_;
  size_t deps_block_left_ = 0;
  size_t id_block_left_ = 0;
  size_t node_block_left_ = 0;
  FILE* file_ = nullptr;
  std::string file_path_;
  bool needs_recompaction_ = false;
  bool keep_recorded_ = true;
};

}  // namespace ronin

#endif  // RONIN_LOG_DEPS_LOG_H_
