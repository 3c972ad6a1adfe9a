// The build cache's keys (cache/cache_key.h), base-dir relativisation, the
// first-level entry format (cache/discovered_deps_manifest.h), and what the
// build cache (cache/build_cache.h) does with its store's answers.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <fstream>
#include <map>
#include <memory>
#include <thread>

#include "base/sha256.h"
#include "cache/build_cache.h"
#include "cache/cache_key.h"
#include "cache/cache_store.h"
#include "cache/discovered_deps_manifest.h"
#include "exec/command_runner.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

TEST(BaseDirMapperTest, PathsUnderTheBaseBecomeRelative) {
  BaseDirMapper mapper("/home/a/src");
  EXPECT_EQ("<base>/x/y.h", mapper.ToKeyPath("/home/a/src/x/y.h"));
  EXPECT_EQ("<base>", mapper.ToKeyPath("/home/a/src"));
  EXPECT_EQ("/home/a/srcx/y.h", mapper.ToKeyPath("/home/a/srcx/y.h"));  // not a component
  EXPECT_EQ("rel/y.h", mapper.ToKeyPath("rel/y.h"));
  EXPECT_EQ("/usr/include/stdio.h", mapper.ToKeyPath("/usr/include/stdio.h"));
  EXPECT_EQ("/home/a/src/x/y.h", mapper.ToLocalPath("<base>/x/y.h"));
  EXPECT_EQ("rel/y.h", mapper.ToLocalPath("rel/y.h"));
  BaseDirMapper other("/tmp/b");
  EXPECT_EQ("/tmp/b/x/y.h", other.ToLocalPath(mapper.ToKeyPath("/home/a/src/x/y.h")));
}

TEST(BaseDirMapperTest, CommandLinesOfTwoCheckoutsAgree) {
  BaseDirMapper a("/work/a"), b("/other/place/b");
  EXPECT_EQ(a.RelativizeCommand("cc -I/work/a/inc -c /work/a/src/f.c -o f.o"),
            b.RelativizeCommand("cc -I/other/place/b/inc -c /other/place/b/src/f.c -o f.o"));
  EXPECT_EQ("cc -I<base> x", a.RelativizeCommand("cc -I/work/a x"));
  EXPECT_EQ("cc '<base>/f.c'", a.RelativizeCommand("cc '/work/a/f.c'"));
  // A longer name that only starts with the base stays as it is.
  EXPECT_EQ("cc /work/ab/f.c", a.RelativizeCommand("cc /work/ab/f.c"));
  BaseDirMapper none("");
  EXPECT_EQ("cc /work/a/f.c", none.RelativizeCommand("cc /work/a/f.c"));
}

TEST(CacheKeyTest, EveryPartChangesTheKey) {
  std::vector<FileHash> inputs = {{"a.c", Sha256Hex("a")}};
  std::string key = FirstLevelKey("cc -c a.c", inputs, {"/usr/bin/cc:1"}, {"a.o"});
  EXPECT_TRUE(IsSha256Hex(key));
  EXPECT_EQ(key, FirstLevelKey("cc -c a.c", inputs, {"/usr/bin/cc:1"}, {"a.o"}));
  EXPECT_NE(key, FirstLevelKey("cc -O2 -c a.c", inputs, {"/usr/bin/cc:1"}, {"a.o"}));
  EXPECT_NE(key, FirstLevelKey("cc -c a.c", {{"a.c", Sha256Hex("b")}}, {"/usr/bin/cc:1"}, {"a.o"}));
  EXPECT_NE(key, FirstLevelKey("cc -c a.c", inputs, {"/usr/bin/cc:2"}, {"a.o"}));
  EXPECT_NE(key, FirstLevelKey("cc -c a.c", inputs, {"/usr/bin/cc:1"}, {"b.o"}));
  // Parts are length-prefixed: moving bytes between parts changes the key.
  EXPECT_NE(FirstLevelKey("a", {}, {}, {"bc"}), FirstLevelKey("ab", {}, {}, {"c"}));
}

TEST(FileHasherTest, DigestsContentAndNamesMissingFiles) {
  test::ScopedTempDir dir;
  std::string path = dir.path() + "/f";
  std::ofstream(path) << "hello";
  FileHasher hasher;
  EXPECT_EQ(Sha256Hex("hello"), hasher.Digest(path));
  EXPECT_EQ("missing", hasher.Digest(dir.path() + "/none"));
  EXPECT_EQ("unreadable", hasher.Digest(dir.path()));
}

TEST(FileHasherTest, ReportsTheModificationTimeItSaw) {
  test::ScopedTempDir dir;
  std::string path = dir.path() + "/f";
  std::ofstream(path) << "hello";
  struct timespec times[2] = {{1000, 5}, {2000, 7}};
  ASSERT_EQ(0, utimensat(AT_FDCWD, path.c_str(), times, 0));
  FileHasher hasher;
  int64_t mtime_ns = 0;
  EXPECT_EQ(Sha256Hex("hello"), hasher.Digest(path, &mtime_ns));
  EXPECT_EQ(int64_t{2000} * 1000000000 + 7, mtime_ns);
  // From the memo the same (one stat, no read).
  mtime_ns = 0;
  EXPECT_EQ(Sha256Hex("hello"), hasher.Digest(path, &mtime_ns));
  EXPECT_EQ(int64_t{2000} * 1000000000 + 7, mtime_ns);
  // Rewritten: a new time, a new digest.
  std::ofstream(path) << "bye";
  times[1] = {3000, 9};
  ASSERT_EQ(0, utimensat(AT_FDCWD, path.c_str(), times, 0));
  EXPECT_EQ(Sha256Hex("bye"), hasher.Digest(path, &mtime_ns));
  EXPECT_EQ(int64_t{3000} * 1000000000 + 9, mtime_ns);
  EXPECT_EQ("missing", hasher.Digest(dir.path() + "/none", &mtime_ns));
  EXPECT_EQ(-1, mtime_ns);
}

// The memo answers by path, time and size without reading again, for
// every path it holds, however much its table has grown since.
TEST(FileHasherTest, MemoKeepsEveryPathAcrossGrowth) {
  test::ScopedTempDir dir;
  FileHasher hasher;
  struct timespec times[2] = {{1000, 0}, {2000, 0}};
  std::vector<std::string> paths;
  for (int i = 0; i < 1000; ++i) {
    paths.push_back(dir.path() + "/dir" + std::to_string(i % 7) + "_file_" + std::to_string(i));
    std::ofstream(paths.back()) << "content " << i % 10;  // same size for every file
    ASSERT_EQ(0, utimensat(AT_FDCWD, paths.back().c_str(), times, 0));
    EXPECT_EQ(Sha256Hex("content " + std::to_string(i % 10)), hasher.Digest(paths.back()));
  }
  for (int i = 0; i < 1000; ++i) {
    // Same size, same time, other bytes: only a memo hit returns the old digest.
    std::ofstream(paths[i]) << "CONTENT " << i % 10;
    ASSERT_EQ(0, utimensat(AT_FDCWD, paths[i].c_str(), times, 0));
    EXPECT_EQ(Sha256Hex("content " + std::to_string(i % 10)), hasher.Digest(paths[i])) << paths[i];
  }
}

DepsManifest::Run SampleRun(std::vector<FileHash> deps) {
  DepsManifest::Run run;
  run.deps = std::move(deps);
  run.entry.outputs.push_back({"obj/a.o", Sha256Hex("a"), 1});
  run.entry.outputs.push_back({"obj/with space.o", Sha256Hex("bb"), 2, true});
  run.entry.output_digest = Sha256Hex("warning: x\n");
  run.entry.output_size = 11;
  return run;
}

TEST(DepsManifestTest, RoundTripsAndRejectsDamage) {
  DepsManifest manifest;
  manifest.AddRun(SampleRun({{"<base>/h.h", Sha256Hex("1")}, {"/usr/include/stdio.h", Sha256Hex("2")}}));
  manifest.AddRun(SampleRun({}));
  manifest.AddRun(SampleRun({{"<base>/h.h", Sha256Hex("1")}, {"/usr/include/stdio.h", Sha256Hex("2")}}));
  ASSERT_EQ(2u, manifest.runs.size());  // the repeated run moved to the front
  EXPECT_EQ(2u, manifest.runs[0].deps.size());
  std::string text = SerializeDepsManifest(manifest);
  DepsManifest parsed;
  std::string err;
  ASSERT_TRUE(ParseDepsManifest(text, &parsed, &err)) << err;
  EXPECT_EQ(manifest.runs, parsed.runs);
  EXPECT_EQ(text, SerializeDepsManifest(parsed));
  ASSERT_EQ(2u, parsed.runs[1].entry.outputs.size());
  EXPECT_EQ("obj/with space.o", parsed.runs[1].entry.outputs[1].path);
  EXPECT_TRUE(parsed.runs[1].entry.outputs[1].executable);
  EXPECT_EQ(11, parsed.runs[1].entry.output_size);
  for (size_t cut = 0; cut < text.size(); ++cut)
    EXPECT_FALSE(ParseDepsManifest(text.substr(0, cut), &parsed, &err)) << cut;
  for (size_t i = 0; i < text.size(); ++i) {
    std::string altered = text;
    altered[i] ^= 1;
    EXPECT_FALSE(ParseDepsManifest(altered, &parsed, &err)) << i;
  }
  for (int i = 0; i < 40; ++i) manifest.AddRun(SampleRun({{"f", Sha256Hex(std::to_string(i))}}));
  EXPECT_EQ(DepsManifest::kMaxRuns, manifest.runs.size());
}

TEST(DepsManifestTest, ARunWithTheSameFilesReplacesTheOlderOne) {
  DepsManifest manifest;
  DepsManifest::Run first = SampleRun({{"h.h", Sha256Hex("1")}});
  DepsManifest::Run again = first;
  again.entry.outputs[0].digest = Sha256Hex("rebuilt");
  manifest.AddRun(first);
  manifest.AddRun(again);
  ASSERT_EQ(1u, manifest.runs.size());
  EXPECT_EQ(again, manifest.runs[0]);
}

TEST(DepsManifestTest, OnlyWhatItWritesParses) {
  // Well-formed checksums around bodies it would never write.
  std::string digest(64, 'a');
  const std::vector<std::string> bodies = {
      "run 01\n",                                   // a leading zero
      "run 1\nlog " + digest + " 0\n",             // a dep line missing
      "run 0\n",                                    // no log line
      "run 0\nout " + digest + " 1 \nlog " + digest + " 0\n",  // an output without a path
      "run 0\nlog " + std::string(64, 'A') + " 0\n",  // not lowercase hex
  };
  for (const std::string& body : bodies) {
    std::string text = "ronin-cache-manifest 2\n" + body;
    text += "sum " + Sha256Hex(text) + "\n";
    DepsManifest parsed;
    std::string err;
    EXPECT_FALSE(ParseDepsManifest(text, &parsed, &err)) << body;
    EXPECT_FALSE(err.empty());
  }
  // Format 1 (a separate entry per run) is not read.
  std::string old = "ronin-cache-manifest 1\nrun 0\n";
  old += "sum " + Sha256Hex(old) + "\n";
  DepsManifest parsed;
  std::string err;
  EXPECT_FALSE(ParseDepsManifest(old, &parsed, &err));
}

// A store in memory that answers the build cache's questions as told,
// and notes what it was asked.
struct StoreLog {
  std::vector<std::thread::id> lookup_threads;
  int trims = 0;
};

class ScriptedStore : public CacheStore {
 public:
  ScriptedStore(StoreLog* log, bool round_trips, bool warns, bool fails)
      : log_(log), round_trips_(round_trips), warns_(warns), fails_(fails) {}
  bool GetAction(const std::string& key, std::string* entry) override {
    log_->lookup_threads.push_back(std::this_thread::get_id());
    auto found = actions_.find(key);
    if (found == actions_.end()) return false;
    *entry = found->second;
    return true;
  }
  bool PutAction(const std::string& key, std::string_view entry) override {
    actions_[key] = std::string(entry);
    return !fails_;
  }
  bool GetBlob(const std::string& digest, std::string* bytes) override {
    auto found = blobs_.find(digest);
    if (found == blobs_.end()) return false;
    *bytes = found->second;
    return true;
  }
  bool PutBlob(std::string_view bytes, std::string* digest) override {
    *digest = Sha256Hex(bytes);
    blobs_[*digest] = std::string(bytes);
    return !fails_;
  }
  int64_t Trim() override {
    ++log_->trims;
    return 0;
  }
  bool LookupsAreRoundTrips() const override { return round_trips_; }
  bool WarnsOfItsFailures() const override { return warns_; }
  std::string WriteError() const override { return fails_ ? "writing tmp/1: No space left on device" : ""; }

 private:
  StoreLog* log_;
  bool round_trips_, warns_, fails_;
  std::map<std::string, std::string> actions_, blobs_;
};

// Runs each command at once: writes its output.
class WritingRunner : public CommandRunner {
 public:
  bool StartCommand(Edge* edge) override {
    test::WriteRealFile(std::string(edge->outputs[0]->path), "output\n");
    done_.push_back(edge);
    return true;
  }
  bool WaitForCommand(Result* result, int64_t, int64_t, int) override {
    if (done_.empty()) return false;
    result->edge = done_.back();
    result->status = kExitSuccess;
    done_.pop_back();
    return true;
  }

 private:
  std::vector<Edge*> done_;
};

class BuildCacheStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    test::WriteRealFile(dir_.File("in"), "in\n");
    ASSERT_TRUE(test::ParseManifest(&state_, "rule cc\n  command = cc $in\nbuild " + dir_.File("out") +
                                                 ": cc " + dir_.File("in") + "\n"));
    options_.cache_rules = {"cc"};
  }
  // Runs the edge once through a cache on a store that answers as told.
  void RunOnce(bool round_trips, bool warns, bool fails, bool may_defer = true) {
    BuildCache cache(std::unique_ptr<CacheStore>(new ScriptedStore(&log_, round_trips, warns, fails)), options_);
    std::unique_ptr<CommandRunner> runner = cache.Wrap(std::unique_ptr<CommandRunner>(new WritingRunner), may_defer);
    Edge* edge = state_.LookupNode(dir_.File("out"))->in_edge;
    ASSERT_TRUE(runner->StartCommand(edge));
    CommandRunner::Result result;
    ASSERT_TRUE(runner->WaitForCommand(&result));
    EXPECT_EQ(edge, result.edge);
    EXPECT_TRUE(result.success());
  }

  test::ScopedTempDir dir_;
  State state_;
  RoninOptions options_;
  StoreLog log_;
};

TEST_F(BuildCacheStoreTest, LookupsThatAreRoundTripsRunOnWorkerThreads) {
  RunOnce(/*round_trips=*/true, false, false);
  ASSERT_EQ(1u, log_.lookup_threads.size());
  EXPECT_NE(std::this_thread::get_id(), log_.lookup_threads[0]);
  // Not when a start must be seen at once (a jobserver, memory admission).
  RunOnce(true, false, false, /*may_defer=*/false);
  ASSERT_EQ(2u, log_.lookup_threads.size());
  EXPECT_EQ(std::this_thread::get_id(), log_.lookup_threads[1]);
  // Nor for local reads.
  RunOnce(false, false, false);
  ASSERT_EQ(3u, log_.lookup_threads.size());
  EXPECT_EQ(std::this_thread::get_id(), log_.lookup_threads[2]);
}

TEST_F(BuildCacheStoreTest, AStoreIsTrimmedAfterABuildThatAddedToIt) {
  RunOnce(false, false, false);
  EXPECT_EQ(1, log_.trims);
  testing::internal::CaptureStderr();       // its warning
  RunOnce(false, false, /*fails=*/true);     // nothing was added
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(1, log_.trims);
}

TEST_F(BuildCacheStoreTest, AFailingStoreIsWarnedAboutUnlessItWarnsItself) {
  testing::internal::CaptureStderr();
  RunOnce(false, /*warns=*/false, /*fails=*/true);
  // The path, the store's reason, and what happens next.
  EXPECT_EQ("ninja: warning: build cache: cannot store the output " + dir_.File("out") +
                ": writing tmp/1: No space left on device; building without the cache from here on\n",
            testing::internal::GetCapturedStderr());
  testing::internal::CaptureStderr();
  RunOnce(false, /*warns=*/true, /*fails=*/true);
  EXPECT_EQ("", testing::internal::GetCapturedStderr());
}

}  // namespace
}  // namespace ronin
