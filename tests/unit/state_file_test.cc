// Tests for .ronin_state (log/state_file.h): round trips, last record wins,
// unchanged payloads not rewritten, damaged tails cut, bad headers started
// over, unknown kinds skipped, recompaction.
#include "log/state_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace ronin {
namespace {

using test::ReadRealFile;
using test::RealFileExists;
using test::ScopedTempDir;
using test::WriteRealFile;
using Kind = StateFile::Kind;

class StateFileTest : public testing::Test {
 protected:
  void SetUp() override { path_ = dir_.File(".ronin_state"); }

  // Loads path_ into `state`, expecting no warning.
  void LoadClean(StateFile* state) {
    std::string err;
    ASSERT_TRUE(state->Load(path_, &err));
    EXPECT_EQ("", err);
  }
  void Put(StateFile* state, Kind kind, const std::string& key, const std::string& payload) {
    std::string err;
    ASSERT_TRUE(state->Put(kind, key, payload, &err)) << err;
  }
  void Append(StateFile* state, const std::string& key, const std::string& payload) {
    std::string err;
    ASSERT_TRUE(state->Append(Kind::kEdgeOutcome, key, payload, &err)) << err;
  }

  ScopedTempDir dir_;
  std::string path_;
};

TEST_F(StateFileTest, LoadsRecordsAcrossReadChunks) {
  // The file is read 128 KiB at a time: records cut by a chunk's end, and
  // one larger than a chunk, load like any other; a cut-short large record
  // at the end is a damaged tail.
  std::string bytes = StateFileHeader();
  for (int i = 0; i < 3000; ++i)
    bytes += EncodeStateRecord(Kind::kFileDigest, "file" + std::to_string(i), std::string(100, 'a' + i % 26));
  std::string big(300 << 10, 'b');
  bytes += EncodeStateRecord(Kind::kEdgeOutcome, "big", big);
  bytes += EncodeStateRecord(Kind::kFileDigest, "file7", "last");
  size_t good = bytes.size();
  bytes += EncodeStateRecord(Kind::kEdgeOutcome, "cut", big).substr(0, 200 << 10);
  WriteRealFile(path_, bytes);
  StateFile state;
  std::string err;
  ASSERT_TRUE(state.Load(path_, &err));
  EXPECT_EQ("premature end of file; recovering", err);
  EXPECT_EQ(3002u, state.loaded_record_count());
  EXPECT_EQ(3001u, state.live_count());
  EXPECT_EQ("last", *state.Find(Kind::kFileDigest, "file7"));
  EXPECT_EQ(std::string(100, 'a' + 2999 % 26), *state.Find(Kind::kFileDigest, "file2999"));
  EXPECT_EQ(big, *state.Find(Kind::kEdgeOutcome, "big"));
  EXPECT_FALSE(state.Find(Kind::kEdgeOutcome, "cut").has_value());
  EXPECT_EQ(good, ReadRealFile(path_).size());
}

TEST_F(StateFileTest, MissingFileIsEmptyAndNothingIsWrittenWithoutPut) {
  StateFile state;
  LoadClean(&state);
  EXPECT_FALSE(state.Find(Kind::kFileDigest, "a").has_value());
  state.Close();
  EXPECT_FALSE(RealFileExists(path_));
}

TEST_F(StateFileTest, RoundTripAndLastRecordWins) {
  {
    StateFile state;
    LoadClean(&state);
    Put(&state, Kind::kFileDigest, "a.c", "one");
    Put(&state, Kind::kEdgeInputs, "a.c", "edge");
    Put(&state, Kind::kFileDigest, "a.c", "two");
    Put(&state, Kind::kFileDigest, "b.c", std::string("\0\1\2", 3));
    ASSERT_TRUE(state.Find(Kind::kFileDigest, "a.c").has_value());
    EXPECT_EQ("two", *state.Find(Kind::kFileDigest, "a.c"));
  }
  StateFile again;
  LoadClean(&again);
  EXPECT_EQ(4u, again.loaded_record_count());
  EXPECT_EQ("two", *again.Find(Kind::kFileDigest, "a.c"));
  EXPECT_EQ("edge", *again.Find(Kind::kEdgeInputs, "a.c"));
  EXPECT_EQ(std::string("\0\1\2", 3), *again.Find(Kind::kFileDigest, "b.c"));
  EXPECT_FALSE(again.Find(Kind::kEdgeResources, "a.c").has_value());
  std::vector<std::string> keys;
  again.ForEach(Kind::kFileDigest, [&](std::string_view key, std::string_view) { keys.emplace_back(key); });
  EXPECT_EQ((std::vector<std::string>{"a.c", "b.c"}), keys);
}

TEST_F(StateFileTest, TheSamePayloadIsNotWrittenTwice) {
  StateFile state;
  LoadClean(&state);
  Put(&state, Kind::kFileDigest, "a", "x");
  size_t size = ReadRealFile(path_).size();
  Put(&state, Kind::kFileDigest, "a", "x");
  EXPECT_EQ(size, ReadRealFile(path_).size());
}

TEST_F(StateFileTest, FileLayoutIsHeaderThenRecords) {
  {
    StateFile state;
    LoadClean(&state);
    Put(&state, Kind::kEdgeResources, "out", "p");
  }
  std::string expected = StateFileHeader() + EncodeStateRecord(Kind::kEdgeResources, "out", "p");
  EXPECT_EQ(expected, ReadRealFile(path_));
  EXPECT_EQ(std::string("# ronin state\n\1\0\0\0", 18), StateFileHeader());
  std::string record = EncodeStateRecord(Kind::kEdgeResources, "out", "p");
  // u32 body size (kind, key size, key, payload), body, u64 checksum.
  EXPECT_EQ(4u + 1 + 4 + 3 + 1 + 8, record.size());
  EXPECT_EQ(std::string("\11\0\0\0\3\3\0\0\0outp", 13), record.substr(0, 13));
}

TEST_F(StateFileTest, EveryTruncationKeepsTheWholeRecordsBeforeIt) {
  std::string full = StateFileHeader() + EncodeStateRecord(Kind::kFileDigest, "a", "1") +
                     EncodeStateRecord(Kind::kFileDigest, "b", "2");
  size_t first_end = StateFileHeader().size() + EncodeStateRecord(Kind::kFileDigest, "a", "1").size();
  for (size_t cut = StateFileHeader().size(); cut < full.size(); ++cut) {
    WriteRealFile(path_, full.substr(0, cut));
    StateFile state;
    std::string err;
    ASSERT_TRUE(state.Load(path_, &err));
    EXPECT_EQ(cut == StateFileHeader().size() || cut == first_end ? "" : "premature end of file; recovering", err);
    EXPECT_EQ(cut >= first_end, state.Find(Kind::kFileDigest, "a").has_value()) << cut;
    EXPECT_FALSE(state.Find(Kind::kFileDigest, "b").has_value());
    EXPECT_EQ(cut >= first_end ? first_end : StateFileHeader().size(), ReadRealFile(path_).size()) << cut;
    // Appending after the cut gives a file that loads whole.
    Put(&state, Kind::kFileDigest, "c", "3");
    state.Close();
    StateFile again;
    LoadClean(&again);
    EXPECT_EQ("3", *again.Find(Kind::kFileDigest, "c"));
  }
}

TEST_F(StateFileTest, AFlippedByteCutsFromThatRecord) {
  std::string first = EncodeStateRecord(Kind::kFileDigest, "a", "1");
  std::string second = EncodeStateRecord(Kind::kFileDigest, "b", "2");
  std::string third = EncodeStateRecord(Kind::kFileDigest, "c", "3");
  std::string data = StateFileHeader() + first + second + third;
  data[StateFileHeader().size() + first.size() + 10] ^= 0x20;  // in b's key
  WriteRealFile(path_, data);
  StateFile state;
  std::string err;
  ASSERT_TRUE(state.Load(path_, &err));
  EXPECT_EQ("premature end of file; recovering", err);
  EXPECT_TRUE(state.Find(Kind::kFileDigest, "a").has_value());
  EXPECT_FALSE(state.Find(Kind::kFileDigest, "b").has_value());
  EXPECT_FALSE(state.Find(Kind::kFileDigest, "c").has_value());
}

TEST_F(StateFileTest, BadSignatureOrVersionStartsOver) {
  for (const std::string& bad : {std::string("# ronin stat"), StateFileHeader(2), std::string("# ninjadeps\n\4\0\0\0")}) {
    WriteRealFile(path_, bad + EncodeStateRecord(Kind::kFileDigest, "a", "1"));
    StateFile state;
    std::string err;
    ASSERT_TRUE(state.Load(path_, &err));
    EXPECT_EQ("bad signature or version; starting over", err);
    EXPECT_FALSE(state.Find(Kind::kFileDigest, "a").has_value());
    EXPECT_FALSE(RealFileExists(path_));
  }
}

TEST_F(StateFileTest, AnEmptyFileIsAnEmptyState) {
  WriteRealFile(path_, "");
  StateFile state;
  LoadClean(&state);
  Put(&state, Kind::kFileDigest, "a", "1");
  state.Close();
  StateFile again;
  LoadClean(&again);
  EXPECT_EQ("1", *again.Find(Kind::kFileDigest, "a"));
}

TEST_F(StateFileTest, LoadOnFirstUseReadsAtTheFirstQuestion) {
  WriteRealFile(path_, StateFileHeader() + EncodeStateRecord(Kind::kFileDigest, "a", "1"));
  StateFile state;
  state.LoadOnFirstUse(path_);
  WriteRealFile(path_, StateFileHeader() + EncodeStateRecord(Kind::kFileDigest, "a", "2"));
  ASSERT_TRUE(state.Find(Kind::kFileDigest, "a").has_value());
  EXPECT_EQ("2", *state.Find(Kind::kFileDigest, "a"));
  Put(&state, Kind::kFileDigest, "b", "3");
  state.Close();
  StateFile again;
  LoadClean(&again);
  EXPECT_EQ(2u, again.live_count());
}

TEST_F(StateFileTest, UnknownKindsAreSkippedAndDroppedOnRecompaction) {
  WriteRealFile(path_, StateFileHeader() + EncodeStateRecord(static_cast<Kind>(77), "future", "x") +
                           EncodeStateRecord(Kind::kFileDigest, "a", "1"));
  StateFile state;
  LoadClean(&state);
  EXPECT_EQ(2u, state.loaded_record_count());
  EXPECT_EQ(1u, state.live_count());
  std::string err;
  ASSERT_TRUE(state.Recompact(&err)) << err;
  EXPECT_EQ(StateFileHeader() + EncodeStateRecord(Kind::kFileDigest, "a", "1"), ReadRealFile(path_));
}

TEST_F(StateFileTest, DeadRecordsDominatingRecompactAtTheFirstWrite) {
  {
    StateFile state;
    LoadClean(&state);
    for (int round = 0; round < 5; ++round)
      for (int i = 0; i < 300; ++i) Put(&state, Kind::kFileDigest, "f" + std::to_string(i), std::to_string(round));
  }
  StateFile state;
  LoadClean(&state);
  EXPECT_EQ(1500u, state.loaded_record_count());
  Put(&state, Kind::kFileDigest, "new", "x");
  state.Close();
  StateFile again;
  LoadClean(&again);
  EXPECT_EQ(301u, again.loaded_record_count());
  EXPECT_EQ("4", *again.Find(Kind::kFileDigest, "f299"));
  EXPECT_EQ("x", *again.Find(Kind::kFileDigest, "new"));
}

// Append: the file gets the record, memory does not (until a Find loads
// the file, appended records included).
TEST_F(StateFileTest, AppendToAnUnreadFileKeepsNothingInMemory) {
  WriteRealFile(path_, StateFileHeader() + EncodeStateRecord(Kind::kEdgeOutcome, "a", "old"));
  StateFile state;
  state.LoadOnFirstUse(path_);
  Append(&state, "a", "new");
  Append(&state, "b", "1");
  EXPECT_EQ(0u, state.live_count());
  EXPECT_EQ(StateFileHeader() + EncodeStateRecord(Kind::kEdgeOutcome, "a", "old") +
                EncodeStateRecord(Kind::kEdgeOutcome, "a", "new") + EncodeStateRecord(Kind::kEdgeOutcome, "b", "1"),
            ReadRealFile(path_));
  EXPECT_EQ("new", *state.Find(Kind::kEdgeOutcome, "a"));
  EXPECT_EQ(2u, state.live_count());
  // Read now: the same as Put.
  Append(&state, "c", "2");
  EXPECT_EQ("2", *state.Find(Kind::kEdgeOutcome, "c"));
}

TEST_F(StateFileTest, AppendCreatesAMissingFile) {
  StateFile state;
  state.LoadOnFirstUse(path_);
  Append(&state, "a", "1");
  EXPECT_EQ(StateFileHeader() + EncodeStateRecord(Kind::kEdgeOutcome, "a", "1"), ReadRealFile(path_));
}

TEST_F(StateFileTest, AppendRepairsADamagedTailAndABadHeaderFirst) {
  std::string good = StateFileHeader() + EncodeStateRecord(Kind::kEdgeOutcome, "a", "1");
  WriteRealFile(path_, good + EncodeStateRecord(Kind::kEdgeOutcome, "cut", "x").substr(0, 9));
  {
    StateFile state;
    state.LoadOnFirstUse(path_);
    Append(&state, "b", "2");
    EXPECT_EQ(0u, state.live_count());
  }
  EXPECT_EQ(good + EncodeStateRecord(Kind::kEdgeOutcome, "b", "2"), ReadRealFile(path_));
  WriteRealFile(path_, "# not ronin's\n" + good);
  {
    StateFile state;
    state.LoadOnFirstUse(path_);
    Append(&state, "b", "3");
  }
  EXPECT_EQ(StateFileHeader() + EncodeStateRecord(Kind::kEdgeOutcome, "b", "3"), ReadRealFile(path_));
}

TEST_F(StateFileTest, AppendRecompactsWhenDeadRecordsDominateThenForgets) {
  std::string bytes = StateFileHeader();
  for (int round = 0; round < 5; ++round)
    for (int i = 0; i < 300; ++i)
      bytes += EncodeStateRecord(Kind::kEdgeOutcome, "e" + std::to_string(i), std::to_string(round));
  WriteRealFile(path_, bytes);
  StateFile state;
  state.LoadOnFirstUse(path_);
  Append(&state, "new", "x");
  Append(&state, "e0", "y");
  EXPECT_EQ(0u, state.live_count());
  state.Close();
  StateFile again;
  LoadClean(&again);
  EXPECT_EQ(302u, again.loaded_record_count());
  EXPECT_EQ(301u, again.live_count());
  EXPECT_EQ("4", *again.Find(Kind::kEdgeOutcome, "e299"));
  EXPECT_EQ("y", *again.Find(Kind::kEdgeOutcome, "e0"));
  EXPECT_EQ("x", *again.Find(Kind::kEdgeOutcome, "new"));
}

TEST_F(StateFileTest, AppendUnderDisabledWritesStaysInMemory) {
  StateFile state;
  state.LoadOnFirstUse(path_);
  state.DisableWrites();
  Append(&state, "a", "1");
  EXPECT_EQ("1", *state.Find(Kind::kEdgeOutcome, "a"));
  state.Close();
  EXPECT_FALSE(RealFileExists(path_));
}

TEST_F(StateFileTest, DisabledWritesStayInMemory) {
  StateFile state;
  LoadClean(&state);
  state.DisableWrites();
  Put(&state, Kind::kFileDigest, "a", "1");
  EXPECT_EQ("1", *state.Find(Kind::kFileDigest, "a"));
  state.Close();
  EXPECT_FALSE(RealFileExists(path_));
}

TEST_F(StateFileTest, AnOversizedRecordIsRefused) {
  StateFile state;
  LoadClean(&state);
  std::string err;
  EXPECT_FALSE(state.Put(Kind::kFileDigest, "a", std::string(StateFile::kMaxRecordSize, 'x'), &err));
  EXPECT_EQ("record too large", err);
}

}  // namespace
}  // namespace ronin
