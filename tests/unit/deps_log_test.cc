// Tests for .ninja_deps (log/deps_log.h): the v4 byte layout of spec section
// 3.2, round trips, skipped rewrites, recovery from damaged files and
// recompaction.
#include "log/deps_log.h"

#include <gtest/gtest.h>

#include <string.h>

#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::Paths;
using test::ReadRealFile;
using test::RealFileExists;
using test::ScopedTempDir;
using test::WriteRealFile;

std::string U32(uint32_t value) {
  std::string bytes(4, '\0');
  memcpy(&bytes[0], &value, 4);  // host order, as the format says
  return bytes;
}

const std::string kHeader = std::string("# ninjadeps\n") + U32(4);

std::string PathRecord(const std::string& path, uint32_t id) {
  std::string padded = path;
  while (padded.size() % 4) padded += '\0';
  return U32(static_cast<uint32_t>(padded.size() + 4)) + padded + U32(~id);
}

std::string DepsRecord(uint32_t out, TimeStamp mtime, const std::vector<uint32_t>& ids) {
  std::string record = U32((4 * (3 + static_cast<uint32_t>(ids.size()))) | 0x80000000u) + U32(out) +
                       U32(static_cast<uint32_t>(mtime)) + U32(static_cast<uint32_t>(static_cast<uint64_t>(mtime) >> 32));
  for (uint32_t id : ids) record += U32(id);
  return record;
}

std::vector<Node*> Nodes(State* state, const std::vector<std::string>& paths) {
  std::vector<Node*> nodes;
  for (const std::string& path : paths) nodes.push_back(state->GetNode(path));
  return nodes;
}

class DepsLogTest : public testing::Test {
 protected:
  void SetUp() override { path_ = dir_.File(".ninja_deps"); }

  // Loads path_ into a fresh state; returns the status, *err the warning.
  DepsLog::LoadStatus LoadFresh(DepsLog* log, State* state, std::string* err) {
    return log->Load(path_, state, err);
  }

  ScopedTempDir dir_;
  std::string path_;
};

TEST_F(DepsLogTest, ExactByteLayout) {
  State state;
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  const TimeStamp mtime = 0x18edaa2dfcb48987LL;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("a.o"), mtime,
                             Nodes(&state, {"a.c", "/usr/include/stdc-predef.h", "h.h"})));
  log.Close();
  std::string expected = kHeader + PathRecord("a.o", 0) + PathRecord("a.c", 1) +
                         PathRecord("/usr/include/stdc-predef.h", 2) + PathRecord("h.h", 3) +
                         DepsRecord(0, mtime, {1, 2, 3});
  EXPECT_EQ(expected, ReadRealFile(path_));
  // The spec's hex dump of the same log, byte for byte (little-endian host).
  const unsigned char spec_tail[] = {0x18, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x87, 0x89,
                                     0xb4, 0xfc, 0x2d, 0xaa, 0xed, 0x18, 0x01, 0x00, 0x00, 0x00,
                                     0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00};
  std::string contents = ReadRealFile(path_);
  ASSERT_GE(contents.size(), sizeof(spec_tail));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(spec_tail), sizeof(spec_tail)),
            contents.substr(contents.size() - sizeof(spec_tail)));
  EXPECT_EQ(std::string("\x08\x00\x00\x00" "a.o\x00" "\xff\xff\xff\xff", 12), contents.substr(16, 12));
}

TEST_F(DepsLogTest, PathsAreNulPaddedToFourBytes) {
  State state;
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("abcd"), 1, Nodes(&state, {"a", "ab", "abc"})));
  log.Close();
  EXPECT_EQ(kHeader + U32(8) + "abcd" + U32(~0u) + U32(8) + std::string("a\0\0\0", 4) + U32(~1u) + U32(8) +
                std::string("ab\0\0", 4) + U32(~2u) + U32(8) + std::string("abc\0", 4) + U32(~3u) +
                DepsRecord(0, 1, {1, 2, 3}),
            ReadRealFile(path_));
}

TEST_F(DepsLogTest, OpenedLogExistsAfterCloseEvenIfUnused) {
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  log.Close();
  EXPECT_EQ(kHeader, ReadRealFile(path_));
}

TEST_F(DepsLogTest, RoundTrip) {
  {
    State state;
    DepsLog log;
    std::string err;
    ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
    ASSERT_TRUE(log.RecordDeps(state.GetNode("out.o"), 123456789012345LL, Nodes(&state, {"foo.h", "bar.h"})));
    ASSERT_TRUE(log.RecordDeps(state.GetNode("out2.o"), -5, Nodes(&state, {"foo.h", "baz.h"})));
    ASSERT_TRUE(log.RecordDeps(state.GetNode("none.o"), 7, std::vector<Node*>()));
  }
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  EXPECT_EQ("", err);
  EXPECT_EQ("out.o foo.h bar.h out2.o baz.h none.o", Paths(log.nodes()));
  Node* out = state.LookupNode("out.o");
  ASSERT_NE(nullptr, out);
  EXPECT_EQ(0, out->deps_log_id);
  EXPECT_EQ(4, state.LookupNode("baz.h")->deps_log_id);
  DepsLog::Deps* deps = log.GetDeps(out);
  ASSERT_NE(nullptr, deps);
  EXPECT_EQ(123456789012345LL, deps->mtime);
  ASSERT_EQ(2, deps->node_count);
  EXPECT_EQ("foo.h", log.DepNode(deps, 0)->path);
  EXPECT_EQ("bar.h", log.DepNode(deps, 1)->path);
  DepsLog::Deps* deps2 = log.GetDeps(state.LookupNode("out2.o"));
  ASSERT_NE(nullptr, deps2);
  EXPECT_EQ(-5, deps2->mtime);
  EXPECT_EQ(state.LookupNode("foo.h"), log.DepNode(deps2, 0));
  DepsLog::Deps* none = log.GetDeps(state.LookupNode("none.o"));
  ASSERT_NE(nullptr, none);
  EXPECT_EQ(0, none->node_count);
  EXPECT_EQ(nullptr, log.GetDeps(state.LookupNode("foo.h")));
  EXPECT_EQ(nullptr, log.GetDeps(state.GetNode("never-seen")));
}

// The loader reads in chunks of about 1 MiB, sized down for small files:
// records that straddle a chunk boundary, and one close to the largest
// allowed, must come through whole.
TEST_F(DepsLogTest, LargeRecordsAcrossChunkBoundaries) {
  const uint32_t kInputs = 1000;
  std::string bytes = kHeader;
  for (uint32_t id = 0; id < kInputs; ++id) bytes += PathRecord("h" + std::to_string(id) + ".h", id);
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < DepsLog::kMaxRecordSize / 4 - 3; ++i) ids.push_back(i % kInputs);
  // Three outputs, each with the largest record: about 1.5 MiB of deps.
  for (uint32_t out = 0; out < 3; ++out) {
    bytes += PathRecord("out" + std::to_string(out) + ".o", kInputs + out);
    bytes += DepsRecord(kInputs + out, 40 + out, ids);
  }
  WriteRealFile(path_, bytes);

  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  EXPECT_EQ("", err);
  for (uint32_t out = 0; out < 3; ++out) {
    DepsLog::Deps* deps = log.GetDeps(state.LookupNode("out" + std::to_string(out) + ".o"));
    ASSERT_NE(nullptr, deps);
    EXPECT_EQ(40 + static_cast<TimeStamp>(out), deps->mtime);
    ASSERT_EQ(static_cast<int>(ids.size()), deps->node_count);
    EXPECT_EQ("h999.h", log.DepNode(deps, 999)->path);
    EXPECT_EQ("h0.h", log.DepNode(deps, deps->node_count - static_cast<int>(ids.size() % kInputs))->path);
  }
}

TEST_F(DepsLogTest, UnchangedDepsAreNotRewritten) {
  State state;
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  Node* out = state.GetNode("out.o");
  ASSERT_TRUE(log.RecordDeps(out, 1, Nodes(&state, {"a.h", "b.h"})));
  size_t size = ReadRealFile(path_).size();
  ASSERT_TRUE(log.RecordDeps(out, 1, Nodes(&state, {"a.h", "b.h"})));
  EXPECT_EQ(size, ReadRealFile(path_).size());
  ASSERT_TRUE(log.RecordDeps(out, 2, Nodes(&state, {"a.h", "b.h"})));  // new mtime
  size_t size2 = ReadRealFile(path_).size();
  EXPECT_EQ(size + 24, size2);
  ASSERT_TRUE(log.RecordDeps(out, 2, Nodes(&state, {"b.h", "a.h"})));  // new order
  EXPECT_EQ(size2 + 24, ReadRealFile(path_).size());
  ASSERT_TRUE(log.RecordDeps(out, 2, Nodes(&state, {"b.h"})));  // fewer deps
  EXPECT_EQ(size2 + 24 + 20, ReadRealFile(path_).size());
}

TEST_F(DepsLogTest, UnchangedDepsAfterReloadAreNotRewritten) {
  {
    State state;
    DepsLog log;
    std::string err;
    ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
    ASSERT_TRUE(log.RecordDeps(state.GetNode("out.o"), 1, Nodes(&state, {"a.h"})));
  }
  std::string before = ReadRealFile(path_);
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("out.o"), 1, Nodes(&state, {"a.h"})));
  log.Close();
  EXPECT_EQ(before, ReadRealFile(path_));
}

TEST_F(DepsLogTest, RecordsNotKeptAreWrittenTheSameAndReadAsAbsent) {
  // A build's log: the file gets exactly the bytes a keeping log writes;
  // memory keeps neither the new record nor the stale one it replaced.
  WriteRealFile(path_, kHeader + PathRecord("o", 0) + PathRecord("a", 1) + DepsRecord(0, 1, {1}));
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  log.KeepRecordedDeps(false);
  ASSERT_TRUE(log.RecordDeps(state.GetNode("p"), 7, Nodes(&state, {"a"})));
  ASSERT_TRUE(log.RecordDeps(state.LookupNode("o"), 2, Nodes(&state, {"b", "a"})));
  EXPECT_EQ(nullptr, log.GetDeps(state.LookupNode("p")));
  EXPECT_EQ(nullptr, log.GetDeps(state.LookupNode("o")));
  log.Close();
  EXPECT_EQ(kHeader + PathRecord("o", 0) + PathRecord("a", 1) + DepsRecord(0, 1, {1}) + PathRecord("p", 2) +
                DepsRecord(2, 7, {1}) + PathRecord("b", 3) + DepsRecord(0, 2, {3, 1}),
            ReadRealFile(path_));

  State reloaded_state;
  DepsLog reloaded;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, reloaded.Load(path_, &reloaded_state, &err));
  DepsLog::Deps* deps = reloaded.GetDeps(reloaded_state.LookupNode("o"));
  ASSERT_NE(nullptr, deps);
  EXPECT_EQ(2, deps->mtime);
  ASSERT_EQ(2, deps->node_count);
  EXPECT_EQ("b", reloaded.DepNode(deps, 0)->path);
}

TEST_F(DepsLogTest, AppendingAfterLoadContinuesIds) {
  WriteRealFile(path_, kHeader + PathRecord("x", 0) + PathRecord("y", 1) + DepsRecord(0, 9, {1}));
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("z"), 10, Nodes(&state, {"y"})));
  log.Close();
  EXPECT_EQ(kHeader + PathRecord("x", 0) + PathRecord("y", 1) + DepsRecord(0, 9, {1}) + PathRecord("z", 2) +
                DepsRecord(2, 10, {1}),
            ReadRealFile(path_));
}

TEST_F(DepsLogTest, LaterRecordsReplaceEarlierOnes) {
  WriteRealFile(path_, kHeader + PathRecord("o", 0) + PathRecord("a", 1) + PathRecord("b", 2) +
                           DepsRecord(0, 1, {1}) + DepsRecord(0, 2, {2, 1}));
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  EXPECT_EQ("", err);
  DepsLog::Deps* deps = log.GetDeps(state.LookupNode("o"));
  ASSERT_NE(nullptr, deps);
  EXPECT_EQ(2, deps->mtime);
  ASSERT_EQ(2, deps->node_count);
  EXPECT_EQ("b", log.DepNode(deps, 0)->path);
}

TEST_F(DepsLogTest, ReplacedRecordsLendTheirMemory) {
  // Shrinking, same size, growing, then shrinking into the grown one: the
  // latest record always wins, and another output's record is untouched.
  WriteRealFile(path_, kHeader + PathRecord("o", 0) + PathRecord("a", 1) + PathRecord("b", 2) +
                           PathRecord("p", 3) + DepsRecord(0, 1, {1, 2}) + DepsRecord(3, 5, {2}) +
                           DepsRecord(0, 2, {2}) + DepsRecord(0, 3, {1}) + DepsRecord(0, 4, {1, 2, 1}) +
                           DepsRecord(0, 6, {2, 2}));
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  DepsLog::Deps* deps = log.GetDeps(state.LookupNode("o"));
  ASSERT_NE(nullptr, deps);
  EXPECT_EQ(6, deps->mtime);
  ASSERT_EQ(2, deps->node_count);
  EXPECT_EQ("b", log.DepNode(deps, 0)->path);
  EXPECT_EQ("b", log.DepNode(deps, 1)->path);
  DepsLog::Deps* other = log.GetDeps(state.LookupNode("p"));
  ASSERT_NE(nullptr, other);
  ASSERT_EQ(1, other->node_count);
  EXPECT_EQ("b", log.DepNode(other, 0)->path);
}

TEST_F(DepsLogTest, ReverseDepsLookup) {
  State state;
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("one.o"), 1, Nodes(&state, {"common.h", "one.h"})));
  ASSERT_TRUE(log.RecordDeps(state.GetNode("two.o"), 1, Nodes(&state, {"common.h", "two.h"})));
  EXPECT_EQ(state.LookupNode("one.o"), log.GetFirstReverseDepsNode(state.LookupNode("common.h")));
  EXPECT_EQ(state.LookupNode("two.o"), log.GetFirstReverseDepsNode(state.LookupNode("two.h")));
  EXPECT_EQ(nullptr, log.GetFirstReverseDepsNode(state.LookupNode("one.o")));
}

TEST_F(DepsLogTest, MissingFile) {
  State state;
  DepsLog log;
  std::string err;
  EXPECT_EQ(DepsLog::LoadStatus::kNotFound, log.Load(dir_.File("absent"), &state, &err));
  EXPECT_EQ("", err);
}

TEST_F(DepsLogTest, BadHeaderStartsOver) {
  struct Case {
    std::string contents;
    const char* warning;
  } cases[] = {
      {"", "bad deps log signature or version; starting over"},
      {"# ninjadeps\n", "bad deps log signature or version; starting over"},
      {std::string("# ninjadeps\n") + U32(3), "bad deps log signature or version; starting over"},
      {std::string("# ninjadeps\n") + U32(1), "deps log version change; rebuilding"},
      {std::string("# ninjadepz\n") + U32(4), "bad deps log signature or version; starting over"},
  };
  for (const Case& c : cases) {
    WriteRealFile(path_, c.contents);
    State state;
    DepsLog log;
    std::string err;
    EXPECT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
    EXPECT_EQ(c.warning, err);
    EXPECT_FALSE(RealFileExists(path_));
    EXPECT_TRUE(log.nodes().empty());
  }
}

// Loads a log with a damaged tail: the good prefix stays, the file is cut
// back to it, and the problem is a warning -- except for a stray tail too
// short to hold a record header, which ninja 1.13.2 ignores silently.
void ExpectRecovery(const std::string& path, const std::string& good, const std::string& bad,
                    const std::string& expected_nodes) {
  WriteRealFile(path, good + bad);
  State state;
  DepsLog log;
  std::string err;
  EXPECT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path, &state, &err));
  EXPECT_EQ(bad.size() < 4 ? "" : "premature end of file; recovering", err) << bad.size() << " bad bytes";
  EXPECT_EQ(expected_nodes, Paths(log.nodes()));
  EXPECT_EQ(good, ReadRealFile(path)) << "file not cut back to the last good record";
}

TEST_F(DepsLogTest, TruncatedTailIsCutOff) {
  std::string good = kHeader + PathRecord("out", 0) + PathRecord("in", 1) + DepsRecord(0, 5, {1});
  std::string path_record = PathRecord("next", 2);
  std::string deps_record = DepsRecord(0, 6, {1, 1});
  for (size_t cut = 1; cut < path_record.size(); ++cut)
    ExpectRecovery(path_, good, path_record.substr(0, cut), "out in");
  for (size_t cut = 1; cut < deps_record.size(); ++cut)
    ExpectRecovery(path_, good, deps_record.substr(0, cut), "out in");
  // The good records are all there.
  State state;
  DepsLog log;
  std::string err;
  WriteRealFile(path_, good + deps_record.substr(0, 7));
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  ASSERT_NE(nullptr, log.GetDeps(state.LookupNode("out")));
  EXPECT_EQ(5, log.GetDeps(state.LookupNode("out"))->mtime);
}

TEST_F(DepsLogTest, AppendAfterAStrayTailStaysAligned) {
  std::string good = kHeader + PathRecord("out", 0) + PathRecord("in", 1) + DepsRecord(0, 5, {1});
  WriteRealFile(path_, good + "\x01\x02");
  State state;
  DepsLog log;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
  EXPECT_EQ("", err);
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("out"), 6, Nodes(&state, {"in"})));
  log.Close();
  EXPECT_EQ(good + DepsRecord(0, 6, {1}), ReadRealFile(path_));
}

TEST_F(DepsLogTest, CorruptRecordsAreNotTrusted) {
  std::string good = kHeader + PathRecord("out", 0) + PathRecord("in", 1);
  // Wrong checksum (two writers at once).
  ExpectRecovery(path_, good, PathRecord("x", 5), "out in");
  // A path defined twice.
  ExpectRecovery(path_, good, PathRecord("in", 2), "out in");
  // Deps naming an unknown node, or an unknown output.
  ExpectRecovery(path_, good, DepsRecord(0, 1, {7}), "out in");
  ExpectRecovery(path_, good, DepsRecord(9, 1, {1}), "out in");
  // Record sizes: too large, not a multiple of four, too small for a path.
  ExpectRecovery(path_, good, U32(0x80000) + std::string(16, 'x'), "out in");
  ExpectRecovery(path_, good, U32(0x80000000u | 13) + U32(0) + U32(0) + U32(0) + "x", "out in");
  ExpectRecovery(path_, good, U32(4) + U32(~2u), "out in");
  ExpectRecovery(path_, good, U32(0x80000000u | 8) + U32(0) + U32(0), "out in");
}

TEST_F(DepsLogTest, RecordsTooLargeAreRefused) {
  State state;
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  std::vector<Node*> many;
  for (int i = 0; i < 131069; ++i) many.push_back(state.GetNode("h" + std::to_string(i)));
  EXPECT_FALSE(log.RecordDeps(state.GetNode("huge.o"), 1, many));
  EXPECT_EQ(nullptr, log.GetDeps(state.LookupNode("huge.o")));
  many.pop_back();  // 4 * (3 + 131068) = 524284 bytes fits
  EXPECT_TRUE(log.RecordDeps(state.GetNode("big.o"), 1, many));
  ASSERT_NE(nullptr, log.GetDeps(state.LookupNode("big.o")));
  EXPECT_EQ(131068, log.GetDeps(state.LookupNode("big.o"))->node_count);
}

// ------------------------------------------------------------ recompaction

TEST_F(DepsLogTest, RecompactKeepsOnlyLiveEntries) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule cc\n  command = cc\n  deps = gcc\n  depfile = $out.d\n"
                            "rule plain\n  command = cc\n"
                            "build live.o: cc live.c\n"
                            "build plain.o: plain plain.c\n"));
  DepsLog log;
  std::string err;
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("gone.o"), 1, Nodes(&state, {"gone.h"})));
  ASSERT_TRUE(log.RecordDeps(state.GetNode("plain.o"), 1, Nodes(&state, {"plain.h"})));
  ASSERT_TRUE(log.RecordDeps(state.GetNode("live.o"), 1, Nodes(&state, {"old.h"})));
  ASSERT_TRUE(log.RecordDeps(state.GetNode("live.o"), 2, Nodes(&state, {"live.h", "common.h"})));
  ASSERT_TRUE(log.Recompact(path_, &err)) << err;
  EXPECT_EQ(kHeader + PathRecord("live.o", 0) + PathRecord("live.h", 1) + PathRecord("common.h", 2) +
                DepsRecord(0, 2, {1, 2}),
            ReadRealFile(path_));
  EXPECT_FALSE(RealFileExists(path_ + ".recompact"));
  // The in-memory tables follow the new ids.
  EXPECT_EQ("live.o live.h common.h", Paths(log.nodes()));
  EXPECT_EQ(0, state.LookupNode("live.o")->deps_log_id);
  EXPECT_EQ(-1, state.LookupNode("gone.o")->deps_log_id);
  ASSERT_NE(nullptr, log.GetDeps(state.LookupNode("live.o")));
  EXPECT_EQ(2, log.GetDeps(state.LookupNode("live.o"))->mtime);
  EXPECT_EQ(nullptr, log.GetDeps(state.LookupNode("plain.o")));
  // Writing continues with the new numbering.
  ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
  ASSERT_TRUE(log.RecordDeps(state.GetNode("live.o"), 3, Nodes(&state, {"common.h"})));
  log.Close();
  State reloaded;
  DepsLog again;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, again.Load(path_, &reloaded, &err));
  EXPECT_EQ("", err);
  ASSERT_NE(nullptr, again.GetDeps(reloaded.LookupNode("live.o")));
  EXPECT_EQ(3, again.GetDeps(reloaded.LookupNode("live.o"))->mtime);
}

std::string ManyRecords(int outputs, int total) {
  std::string contents = kHeader;
  for (int i = 0; i < outputs; ++i) contents += PathRecord("o" + std::to_string(i), i);
  for (int i = 0; i < total; ++i) contents += DepsRecord(i % outputs, i, {});
  return contents;
}

TEST_F(DepsLogTest, RecompactionThresholds) {
  // 1001 records for 1 output: more than 1000 and more than 3x unique.
  WriteRealFile(path_, ManyRecords(1, 1001));
  {
    State state;
    ASSERT_TRUE(ParseManifest(&state, "rule cc\n  command = cc\n  deps = gcc\nbuild o0: cc\n"));
    DepsLog log;
    std::string err;
    ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
    ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
    log.Close();
    EXPECT_EQ(kHeader + PathRecord("o0", 0) + DepsRecord(0, 1000, {}), ReadRealFile(path_));
  }
  // 1000 records, or 1002 records for 334 outputs: left alone.
  for (auto sizes : {std::make_pair(1, 1000), std::make_pair(334, 1002)}) {
    std::string contents = ManyRecords(sizes.first, sizes.second);
    WriteRealFile(path_, contents);
    State state;
    DepsLog log;
    std::string err;
    ASSERT_EQ(DepsLog::LoadStatus::kSuccess, log.Load(path_, &state, &err));
    ASSERT_TRUE(log.OpenForWrite(path_, &err)) << err;
    log.Close();
    EXPECT_EQ(contents.size(), ReadRealFile(path_).size()) << sizes.first << "/" << sizes.second;
  }
}

}  // namespace
}  // namespace ronin
