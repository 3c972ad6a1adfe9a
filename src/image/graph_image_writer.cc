// Writes the graph image (image/graph_image.h) of a freshly parsed State.
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <unordered_map>

#include "base/background_thread.h"
#include "base/file_io.h"
#include "base/hash.h"
#include "image/graph_image.h"
#include "scan/prefetch.h"

namespace ronin {

namespace {

// Where an encoded image goes, piece by piece as it is encoded: the
// strings in file order, and each block of the sections whole (in the file
// the blocks follow all the strings).
class ImageSink {
 public:
  virtual ~ImageSink() = default;
  virtual void Strings(const char* bytes, size_t size) = 0;
  virtual void Block(std::string_view head, std::string_view bytes) = 0;
};

// What the header needs once everything is encoded.
struct ImageTotals {
  size_t strings_size = 0;
  uint64_t strings_hash = 0;
  uint64_t blocks_size = 0;  // every block with its head
};

// The strings, handed to the sink a chunk at a time and hashed on the way
// (ImageStringsHash), so no more than one chunk is held.
class StringsOut {
 public:
  explicit StringsOut(ImageSink* sink) : sink_(sink), chunk_(new char[kImageStringsChunk]) {}
  size_t size() const { return flushed_ + used_; }
  // `text` and a NUL after it.
  void AppendTerminated(std::string_view text) {
    if (text.size() < kImageStringsChunk - used_) {  // the common case: it fits whole
      memcpy(chunk_.get() + used_, text.data(), text.size());
      used_ += text.size();
      chunk_[used_++] = '\0';
      return;
    }
    Append(text);
    Append(std::string_view("", 1));
  }
  void Finish(ImageTotals* totals) {
    if (used_) Flush();
    totals->strings_size = flushed_;
    totals->strings_hash = hash_;
  }

 private:
  void Append(std::string_view text) {
    while (!text.empty()) {
      size_t take = std::min(kImageStringsChunk - used_, text.size());
      memcpy(chunk_.get() + used_, text.data(), take);
      used_ += take;
      text.remove_prefix(take);
      if (used_ == kImageStringsChunk) Flush();
    }
  }
  void Flush() {
    hash_ = RapidHashSeeded(chunk_.get(), used_, hash_);
    sink_->Strings(chunk_.get(), used_);
    flushed_ += used_;
    used_ = 0;
  }

  ImageSink* sink_;
  std::unique_ptr<char[]> chunk_;  // kImageStringsChunk bytes, used_ of them written
  size_t used_ = 0;
  size_t flushed_ = 0;
  uint64_t hash_ = 0;
};

// The sections, cut into blocks of about kImageBlockTarget bytes at item
// boundaries; each block goes to the sink when the next item starts.
class BlocksOut {
 public:
  explicit BlocksOut(ImageSink* sink) : sink_(sink) { block_.reserve(kImageBlockTarget + (16 << 10)); }
  ImageOut& out() { return block_; }
  // An item of a large section starts here: a block may end before it
  // (the reader checks for a block's end at the same places).
  void Item() {
    if (block_.size() >= kImageBlockTarget) Flush();
  }
  void Finish(ImageTotals* totals) {
    Flush();
    totals->blocks_size = size_;
  }

 private:
  void Flush() {
    std::string_view bytes = block_.data();
    ImageOut head;
    head.U32(static_cast<uint32_t>(bytes.size()));
    head.U64(RapidHash(bytes.data(), bytes.size()));
    sink_->Block(head.data(), bytes);
    size_ += head.size() + bytes.size();
    block_.clear();
  }

  ImageSink* sink_;
  ImageOut block_;
  uint64_t size_ = 0;
};

}  // namespace

// Lays out the body: the strings first, then every section in State's order.
class GraphImageWriter::Encoder {
 public:
  Encoder(const State& state, const ChunkedStore<Node>::Snapshot& nodes, ImageSink* sink)
      : state_(state), nodes_(nodes), strings_(sink), blocks_(sink), sections_(blocks_.out()) {}

  // Everything but the command hashes, which may not be known yet.
  void EncodeStructure() {
    WriteNames();
    WritePools();
    WriteRules();
    WriteScopes();
    WriteNodes();
    WriteEdges();
    WriteUsers();
    sections_.U32(static_cast<uint32_t>(state_.defaults_.size()));
    for (const Node* node : state_.defaults_) sections_.U32(nodes_.IndexOf(node));
    sections_.U32(state_.uses_dyndep_);
  }

  // The last section.
  void EncodeHashes(const std::vector<uint64_t>& hashes, const std::vector<bool>& known) {
    sections_.U32(static_cast<uint32_t>(hashes.size()));
    for (size_t i = 0; i < hashes.size(); ++i) {
      Item();
      sections_.U32(known[i]);
      sections_.U64(hashes[i]);
    }
  }

  ImageTotals Finish() {
    ImageTotals totals;
    strings_.Finish(&totals);
    blocks_.Finish(&totals);
    return totals;
  }

 private:
  void Item() { blocks_.Item(); }

  // A string reference: offset and size in the string section.
  void Ref(std::string_view text) {
    sections_.U32(static_cast<uint32_t>(strings_.size()));
    sections_.U32(static_cast<uint32_t>(text.size()));
    strings_.AppendTerminated(text);
  }
  // Names recur on every edge: stored once.
  void NameRef(std::string_view name) {
    auto it = names_.find(name);
    if (it == names_.end()) {
      it = names_.emplace(name, static_cast<uint32_t>(strings_.size())).first;
      strings_.AppendTerminated(name);
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
      // Slash bits (Windows only: a constant 0 on POSIX) follow when set.
      uint64_t slash_bits = node->slash_bits();
      sections_.U32((node->generated_by_dep_loader ? kNodeFromDepLoader : 0u) |
                    (node->dyndep_pending ? kNodeDyndepPending : 0u) | (slash_bits ? kNodeSlashBits : 0u));
      if (slash_bits) sections_.U64(slash_bits);
    }
  }

  void WriteNodeList(const CompactVector<Node*>& list) {
    sections_.U32(static_cast<uint32_t>(list.size()));
    for (const Node* node : list) sections_.U32(nodes_.IndexOf(node));
  }

  void WriteEdges() {
    auto edges = state_.edges();
    sections_.U32(static_cast<uint32_t>(edges.size()));
    for (const Edge* edge : edges) {
      Item();
      sections_.U32(RuleIndex(edge->rule));
      sections_.U32(PoolIndex(edge->pool));
      sections_.U32(scope_index_.at(edge->scope));
      sections_.U32(edge->binding_count);
      for (uint32_t i = 0; i < edge->binding_count; ++i) {
        NameRef(edge->bindings[i].name());
        Ref(edge->bindings[i].value());
      }
      WriteNodeList(edge->inputs);
      sections_.U32(static_cast<uint32_t>(edge->implicit_deps));
      sections_.U32(static_cast<uint32_t>(edge->order_only_deps));
      WriteNodeList(edge->outputs);
      sections_.U32(static_cast<uint32_t>(edge->implicit_outs));
      WriteNodeList(edge->validations());
      sections_.U32(edge->dyndep() ? nodes_.IndexOf(edge->dyndep()) + 1 : 0);
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
  const ChunkedStore<Node>::Snapshot& nodes_;
  StringsOut strings_;
  BlocksOut blocks_;
  ImageOut& sections_;  // the current block
  std::unordered_map<std::string_view, uint32_t> names_;
  std::unordered_map<const Rule*, uint32_t> rule_index_;
  std::unordered_map<const Scope*, uint32_t> scope_index_;
};

namespace {

// The header, the key and the strings' size: what precedes the strings.
std::string ImageHead(const GraphImageKey& key, const ImageTotals& totals) {
  ImageOut key_bytes;
  key.Write(&key_bytes);
  ImageOut head;
  head.Append(kImageMagic, sizeof kImageMagic);
  head.U32(kImageHeaderFormat);
  head.U32(static_cast<uint32_t>(key_bytes.size()));
  head.U64(4 + totals.strings_size + totals.blocks_size);  // the body's size
  head.U64(RapidHash(key_bytes.data().data(), key_bytes.size()));
  head.U64(totals.strings_hash);
  head.Append(key_bytes.data().data(), key_bytes.size());
  head.U32(static_cast<uint32_t>(totals.strings_size));
  return head.Take();
}

// Collects the image in memory (tests, the fuzz corpus).
class MemorySink : public ImageSink {
 public:
  void Strings(const char* bytes, size_t size) override { strings_.append(bytes, size); }
  void Block(std::string_view head, std::string_view bytes) override {
    blocks_.append(head);
    blocks_.append(bytes);
  }
  std::string Image(const GraphImageKey& key, const ImageTotals& totals) const {
    return ImageHead(key, totals) + strings_ + blocks_;
  }

 private:
  std::string strings_;
  std::string blocks_;
};

// Appends the whole of `from` (read from its start) to `to`: in the kernel
// when it can, else through a small buffer.
bool CopyFile(int from, int to) {
  if (lseek(from, 0, SEEK_SET) != 0) return false;
  for (;;) {
    int64_t copied = CopyFileRange(from, to, 1 << 30);
    if (copied == 0) return true;
    if (copied < 0) break;
  }
  char buffer[64 << 10];
  for (;;) {
    ssize_t got = read(from, buffer, sizeof buffer);
    if (got == 0) return true;
    if (got < 0 || !WriteFully(to, buffer, static_cast<size_t>(got))) return false;
  }
}

// Streams the image to a temporary file as it is encoded and renames it
// into place when whole (a reader sees the old image or the new one).
// The strings go straight to the file; the blocks, which follow them in
// the file but are encoded at the same time, wait in a scratch file (its
// pages are the kernel's cache, not this process's memory) and are copied
// after the strings at the end.
class FileSink : public ImageSink {
 public:
  FileSink(const std::string& path, const GraphImageKey& key)
      : path_(path), temp_(path + ".tmp" + std::to_string(getpid())) {
    fd_ = OpenFile(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string scratch = temp_ + "-blocks";
    scratch_ = OpenFile(scratch.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    unlink(scratch.c_str());  // only this process uses it: gone when closed
    // Room for the head; written for real once its sizes and hash are known.
    ok_ = fd_ >= 0 && scratch_ >= 0;
    head_size_ = ImageHead(key, ImageTotals()).size();
    ok_ = ok_ && lseek(fd_, static_cast<off_t>(head_size_), SEEK_SET) == static_cast<off_t>(head_size_);
  }
  ~FileSink() {
    if (scratch_ >= 0) close(scratch_);
    if (fd_ >= 0) {
      close(fd_);
      unlink(temp_.c_str());  // not committed
    }
  }
  void Strings(const char* bytes, size_t size) override { ok_ = ok_ && WriteFully(fd_, bytes, size); }
  void Block(std::string_view head, std::string_view bytes) override {
    ok_ = ok_ && WriteFully(scratch_, head.data(), head.size()) && WriteFully(scratch_, bytes.data(), bytes.size());
  }
  void Commit(const GraphImageKey& key, const ImageTotals& totals) {
    std::string head = ImageHead(key, totals);
    ok_ = ok_ && head.size() == head_size_ && CopyFile(scratch_, fd_) &&
          WriteAt(fd_, head.data(), head.size(), 0);
    ok_ = close(fd_) == 0 && ok_;
    fd_ = -1;
    if (!ok_ || !RenameReplacing(temp_.c_str(), path_.c_str())) unlink(temp_.c_str());
  }

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
  int scratch_ = -1;
  size_t head_size_ = 0;
  bool ok_ = false;
};

}  // namespace

GraphImageWriter::GraphImageWriter(State* state, GraphImageKey key, std::string path)
    : state_(state), key_(std::move(key)), path_(std::move(path)), nodes_(state->nodes().Take()) {
  thread_ = StartBackgroundThread(&GraphImageWriter::Run, this);
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
  auto edges = state_->edges();
  hashes_.resize(edges.size());
  hash_known_.resize(edges.size());
  std::string scratch;
  for (size_t i = 0; i < edges.size(); ++i) {
    HashCommandAhead(edges[i], &scratch);
    hashes_[i] = edges[i]->command_hash;
    hash_known_[i] = edges[i]->command_hash_known;
  }
  hashes_given_ = true;
  changed_.notify_all();
}

void GraphImageWriter::Run() {
  // An unwritable directory just means no image: the sink then drops
  // everything, and the structure is still read for FinishReading's sake.
  FileSink sink(path_, key_);
  Encoder encoder(*state_, nodes_, &sink);
  encoder.EncodeStructure();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    structure_done_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return hashes_given_; });
  }
  encoder.EncodeHashes(hashes_, hash_known_);
  sink.Commit(key_, encoder.Finish());
}

std::string GraphImageWriter::Serialize(const State& state, const GraphImageKey& key) {
  ChunkedStore<Node>::Snapshot nodes = state.nodes().Take();
  std::vector<uint64_t> hashes;
  std::vector<bool> known;
  for (const Edge* edge : state.edges()) {
    hashes.push_back(edge->command_hash);
    known.push_back(edge->command_hash_known);
  }
  MemorySink sink;
  Encoder encoder(state, nodes, &sink);
  encoder.EncodeStructure();
  encoder.EncodeHashes(hashes, known);
  return sink.Image(key, encoder.Finish());
}

}  // namespace ronin
