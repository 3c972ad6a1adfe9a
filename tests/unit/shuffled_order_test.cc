// Tests for --shuffle's stage of the work chain (sched/shuffled_order.h):
// the order comes from the seed, the plan's rules still hold, work put
// back goes first, and nothing is taken while no local job may start.
#include "sched/shuffled_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "graph/state.h"
#include "scan/explain.h"
#include "scan/scan.h"
#include "sched/plan.h"
#include "test_support.h"

namespace ronin {
namespace {

// Sixteen independent edges, `last` after a and b, `all` after everything.
const char kManifest[] =
    "rule cat\n"
    "  command = cat $in > $out\n"
    "build a: cat src\nbuild b: cat src\nbuild c: cat src\nbuild d: cat src\n"
    "build e: cat src\nbuild f: cat src\nbuild g: cat src\nbuild h: cat src\n"
    "build i: cat src\nbuild j: cat src\nbuild k: cat src\nbuild l: cat src\n"
    "build m: cat src\nbuild n: cat src\nbuild o: cat src\nbuild p: cat src\n"
    "build last: cat a b\n"
    "build all: phony a b c d e f g h i j k l m n o p last\n";

// The order in which a plan for `all` gives out its edges through a
// ShuffledOrder with `seed`, finishing each as it comes (as at -j1).
std::vector<std::string> StartOrder(uint32_t seed) {
  State state;
  EXPECT_TRUE(test::ParseManifest(&state, kManifest));
  test::VirtualDisk disk;
  disk.CreateAt("src", 1);
  Explanations explanations;
  DependencyScan scan(&state, nullptr, nullptr, &disk, &explanations);
  Plan plan;
  std::vector<Node*> validations;
  std::string err;
  Node* all = state.LookupNode("all");
  EXPECT_TRUE(scan.RecomputeDirty(all, &validations, &err)) << err;
  EXPECT_TRUE(plan.AddTarget(all, &err)) << err;
  plan.PrepareQueue();
  ShuffledOrder shuffled(seed);
  shuffled.set_upstream(&plan);
  std::vector<std::string> order;
  for (Work work = shuffled.Next(true); work.edge; work = shuffled.Next(true)) {
    order.emplace_back(work.edge->outputs[0]->path);
    EXPECT_TRUE(plan.EdgeFinished(work.edge, Plan::EdgeResult::kSucceeded, &err)) << err;
  }
  return order;
}

TEST(ShuffledOrderTest, TheSeedDrawsTheOrder) {
  std::vector<std::string> first = StartOrder(1);
  ASSERT_EQ(18u, first.size());
  EXPECT_EQ(first, StartOrder(1));  // the same seed, the same order
  std::vector<std::string> other = StartOrder(2);
  EXPECT_NE(first, other);
  // Whatever the order, the graph's rules hold: last after a and b.
  for (const std::vector<std::string>& order : {first, other}) {
    auto at = [&](const std::string& name) {
      return std::find(order.begin(), order.end(), name) - order.begin();
    };
    EXPECT_GT(at("last"), at("a"));
    EXPECT_GT(at("last"), at("b"));
    EXPECT_EQ("all", order.back());
  }
  // Not the manifest's order (a..p), which the critical path gives.
  EXPECT_NE((std::vector<std::string>{"a", "b", "c"}),
            std::vector<std::string>(first.begin(), first.begin() + 3));
}

TEST(ShuffledOrderTest, SeedsSpreadTheFirstEdge) {
  // Over 32 seeds the first edge is not always the same: the draw is not
  // the plan's order in disguise.
  std::vector<std::string> firsts;
  for (uint32_t seed = 0; seed < 32; ++seed) firsts.push_back(StartOrder(seed).front());
  std::sort(firsts.begin(), firsts.end());
  firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
  EXPECT_GE(firsts.size(), 8u);
}

// Stands for the plan: hands out its edges in order while local work may start.
class ReadyEdges : public WorkSource {
 public:
  Work Next(bool local_room) override {
    ++asked;
    if (!local_room || next == edges.size()) return Work();
    return Work{edges[next++]};
  }
  void PutBack(const Work&) override { ADD_FAILURE() << "the shuffled stage keeps what is put back"; }
  std::vector<Edge*> edges;
  size_t next = 0;
  int asked = 0;
};

class ShuffledStageTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(test::ParseManifest(&state_, "rule r\n  command = r\nbuild a: r\nbuild b: r\nbuild c: r\n"));
    for (const char* name : {"a", "b", "c"}) ready_.edges.push_back(state_.LookupNode(name)->in_edge);
    shuffled_.set_upstream(&ready_);
  }
  State state_;
  ReadyEdges ready_;
  ShuffledOrder shuffled_{7};
};

TEST_F(ShuffledStageTest, NothingIsTakenWithoutLocalRoom) {
  EXPECT_EQ(nullptr, shuffled_.Next(false).edge);
  EXPECT_EQ(0, ready_.asked);
}

TEST_F(ShuffledStageTest, WorkPutBackGoesFirst) {
  Work first = shuffled_.Next(true);
  ASSERT_NE(nullptr, first.edge);
  Work second = shuffled_.Next(true);
  ASSERT_NE(nullptr, second.edge);
  shuffled_.PutBack(second);
  shuffled_.PutBack(first);
  EXPECT_EQ(first.edge, shuffled_.Next(true).edge);
  EXPECT_EQ(second.edge, shuffled_.Next(true).edge);
  Work third = shuffled_.Next(true);
  ASSERT_NE(nullptr, third.edge);
  EXPECT_NE(first.edge, third.edge);
  EXPECT_NE(second.edge, third.edge);
  EXPECT_EQ(nullptr, shuffled_.Next(true).edge);
}

}  // namespace
}  // namespace ronin
