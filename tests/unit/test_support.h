// Shared helpers for the unit tests: an in-memory file system with a
// settable clock, manifest parsing shortcuts and a scratch directory for
// the modules (build log, deps log) that use real files. Header-only, because
// the build compiles only tests/unit/*_test.cc into ronin_unit_tests.
#ifndef RONIN_TESTS_UNIT_TEST_SUPPORT_H_
#define RONIN_TESTS_UNIT_TEST_SUPPORT_H_

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#endif

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/disk.h"
#include "base/file_io.h"
#include "base/remove_tree.h"
#include "base/util.h"
#include "graph/graph.h"
#include "graph/manifest_parser.h"
#include "graph/state.h"

#ifdef _WIN32
// The POSIX calls the tests make, in the C library's Windows terms (the
// unit tests also run as a .exe under wine: misc/wine-unit-tests.py).
inline int setenv(const char* name, const char* value, int) { return _putenv_s(name, value); }
inline int unsetenv(const char* name) { return _putenv_s(name, ""); }
inline int mkdir(const char* path, int) { return _mkdir(path); }
inline int pipe(int fds[2]) { return _pipe(fds, 64 * 1024, _O_BINARY); }
#endif

namespace ronin {
namespace test {

// A file system held in memory. Files written or created get the current
// clock value as their mtime; the clock only moves when told to.
class VirtualDisk : public DiskInterface {
 public:
  TimeStamp now() const { return now_; }
  void set_now(TimeStamp now) { now_ = now; }
  // Advances the clock by one and returns the new time.
  TimeStamp Tick() { return ++now_; }

  // Creates (or overwrites) a file dated now().
  void Create(const std::string& path, const std::string& contents = "");
  // Creates (or re-dates) a file with an explicit mtime.
  void CreateAt(const std::string& path, TimeStamp mtime, const std::string& contents = "");
  void Delete(const std::string& path) { files_.erase(path); }
  bool Exists(const std::string& path) const { return files_.count(path) != 0; }
  TimeStamp MtimeOf(const std::string& path) const;
  std::string ContentsOf(const std::string& path) const;

  // Makes Stat() of `path` fail with `message`.
  void FailStat(const std::string& path, const std::string& message) { stat_errors_[path] = message; }
  // Makes ReadFile() of `path` fail (kOtherError) with `message`.
  void FailRead(const std::string& path, const std::string& message) { read_errors_[path] = message; }

  // DiskInterface.
  TimeStamp Stat(const std::string& path, std::string* err) const override;
  bool MakeDir(const std::string& path) override;
  bool WriteFile(const std::string& path, std::string_view contents) override;
  Status ReadFile(const std::string& path, std::string* contents, std::string* err) override;
  int RemoveFile(const std::string& path) override;
  bool SetMtime(const std::string& path, TimeStamp mtime, std::string* err) override;

  // Every path passed to Stat / ReadFile / RemoveFile, in call order.
  mutable std::vector<std::string> stats;
  std::vector<std::string> reads;
  std::vector<std::string> removed;
  std::set<std::string> made_dirs;

 private:
  struct File {
    TimeStamp mtime;
    std::string contents;
  };
  std::map<std::string, File> files_;
  std::map<std::string, std::string> stat_errors_;
  std::map<std::string, std::string> read_errors_;
  TimeStamp now_ = 1;
};

// Parses `text` (as the file "input") into `state`.
::testing::AssertionResult ParseManifest(State* state, const std::string& text,
                                         ManifestParserOptions options = {});
// Parses `text` expecting failure; returns the error ("<no error>" on success).
std::string ParseManifestError(State* state, const std::string& text,
                               ManifestParserOptions options = {});
// Loads `filename` from `disk` as the top-level manifest.
::testing::AssertionResult LoadManifest(State* state, FileReader* disk, const std::string& filename,
                                        ManifestParserOptions options = {});

// "build nFROM: cat nFROM-1" up to "build nDEPTH: cat nDEPTH-1": a chain
// of edges of a rule `cat` the caller declares.
std::string ChainManifest(int depth, int from = 1);

// The node named `path`, failing the test (and returning null) if absent.
Node* NodeOrNull(const State& state, const std::string& path);
// Paths of `nodes`, space-separated.
template <typename Nodes>
std::string Paths(const Nodes& nodes);  // a vector of nodes, space-separated

// A fresh directory under $TMPDIR (or /tmp; on Windows %TEMP%), removed
// with its contents. Made and removed through ronin's own file layer
// (file_io.h, remove_tree.h), which works on both platforms.
class ScopedTempDir {
 public:
  ScopedTempDir();
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Sets an environment variable (or unsets it, for a null `value`) for the
// scope, and puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_;
  std::string old_;
};

// Whole-file helpers for real files; they fail the test on error.
std::string ReadRealFile(const std::string& path);
void WriteRealFile(const std::string& path, const std::string& contents);
bool RealFileExists(const std::string& path);

// ---- Implementation (header-only: CMake builds only *_test.cc files). ----

inline void VirtualDisk::Create(const std::string& path, const std::string& contents) {
  CreateAt(path, now_, contents);
}

inline void VirtualDisk::CreateAt(const std::string& path, TimeStamp mtime, const std::string& contents) {
  files_[path] = File{mtime, contents};
}

inline TimeStamp VirtualDisk::MtimeOf(const std::string& path) const {
  auto it = files_.find(path);
  return it == files_.end() ? 0 : it->second.mtime;
}

inline std::string VirtualDisk::ContentsOf(const std::string& path) const {
  auto it = files_.find(path);
  return it == files_.end() ? std::string() : it->second.contents;
}

inline TimeStamp VirtualDisk::Stat(const std::string& path, std::string* err) const {
  stats.push_back(path);
  auto error = stat_errors_.find(path);
  if (error != stat_errors_.end()) {
    *err = error->second;
    return -1;
  }
  auto it = files_.find(path);
  if (it != files_.end()) return it->second.mtime;
  if (made_dirs.count(path)) return now_;
  return 0;
}

inline bool VirtualDisk::MakeDir(const std::string& path) {
  made_dirs.insert(path);
  return true;
}

inline bool VirtualDisk::WriteFile(const std::string& path, std::string_view contents) {
  files_[path] = File{now_, std::string(contents)};
  return true;
}

inline FileReader::Status VirtualDisk::ReadFile(const std::string& path, std::string* contents,
                                         std::string* err) {
  reads.push_back(path);
  contents->clear();
  auto error = read_errors_.find(path);
  if (error != read_errors_.end()) {
    *err = error->second;
    return Status::kOtherError;
  }
  auto it = files_.find(path);
  if (it == files_.end()) {
    *err = "No such file or directory";
    return Status::kNotFound;
  }
  *contents = it->second.contents;
  return Status::kOkay;
}

inline int VirtualDisk::RemoveFile(const std::string& path) {
  removed.push_back(path);
  return files_.erase(path) ? 0 : 1;
}

inline bool VirtualDisk::SetMtime(const std::string& path, TimeStamp mtime, std::string* err) {
  auto it = files_.find(path);
  if (it == files_.end()) {
    *err = "utimensat(" + path + "): No such file or directory";
    return false;
  }
  it->second.mtime = mtime;
  return true;
}

inline ::testing::AssertionResult ParseManifest(State* state, const std::string& text,
                                         ManifestParserOptions options) {
  VirtualDisk disk;
  ManifestParser parser(state, &disk, options);
  std::string err;
  if (!parser.ParseTest(text, &err)) return ::testing::AssertionFailure() << "parse failed: " << err;
  if (!err.empty()) return ::testing::AssertionFailure() << "parse succeeded with err: " << err;
  return ::testing::AssertionSuccess();
}

inline std::string ParseManifestError(State* state, const std::string& text, ManifestParserOptions options) {
  VirtualDisk disk;
  ManifestParser parser(state, &disk, options);
  std::string err;
  if (parser.ParseTest(text, &err)) return "<no error>";
  return err;
}

inline ::testing::AssertionResult LoadManifest(State* state, FileReader* disk, const std::string& filename,
                                        ManifestParserOptions options) {
  ManifestParser parser(state, disk, options);
  std::string err;
  if (!parser.Load(filename, &err)) return ::testing::AssertionFailure() << "load failed: " << err;
  return ::testing::AssertionSuccess();
}

inline std::string ChainManifest(int depth, int from) {
  std::string manifest;
  manifest.reserve(depth * 32);
  for (int i = from; i <= depth; ++i)
    manifest += "build n" + std::to_string(i) + ": cat n" + std::to_string(i - 1) + "\n";
  return manifest;
}

inline Node* NodeOrNull(const State& state, const std::string& path) {
  Node* node = state.LookupNode(path);
  EXPECT_NE(nullptr, node) << "no node '" << path << "'";
  return node;
}

template <typename Nodes>
std::string Paths(const Nodes& nodes) {
  std::string result;
  for (const Node* node : nodes) {
    if (!result.empty()) result += ' ';
    result.append(node->path);
  }
  return result;
}

inline ScopedTempDir::ScopedTempDir() {
  const char* tmp = getenv("TMPDIR");
  if (kWindows && !(tmp && *tmp)) tmp = getenv("TEMP");
  std::string base = std::string(tmp && *tmp ? tmp : "/tmp") + "/ronin_unit_";
  // A name no other test process takes: a new directory is the proof.
  static unsigned counter = 0;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::string candidate = base + std::to_string(MonotonicMillis() % 1000000) + "_" + std::to_string(counter++) +
                            "_" + std::to_string(rand() % 100000);
    if (MakeDirectory(candidate.c_str())) {
      path_ = candidate;
      return;
    }
    if (errno != EEXIST) break;
  }
  ADD_FAILURE() << "cannot make a directory under " << base << ": " << strerror(errno);
}

inline ScopedTempDir::~ScopedTempDir() {
  if (path_.empty()) return;
  std::string err;
  EmptyDirectory(path_, &err);
  RealDiskInterface().RemoveFile(path_);
}

inline ScopedEnv::ScopedEnv(const char* name, const char* value) : name_(name) {
  const char* old = getenv(name);
  had_ = old != nullptr;
  if (had_) old_ = old;
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

inline ScopedEnv::~ScopedEnv() {
  if (had_)
    setenv(name_, old_.c_str(), 1);
  else
    unsetenv(name_);
}

inline std::string ReadRealFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void WriteRealFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  EXPECT_TRUE(out.good()) << "cannot write " << path;
}

inline bool RealFileExists(const std::string& path) {
  FileStatus status;
  return StatPath(path.c_str(), &status);
}

}  // namespace test
}  // namespace ronin

#endif  // RONIN_TESTS_UNIT_TEST_SUPPORT_H_
