// Loads the graph image (image/graph_image.h) into an empty State: strings are
// used in place (the body lives in the State's arena), containers are
// refilled in their saved order, and every count, index and string
// reference is checked first.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <new>

#include "base/file_io.h"
#include "base/hash.h"
#include "base/string_table.h"
#include "base/util.h"
#include "image/graph_image.h"

namespace ronin {

namespace {

const uint32_t kMaxKeySize = 64 << 20;
// What an image takes per node, roughly (~190 bytes on GN-shaped trees,
// with their edges and strings): its size then tells how large a graph
// follows before its key is checked and its strings are read.
constexpr uint64_t kTypicalBytesPerNode = 200;
// The fewest bytes a node (path reference, flags) and an edge (rule, pool,
// scope, five counts, one output, dyndep) take in the image: bounds what a
// damaged count can reserve.
constexpr size_t kMinNodeBytes = 12;
constexpr size_t kMinEdgeBytes = 40;

bool ReadFully(int fd, char* buffer, size_t size) {
  return ReadUpTo(fd, buffer, size) == static_cast<int64_t>(size);
}

struct Header {
  uint32_t key_size = 0;
  uint64_t body_size = 0;
  uint64_t key_hash = 0;
  uint64_t strings_hash = 0;
};

bool ReadHeader(int fd, Header* header) {
  char bytes[kImageHeaderSize];
  if (!ReadFully(fd, bytes, sizeof bytes) || memcmp(bytes, kImageMagic, sizeof kImageMagic) != 0) return false;
  ImageIn in(std::string_view(bytes + sizeof kImageMagic, sizeof bytes - sizeof kImageMagic));
  uint32_t format = 0;
  return in.U32(&format) && format == kImageHeaderFormat && in.U32(&header->key_size) &&
         header->key_size <= kMaxKeySize && in.U64(&header->body_size) && in.U64(&header->key_hash) &&
         in.U64(&header->strings_hash);
}

// Reads the blocks one at a time into one buffer, checking each hash.
class FileImageBlocks : public ImageBlocks {
 public:
  FileImageBlocks(int fd, uint64_t size) : fd_(fd), left_(size) {}
  bool Next(std::string_view* block) override {
    char header[kImageBlockHeaderSize];
    if (left_ < sizeof header || !ReadFully(fd_, header, sizeof header)) return false;
    left_ -= sizeof header;
    uint32_t size;
    uint64_t hash;
    memcpy(&size, header, sizeof size);
    memcpy(&hash, header + sizeof size, sizeof hash);
    if (size > left_) return false;
    left_ -= size;
    buffer_.resize(size);
    if (!ReadFully(fd_, &buffer_[0], size) || RapidHash(buffer_.data(), size) != hash) return false;
    *block = buffer_;
    return true;
  }
  bool done() const override { return left_ == 0; }
  uint64_t bytes_left() const override { return left_; }

 private:
  int fd_;
  uint64_t left_;
  std::string buffer_;
};

}  // namespace

GraphImageReader::Result GraphImageReader::Load(const char* path, const GraphImageKey& current, State* state,
                                                std::vector<std::string>* files_read) {
  int fd = OpenFile(path, O_RDONLY);
  if (fd < 0) return Result::kMiss;
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{fd};
  FileStatus st;
  Header header;
  if (!StatDescriptor(fd, &st) || !ReadHeader(fd, &header)) return Result::kMiss;
  uint64_t file_size = st.size;
  if (file_size < kImageHeaderSize || header.key_size > file_size - kImageHeaderSize ||
      header.body_size != file_size - kImageHeaderSize - header.key_size)
    return Result::kMiss;
  // Should the key not match, the manifest parsed instead is as large.
  if (state->observer_) state->observer_->NodesExpected(header.body_size / kTypicalBytesPerNode);
  std::string key_bytes(header.key_size, '\0');
  if (!ReadFully(fd, &key_bytes[0], key_bytes.size()) ||
      RapidHash(key_bytes.data(), key_bytes.size()) != header.key_hash)
    return Result::kMiss;
  GraphImageKey key;
  ImageIn key_in(key_bytes);
  if (!key.Read(&key_in) || !key.Matches(current)) return Result::kMiss;
  // The strings go to the arena and become the graph's strings; the
  // sections are read one block at a time into a buffer reused for each.
  uint32_t strings_size = 0;
  if (header.body_size < sizeof strings_size || !ReadFully(fd, reinterpret_cast<char*>(&strings_size), 4) ||
      strings_size > header.body_size - sizeof strings_size)
    return Result::kMiss;
  char* strings = state->arena()->Allocate(strings_size ? strings_size : 1);
  if (!ReadFully(fd, strings, strings_size) || ImageStringsHash(strings, strings_size, &RapidHashSeeded) != header.strings_hash)
    return Result::kMiss;
  FileImageBlocks blocks(fd, header.body_size - sizeof strings_size - strings_size);
  std::string err;
  if (!LoadParts(std::string_view(strings, strings_size), &blocks, state, &err)) return Result::kDamaged;
  if (files_read)
    for (const ManifestStamp& file : key.files) files_read->push_back(file.path);
  return Result::kLoaded;
}

// The body's sections, read in the order GraphImageWriter::Encoder wrote
// them. Each step fails on the first inconsistency.
class GraphImageReader::Decoder {
 public:
  Decoder(std::string_view strings, ImageBlocks* blocks, State* state)
      : in_(std::string_view()), blocks_(blocks), state_(state), strings_(strings.data()),
        strings_size_(strings.size()), first_node_(state->nodes_.size()) {}

  bool Decode(std::string* err) {
    if (!Boundary()) return Fail("blocks", err);
    if (!ReadNames()) return Fail("names", err);
    if (!ReadPools()) return Fail("pools", err);
    if (!ReadRules()) return Fail("rules", err);
    if (!ReadScopes()) return Fail("scopes", err);
    if (!ReadNodes()) return Fail("nodes", err);
    if (!ReadEdges()) return Fail("edges", err);
    if (!ReadUsers()) return Fail("node users", err);
    if (!ReadDefaults()) return Fail("defaults", err);
    if (!ReadHashes()) return Fail("command hashes", err);
    if (!in_.at_end() || !blocks_->done()) return Fail("trailing bytes", err);
    return true;
  }

 private:
  static bool Fail(const char* section, std::string* err) {
    *err = std::string("graph image: bad ") + section;
    return false;
  }

  // A string reference: in bounds and NUL-terminated, as arena strings are.
  bool Ref(std::string_view* text) {
    uint32_t offset = 0, size = 0;
    if (!in_.U32(&offset) || !in_.U32(&size)) return false;
    uint64_t end = static_cast<uint64_t>(offset) + size;
    if (end >= strings_size_ || strings_[end] != '\0') return false;
    *text = std::string_view(strings_ + offset, size);
    return true;
  }

  // Where the writer may have cut a block (GraphImageWriter::Encoder::Item):
  // once the current block is used up, the next one is read.
  bool Boundary() {
    if (!in_.at_end()) return true;
    std::string_view block;
    if (!blocks_->Next(&block)) return false;
    in_ = ImageIn(block);
    return true;
  }

  // A count of items, each at least `item_size` bytes. Items of the large
  // sections may continue in later blocks, so there the count is only
  // bounded by the blocks' total size (each item still fails on its own).
  bool Count(uint32_t* count, size_t item_size) { return in_.U32(count) && in_.Fits(*count, item_size); }
  bool LargeCount(uint32_t* count) { return in_.U32(count); }
  // How many items of at least `item_size` bytes the rest of the image can
  // hold: what a large count may reserve room for.
  size_t Possible(uint32_t count, size_t item_size) const {
    return static_cast<size_t>(std::min<uint64_t>(count, (in_.left() + blocks_->bytes_left()) / item_size));
  }
  bool Index(uint32_t limit, uint32_t* index) { return in_.U32(index) && *index < limit; }
  Node* NodeAt(uint32_t index) { return &state_->nodes_[first_node_ + index]; }

  bool ReadNames() {
    uint32_t count = 0;
    if (!Count(&count, 8)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name;
      if (!Ref(&name)) return false;
      state_->names_.insert(name);
    }
    return true;
  }

  bool ReadPools() {
    uint32_t count = 0;
    if (!Count(&count, 12)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name;
      int32_t depth = 0;
      if (!Ref(&name) || !in_.I32(&depth) || depth < 0 || state_->LookupPool(name)) return false;
      state_->pool_storage_.emplace_back(name, depth);
      state_->AddPool(&state_->pool_storage_.back());
    }
    return true;
  }

  Pool* PoolAt(uint32_t index) {
    if (index == 0) return &state_->default_pool_;
    if (index == 1) return &state_->console_pool_;
    return &state_->pool_storage_[index - 2];
  }

  bool ReadEvalString(EvalString* value) {
    uint32_t count = 0;
    if (!Count(&count, 12)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view text;
      uint32_t is_variable = 0;
      if (!Ref(&text) || !in_.U32(&is_variable) || is_variable > 1) return false;
      // Each segment is its own NUL-terminated string: AddText never merges.
      if (is_variable)
        value->AddVariable(text);
      else if (!text.empty())
        value->AddText(text);
      else
        return false;
    }
    return true;
  }

  bool ReadRules() {
    uint32_t count = 0;
    if (!Count(&count, 12)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name;
      uint32_t mask = 0;
      if (!Ref(&name) || !in_.U32(&mask) || mask >> Rule::kBindingCount) return false;
      state_->rules_.emplace_back(name);
      Rule* rule = &state_->rules_.back();
      for (int binding = 0; binding < Rule::kBindingCount; ++binding) {
        if (!(mask & (1u << binding))) continue;
        EvalString value;
        if (!ReadEvalString(&value)) return false;
        rule->SetBinding(binding, std::move(value));
      }
      // As the parser requires: a command, and rspfile with its content.
      auto is_empty = [rule](int key) { return !rule->GetBinding(key) || rule->GetBinding(key)->empty(); };
      if (is_empty(Rule::kCommand) || is_empty(Rule::kRspfile) != is_empty(Rule::kRspfileContent)) return false;
      rules_.push_back(rule);
    }
    return true;
  }

  bool ReadScopes() {
    uint32_t count = 0;
    if (!Count(&count, 4)) return false;
    scopes_.push_back(state_->root_scope());
    for (uint32_t i = 0; i < count; ++i) {
      // A parent comes before its children: no cycles in the scope chain.
      uint32_t parent = 0;
      if (!Index(static_cast<uint32_t>(scopes_.size()), &parent)) return false;
      scopes_.push_back(state_->NewScope(scopes_[parent]));
    }
    for (Scope* scope : scopes_)
      if (!ReadScopeContents(scope)) return false;
    return true;
  }

  bool ReadScopeContents(Scope* scope) {
    uint32_t count = 0;
    if (!Count(&count, 16)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name, value;
      if (!Ref(&name) || !Ref(&value)) return false;
      scope->AddBinding(name, value);
    }
    if (!Count(&count, 4)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t index = 0;
      if (!Index(static_cast<uint32_t>(rules_.size() + 1), &index)) return false;
      scope->AddRule(index == 0 ? &kPhonyRule : rules_[index - 1]);
    }
    return true;
  }

  bool ReadNodes() {
    uint32_t count = 0;
    if (!LargeCount(&count)) return false;
    size_t possible = Possible(count, kMinNodeBytes);
    state_->nodes_.Reserve(state_->nodes_.size() + possible);
    state_->paths_.Reserve(state_->paths_.size() + possible);
    if (state_->observer_) state_->observer_->NodesExpected(possible);
    // Each node goes into the path table a few nodes after its slot was
    // prefetched: the table is too large for the cache, and this way the
    // misses overlap instead of following one another.
    constexpr uint32_t kLookahead = 8;
    struct Pending {
      Node* node;
      uint64_t hash;
    } pending[kLookahead];
    for (uint32_t i = 0; i < count; ++i) {
      if (!Boundary()) return false;
      std::string_view path;
      uint32_t flags = 0;
      uint64_t slash_bits = 0;
      if (!Ref(&path) || path.empty() || !in_.U32(&flags) || flags > kNodeFlagsAll) return false;
      if (kWindows && (flags & kNodeSlashBits) && (!in_.U64(&slash_bits) || slash_bits == 0)) return false;
      Node* node = &state_->nodes_.emplace_back(path);
      node->generated_by_dep_loader = flags & kNodeFromDepLoader;
      node->dyndep_pending = flags & kNodeDyndepPending;
      node->set_slash_bits(slash_bits);
      ++node_count_;
      if (state_->observer_) state_->observer_->NodeCreated(node);
      Pending& slot = pending[i % kLookahead];
      if (i >= kLookahead && !Intern(slot.node, slot.hash)) return false;
      slot = {node, HashString(path)};
      state_->paths_.Prefetch(slot.hash);
    }
    for (uint32_t i = count > kLookahead ? count - kLookahead : 0; i < count; ++i)
      if (!Intern(pending[i % kLookahead].node, pending[i % kLookahead].hash)) return false;
    return true;
  }

  // One node per path: a second node with a path fails the image.
  bool Intern(Node* node, uint64_t hash) { return state_->paths_.InsertIfAbsent(node, hash); }

  bool ReadNodeList(CompactVector<Node*>* list) {
    uint32_t count = 0;
    if (!Count(&count, 4)) return false;
    list->reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t index = 0;
      if (!Index(node_count_, &index)) return false;
      list->push_back(NodeAt(index));
    }
    return true;
  }

  bool ReadBindings(Edge* edge) {
    uint32_t count = 0;
    if (!Count(&count, 16)) return false;
    if (count == 0) return true;
    Edge::Binding* bindings = state_->arena_.AllocateArray<Edge::Binding>(count);
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name, value;
      if (!Ref(&name) || !Ref(&value)) return false;
      new (&bindings[i]) Edge::Binding(Edge::Binding::Of(name, value));  // Ref checked the NULs
    }
    edge->bindings = bindings;
    edge->binding_count = count;
    return true;
  }

  bool ReadEdge() {
    uint32_t rule = 0, pool = 0, scope = 0;
    if (!Index(static_cast<uint32_t>(rules_.size() + 1), &rule) ||
        !Index(static_cast<uint32_t>(state_->pool_storage_.size() + 2), &pool) ||
        !Index(static_cast<uint32_t>(scopes_.size()), &scope))
      return false;
    Edge* edge = state_->AddEdge(rule == 0 ? &kPhonyRule : rules_[rule - 1], scopes_[scope]);
    edge->pool = PoolAt(pool);
    uint32_t implicit_deps = 0, order_only_deps = 0, implicit_outs = 0, dyndep = 0;
    CompactVector<Node*> validations;
    if (!ReadBindings(edge) || !ReadNodeList(&edge->inputs) || !in_.U32(&implicit_deps) ||
        !in_.U32(&order_only_deps) || static_cast<uint64_t>(implicit_deps) + order_only_deps > edge->inputs.size() ||
        !ReadNodeList(&edge->outputs) || edge->outputs.empty() || !in_.U32(&implicit_outs) ||
        implicit_outs > edge->outputs.size() || !ReadNodeList(&validations) ||
        !Index(node_count_ + 1, &dyndep))
      return false;
    edge->implicit_deps = static_cast<int32_t>(implicit_deps);
    edge->order_only_deps = static_cast<int32_t>(order_only_deps);
    edge->implicit_outs = static_cast<int32_t>(implicit_outs);
    for (Node* output : edge->outputs) {
      if (output->in_edge) return false;  // one producer per node
      output->in_edge = edge;
    }
    if (!validations.empty()) edge->MutableExtras()->validations = validations;  // the list stays in the arena
    for (Node* node : validations) state_->validation_users_[node].push_back(edge);
    if (dyndep) {
      // As the parser requires: the dyndep file is one of the inputs.
      Node* file = NodeAt(dyndep - 1);
      if (std::find(edge->inputs.begin(), edge->inputs.end(), file) == edge->inputs.end()) return false;
      edge->MutableExtras()->dyndep = file;
    }
    return true;
  }

  bool ReadEdges() {
    uint32_t count = 0;
    if (!LargeCount(&count)) return false;
    state_->edges_.Reserve(state_->edges_.size() + Possible(count, kMinEdgeBytes));
    for (uint32_t i = 0; i < count; ++i)
      if (!Boundary() || !ReadEdge()) return false;
    return true;
  }

  bool ReadUsers() {
    auto edges = state_->edges();
    for (uint32_t i = 0; i < node_count_; ++i) {
      Node* node = NodeAt(i);
      uint32_t count = 0;
      if (!Boundary() || !Count(&count, 4)) return false;
      node->out_edges.reserve(count);
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t index = 0;
        if (!Index(static_cast<uint32_t>(edges.size()), &index)) return false;
        node->out_edges.push_back(edges[index]);
      }
    }
    return true;
  }

  bool ReadDefaults() {
    uint32_t count = 0, uses_dyndep = 0;
    if (!Count(&count, 4)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t index = 0;
      if (!Index(node_count_, &index)) return false;
      state_->defaults_.push_back(NodeAt(index));
    }
    if (!in_.U32(&uses_dyndep) || uses_dyndep > 1) return false;
    state_->uses_dyndep_ = uses_dyndep;
    return true;
  }

  bool ReadHashes() {
    uint32_t count = 0;
    auto edges = state_->edges();
    if (!LargeCount(&count) || count != edges.size()) return false;
    for (Edge* edge : edges) {
      uint32_t known = 0;
      uint64_t hash = 0;
      if (!Boundary() || !in_.U32(&known) || known > 1 || !in_.U64(&hash)) return false;
      edge->command_hash_known = known && !edge->is_phony();
      edge->command_hash = edge->command_hash_known ? hash : 0;
    }
    return true;
  }

  ImageIn in_;
  ImageBlocks* blocks_;
  State* state_;
  const char* strings_ = nullptr;
  uint64_t strings_size_ = 0;
  std::vector<Rule*> rules_;
  std::vector<Scope*> scopes_;
  // The image's nodes are the State's from first_node_ on, in order.
  size_t first_node_;
  uint32_t node_count_ = 0;
};

bool GraphImageReader::LoadBody(std::string_view body, State* state, std::string* err, bool verify_blocks) {
  std::string_view strings, sections;
  if (!SplitImageBody(body, &strings, &sections)) {
    *err = "graph image: bad strings";
    return false;
  }
  MemoryImageBlocks blocks(sections, verify_blocks, &RapidHash);
  return LoadParts(strings, &blocks, state, err);
}

bool GraphImageReader::LoadParts(std::string_view strings, ImageBlocks* blocks, State* state, std::string* err) {
  return Decoder(strings, blocks, state).Decode(err);
}

}  // namespace ronin
