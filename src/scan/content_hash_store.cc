#include "scan/content_hash_store.h"

#include <string.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <tuple>

#include "base/background_thread.h"
#include "base/hash.h"
#include "base/metrics.h"
#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {

namespace {

// kFileDigest payload: mtime, size, digest (low, high); kEdgeInputs payload:
// inputs digest (low, high), outputs stamp. 64-bit little-endian words.
const size_t kFilePayloadSize = 32;
const size_t kEdgePayloadSize = 24;

void PutWord(std::string* out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}

uint64_t GetWord(std::string_view data, size_t index) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(data[8 * index + i]);
  return value;
}

std::string EncodeFile(const FileDigest& file) {
  std::string payload;
  PutWord(&payload, static_cast<uint64_t>(file.mtime));
  PutWord(&payload, static_cast<uint64_t>(file.size));
  PutWord(&payload, file.digest.low);
  PutWord(&payload, file.digest.high);
  return payload;
}

std::string EncodeEdge(const ContentDigest& inputs, uint64_t outputs_stamp) {
  std::string payload;
  PutWord(&payload, inputs.low);
  PutWord(&payload, inputs.high);
  PutWord(&payload, outputs_stamp);
  return payload;
}

// Files hashed at once ahead of the scan's questions, one per thread.
std::vector<bool> DigestFilesInParallel(const std::vector<std::string>& paths, std::vector<FileDigest>* digests) {
  digests->resize(paths.size());
  std::vector<char> ok(paths.size(), 0);
  std::atomic<size_t> next(0);
  auto work = [&] {
    std::string err;
    for (size_t i; (i = next++) < paths.size();) ok[i] = DigestFile(paths[i], &(*digests)[i], &err);
  };
  size_t threads = std::min<size_t>({static_cast<size_t>(std::max(GetProcessorCount(), 1)), paths.size(), 16});
  std::vector<std::thread> pool;
  for (size_t i = 1; i < threads; ++i) pool.push_back(StartBackgroundThread(work));
  work();
  for (std::thread& thread : pool) thread.join();
  return std::vector<bool>(ok.begin(), ok.end());
}

}  // namespace

bool ContentHashStore::Recorded(std::string_view path, FileDigest* digest) const {
  std::optional<std::string_view> payload = state_file_->Find(StateFile::Kind::kFileDigest, path);
  if (!payload || payload->size() != kFilePayloadSize) return false;
  digest->mtime = static_cast<TimeStamp>(GetWord(*payload, 0));
  digest->size = static_cast<int64_t>(GetWord(*payload, 1));
  digest->digest = {GetWord(*payload, 2), GetWord(*payload, 3)};
  return true;
}

void ContentHashStore::Put(StateFile::Kind kind, std::string_view key, const std::string& payload) {
  std::string err;
  if (state_file_->Put(kind, key, payload, &err) || write_failed_) return;
  // Only this feature's savings depend on it: the build goes on, and the
  // next run falls back to mtimes where records are missing.
  write_failed_ = true;
  Warning("writing .ronin_state: %s; content hashes are not recorded", err.c_str());
}

void ContentHashStore::RecordDigest(std::string_view path, const FileDigest& digest) {
  Put(StateFile::Kind::kFileDigest, path, EncodeFile(digest));
}

bool ContentHashStore::CurrentDigest(const Node* node, FileDigest* digest) {
  auto memo = current_.find(node);
  if (memo != current_.end() && (!node->status_known() || memo->second.mtime == node->mtime)) {
    *digest = memo->second;
    return true;
  }
  std::string path(node->path);
  FileDigest recorded;
  struct stat info;
  if (Recorded(node->path, &recorded) && recorded.mtime == node->mtime && stat(path.c_str(), &info) == 0 &&
      info.st_size == recorded.size &&
      static_cast<TimeStamp>(info.st_mtim.tv_sec) * 1000000000LL + info.st_mtim.tv_nsec == recorded.mtime) {
    current_[node] = *digest = recorded;
    return true;
  }
  std::string err;
  if (!DigestFile(path, digest, &err)) return false;
  ++files_hashed_;
  current_[node] = *digest;
  RecordDigest(node->path, *digest);
  return true;
}

void ContentHashStore::HashChangedFilesAhead() {
  hashed_ahead_ = true;
  METRIC_RECORD("content hash ahead");
  std::vector<const Node*> nodes;
  std::vector<std::string> paths;
  state_file_->ForEach(StateFile::Kind::kFileDigest, [&](std::string_view path, std::string_view payload) {
    const Node* node = state_->LookupNode(path);
    if (!node || !node->exists() || payload.size() != kFilePayloadSize) return;
    FileDigest recorded;
    if (Recorded(path, &recorded) && recorded.mtime == node->mtime) return;
    nodes.push_back(node);
    paths.emplace_back(path);
  });
  if (nodes.size() < 2) return;  // the scan hashes a lone file itself
  std::vector<FileDigest> digests;
  std::vector<bool> ok = DigestFilesInParallel(paths, &digests);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!ok[i]) continue;
    ++files_hashed_;
    current_[nodes[i]] = digests[i];
    RecordDigest(nodes[i]->path, digests[i]);
  }
}

bool ContentHashStore::InputSetDigest(const std::vector<const Node*>& inputs, TimeStamp written_before,
                                      ContentDigest* result) {
  // (path hash, digest) per input, sorted and unique: the order of
  // discovered dependencies and duplicate inputs do not matter.
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> entries;
  entries.reserve(inputs.size());
  for (const Node* input : inputs) {
    FileDigest digest;
    if (!input->exists() && input->status_known()) return false;  // e.g. a phony alias
    if (!CurrentDigest(input, &digest)) return false;
    if (input->status_known() && digest.mtime != input->mtime) return false;  // changed since its stat
    if (written_before > 0 && digest.mtime > written_before) return false;
    entries.emplace_back(RapidHash(input->path.data(), input->path.size()), digest.digest.low, digest.digest.high);
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  std::vector<uint64_t> words;
  for (const auto& entry : entries) {
    words.push_back(std::get<0>(entry));
    words.push_back(std::get<1>(entry));
    words.push_back(std::get<2>(entry));
  }
  *result = DigestBytes(words.data(), words.size() * sizeof(uint64_t));
  return true;
}

uint64_t ContentHashStore::OutputsStamp(const Edge* edge) {
  std::vector<TimeStamp> mtimes;
  for (const Node* output : edge->outputs) mtimes.push_back(output->mtime);
  return RapidHash(mtimes.data(), mtimes.size() * sizeof(TimeStamp));
}

bool ContentHashStore::InputsUnchanged(const Edge* edge) {
  METRIC_RECORD("content check");
  if (edge->outputs.empty()) return false;
  std::optional<std::string_view> payload = state_file_->Find(StateFile::Kind::kEdgeInputs, edge->outputs[0]->path);
  if (!payload || payload->size() != kEdgePayloadSize) return false;
  if (GetWord(*payload, 2) != OutputsStamp(edge)) return false;
  // Taken before hashing records other files' digests (Puts).
  ContentDigest recorded{GetWord(*payload, 0), GetWord(*payload, 1)};
  if (!hashed_ahead_) HashChangedFilesAhead();
  std::vector<const Node*> inputs(edge->inputs.begin(), edge->inputs.end() - edge->order_only_deps);
  ContentDigest digest;
  if (!InputSetDigest(inputs, 0, &digest)) return false;
  return digest == recorded;
}

bool ContentHashStore::UnchangedOutputs(Edge* edge, std::vector<Node*>* unchanged) {
  for (Node* output : edge->outputs) {
    FileDigest now, before;
    std::string err;
    if (!DigestFile(std::string(output->path), &now, &err)) continue;
    ++files_hashed_;
    // The record describes the file as it was before the command only if
    // it carries the mtime the scan saw.
    if (output->exists() && Recorded(output->path, &before) && before.mtime == output->mtime &&
        before.size == now.size && before.digest == now.digest)
      unchanged->push_back(output);
    // The node now describes the file the command left (for the digests of
    // its dependents, and their outputs' checks if they are cleaned).
    output->mtime = now.mtime;
    output->existence = Node::Existence::kExists;
    current_[output] = now;
    RecordDigest(output->path, now);
  }
  return true;
}

void ContentHashStore::RecordRun(const Edge* edge, const std::vector<Node*>& discovered, TimeStamp start_stamp) {
  if (edge->outputs.empty()) return;
  std::vector<const Node*> inputs(edge->inputs.begin(), edge->inputs.end() - edge->order_only_deps);
  inputs.insert(inputs.end(), discovered.begin(), discovered.end());
  ContentDigest digest;
  // No record: the next scan decides by mtimes, as without the option.
  std::string payload;
  if (InputSetDigest(inputs, start_stamp, &digest)) payload = EncodeEdge(digest, OutputsStamp(edge));
  Put(StateFile::Kind::kEdgeInputs, edge->outputs[0]->path, payload);
}

bool ContentHashStore::Record(const FinishedCommand& command, std::string*) {
  static const std::vector<Node*> kNoDeps;
  if (command.success()) RecordRun(command.edge, command.deps ? *command.deps : kNoDeps, command.start_stamp);
  return true;  // a state file that cannot be written was warned about
}

}  // namespace ronin
