#include "scan/content_hash_store.h"

#include <string.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <tuple>

#include "base/background_thread.h"
#include "base/file_io.h"
#include "base/hash.h"
#include "base/metrics.h"
#include "graph/graph.h"
#include "graph/state.h"

namespace ronin {

namespace {

// kFileDigest payload: mtime, size, digest (low, high); kEdgeInputs payload:
// inputs digest (low, high), outputs stamp, the mtime .ninja_log recorded
// for the run (records of three words, written before it was kept, read as 0).
// 64-bit little-endian words.
const size_t kFilePayloadSize = 32;
const size_t kEdgePayloadSize = 32;
const size_t kEdgePayloadSizeWithoutStart = 24;

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

uint64_t StampOfMtimes(const std::vector<TimeStamp>& mtimes) {
  return RapidHash(mtimes.data(), mtimes.size() * sizeof(TimeStamp));
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

bool ContentHashStore::FindRun(const Edge* edge, EdgeRun* run) const {
  std::optional<std::string_view> payload = state_file_->Find(StateFile::Kind::kEdgeInputs, edge->outputs[0]->path);
  if (!payload || (payload->size() != kEdgePayloadSize && payload->size() != kEdgePayloadSizeWithoutStart))
    return false;
  run->inputs = {GetWord(*payload, 0), GetWord(*payload, 1)};
  run->outputs_stamp = GetWord(*payload, 2);
  run->logged_mtime = payload->size() == kEdgePayloadSize ? static_cast<TimeStamp>(GetWord(*payload, 3)) : 0;
  return true;
}

void ContentHashStore::PutRun(const Edge* edge, const EdgeRun* run) {
  std::string payload;  // none: the next scan decides by mtimes, as without the option
  if (run) {
    PutWord(&payload, run->inputs.low);
    PutWord(&payload, run->inputs.high);
    PutWord(&payload, run->outputs_stamp);
    PutWord(&payload, static_cast<uint64_t>(run->logged_mtime));
  }
  Put(StateFile::Kind::kEdgeInputs, edge->outputs[0]->path, payload);
}

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
  Warning("writing %s: %s; the build goes on without recording content digests", state_file_->path().c_str(),
          err.c_str());
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
  FileDigest recorded;
  if (Recorded(node->path, &recorded) && recorded.mtime == node->mtime && IsOnDisk(node, recorded)) {
    current_[node] = *digest = recorded;
    return true;
  }
  return HashNow(node, digest);
}

bool ContentHashStore::DigestOnDisk(const Node* node, FileDigest* digest) {
  auto memo = current_.find(node);
  if (memo != current_.end() && IsOnDisk(node, memo->second)) {
    *digest = memo->second;
    return true;
  }
  FileDigest recorded;
  if (Recorded(node->path, &recorded) && IsOnDisk(node, recorded)) {
    current_[node] = *digest = recorded;
    return true;
  }
  return HashNow(node, digest);
}

bool ContentHashStore::IsOnDisk(const Node* node, const FileDigest& known) {
  FileStatus info;
  return StatPath(std::string(node->path).c_str(), &info) && static_cast<int64_t>(info.size) == known.size &&
         info.mtime == known.mtime;
}

bool ContentHashStore::HashNow(const Node* node, FileDigest* digest) {
  std::string err;
  if (!DigestFile(std::string(node->path), digest, &err)) return false;
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
                                      bool as_on_disk, ContentDigest* result) {
  // (path hash, digest) per input, sorted and unique: the order of
  // discovered dependencies and duplicate inputs do not matter.
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> entries;
  entries.reserve(inputs.size());
  for (const Node* input : inputs) {
    FileDigest digest;
    if (!input->exists() && input->status_known()) return false;  // e.g. a phony alias
    if (as_on_disk) {
      if (!DigestOnDisk(input, &digest)) return false;
    } else {
      if (!CurrentDigest(input, &digest)) return false;
      if (input->status_known() && digest.mtime != input->mtime) return false;  // changed since its stat
    }
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
  return StampOfMtimes(mtimes);
}

bool ContentHashStore::LogsOutputMtimes(const Edge* edge) {
  return edge->GetBindingBool(Rule::kGenerator) || edge->GetBindingBool(Rule::kRestat);
}

std::vector<const Node*> ContentHashStore::CheckedInputs(const Edge* edge) {
  return std::vector<const Node*>(edge->inputs.begin(), edge->inputs.end() - edge->order_only_deps);
}

bool ContentHashStore::InputsUnchanged(const Edge* edge) {
  METRIC_RECORD("content check");
  if (edge->outputs.empty()) return false;
  // Taken before hashing records other files' digests (Puts).
  EdgeRun run;
  if (!FindRun(edge, &run) || run.outputs_stamp != OutputsStamp(edge)) return false;
  if (!hashed_ahead_) HashChangedFilesAhead();
  ContentDigest digest;
  if (!InputSetDigest(CheckedInputs(edge), 0, false, &digest)) return false;
  return digest == run.inputs;
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

void ContentHashStore::RecordRun(const Edge* edge, const std::vector<Node*>& discovered, TimeStamp logged_mtime) {
  if (edge->outputs.empty()) return;
  std::vector<const Node*> inputs = CheckedInputs(edge);
  inputs.insert(inputs.end(), discovered.begin(), discovered.end());
  EdgeRun run{{}, OutputsStamp(edge), logged_mtime};
  PutRun(edge, InputSetDigest(inputs, logged_mtime, LogsOutputMtimes(edge), &run.inputs) ? &run : nullptr);
}

void ContentHashStore::RecordRegeneration(const Edge* edge) {
  if (edge->outputs.empty()) return;
  EdgeRun run;
  if (!FindRun(edge, &run) || run.logged_mtime == 0 || run.outputs_stamp != OutputsStamp(edge)) return;
  PutRun(edge, InputSetDigest(CheckedInputs(edge), run.logged_mtime, true, &run.inputs) ? &run : nullptr);
}

void ContentHashStore::OutputsRetouched(const Edge* edge, const std::vector<TimeStamp>& mtimes_before) {
  EdgeRun run;
  // Outputs from the first that could not be dated on are not in the list,
  // and then the run's record no longer describes the outputs.
  bool run_matched = mtimes_before.size() == edge->outputs.size() && FindRun(edge, &run) &&
                     run.outputs_stamp == StampOfMtimes(mtimes_before);
  for (size_t i = 0; i < std::min(edge->outputs.size(), mtimes_before.size()); ++i) {
    const Node* output = edge->outputs[i];
    FileDigest recorded;
    if (output->mtime == mtimes_before[i] || !Recorded(output->path, &recorded) || recorded.mtime != mtimes_before[i])
      continue;
    recorded.mtime = output->mtime;  // same size, same content
    current_[output] = recorded;
    RecordDigest(output->path, recorded);
  }
  if (!run_matched) return;
  run.outputs_stamp = OutputsStamp(edge);
  PutRun(edge, &run);
}

bool ContentHashStore::Record(const FinishedCommand& command, std::string*) {
  static const std::vector<Node*> kNoDeps;
  if (command.success()) RecordRun(command.edge, command.deps ? *command.deps : kNoDeps, command.record_mtime);
  return true;  // a state file that cannot be written was warned about
}

}  // namespace ronin
