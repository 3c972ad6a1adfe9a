// Tests for the expected-duration weights of the critical path
// (sched/duration_model.h): floor, median for unknown edges, Ninja's weights
// when nothing is known, and durations read from a real .ninja_log.
#include "sched/duration_model.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <unistd.h>

#include <string>

#include "graph/graph.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "test_support.h"

namespace ronin {
namespace {

class DurationModelTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(test::ParseManifest(&state_,
                                    "rule cat\n  command = cat $in > $out\n"
                                    "build a: cat src\nbuild b: cat src\nbuild c: cat src\n"
                                    "build d: cat src\nbuild p: phony a\n"));
    for (const char* output : {"a", "b", "c", "d", "p"}) edges_.push_back(EdgeFor(output));
  }
  Edge* EdgeFor(const char* output) { return state_.LookupNode(output)->in_edge; }

  State state_;
  std::vector<Edge*> edges_;
};

TEST_F(DurationModelTest, NothingKnownWeighsOneCommandEach) {
  DurationModel model(edges_, nullptr);
  EXPECT_FALSE(model.knows_durations());
  EXPECT_EQ(1, model.Weight(EdgeFor("a")));
  EXPECT_EQ(0, model.Weight(EdgeFor("p")));
  EXPECT_EQ(1, DurationModel().Weight(EdgeFor("b")));
}

TEST_F(DurationModelTest, KnownDurationsWithAFloor) {
  EdgeFor("a")->prev_elapsed_time_millis = 4000;
  EdgeFor("b")->prev_elapsed_time_millis = 5;
  EdgeFor("c")->prev_elapsed_time_millis = 700;
  DurationModel model(edges_, nullptr);
  EXPECT_TRUE(model.knows_durations());
  EXPECT_EQ(4000, model.Weight(EdgeFor("a")));
  EXPECT_EQ(DurationModel::kFloorMillis, model.Weight(EdgeFor("b")));
  EXPECT_EQ(700, model.Weight(EdgeFor("d")));  // unknown: the median of 4000, 200, 700
  EXPECT_EQ(0, model.Weight(EdgeFor("p")));
}

TEST_F(DurationModelTest, ReadsTheBuildLog) {
  test::ScopedTempDir dir;
  std::string path = dir.File(".ninja_log");
  FILE* file = fopen(path.c_str(), "w");
  ASSERT_TRUE(file);
  // Version 7 lines: start, end, mtime, output, hash. A negative duration
  // (a damaged line) is no history.
  fputs("# ninja log v7\n100\t2600\t0\ta\t1\n10\t5\t0\tb\t2\n", file);
  fclose(file);
  BuildLog log;
  std::string err;
  ASSERT_EQ(BuildLog::LoadStatus::kSuccess, log.Load(path, &err)) << err;
  EXPECT_EQ(2500, LastDurationMillis(EdgeFor("a"), &log));
  EXPECT_EQ(-1, LastDurationMillis(EdgeFor("b"), &log));
  EXPECT_EQ(-1, LastDurationMillis(EdgeFor("c"), &log));
  EXPECT_EQ(-1, LastDurationMillis(EdgeFor("c"), nullptr));
  DurationModel model(edges_, &log);
  EXPECT_EQ(2500, model.Weight(EdgeFor("a")));
  EXPECT_EQ(2500, model.Weight(EdgeFor("b")));
}

}  // namespace
}  // namespace ronin
