#include "log/deps_log.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>

#include "base/file_io.h"
#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {

namespace {

const char kSignature[] = "# ninjadeps\n";
const size_t kSignatureSize = sizeof(kSignature) - 1;
const size_t kHeaderSize = kSignatureSize + 4;

uint32_t ReadU32(const char* p) {
  uint32_t value;
  memcpy(&value, p, 4);
  return value;
}

}  // namespace

DepsLog::Deps* DepsLog::NewDepsRecord() {
  const size_t kDepsPerBlock = 4096;
  if (deps_block_left_ == 0) {
    deps_blocks_.emplace_back(new Deps[kDepsPerBlock]);
    deps_block_left_ = kDepsPerBlock;
  }
  return &deps_blocks_.back()[kDepsPerBlock - deps_block_left_--];
}

template <typename T>
T* DepsLog::AllocateArray(size_t count, std::vector<std::unique_ptr<T[]>>* blocks, size_t* left,
                          std::vector<std::unique_ptr<T[]>>* big) {
  // Arrays come from 1 MiB blocks: millions of small records would
  // otherwise mean millions of allocations.
  const size_t kPerBlock = (1 << 20) / sizeof(T);
  if (count == 0) return nullptr;
  if (count > kPerBlock / 8) {
    big->emplace_back(new T[count]);
    return big->back().get();
  }
  if (*left < count) {
    blocks->emplace_back(new T[kPerBlock]);
    *left = kPerBlock;
  }
  T* array = blocks->back().get() + (kPerBlock - *left);
  *left -= count;
  return array;
}

DepsLog::Deps* DepsLog::NewDeps(TimeStamp mtime, int count, int32_t** ids) {
  Deps* deps = NewDepsRecord();
  deps->mtime = mtime;
  deps->node_count = deps->capacity = count;
  *ids = AllocateArray<int32_t>(static_cast<size_t>(count), &id_blocks_, &id_block_left_, &big_id_arrays_);
  deps->ids = *ids;
  return deps;
}

DepsLog::Deps* DepsLog::NewResolvedDeps(TimeStamp mtime, int count, const Node* output) {
  Deps* deps = NewDepsRecord();
  deps->mtime = mtime;
  deps->node_count = deps->capacity = count;
  deps->resolved = true;
  // Room for the inputs the edge has besides its deps, as the scan will
  // find them (the deps go before the order-only inputs).
  const Edge* edge = output->in_edge;
  if (edge && edge->outputs[0] == output) {
    size_t after = edge->order_only_deps, before = edge->inputs.size() - after;
    if (before <= UINT16_MAX && after <= UINT16_MAX) {
      deps->before = static_cast<uint16_t>(before);
      deps->after = static_cast<uint16_t>(after);
    }
  }
  size_t size = deps->before + static_cast<size_t>(count) + deps->after;
  Node** block = AllocateArray<Node*>(size, &node_blocks_, &node_block_left_, &big_node_arrays_);
  deps->nodes = block ? block + deps->before : nullptr;
  return deps;
}

Node** DepsLog::TakeInputsBlock(Deps* deps, const Edge* edge, size_t* size) {
  size_t after = edge->order_only_deps, before = edge->inputs.size() - after;
  size_t total = before + static_cast<size_t>(deps->node_count) + after;
  // A list of fewer than two stays in place in its CompactVector.
  if (!deps->resolved || deps->taken || before != deps->before || after != deps->after || total < 2) return nullptr;
  Node** block = deps->nodes - before;
  std::copy(edge->inputs.begin(), edge->inputs.begin() + before, block);
  std::copy(edge->inputs.end() - after, edge->inputs.end(), deps->nodes + deps->node_count);
  deps->taken = true;
  *size = total;
  return block;
}

bool DepsLog::UpdateDeps(int out_id, Deps* deps) {
  if (out_id >= static_cast<int>(deps_.size())) deps_.resize(out_id + 1, nullptr);
  bool replaced = deps_[out_id] != nullptr;
  deps_[out_id] = deps;
  return replaced;
}

namespace {

// Reads a file in large chunks, keeping at least one whole record in view:
// the 32 MB log of a large build is never held in memory at once, and a
// small log gets a buffer of its own size.
class ChunkReader {
 public:
  ChunkReader(int fd, size_t file_size) : fd_(fd), buffer_(std::min<size_t>(file_size, kChunk) + 64) {}

  // Makes `size` bytes available at data(); false at end of file (or error).
  bool Ensure(size_t size) {
    while (end_ - begin_ < size) {
      if (eof_) return false;
      if (begin_ > 0) {
        memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      // A record larger than the buffer (callers bound `size`), or a file
      // that grew after it was measured.
      if (buffer_.size() < size || end_ == buffer_.size()) buffer_.resize(std::max(size, end_ + kChunk));
      ssize_t n = read(fd_, buffer_.data() + end_, buffer_.size() - end_);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error_ = errno;
      if (n <= 0) {
        eof_ = true;
        return end_ - begin_ >= size;
      }
      end_ += static_cast<size_t>(n);
    }
    return true;
  }
  const char* data() const { return buffer_.data() + begin_; }
  void Consume(size_t size) {
    begin_ += size;
    offset_ += size;
  }
  size_t available() const { return end_ - begin_; }
  size_t offset() const { return offset_; }
  int error() const { return error_; }

 private:
  static constexpr size_t kChunk = 1 << 20;
  int fd_;
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0, offset_ = 0;
  bool eof_ = false;
  int error_ = 0;
};

}  // namespace

DepsLog::LoadStatus DepsLog::Load(const std::string& path, State* state, std::string* err) {
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) {
    if (errno == ENOENT) return LoadStatus::kNotFound;
    *err = strerror(errno);
    return LoadStatus::kError;
  }
  FileStatus info;
  ChunkReader reader(fd, StatDescriptor(fd, &info) ? static_cast<size_t>(info.size) : 0);
  int version = 0;
  bool valid_header = reader.Ensure(kHeaderSize) && memcmp(reader.data(), kSignature, kSignatureSize) == 0;
  if (reader.available() >= kHeaderSize) version = static_cast<int>(ReadU32(reader.data() + kSignatureSize));
  if (!valid_header || version != kCurrentVersion) {
    close(fd);
    *err = version == 1 ? "deps log version change; rebuilding"
                        : "bad deps log signature or version; starting over";
    unlink(path.c_str());
    // Not a failure: without deps every output is rebuilt anyway.
    return LoadStatus::kSuccess;
  }
  reader.Consume(kHeaderSize);

  bool damaged = false, stray_tail = false;
  int total_records = 0, unique_records = 0;
  while (reader.Ensure(1)) {
    if (!reader.Ensure(4)) {
      // Less than a record header: Ninja ignores it without a word. We cut
      // it too, so the next record appended is not misaligned.
      stray_tail = true;
      break;
    }
    uint32_t header = ReadU32(reader.data());
    bool is_deps = (header >> 31) != 0;
    uint32_t size = header & 0x7FFFFFFF;
    if (size > kMaxRecordSize || !reader.Ensure(4 + size)) {
      damaged = true;
      break;
    }
    const char* payload = reader.data() + 4;
    if (is_deps ? !ReadDepsRecord(payload, size, &total_records, &unique_records)
                : !ReadPathRecord(payload, size, state)) {
      damaged = true;
      break;
    }
    reader.Consume(4 + size);
  }
  int read_error = reader.error();
  close(fd);
  size_t good_end = reader.offset();
  // Grown by doubling while read; kept through the build, when the scan
  // copies the deps into the edges and memory peaks.
  nodes_.shrink_to_fit();
  deps_.shrink_to_fit();

  if (stray_tail && truncate(path.c_str(), static_cast<off_t>(good_end)) < 0) {
    // Harmless for this run; appending is then left to the next recovery.
  }
  if (damaged || read_error) {
    // Keep everything up to the last good record and carry on.
    *err = read_error ? strerror(read_error) : "premature end of file";
    if (truncate(path.c_str(), static_cast<off_t>(good_end)) < 0) {
      *err = "truncate failed: " + std::string(strerror(errno));
      return LoadStatus::kError;
    }
    *err += "; recovering";
    return LoadStatus::kSuccess;
  }

  const int kMinCompactionEntryCount = 1000;
  const int kCompactionRatio = 3;
  if (total_records > kMinCompactionEntryCount && total_records > unique_records * kCompactionRatio)
    needs_recompaction_ = true;
  return LoadStatus::kSuccess;
}

bool DepsLog::ReadDepsRecord(const char* payload, uint32_t size, int* total, int* unique) {
  if (size % 4 != 0 || size < 12) return false;
  int out_id = static_cast<int>(ReadU32(payload));
  uint64_t low = ReadU32(payload + 4), high = ReadU32(payload + 8);
  TimeStamp mtime = static_cast<TimeStamp>((high << 32) | low);
  int count = static_cast<int>(size / 4) - 3;
  // Every id must name a node already defined: never trust the file.
  // (Unsigned, a negative id is too large; the maximum vectorises.)
  uint32_t defined = static_cast<uint32_t>(nodes_.size());
  if (static_cast<uint32_t>(out_id) >= defined) return false;
  uint32_t highest = 0;
  for (int i = 0; i < count; ++i) highest = std::max(highest, ReadU32(payload + 12 + 4 * i));
  if (count && highest >= defined) return false;
  ++*total;
  Deps* deps = out_id < static_cast<int>(deps_.size()) ? deps_[out_id] : nullptr;
  bool replaced = deps != nullptr;
  if (deps && deps->resolved && !deps->taken && deps->capacity >= count) {
    // Every build appends the records of the outputs it rebuilt: the one
    // replaced, which nothing has seen yet, lends its memory (Ninja frees
    // it). A log with many dead records then costs what its live ones do.
    // The room behind the nodes only grows when they shrink.
    deps->mtime = mtime;
    deps->node_count = count;
  } else {
    deps = NewResolvedDeps(mtime, count, nodes_[out_id]);
    UpdateDeps(out_id, deps);
  }
  for (int i = 0; i < count; ++i) deps->nodes[i] = nodes_[ReadU32(payload + 12 + 4 * i)];
  if (!replaced) ++*unique;
  return true;
}

bool DepsLog::ReadPathRecord(const char* payload, uint32_t size, State* state) {
  if (size <= 4) return false;
  size_t path_size = size - 4;
  // Up to three NULs pad the path to a multiple of four bytes.
  for (int pad = 0; pad < 3 && path_size > 0 && payload[path_size - 1] == '\0'; ++pad) --path_size;
  if (path_size == 0) return false;
  uint32_t checksum = ReadU32(payload + size - 4);
  int expected_id = static_cast<int>(~checksum);
  int id = static_cast<int>(nodes_.size());
  // A mismatch means two ninjas wrote this file at once.
  if (id != expected_id) return false;
  Node* node = state->GetNode(std::string_view(payload, path_size));
  if (node->deps_log_id >= 0) return false;
  node->deps_log_id = id;
  nodes_.push_back(node);
  return true;
}

DepsLog::Deps* DepsLog::GetDeps(const Node* node) const {
  int id = node->deps_log_id;
  if (id < 0 || id >= static_cast<int>(deps_.size())) return nullptr;
  return deps_[id];
}

Node* DepsLog::GetFirstReverseDepsNode(const Node* node) const {
  for (size_t id = 0; id < deps_.size(); ++id) {
    Deps* deps = deps_[id];
    if (!deps) continue;
    for (int i = 0; i < deps->node_count; ++i) {
      if (DepNode(deps, i) == node) return nodes_[id];
    }
  }
  return nullptr;
}

bool DepsLog::OpenForWrite(const std::string& path, std::string* err) {
  if (needs_recompaction_ && !Recompact(path, err)) return false;
  file_path_ = path;
  return true;
}

bool DepsLog::OpenForWriteIfNeeded() {
  if (file_path_.empty()) return true;
  file_ = OpenStream(file_path_.c_str(), "ab");
  if (!file_) return false;
  // A buffer larger than any record, flushed per record, so a crash never
  // leaves half a record behind from our side.
  if (setvbuf(file_, nullptr, _IOFBF, kMaxRecordSize + 1) != 0) return false;
  fseek(file_, 0, SEEK_END);
  if (ftell(file_) == 0) {
    if (fwrite(kSignature, kSignatureSize, 1, file_) < 1) return false;
    int version = kCurrentVersion;
    if (fwrite(&version, 4, 1, file_) < 1) return false;
  }
  if (fflush(file_) != 0) return false;
  file_path_.clear();
  return true;
}

bool DepsLog::RecordId(Node* node) {
  size_t path_size = node->path.size();
  size_t padding = (4 - path_size % 4) % 4;
  uint32_t size = static_cast<uint32_t>(path_size + padding + 4);
  if (path_size == 0 || size > kMaxRecordSize) {
    errno = ERANGE;
    return false;
  }
  if (!OpenForWriteIfNeeded() || !file_) return false;
  int id = static_cast<int>(nodes_.size());
  uint32_t checksum = ~static_cast<uint32_t>(id);
  if (fwrite(&size, 4, 1, file_) < 1) return false;
  if (fwrite(node->path.data(), path_size, 1, file_) < 1) return false;
  if (padding && fwrite("\0\0\0", padding, 1, file_) < 1) return false;
  if (fwrite(&checksum, 4, 1, file_) < 1) return false;
  if (fflush(file_) != 0) return false;
  node->deps_log_id = id;
  nodes_.push_back(node);
  return true;
}

bool DepsLog::RecordDeps(Node* node, TimeStamp mtime, const std::vector<Node*>& deps) {
  return RecordDeps(node, mtime, static_cast<int>(deps.size()), deps.data());
}

bool DepsLog::RecordDeps(Node* node, TimeStamp mtime, int count, Node* const* deps) {
  bool changed = false;
  if (node->deps_log_id < 0) {
    if (!RecordId(node)) return false;
    changed = true;
  }
  for (int i = 0; i < count; ++i) {
    if (deps[i]->deps_log_id < 0) {
      if (!RecordId(deps[i])) return false;
      changed = true;
    }
  }
  if (!changed) {
    // Skip the write when nothing differs from the stored record.
    Deps* old = GetDeps(node);
    changed = !old || old->mtime != mtime || old->node_count != count;
    for (int i = 0; !changed && i < count; ++i) changed = DepNode(old, i) != deps[i];
  }
  if (!changed) return true;

  uint32_t size = 4 * (3 + static_cast<uint32_t>(count));
  if (size > kMaxRecordSize) {
    errno = ERANGE;
    return false;
  }
  if (!OpenForWriteIfNeeded() || !file_) return false;
  uint32_t words[3] = {size | 0x80000000u, static_cast<uint32_t>(node->deps_log_id),
                       static_cast<uint32_t>(static_cast<uint64_t>(mtime) & 0xffffffffu)};
  uint32_t high = static_cast<uint32_t>(static_cast<uint64_t>(mtime) >> 32);
  if (fwrite(words, 4, 3, file_) < 3 || fwrite(&high, 4, 1, file_) < 1) return false;
  for (int i = 0; i < count; ++i) {
    int32_t id = deps[i]->deps_log_id;
    if (fwrite(&id, 4, 1, file_) < 1) return false;
  }
  if (fflush(file_) != 0) return false;

  if (!keep_recorded_) {
    UpdateDeps(node->deps_log_id, nullptr);
    return true;
  }
  int32_t* ids;
  Deps* stored = NewDeps(mtime, count, &ids);
  for (int i = 0; i < count; ++i) ids[i] = deps[i]->deps_log_id;
  UpdateDeps(node->deps_log_id, stored);
  return true;
}

void DepsLog::Close() {
  // Like Ninja, an opened log exists afterwards even if nothing was recorded.
  OpenForWriteIfNeeded();
  if (file_) fclose(file_);
  file_ = nullptr;
}

bool DepsLog::IsDepsEntryLiveFor(const Node* node) {
  return node->in_edge && !node->in_edge->GetBinding(Rule::kDeps).empty();
}

bool DepsLog::Recompact(const std::string& path, std::string* err) {
  Close();
  std::string temp_path = path + ".recompact";
  // Never append to a leftover from an interrupted recompaction.
  unlink(temp_path.c_str());

  DepsLog fresh;
  if (!fresh.OpenForWrite(temp_path, err)) return false;
  // Old ids resolve through the old table while the nodes get new ids.
  std::vector<Node*> old_nodes = nodes_;
  for (Node* node : nodes_) node->deps_log_id = -1;
  std::vector<Node*> resolved;
  for (size_t old_id = 0; old_id < deps_.size(); ++old_id) {
    Deps* deps = deps_[old_id];
    if (!deps || !IsDepsEntryLiveFor(old_nodes[old_id])) continue;
    resolved.clear();
    for (int i = 0; i < deps->node_count; ++i)
      resolved.push_back(deps->resolved ? deps->nodes[i] : old_nodes[deps->ids[i]]);
    if (!fresh.RecordDeps(old_nodes[old_id], deps->mtime, resolved)) {
      *err = strerror(errno);
      fresh.Close();
      return false;
    }
  }
  fresh.Close();

  // The fresh log's ids are now the nodes' ids: adopt its tables.
  deps_.swap(fresh.deps_);
  nodes_.swap(fresh.nodes_);
  deps_blocks_.swap(fresh.deps_blocks_);
  id_blocks_.swap(fresh.id_blocks_);
  big_id_arrays_.swap(fresh.big_id_arrays_);
  node_blocks_.swap(fresh.node_blocks_);
  big_node_arrays_.swap(fresh.big_node_arrays_);
  std::swap(deps_block_left_, fresh.deps_block_left_);
  std::swap(id_block_left_, fresh.id_block_left_);
  std::swap(node_block_left_, fresh.node_block_left_);
  if (!RenameReplacing(temp_path.c_str(), path.c_str())) {
    *err = strerror(errno);
    return false;
  }
  return true;
}

}  // namespace ronin
