// Tests for settling the edges --content-hash skipped (skip_settlement.h):
// which outputs get which mtime, which edges downstream follow, what the
// build log records.
#include "sched/skip_settlement.h"

#include <gtest/gtest.h>

#include <string>

#include "graph/graph.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "log/deps_log.h"
#include "log/state_file.h"
#include "scan/content_hash_store.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::VirtualDisk;

const char kManifest[] =
    "rule cp\n  command = cp $in $out\n"
    "rule rs\n  command = rs $in $out\n  restat = 1\n"
    "build a.o: cp a.c\n"
    "build r.h: rs r.in\n"
    "build objs: phony a.o\n"
    "build app: cp x.c | objs\n"
    "build ordered: cp y.c || a.o\n"
    "build unscanned: cp a.o\n"
    "build future.o: cp future.c\n";

class SkipSettlementTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ParseManifest(&state_, kManifest));
    // Built at 10..20, then a.c and r.in touched at 100 and 90; future.c
    // carries a date from a clock far ahead.
    Date("x.c", 5);
    Date("y.c", 5);
    Date("a.o", 10);
    Date("r.h", 10);
    Date("app", 20);
    Date("ordered", 20);
    Date("unscanned", 20);
    Date("future.o", 10);
    Date("a.c", 100);
    Date("r.in", 90);
    Date("future.c", int64_t{1} << 62);
    for (Edge* edge : state_.edges()) {
      if (Output(edge) != "unscanned") edge->mark = Edge::Visit::kDone;
    }
  }

  void Date(const char* path, TimeStamp mtime) {
    disk_.CreateAt(path, mtime);
    std::string err;
    ASSERT_TRUE(state_.GetNode(path)->Stat(&disk_, &err)) << err;
  }
  static std::string Output(const Edge* edge) { return std::string(edge->outputs[0]->path); }
  Edge* EdgeOf(const char* output) { return state_.LookupNode(output)->in_edge; }
  TimeStamp Logged(const char* output) {
    BuildLog::Entry* entry = log_.Lookup(output);
    return entry ? entry->mtime : -1;
  }

  State state_;
  VirtualDisk disk_;
  BuildLog log_;
  DepsLog deps_log_;
  StateFile state_file_;  // empty: no record to move
  ContentHashStore content_{&state_, &state_file_};
  SkipSettlement settlement_{&log_, &deps_log_, &disk_, &content_, nullptr};
};

TEST_F(SkipSettlementTest, OutputsTakeTheNewestInputsMtimeAndTheLogRecordsIt) {
  settlement_.skips()->push_back(EdgeOf("a.o"));
  settlement_.skips()->push_back(EdgeOf("r.h"));
  std::string err;
  ASSERT_TRUE(settlement_.Settle(7, &err)) << err;
  EXPECT_EQ(100, disk_.MtimeOf("a.o"));
  EXPECT_EQ(100, state_.LookupNode("a.o")->mtime);
  EXPECT_EQ(100, Logged("a.o"));
  EXPECT_EQ(7, log_.Lookup("a.o")->start_time);
  EXPECT_EQ(7, log_.Lookup("a.o")->end_time);
  // A restat edge keeps its output; Ninja compares the log's mtime.
  EXPECT_EQ(10, disk_.MtimeOf("r.h"));
  EXPECT_EQ(100, Logged("r.h"));
}

TEST_F(SkipSettlementTest, CleanEdgesDownstreamFollowThroughPhonyAliases) {
  settlement_.skips()->push_back(EdgeOf("a.o"));
  std::string err;
  ASSERT_TRUE(settlement_.Settle(0, &err)) << err;
  EXPECT_EQ(100, state_.LookupNode("objs")->mtime);
  EXPECT_EQ(100, disk_.MtimeOf("app"));
  EXPECT_EQ(100, Logged("app"));
  // An order-only user compares no mtime; an edge this run did not scan
  // may be dirty for all we know: both are left to the mtime rules.
  EXPECT_EQ(20, disk_.MtimeOf("ordered"));
  EXPECT_EQ(-1, Logged("ordered"));
  EXPECT_EQ(20, disk_.MtimeOf("unscanned"));
  EXPECT_EQ(-1, Logged("unscanned"));
}

TEST_F(SkipSettlementTest, EdgesThatWillRunAreNotSettled) {
  state_.LookupNode("app")->dirty = true;  // in the plan for another reason
  settlement_.skips()->push_back(EdgeOf("a.o"));
  std::string err;
  ASSERT_TRUE(settlement_.Settle(0, &err)) << err;
  EXPECT_EQ(20, disk_.MtimeOf("app"));
  EXPECT_EQ(-1, Logged("app"));
}

TEST_F(SkipSettlementTest, AnInputFromTheFutureLeavesItsEdgeAlone) {
  settlement_.skips()->push_back(EdgeOf("future.o"));
  settlement_.skips()->push_back(EdgeOf("r.h"));
  std::string err;
  ASSERT_TRUE(settlement_.Settle(0, &err)) << err;
  EXPECT_EQ(10, disk_.MtimeOf("future.o"));
  EXPECT_EQ(-1, Logged("future.o"));
  EXPECT_EQ(90, Logged("r.h"));  // the stamp is the others' newest input
}

TEST_F(SkipSettlementTest, AsARecorderItSettlesWhatWasSkippedSinceAtTheCommandsEnd) {
  std::string err;
  FinishedCommand command;
  command.edge = EdgeOf("unscanned");
  command.status = kExitSuccess;
  command.end_millis = 42;
  ASSERT_TRUE(settlement_.Record(command, &err)) << err;  // nothing skipped: nothing written
  EXPECT_EQ(-1, Logged("a.o"));
  settlement_.skips()->push_back(EdgeOf("a.o"));
  ASSERT_TRUE(settlement_.Record(command, &err)) << err;
  EXPECT_EQ(100, disk_.MtimeOf("a.o"));
  EXPECT_EQ(100, Logged("a.o"));
  EXPECT_EQ(42, log_.Lookup("a.o")->start_time);
  EXPECT_EQ(42, log_.Lookup("a.o")->end_time);
}

TEST_F(SkipSettlementTest, AnOutputThatCannotBeDatedIsLeftAsItWas) {
  disk_.Delete("a.o");
  settlement_.skips()->push_back(EdgeOf("a.o"));
  std::string err;
  EXPECT_TRUE(settlement_.Settle(0, &err)) << err;
  EXPECT_EQ(-1, Logged("a.o"));
  EXPECT_EQ(20, disk_.MtimeOf("app"));
}

}  // namespace
}  // namespace ronin
