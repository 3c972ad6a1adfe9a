// Shared helpers for the libFuzzer targets in tests/fuzz (built by
// misc/fuzz.sh): an in-memory file system, scratch files for the loaders that
// only read real paths, and the per-input resets of process-wide state.
#ifndef RONIN_TESTS_FUZZ_FUZZ_SUPPORT_H_
#define RONIN_TESTS_FUZZ_FUZZ_SUPPORT_H_

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "base/compact_vector.h"
#include "base/disk.h"
#include "graph/eval.h"
#include "graph/graph.h"

namespace ronin {
namespace fuzz {

// Aborts with a message: a broken invariant is reported as a crash. The
// message also goes to the sanitizers' report stream, which libFuzzer keeps
// open when -close_fd_mask=2 closes the target's stderr.
#define FUZZ_CHECK(cond)                                                               \
  do {                                                                                 \
    if (!(cond)) ::ronin::fuzz::CheckFailed(__FILE__, __LINE__, #cond);                \
  } while (0)

[[noreturn]] inline void CheckFailed(const char* file, int line, const char* condition) {
  char message[512];
  snprintf(message, sizeof(message), "FUZZ_CHECK failed: %s:%d: %s", file, line, condition);
  fprintf(stderr, "%s\n", message);
  __sanitizer_report_error_summary(message);
  abort();
}

// A file system in memory. Every file has mtime 1.
//
// Reads are bounded (`max_reads` in all): a few files that include each
// other several times over would otherwise take exponential time, in Ninja
// as here; the parser's own limits (include nesting, re-entry of one file)
// are what the fuzzer exercises, this bound only keeps each input quick.
class MemoryDisk : public DiskInterface {
 public:
  explicit MemoryDisk(int max_reads = 256) : reads_left_(max_reads) {}

  void Add(const std::string& path, std::string contents) { files_[path] = std::move(contents); }
  size_t file_count() const { return files_.size(); }

  TimeStamp Stat(const std::string& path, std::string*) const override {
    return files_.count(path) ? 1 : 0;
  }
  bool MakeDir(const std::string&) override { return true; }
  bool WriteFile(const std::string& path, std::string_view contents) override {
    files_[path] = std::string(contents);
    return true;
  }
  Status ReadFile(const std::string& path, std::string* contents, std::string* err) override {
    contents->clear();
    if (reads_left_ <= 0) {
      *err = "fuzz harness: too many reads";
      return Status::kOtherError;
    }
    --reads_left_;
    auto it = files_.find(path);
    if (it == files_.end()) {
      *err = "No such file or directory";
      return Status::kNotFound;
    }
    *contents = it->second;
    return Status::kOkay;
  }
  int RemoveFile(const std::string& path) override { return files_.erase(path) ? 0 : 1; }
  bool SetMtime(const std::string& path, TimeStamp, std::string* err) override {
    if (files_.count(path)) return true;  // every file keeps mtime 1
    *err = "no such file";
    return false;
  }

 private:
  std::map<std::string, std::string> files_;
  int reads_left_;
};

// An edge's sections fit its lists, and its links to nodes hold both ways.
inline void CheckEdgeLinks(const Edge* edge) {
  FUZZ_CHECK(edge->implicit_deps >= 0 && edge->order_only_deps >= 0 && edge->implicit_outs >= 0);
  FUZZ_CHECK(static_cast<size_t>(edge->implicit_deps) + edge->order_only_deps <= edge->inputs.size());
  FUZZ_CHECK(static_cast<size_t>(edge->implicit_outs) <= edge->outputs.size());
  for (const Node* output : edge->outputs) FUZZ_CHECK(output->in_edge == edge);
  for (const Node* input : edge->inputs) {
    const auto& users = input->out_edges;
    FUZZ_CHECK(std::find(users.begin(), users.end(), edge) != users.end());
  }
}

// Frees the process-wide arena behind every CompactVector (graph/graph.cc keeps it
// for the life of the process, as ninja builds one graph). Call only when no
// State is alive; otherwise the fuzzer's memory would grow with every input.
inline void ResetGraphArena() {
  Arena* arena = GraphArena();
  arena->~Arena();
  new (arena) Arena;
}

// Before each input: a fresh expansion budget (see g_fuzz_eval_budget in graph/eval.h).
inline void ResetEvalBudget() { g_fuzz_eval_budget = 1 << 20; }

// A scratch path for this process in $RONIN_FUZZ_TMPDIR (set by
// misc/fuzz.sh), else /dev/shm, $TMPDIR or /tmp; unique per process and per
// `name`, so parallel fuzzers do not collide.
inline std::string ScratchPath(const char* name) {
  const char* dir = getenv("RONIN_FUZZ_TMPDIR");
  if (!dir || !*dir || access(dir, W_OK) != 0) dir = "/dev/shm";
  if (access(dir, W_OK) != 0) {
    dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
  }
  return std::string(dir) + "/ronin_fuzz_" + std::to_string(getpid()) + "_" + name;
}

// Replaces the file at `path` with `data`; aborts on I/O errors.
inline void WriteScratch(const std::string& path, const uint8_t* data, size_t size) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  FUZZ_CHECK(fd >= 0);
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    FUZZ_CHECK(n > 0);
    data += n;
    size -= static_cast<size_t>(n);
  }
  close(fd);
}

// The whole file, or "" if it is missing.
inline std::string ReadScratch(const std::string& path) {
  std::string contents;
  FILE* file = fopen(path.c_str(), "rb");
  if (!file) return contents;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), file)) > 0) contents.append(buffer, n);
  fclose(file);
  return contents;
}

// The scratch file a loader's fuzz target writes each input to (the
// loaders read real paths), and the files the loader writes beside it
// (`path() + suffix`, e.g. ".recompact"); all are removed when the process
// exits. One per target, at namespace scope.
class ScratchInput {
 public:
  ScratchInput(const char* name, std::vector<std::string> sibling_suffixes = {})
      : path_(ScratchPath(name)), suffixes_(std::move(sibling_suffixes)) {}
  ~ScratchInput() {
    unlink(path_.c_str());
    for (const std::string& suffix : suffixes_) unlink((path_ + suffix).c_str());
  }
  ScratchInput(const ScratchInput&) = delete;
  ScratchInput& operator=(const ScratchInput&) = delete;

  // Replaces the file's contents with the input; returns its path.
  const std::string& Write(const uint8_t* data, size_t size) {
    WriteScratch(path_, data, size);
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::string> suffixes_;
};

}  // namespace fuzz
}  // namespace ronin

#endif  // RONIN_TESTS_FUZZ_FUZZ_SUPPORT_H_
