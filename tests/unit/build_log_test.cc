// Tests for .ninja_log (log/build_log.h): the v7 format of spec section 3.1,
// loading quirks, recompaction, the v5/v6 upgrade path and restat.
#include "log/build_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "base/hash.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::NodeOrNull;
using test::ParseManifest;
using test::ReadRealFile;
using test::RealFileExists;
using test::ScopedTempDir;
using test::VirtualDisk;
using test::WriteRealFile;

class FakeUser : public BuildLogUser {
 public:
  bool IsPathDead(std::string_view path) const override { return dead.count(std::string(path)) != 0; }
  bool CurrentCommand(std::string_view path, std::string* command) const override {
    auto it = commands.find(std::string(path));
    if (it == commands.end()) return false;
    *command = it->second;
    return true;
  }
  // Like NinjaMain's with a graph: names the edge whose first output a
  // path is (the path itself is still copied).
  std::string_view InternedPath(std::string_view path, uint64_t path_hash, uint32_t* edge_id) const override {
    const Node* node = graph ? graph->LookupNode(path, path_hash) : nullptr;
    if (node && node->in_edge && node->in_edge->outputs[0] == node) *edge_id = node->in_edge->id;
    return std::string_view();
  }
  const State* graph = nullptr;
  std::set<std::string> dead;
  std::map<std::string, std::string> commands;
};

std::string Hex(uint64_t value) {
  char buffer[32];
  snprintf(buffer, sizeof(buffer), "%llx", static_cast<unsigned long long>(value));
  return buffer;
}

class BuildLogTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ParseManifest(&state_,
                              "rule r\n"
                              "  command = $cmd\n"
                              "build a.o: r\n"
                              "  cmd = gcc -MD -MF a.o.d -c a.c -o a.o\n"
                              "build x y: r\n"
                              "  cmd = echo a > a\n"
                              "build with$ space: r\n"
                              "  cmd = echo b > b\n"));
    path_ = dir_.File(".ninja_log");
  }
  Edge* EdgeFor(const std::string& output) { return NodeOrNull(state_, output)->in_edge; }

  State state_;
  ScopedTempDir dir_;
  std::string path_;
  FakeUser user_;
};

TEST_F(BuildLogTest, EntriesAreFiledUnderTheirEdgesFirstOutput) {
  WriteRealFile(path_, "# ninja log v7\n1\t2\t3\ta.o\tff\n1\t2\t3\ty\tee\n4\t5\t6\tgone\tdd\n");
  user_.graph = &state_;
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err, &user_));
  // a.o has an entry; x's edge only for its second output y; "with space" none.
  for (const char* output : {"a.o", "x", "with space"}) {
    Edge* edge = EdgeFor(output);
    EXPECT_EQ(log.Lookup(edge->outputs[0]->path), log.LookupFirstOutput(edge)) << output;
  }
  EXPECT_NE(nullptr, log.LookupFirstOutput(EdgeFor("a.o")));
  EXPECT_EQ(nullptr, log.LookupFirstOutput(EdgeFor("x")));
  // A command recorded now is filed too.
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  ASSERT_TRUE(log.RecordCommand(EdgeFor("x"), 7, 8, 9));
  ASSERT_NE(nullptr, log.LookupFirstOutput(EdgeFor("x")));
  EXPECT_EQ(log.Lookup("x"), log.LookupFirstOutput(EdgeFor("x")));
  // An entry a recompaction drops is gone both ways.
  user_.dead.insert("a.o");
  ASSERT_TRUE(log.Recompact(path_, user_, &err)) << err;
  EXPECT_EQ(nullptr, log.Lookup("a.o"));
  EXPECT_EQ(nullptr, log.LookupFirstOutput(EdgeFor("a.o")));
  log.Close();
  // Loaded without a user, the log looks up by path.
  BuildLog plain;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, plain.Load(path_, &err));
  ASSERT_NE(nullptr, plain.LookupFirstOutput(EdgeFor("x")));
  EXPECT_EQ(plain.Lookup("x"), plain.LookupFirstOutput(EdgeFor("x")));
}

TEST_F(BuildLogTest, HashIsRapidHash) {
  EXPECT_EQ(0xa4e9afbeb13d95ecull, BuildLog::HashCommand("gcc -MD -MF a.o.d -c a.c -o a.o"));
  EXPECT_EQ(RapidHash("xyz", 3), BuildLog::HashCommand("xyz"));
}

TEST_F(BuildLogTest, ExactFileFormat) {
  BuildLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  ASSERT_TRUE(log.RecordCommand(EdgeFor("a.o"), 0, 46, 1796278940836636295LL));
  log.Close();
  EXPECT_EQ("# ninja log v7\n0\t46\t1796278940836636295\ta.o\ta4e9afbeb13d95ec\n", ReadRealFile(path_));
}

TEST_F(BuildLogTest, FileIsCreatedOnlyOnFirstRecord) {
  BuildLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  EXPECT_FALSE(RealFileExists(path_));
  log.Close();
  EXPECT_FALSE(RealFileExists(path_));
}

TEST_F(BuildLogTest, OneLinePerOutput) {
  BuildLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  ASSERT_TRUE(log.RecordCommand(EdgeFor("x"), 10, 20, 30));
  ASSERT_TRUE(log.RecordCommand(EdgeFor("with space"), -1, 0, 0));
  log.Close();
  EXPECT_EQ(
      "# ninja log v7\n"
      "10\t20\t30\tx\te3dc3bc232e8843a\n"
      "10\t20\t30\ty\te3dc3bc232e8843a\n"
      "-1\t0\t0\twith space\tdef20147dba11621\n",
      ReadRealFile(path_));
}

TEST_F(BuildLogTest, HashIsWrittenWithoutZeroPadding) {
  // Pattern(48) hashes to 0x0fbf74f083d4e589 (spec 3.1).
  std::string pattern;
  for (int i = 0; i < 48; ++i) pattern += "0123456789abcdef"[i % 16];
  State state;
  ASSERT_TRUE(ParseManifest(&state, "rule r\n  command = " + pattern + "\nbuild o: r\n"));
  BuildLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  ASSERT_TRUE(log.RecordCommand(state.edges()[0], 1, 2, 3));
  log.Close();
  EXPECT_EQ("# ninja log v7\n1\t2\t3\to\tfbf74f083d4e589\n", ReadRealFile(path_));
}

TEST_F(BuildLogTest, RoundTrip) {
  {
    BuildLog log;
    std::string err;
    ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
    ASSERT_TRUE(log.RecordCommand(EdgeFor("a.o"), 5, 15, 1234567890123456789LL));
    ASSERT_TRUE(log.RecordCommand(EdgeFor("x"), 7, 9, 42));
    ASSERT_TRUE(log.RecordCommand(EdgeFor("with space"), 1, 2, 3));
  }
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_EQ("", err);
  EXPECT_EQ(4u, log.entry_count());
  EXPECT_FALSE(log.needs_upgrade());
  BuildLog::Entry* entry = log.Lookup("a.o");
  ASSERT_NE(nullptr, entry);
  EXPECT_EQ("a.o", entry->output);
  EXPECT_EQ(5, entry->start_time);
  EXPECT_EQ(15, entry->end_time);
  EXPECT_EQ(1234567890123456789LL, entry->mtime);
  EXPECT_EQ(0xa4e9afbeb13d95ecull, entry->command_hash);
  EXPECT_FALSE(entry->legacy_hash);
  EXPECT_TRUE(BuildLog::CommandMatches(entry, "gcc -MD -MF a.o.d -c a.c -o a.o"));
  EXPECT_FALSE(BuildLog::CommandMatches(entry, "gcc"));
  ASSERT_NE(nullptr, log.Lookup("y"));
  EXPECT_EQ(42, log.Lookup("y")->mtime);
  ASSERT_NE(nullptr, log.Lookup("with space"));
  EXPECT_EQ(nullptr, log.Lookup("nope"));
}

TEST_F(BuildLogTest, AppendsToAnExistingLog) {
  WriteRealFile(path_, "# ninja log v7\n1\t2\t3\told\tabc\n");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  ASSERT_TRUE(log.RecordCommand(EdgeFor("a.o"), 4, 5, 6));
  log.Close();
  EXPECT_EQ("# ninja log v7\n1\t2\t3\told\tabc\n4\t5\t6\ta.o\ta4e9afbeb13d95ec\n", ReadRealFile(path_));
}

TEST_F(BuildLogTest, LastLineForAPathWins) {
  WriteRealFile(path_,
                "# ninja log v7\n"
                "1\t2\t3\tout\taaa\n"
                "4\t5\t6\tother\tbbb\n"
                "7\t8\t9\tout\tccc\n");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_EQ(2u, log.entry_count());
  BuildLog::Entry* entry = log.Lookup("out");
  ASSERT_NE(nullptr, entry);
  EXPECT_EQ(7, entry->start_time);
  EXPECT_EQ(9, entry->mtime);
  EXPECT_EQ(0xcccull, entry->command_hash);
}

TEST_F(BuildLogTest, LinesWithTooFewFieldsAreSkipped) {
  WriteRealFile(path_,
                "# ninja log v7\n"
                "1\t2\t3\tshort\n"
                "garbage\n"
                "\n"
                "4\t5\t6\tgood\t1f\n");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_EQ(1u, log.entry_count());
  EXPECT_EQ(nullptr, log.Lookup("short"));
  ASSERT_NE(nullptr, log.Lookup("good"));
  EXPECT_EQ(0x1full, log.Lookup("good")->command_hash);
}

TEST_F(BuildLogTest, PartialLastLineIsIgnoredAndCutOffBeforeAppending) {
  const char* kLog = "# ninja log v7\n1\t2\t3\tdone\tab\n4\t5\t6\tcut\tf";
  WriteRealFile(path_, kLog);
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_EQ(1u, log.entry_count());
  EXPECT_EQ(nullptr, log.Lookup("cut"));
  // A reader leaves the file alone: another ninja may be writing that line.
  EXPECT_EQ(kLog, ReadRealFile(path_));
  // The writer cuts it, so appending starts on a fresh line.
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err));
  ASSERT_TRUE(log.RecordCommand(EdgeFor("a.o"), 1, 1, 1));
  log.Close();
  EXPECT_EQ("# ninja log v7\n1\t2\t3\tdone\tab\n1\t1\t1\ta.o\ta4e9afbeb13d95ec\n", ReadRealFile(path_));
}

TEST_F(BuildLogTest, MissingAndEmptyLogs) {
  BuildLog log;
  std::string err;
  EXPECT_EQ(BuildLog::LoadStatus::kNotFound, log.Load(dir_.File("absent"), &err));
  EXPECT_EQ("", err);
  WriteRealFile(path_, "");
  EXPECT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_EQ("", err);
  EXPECT_EQ(0u, log.entry_count());
}

TEST_F(BuildLogTest, UnreadableVersionsStartOver) {
  struct Case {
    const char* contents;
    const char* warning;
  } cases[] = {
      {"# ninja log v4\n1\t2\t3\tout\tab\n", "build log version is too old; starting over"},
      {"# ninja log v8\n1\t2\t3\tout\tab\n", "build log version is too new; starting over"},
      {"not a log\n1\t2\t3\tout\tab\n", "build log version is too old; starting over"},
  };
  for (const Case& c : cases) {
    WriteRealFile(path_, c.contents);
    BuildLog log;
    std::string err;
    // Reported as "not found" plus a warning, as ninja's loader does.
    EXPECT_EQ(BuildLog::LoadStatus::kNotFound, log.Load(path_, &err)) << c.contents;
    EXPECT_EQ(c.warning, err);
    EXPECT_EQ(0u, log.entry_count());
    EXPECT_FALSE(RealFileExists(path_)) << "the unreadable log is deleted";
  }
}

// ------------------------------------------------------------ recompaction

std::string RepeatedLog(int unique, int total) {
  std::string contents = "# ninja log v7\n";
  for (int i = 0; i < total; ++i)
    contents += std::to_string(i) + "\t" + std::to_string(i + 1) + "\t7\tout" + std::to_string(i % unique) + "\tab\n";
  return contents;
}

TEST_F(BuildLogTest, RecompactsWhenMostlyStale) {
  WriteRealFile(path_, RepeatedLog(1, 101));
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  EXPECT_EQ("# ninja log v7\n100\t101\t7\tout0\tab\n", ReadRealFile(path_));
  EXPECT_FALSE(RealFileExists(path_ + ".recompact"));
}

TEST_F(BuildLogTest, NoRecompactionAtOrBelowTheThresholds) {
  // 100 lines is not more than 100; 102 lines for 34 outputs is not more than 3x.
  for (auto sizes : {std::make_pair(1, 100), std::make_pair(34, 102)}) {
    std::string contents = RepeatedLog(sizes.first, sizes.second);
    WriteRealFile(path_, contents);
    BuildLog log;
    std::string err;
    ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
    ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
    EXPECT_EQ(contents, ReadRealFile(path_)) << sizes.first << "/" << sizes.second;
  }
  // 103 lines for 34 outputs is.
  WriteRealFile(path_, RepeatedLog(34, 103));
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  std::string compacted = ReadRealFile(path_);
  EXPECT_EQ(35, std::count(compacted.begin(), compacted.end(), '\n'));
}

TEST_F(BuildLogTest, RecompactDropsDeadEntries) {
  WriteRealFile(path_, "# ninja log v7\n1\t2\t3\tlive\tab\n4\t5\t6\tdead\tcd\n7\t8\t9\tlive\tef\n");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  user_.dead.insert("dead");
  ASSERT_TRUE(log.Recompact(path_, user_, &err)) << err;
  EXPECT_EQ("# ninja log v7\n7\t8\t9\tlive\tef\n", ReadRealFile(path_));
  EXPECT_EQ(nullptr, log.Lookup("dead"));
  EXPECT_EQ(1u, log.entry_count());
}

// -------------------------------------------------------- v5/v6 upgrade

TEST_F(BuildLogTest, LegacyEntriesAreCheckedWithMurmurHash) {
  std::string murmur = Hex(MurmurHash64A("echo a > a", 10));
  EXPECT_EQ("996719a0746035a3", murmur);
  WriteRealFile(path_, "# ninja log v5\n1\t2\t3\tx\t" + murmur + "\n");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_EQ("", err);
  EXPECT_TRUE(log.needs_upgrade());
  BuildLog::Entry* entry = log.Lookup("x");
  ASSERT_NE(nullptr, entry);
  EXPECT_TRUE(entry->legacy_hash);
  EXPECT_FALSE(BuildLog::CommandMatches(entry, "echo b > b"));
  EXPECT_TRUE(entry->legacy_hash);  // a mismatch converts nothing
  EXPECT_TRUE(BuildLog::CommandMatches(entry, "echo a > a"));
  EXPECT_FALSE(entry->legacy_hash);
  EXPECT_EQ(0xe3dc3bc232e8843aull, entry->command_hash);
  EXPECT_TRUE(BuildLog::CommandMatches(entry, "echo a > a"));
}

TEST_F(BuildLogTest, LegacyLogIsRewrittenAsV7OnFirstWrite) {
  WriteRealFile(path_,
                "# ninja log v6\n"
                "1\t2\t3\tx\t" + Hex(MurmurHash64A("echo a > a", 10)) + "\n"
                "4\t5\t6\tchanged\t" + Hex(MurmurHash64A("old", 3)) + "\n"
                "7\t8\t9\tgone\t" + Hex(MurmurHash64A("gone", 4)) + "\n");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  user_.commands["x"] = "echo a > a";
  user_.commands["changed"] = "new";
  user_.dead.insert("gone");
  ASSERT_TRUE(log.OpenForWrite(path_, user_, &err)) << err;
  ASSERT_TRUE(log.RecordCommand(EdgeFor("a.o"), 10, 11, 12));
  log.Close();
  EXPECT_EQ(
      "# ninja log v7\n"
      "1\t2\t3\tx\te3dc3bc232e8843a\n"
      "10\t11\t12\ta.o\ta4e9afbeb13d95ec\n",
      ReadRealFile(path_));
  EXPECT_FALSE(log.needs_upgrade());
  EXPECT_EQ(nullptr, log.Lookup("changed"));
}

// ------------------------------------------------------------------ restat

TEST_F(BuildLogTest, RestatUpdatesRecordedMtimes) {
  WriteRealFile(path_, "# ninja log v7\n1\t2\t3\ta\tab\n4\t5\t6\tb\tcd\n7\t8\t9\tc\tef\n");
  VirtualDisk disk;
  disk.CreateAt("a", 100);
  disk.CreateAt("b", 200);
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  ASSERT_TRUE(log.Restat(path_, disk, {}, &err)) << err;
  EXPECT_EQ("# ninja log v7\n1\t2\t100\ta\tab\n4\t5\t200\tb\tcd\n7\t8\t0\tc\tef\n", ReadRealFile(path_));
  EXPECT_EQ(200, log.Lookup("b")->mtime);
  EXPECT_FALSE(RealFileExists(path_ + ".restat"));
}

TEST_F(BuildLogTest, RestatOnlyTheNamedOutputs) {
  WriteRealFile(path_, "# ninja log v7\n1\t2\t3\ta\tab\n4\t5\t6\tb\tcd\n");
  VirtualDisk disk;
  disk.CreateAt("a", 100);
  disk.CreateAt("b", 200);
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  ASSERT_TRUE(log.Restat(path_, disk, {"b"}, &err)) << err;
  EXPECT_EQ("# ninja log v7\n1\t2\t3\ta\tab\n4\t5\t200\tb\tcd\n", ReadRealFile(path_));
  EXPECT_EQ((std::vector<std::string>{"b"}), disk.stats);
}

TEST_F(BuildLogTest, RestatStatErrorFails) {
  WriteRealFile(path_, "# ninja log v7\n1\t2\t3\ta\tab\n");
  VirtualDisk disk;
  disk.FailStat("a", "stat(a): Permission denied");
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path_, &err));
  EXPECT_FALSE(log.Restat(path_, disk, {}, &err));
  EXPECT_EQ("stat(a): Permission denied", err);
}

}  // namespace
}  // namespace ronin

namespace ronin {
namespace {

// The log is read in 1 MiB chunks: lines across chunk boundaries, a line
// longer than a chunk and a cut last line must all come out right.
TEST(BuildLogChunkTest, LinesAcrossChunksAndHugeLines) {
  test::ScopedTempDir dir;
  std::string path = dir.File(".ninja_log");
  std::string content = "# ninja log v7\n";
  const int kEntries = 40000;  // ~1.6 MB
  for (int i = 0; i < kEntries; ++i)
    content += "1\t2\t" + std::to_string(1000 + i) + "\tobj/some/dir/file" + std::to_string(i) + ".o\tabc\n";
  std::string huge(1500 * 1000, 'h');
  content += "3\t4\t5\t" + huge + "\tdef\n";
  content += "6\t7\t8\tlast\t1";  // cut short by a crash
  test::WriteRealFile(path, content);

  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path, &err));
  EXPECT_EQ("", err);
  EXPECT_EQ(static_cast<size_t>(kEntries + 1), log.entry_count());
  BuildLog::Entry* entry = log.Lookup("obj/some/dir/file39999.o");
  ASSERT_NE(nullptr, entry);
  EXPECT_EQ(1000 + 39999, entry->mtime);
  EXPECT_EQ(0xabcu, entry->command_hash);
  entry = log.Lookup(huge);
  ASSERT_NE(nullptr, entry);
  EXPECT_EQ(0xdefu, entry->command_hash);
  EXPECT_EQ(nullptr, log.Lookup("last"));
  // Loading alone leaves the file as it was (only a writer cuts the line).
  EXPECT_TRUE(test::ReadRealFile(path) == content);
}

}  // namespace
}  // namespace ronin
