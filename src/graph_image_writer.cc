// Writes the graph image (graph_image.h) of a freshly parsed State.
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "graph_image.h"
#include "hash.h"
#include "prefetch.h"

namespace ronin {

namespace {

// Node pointer -> index: open addressing, built once per image.
class NodeIndex {
 public:
  explicit NodeIndex(const std::vector<const Node*>& nodes) {
    size_t size = 16;
    while (size < nodes.size() * 2) size *= 2;
    slots_.assign(size, {nullptr, 0});
    for (size_t i = 0; i < nodes.size(); ++i) {
      size_t slot = Slot(nodes[i]);
      while (slots_[slot].first) slot = (slot + 1) & (slots_.size() - 1);
      slots_[slot] = {nodes[i], static_cast<uint32_t>(i)};
    }
  }
  uint32_t Find(const Node* node) const {
    for (size_t slot = Slot(node);; slot = (slot + 1) & (slots_.size() - 1))
      if (slots_[slot].first == node) return slots_[slot].second;
  }

 private:
  size_t Slot(const Node* node) const {
    uint64_t bits = reinterpret_cast<uintptr_t>(node) >> 3;
    return (bits * 0x9E3779B97F4A7C15ULL >> 20) & (slots_.size() - 1);
  }
  std::vector<std::pair<const Node*, uint32_t>> slots_;
};

// The encoded graph before it is cut into blocks.
struct EncodedGraph {
  std::string strings;
  std::string sections;
  std::vector<size_t> cuts;  // item boundaries in `sections`
};

}  // namespace

// Lays out the body: the strings first, then every section in State's order.
class GraphImageWriter::Encoder {
 public:
  // `expected_bytes`: room reserved for each of the strings and the
  // sections. Growing by doubling would copy each at its full size (both
  // copies resident at once); reserved pages that are never written cost
  // no memory, so a generous guess is cheap.
  Encoder(const State& state, const std::vector<const Node*>& nodes, size_t expected_bytes)
      : state_(state), nodes_(nodes), node_index_(nodes) {
    strings_.reserve(expected_bytes);
    sections_.data().reserve(expected_bytes);
    cuts_.reserve(nodes.size() * 2 + state.edges_.size());
  }

  EncodedGraph Encode() {
    WriteNames();
    WritePools();
    WriteRules();
    WriteScopes();
    WriteNodes();
    WriteEdges();
    WriteUsers();
    sections_.U32(static_cast<uint32_t>(state_.defaults_.size()));
    for (const Node* node : state_.defaults_) sections_.U32(node_index_.Find(node));
    sections_.U32(state_.uses_dyndep_);
    EncodedGraph graph;
    graph.strings = std::move(strings_);
    graph.sections = std::move(sections_.data());
    graph.cuts = std::move(cuts_);
    return graph;
  }

 private:
  // An item of a large section starts here: a block may end before it
  // (the reader checks for a block's end at the same places).
  void Item() { cuts_.push_back(sections_.data().size()); }

  // A string reference: offset and size in the string section.
  void Ref(std::string_view text) {
    sections_.U32(static_cast<uint32_t>(strings_.size()));
    sections_.U32(static_cast<uint32_t>(text.size()));
    strings_.append(text);
    strings_.push_back('\0');
  }
  // Names recur on every edge: stored once.
  void NameRef(std::string_view name) {
    auto it = names_.find(name);
    if (it == names_.end()) {
      it = names_.emplace(name, static_cast<uint32_t>(strings_.size())).first;
      strings_.append(name);
      strings_.push_back('\0');
    }
    sections_.U32(it->second);
    sections_.U32(static_cast<uint32_t>(name.size()));
  }

  void WriteNames() {
    // Sorted: the set's own order depends on its history.
    std::vector<std::string_view> names(state_.names_.begin(), state_.names_.end());
    std::sort(names.begin(), names.end());
    sections_.U32(static_cast<uint32_t>(names.size()));
    for (std::string_view name : names) NameRef(name);
  }

  void WritePools() {
    // The default and console pools come with every State.
    sections_.U32(static_cast<uint32_t>(state_.pool_storage_.size()));
    for (const Pool& pool : state_.pool_storage_) {
      Ref(pool.name);
      sections_.U32(static_cast<uint32_t>(pool.depth));
    }
  }

  uint32_t PoolIndex(const Pool* pool) const {
    if (pool == &state_.default_pool_) return 0;
    if (pool == &state_.console_pool_) return 1;
    uint32_t index = 2;
    for (const Pool& stored : state_.pool_storage_) {
      if (&stored == pool) return index;
      ++index;
    }
    return 0;  // unreachable: every pool is the State's
  }

  void WriteRules() {
    sections_.U32(static_cast<uint32_t>(state_.rules_.size()));
    uint32_t index = 1;  // 0 is the built-in phony rule
    for (const Rule& rule : state_.rules_) {
      rule_index_.emplace(&rule, index++);
      Ref(rule.name());
      uint32_t mask = 0;
      for (int i = 0; i < Rule::kBindingCount; ++i)
        if (rule.GetBinding(i)) mask |= 1u << i;
      sections_.U32(mask);
      for (int i = 0; i < Rule::kBindingCount; ++i)
        if (const EvalString* value = rule.GetBinding(i)) WriteEvalString(*value);
    }
  }

  void WriteEvalString(const EvalString& value) {
    sections_.U32(static_cast<uint32_t>(value.segments_.size()));
    for (const auto& segment : value.segments_) {
      Ref(segment.view());
      sections_.U32(segment.is_variable);
    }
  }

  uint32_t RuleIndex(const Rule* rule) const {
    auto it = rule_index_.find(rule);
    return it == rule_index_.end() ? 0 : it->second;
  }

  void WriteScopes() {
    uint32_t index = 1;  // 0 is the root scope
    scope_index_.emplace(&state_.root_scope_, 0);
    for (const Scope& scope : state_.scopes_) scope_index_.emplace(&scope, index++);
    sections_.U32(static_cast<uint32_t>(state_.scopes_.size()));
    for (const Scope& scope : state_.scopes_) sections_.U32(scope_index_.at(scope.parent()));
    WriteScopeContents(state_.root_scope_);
    for (const Scope& scope : state_.scopes_) WriteScopeContents(scope);
  }

  void WriteScopeContents(const Scope& scope) {
    sections_.U32(static_cast<uint32_t>(scope.vars_.entries().size()));
    for (const auto& [name, value] : scope.vars_.entries()) {
      NameRef(name);
      Ref(value);
    }
    sections_.U32(static_cast<uint32_t>(scope.rules().size()));
    for (const auto& entry : scope.rules()) sections_.U32(RuleIndex(entry.second));
  }

  void WriteNodes() {
    sections_.U32(static_cast<uint32_t>(nodes_.size()));
    for (const Node* node : nodes_) {
      Item();
      Ref(node->path);
      sections_.U32((node->generated_by_dep_loader ? 1u : 0u) | (node->dyndep_pending ? 2u : 0u));
    }
  }

  void WriteNodeList(const CompactVector<Node*>& list) {
    sections_.U32(static_cast<uint32_t>(list.size()));
    for (const Node* node : list) sections_.U32(node_index_.Find(node));
  }

  void WriteEdges() {
    const std::vector<Edge*>& edges = state_.edges_;
    sections_.U32(static_cast<uint32_t>(edges.size()));
    for (const Edge* edge : edges) {
      Item();
      sections_.U32(RuleIndex(edge->rule));
      sections_.U32(PoolIndex(edge->pool));
      sections_.U32(scope_index_.at(edge->scope));
      sections_.U32(edge->binding_count);
      for (uint32_t i = 0; i < edge->binding_count; ++i) {
        NameRef(edge->bindings[i].name);
        Ref(edge->bindings[i].value);
      }
      WriteNodeList(edge->inputs);
      sections_.U32(static_cast<uint32_t>(edge->implicit_deps));
      sections_.U32(static_cast<uint32_t>(edge->order_only_deps));
      WriteNodeList(edge->outputs);
      sections_.U32(static_cast<uint32_t>(edge->implicit_outs));
      WriteNodeList(edge->validations);
      sections_.U32(edge->dyndep ? node_index_.Find(edge->dyndep) + 1 : 0);
    }
  }

  void WriteUsers() {
    for (const Node* node : nodes_) {
      Item();
      sections_.U32(static_cast<uint32_t>(node->out_edges.size()));
      for (const Edge* edge : node->out_edges) sections_.U32(edge->id);
    }
  }

  const State& state_;
  const std::vector<const Node*>& nodes_;
  NodeIndex node_index_;
  std::string strings_;
  ImageOut sections_;
  std::vector<size_t> cuts_;
  std::unordered_map<std::string_view, uint32_t> names_;
  std::unordered_map<const Rule*, uint32_t> rule_index_;
  std::unordered_map<const Scope*, uint32_t> scope_index_;
};

namespace {

void AppendHashes(const std::vector<uint64_t>& hashes, const std::vector<bool>& known, std::string* sections) {
  ImageOut out;
  out.U32(static_cast<uint32_t>(hashes.size()));
  for (size_t i = 0; i < hashes.size(); ++i) {
    out.U32(known[i]);
    out.U64(hashes[i]);
  }
  sections->append(out.data());
}

// Emits the image piece by piece (no copy of the whole): the header, the
// key, the strings, then the sections cut into blocks of about
// kImageBlockTarget bytes at item boundaries.
void EmitImage(const GraphImageKey& key, const EncodedGraph& graph,
               const std::function<void(const char*, size_t)>& emit) {
  std::vector<std::pair<size_t, size_t>> blocks;  // [begin, end) in sections
  size_t begin = 0;
  for (size_t cut : graph.cuts) {
    if (cut - begin < kImageBlockTarget) continue;
    blocks.emplace_back(begin, cut);
    begin = cut;
  }
  blocks.emplace_back(begin, graph.sections.size());
  uint64_t body_size = 4 + graph.strings.size() + blocks.size() * kImageBlockHeaderSize + graph.sections.size();
  ImageOut key_bytes;
  key.Write(&key_bytes);
  ImageOut head;
  head.Append(kImageMagic, sizeof kImageMagic);
  head.U32(kImageHeaderFormat);
  head.U32(static_cast<uint32_t>(key_bytes.data().size()));
  head.U64(body_size);
  head.U64(RapidHash(key_bytes.data().data(), key_bytes.data().size()));
  head.U64(RapidHash(graph.strings.data(), graph.strings.size()));
  head.data().append(key_bytes.data());
  head.U32(static_cast<uint32_t>(graph.strings.size()));
  emit(head.data().data(), head.data().size());
  emit(graph.strings.data(), graph.strings.size());
  for (const auto& [first, last] : blocks) {
    ImageOut block;
    block.U32(static_cast<uint32_t>(last - first));
    block.U64(RapidHash(graph.sections.data() + first, last - first));
    emit(block.data().data(), block.data().size());
    emit(graph.sections.data() + first, last - first);
  }
}

// Temp file + rename: a reader sees the old image or the new one, whole.
void WriteAtomically(const std::string& path, const GraphImageKey& key, const EncodedGraph& graph) {
  std::string temp = path + ".tmp" + std::to_string(getpid());
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;  // an unwritable directory just means no image
  bool ok = true;
  EmitImage(key, graph, [&](const char* bytes, size_t size) {
    while (ok && size > 0) {
      ssize_t written = write(fd, bytes, size);
      if (written <= 0) ok = false;
      else bytes += written, size -= static_cast<size_t>(written);
    }
  });
  ok = close(fd) == 0 && ok;
  if (!ok || rename(temp.c_str(), path.c_str()) != 0) unlink(temp.c_str());
}

std::vector<const Node*> SnapshotNodes(const State& state) {
  std::vector<const Node*> nodes;
  nodes.reserve(state.nodes().size());
  for (const Node& node : state.nodes()) nodes.push_back(&node);
  return nodes;
}

}  // namespace

GraphImageWriter::GraphImageWriter(State* state, GraphImageKey key, std::string path)
    : state_(state), key_(std::move(key)), path_(std::move(path)), nodes_(SnapshotNodes(*state)) {
  thread_ = std::thread(&GraphImageWriter::Run, this);
}

GraphImageWriter::~GraphImageWriter() {
  FinishReading();
  thread_.join();
}

void GraphImageWriter::FinishReading() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (hashes_given_) return;
  changed_.wait(lock, [this] { return structure_done_; });
  // The prefetcher has been joined: its hashes are final and nobody else
  // writes them before the scan. The ones it did not compute (a graph too
  // small for its threads) are computed here, for the image and for the
  // scan, which then skips them.
  const std::vector<Edge*>& edges = state_->edges();
  hashes_.resize(edges.size());
  hash_known_.resize(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    HashCommandAhead(edges[i]);
    hashes_[i] = edges[i]->command_hash;
    hash_known_[i] = edges[i]->command_hash_known;
  }
  hashes_given_ = true;
  changed_.notify_all();
}

namespace {

// Room for the encoding: the manifest text's size bounds each part of
// usual trees' images (paths are stored once, not per mention).
size_t ExpectedEncodingBytes(const GraphImageKey& key) {
  size_t manifest_bytes = 0;
  for (const ManifestStamp& file : key.files) manifest_bytes += file.size;
  return manifest_bytes + 4096;
}

}  // namespace

void GraphImageWriter::Run() {
  EncodedGraph graph = Encoder(*state_, nodes_, ExpectedEncodingBytes(key_)).Encode();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    structure_done_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return hashes_given_; });
  }
  AppendHashes(hashes_, hash_known_, &graph.sections);
  WriteAtomically(path_, key_, graph);
}

std::string GraphImageWriter::Serialize(const State& state, const GraphImageKey& key) {
  std::vector<const Node*> nodes = SnapshotNodes(state);
  EncodedGraph graph = Encoder(state, nodes, ExpectedEncodingBytes(key)).Encode();
  std::vector<uint64_t> hashes;
  std::vector<bool> known;
  for (const Edge* edge : state.edges()) {
    hashes.push_back(edge->command_hash);
    known.push_back(edge->command_hash_known);
  }
  AppendHashes(hashes, known, &graph.sections);
  std::string image;
  EmitImage(key, graph, [&](const char* bytes, size_t size) { image.append(bytes, size); });
  return image;
}

}  // namespace ronin
