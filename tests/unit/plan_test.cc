// Tests for the build plan (sched/plan.h): readiness, critical-path order, pools,
// failure, restat pruning (CleanNode) and very long chains.
#include "sched/plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graph/state.h"
#include "scan/explain.h"
#include "scan/scan.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::VirtualDisk;

class RecordingDelegate : public PlanDelegate {
 public:
  void OnEdgeAddedToPlan(const Edge* edge) override { added.push_back(edge); }
  void OnEdgeRemovedFromPlan(const Edge* edge) override { removed.push_back(edge); }
  bool LoadDyndeps(Node*, std::string* err) override {
    *err = "unexpected dyndep load";
    return false;
  }
  std::vector<const Edge*> added, removed;
};

class PlanTest : public testing::Test {
 protected:
  PlanTest() : scan_(&state_, nullptr, nullptr, &disk_, &explanations_), plan_(&delegate_) {}

  void Parse(const std::string& manifest) {
    ASSERT_TRUE(ParseManifest(&state_,
                              "rule cat\n"
                              "  command = cat $in > $out\n"
                              "rule restat\n"
                              "  command = r $in > $out\n"
                              "  restat = 1\n" +
                                  manifest));
  }
  Node* GetNode(const std::string& path) { return state_.GetNode(path); }
  Edge* EdgeFor(const std::string& output) { return GetNode(output)->in_edge; }

  // What Builder::AddTarget does: scan, then plan what is not ready.
  bool AddTarget(const std::string& path, std::string* err) {
    std::vector<Node*> validations;
    Node* node = GetNode(path);
    if (!scan_.RecomputeDirty(node, &validations, err)) return false;
    if (node->in_edge && node->in_edge->outputs_ready) return false;
    return plan_.AddTarget(node, err);
  }
  void Add(const std::string& path) {
    std::string err;
    EXPECT_TRUE(AddTarget(path, &err)) << err;
    EXPECT_EQ("", err);
  }

  // First output of the next ready edge, or "" if none.
  std::string Next() {
    Edge* edge = plan_.FindWork();
    return edge ? std::string(edge->outputs[0]->path) : std::string();
  }
  void Finish(const std::string& output, Plan::EdgeResult result = Plan::EdgeResult::kSucceeded) {
    std::string err;
    EXPECT_TRUE(plan_.EdgeFinished(EdgeFor(output), result, &err)) << err;
    EXPECT_EQ("", err);
  }
  // Runs the plan to completion, finishing edges as they come; returns the
  // order in which they were started.
  std::vector<std::string> Drain() {
    std::vector<std::string> order;
    while (Edge* edge = plan_.FindWork()) {
      order.emplace_back(edge->outputs[0]->path);
      std::string err;
      EXPECT_TRUE(plan_.EdgeFinished(edge, Plan::EdgeResult::kSucceeded, &err)) << err;
    }
    return order;
  }

  State state_;
  VirtualDisk disk_;
  Explanations explanations_{false};
  DependencyScan scan_;
  RecordingDelegate delegate_;
  Plan plan_;
};

TEST_F(PlanTest, ChainRunsInOrder) {
  Parse("build mid: cat src\nbuild out: cat mid\n");
  disk_.CreateAt("src", 1);
  Add("out");
  EXPECT_EQ(2, plan_.command_edge_count());
  EXPECT_TRUE(plan_.more_to_do());
  plan_.PrepareQueue();
  EXPECT_EQ("mid", Next());
  EXPECT_EQ("", Next());  // out waits for mid
  Finish("mid");
  EXPECT_EQ("out", Next());
  EXPECT_TRUE(plan_.more_to_do());
  Finish("out");
  EXPECT_FALSE(plan_.more_to_do());
  EXPECT_EQ("", Next());
  EXPECT_TRUE(EdgeFor("out")->outputs_ready);
}

TEST_F(PlanTest, EdgeWaitsForAllInputs) {
  Parse("build a: cat src\nbuild b: cat src\nbuild out: cat a b\n");
  disk_.CreateAt("src", 1);
  Add("out");
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  EXPECT_EQ("b", Next());
  EXPECT_EQ("", Next());
  Finish("b");
  EXPECT_EQ("", Next());
  Finish("a");
  EXPECT_EQ("out", Next());
}

TEST_F(PlanTest, OrderOnlyInputsAreWaitedFor) {
  Parse("build gen: cat gsrc\nbuild out: cat in || gen\n");
  disk_.CreateAt("gsrc", 1);
  disk_.CreateAt("in", 1);
  Add("out");
  plan_.PrepareQueue();
  EXPECT_EQ("gen", Next());
  EXPECT_EQ("", Next());
  Finish("gen");
  EXPECT_EQ("out", Next());
}

TEST_F(PlanTest, NothingToDo) {
  Parse("build out: cat in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  std::string err;
  EXPECT_FALSE(AddTarget("out", &err));
  EXPECT_EQ("", err);
  EXPECT_FALSE(plan_.AddTarget(GetNode("out"), &err));
  EXPECT_EQ("", err);
  EXPECT_FALSE(plan_.more_to_do());
  EXPECT_EQ(0, plan_.command_edge_count());
}

TEST_F(PlanTest, MissingSourceIsAnError) {
  Parse("build out: cat in\nbuild top: cat out\n");
  std::string err;
  EXPECT_FALSE(AddTarget("top", &err));
  EXPECT_EQ("'in', needed by 'out', missing and no known rule to make it", err);
}

TEST_F(PlanTest, MissingSourceAsTheTarget) {
  // `ninja in` for a source that does not exist.
  Parse("build out: cat in\n");
  std::string err;
  EXPECT_FALSE(AddTarget("in", &err));
  EXPECT_EQ("'in' missing and no known rule to make it", err);
}

TEST_F(PlanTest, MissingDepLoaderNodeIsNotAnError) {
  Parse("build out: cat in\n  depfile = out.d\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  disk_.CreateAt("out.d", 2, "out: in deleted.h\n");
  Add("out");
  plan_.PrepareQueue();
  EXPECT_EQ("out", Next());
}

TEST_F(PlanTest, PhonyEdgesAreScheduledButNotCounted) {
  Parse("build a: cat src\nbuild all: phony a\n");
  disk_.CreateAt("src", 1);
  Add("all");
  EXPECT_EQ(1, plan_.command_edge_count());
  ASSERT_EQ(1u, delegate_.added.size());
  EXPECT_EQ(EdgeFor("a"), delegate_.added[0]);
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  Finish("a");
  EXPECT_EQ("all", Next());
  Finish("all");
  EXPECT_FALSE(plan_.more_to_do());
}

TEST_F(PlanTest, AddingATargetTwiceCountsOnce) {
  Parse("build a: cat src\nbuild b: cat a\n");
  disk_.CreateAt("src", 1);
  Add("b");
  std::string err;
  EXPECT_TRUE(plan_.AddTarget(GetNode("a"), &err));
  EXPECT_EQ(2, plan_.command_edge_count());
  EXPECT_EQ(2u, delegate_.added.size());
  plan_.PrepareQueue();
  EXPECT_EQ((std::vector<std::string>{"a", "b"}), Drain());
}

TEST_F(PlanTest, CleanEdgesFinishWhenTheirInputsDo) {
  // out and final are up to date but must wait for the order-only gen; once
  // gen is done they finish without running.
  Parse("build gen: cat gsrc\nbuild out: cat in || gen\nbuild final: cat out\n");
  disk_.CreateAt("gsrc", 1);
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  disk_.CreateAt("final", 3);
  Add("final");
  EXPECT_EQ(1, plan_.command_edge_count());
  EXPECT_EQ(Edge::Want::kNothing, EdgeFor("out")->want);
  EXPECT_EQ(Edge::Want::kNothing, EdgeFor("final")->want);
  plan_.PrepareQueue();
  EXPECT_EQ("gen", Next());
  Finish("gen");
  EXPECT_EQ("", Next());
  EXPECT_FALSE(plan_.more_to_do());
  EXPECT_TRUE(EdgeFor("final")->outputs_ready);
  EXPECT_TRUE(EdgeFor("out")->outputs_ready);
}

TEST_F(PlanTest, FailureBlocksDependents) {
  Parse("build a: cat src\nbuild b: cat a\nbuild c: cat src\n");
  disk_.CreateAt("src", 1);
  Add("b");
  Add("c");
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  Finish("a", Plan::EdgeResult::kFailed);
  EXPECT_EQ("c", Next());
  Finish("c");
  EXPECT_EQ("", Next());
  EXPECT_TRUE(plan_.more_to_do());  // b can never run
  EXPECT_FALSE(EdgeFor("a")->outputs_ready);
}

TEST_F(PlanTest, ResetForgetsTheWholePlan) {
  Parse("build a: cat src\n");
  disk_.CreateAt("src", 1);
  Add("a");
  plan_.Reset();
  EXPECT_EQ(Edge::Want::kNotInPlan, EdgeFor("a")->want);
  EXPECT_FALSE(plan_.more_to_do());
  EXPECT_EQ(0, plan_.command_edge_count());
  EXPECT_EQ(nullptr, plan_.FindWork());
}

// -------------------------------------------------------- critical path

TEST_F(PlanTest, LongestChainStartsFirst) {
  // b1 comes first in the manifest, but a1 heads a chain of three commands.
  Parse(
      "build b1: cat src\n"
      "build a1: cat src\n"
      "build a2: cat a1\n"
      "build a3: cat a2\n"
      "build all: phony b1 a3\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ(3, EdgeFor("a1")->critical_path_weight);
  EXPECT_EQ(2, EdgeFor("a2")->critical_path_weight);
  EXPECT_EQ(1, EdgeFor("a3")->critical_path_weight);
  EXPECT_EQ(1, EdgeFor("b1")->critical_path_weight);
  EXPECT_EQ(0, EdgeFor("all")->critical_path_weight);  // phony weighs nothing
  EXPECT_EQ("a1", Next());
  EXPECT_EQ("b1", Next());
}

TEST_F(PlanTest, TiesGoInManifestOrder) {
  Parse("build c: cat src\nbuild a: cat src\nbuild b: cat src\nbuild all: phony a b c\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ((std::vector<std::string>{"c", "a", "b", "all"}), Drain());
}

TEST_F(PlanTest, WeightFollowsTheLongestPathToAnyTarget) {
  // x feeds both a short and a long consumer: its weight is the longer one.
  Parse(
      "build x: cat src\n"
      "build short: cat x\n"
      "build l1: cat x\n"
      "build l2: cat l1\n"
      "build l3: cat l2\n"
      "build y: cat src\n"
      "build all: phony short l3 y\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ(4, EdgeFor("x")->critical_path_weight);
  EXPECT_EQ(1, EdgeFor("short")->critical_path_weight);
  EXPECT_EQ(1, EdgeFor("y")->critical_path_weight);
  EXPECT_EQ((std::vector<std::string>{"x", "l1", "l2", "short", "l3", "y", "all"}), Drain());
}

TEST_F(PlanTest, CriticalPathWalksOnlyThePlan) {
  // Only `obj` and `app` are out of date: the clean chain beside them is
  // not walked (its weights are never set), and app's weight still counts
  // the whole chain from obj to the target.
  Parse(
      "build clean1: cat src\n"
      "build clean2: cat clean1\n"
      "build obj: cat edited\n"
      "build app: cat obj clean2\n"
      "build all: phony app clean2\n");
  disk_.CreateAt("src", 1);
  disk_.CreateAt("clean1", 2);
  disk_.CreateAt("clean2", 3);
  disk_.CreateAt("obj", 4);
  disk_.CreateAt("app", 5);
  disk_.CreateAt("edited", 6);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ(2, EdgeFor("obj")->critical_path_weight);
  EXPECT_EQ(1, EdgeFor("app")->critical_path_weight);
  EXPECT_EQ(-1, EdgeFor("clean1")->critical_path_weight);
  EXPECT_EQ(-1, EdgeFor("clean2")->critical_path_weight);
  EXPECT_EQ((std::vector<std::string>{"obj", "app", "all"}), Drain());
}

TEST_F(PlanTest, LongestTimedChainStartsFirst) {
  // a1-a2-a3 has more commands, but b1 alone takes longer.
  Parse(
      "build a1: cat src\n"
      "build a2: cat a1\n"
      "build a3: cat a2\n"
      "build b1: cat src\n"
      "build all: phony a3 b1\n");
  disk_.CreateAt("src", 1);
  Add("all");
  for (const char* fast : {"a1", "a2", "a3"}) EdgeFor(fast)->prev_elapsed_time_millis = 300;
  EdgeFor("b1")->prev_elapsed_time_millis = 5000;
  plan_.PrepareQueue(DurationModel(plan_.edges(), nullptr));
  EXPECT_EQ(900, EdgeFor("a1")->critical_path_weight);
  EXPECT_EQ(5000, EdgeFor("b1")->critical_path_weight);
  EXPECT_EQ(0, EdgeFor("all")->critical_path_weight);
  EXPECT_EQ("b1", Next());
  EXPECT_EQ("a1", Next());
}

TEST_F(PlanTest, FastCommandsKeepNinjasOrder) {
  // Below the floor, measured times are noise: the chain of three goes first.
  Parse("build b1: cat src\nbuild a1: cat src\nbuild a2: cat a1\nbuild all: phony b1 a2\n");
  disk_.CreateAt("src", 1);
  Add("all");
  EdgeFor("b1")->prev_elapsed_time_millis = DurationModel::kFloorMillis - 1;
  EdgeFor("a1")->prev_elapsed_time_millis = 0;
  EdgeFor("a2")->prev_elapsed_time_millis = 3;
  plan_.PrepareQueue(DurationModel(plan_.edges(), nullptr));
  EXPECT_EQ((std::vector<std::string>{"a1", "b1", "a2", "all"}), Drain());
}

TEST_F(PlanTest, UnknownDurationsWeighTheMedian) {
  // c1 and c2 have no history: each weighs the median (1000), so their
  // chain (2000) outweighs b1 (1500).
  Parse(
      "build b1: cat src\nbuild c1: cat src\nbuild c2: cat c1\n"
      "build k1: cat src\nbuild k2: cat src\nbuild all: phony b1 c2 k1 k2\n");
  disk_.CreateAt("src", 1);
  Add("all");
  EdgeFor("b1")->prev_elapsed_time_millis = 1500;
  EdgeFor("k1")->prev_elapsed_time_millis = 1000;
  EdgeFor("k2")->prev_elapsed_time_millis = 200;
  plan_.PrepareQueue(DurationModel(plan_.edges(), nullptr));
  EXPECT_EQ(2000, EdgeFor("c1")->critical_path_weight);
  EXPECT_EQ("c1", Next());
  EXPECT_EQ("b1", Next());
}

TEST_F(PlanTest, HugeDurationsSaturate) {
  Parse("build a1: cat src\nbuild a2: cat a1\nbuild a3: cat a2\n");
  disk_.CreateAt("src", 1);
  Add("a3");
  for (const char* edge : {"a1", "a2", "a3"}) EdgeFor(edge)->prev_elapsed_time_millis = INT32_MAX - 5;
  plan_.PrepareQueue(DurationModel(plan_.edges(), nullptr));
  EXPECT_EQ(INT32_MAX, EdgeFor("a1")->critical_path_weight);
  EXPECT_EQ(INT32_MAX - 5, EdgeFor("a3")->critical_path_weight);
}

TEST(EdgePriorityTest, WeightThenId) {
  Edge a, b;
  a.critical_path_weight = 2;
  b.critical_path_weight = 5;
  a.id = 0;
  b.id = 1;
  EXPECT_TRUE(EdgePriorityLess(&a, &b));  // b runs first
  EXPECT_FALSE(EdgePriorityLess(&b, &a));
  b.critical_path_weight = 2;
  EXPECT_TRUE(EdgePriorityLess(&b, &a));  // same weight: lower id first
  EXPECT_FALSE(EdgePriorityLess(&a, &b));
  EXPECT_TRUE(Pool::PriorityOrder()(&a, &b));
}

// ------------------------------------------------------------------ pools

TEST_F(PlanTest, PoolDepthLimitsConcurrency) {
  Parse(
      "pool two\n"
      "  depth = 2\n"
      "build a: cat src\n  pool = two\n"
      "build b: cat src\n  pool = two\n"
      "build c: cat src\n  pool = two\n"
      "build d: cat src\n  pool = two\n"
      "build free: cat src\n"
      "build all: phony a b c d free\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  EXPECT_EQ("b", Next());
  EXPECT_EQ("free", Next());
  EXPECT_EQ("", Next());
  EXPECT_EQ(2, state_.LookupPool("two")->current_use);
  Finish("b");
  EXPECT_EQ("c", Next());
  EXPECT_EQ("", Next());
  Finish("free");
  EXPECT_EQ("", Next());
  Finish("a");
  EXPECT_EQ("d", Next());
  Finish("c");
  Finish("d");
  EXPECT_EQ(0, state_.LookupPool("two")->current_use);
  EXPECT_EQ("all", Next());
}

TEST_F(PlanTest, DelayedEdgesAreReleasedByPriority) {
  Parse(
      "pool one\n"
      "  depth = 1\n"
      "build p1: cat src\n  pool = one\n"
      "build p2: cat src\n  pool = one\n"
      "build p3: cat src\n  pool = one\n"
      "build after3: cat p3\n"
      "build all: phony p1 p2 after3\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ("p3", Next());  // longest chain
  EXPECT_EQ("", Next());
  Finish("p3");
  EXPECT_EQ("p1", Next());
  EXPECT_EQ("after3", Next());
  EXPECT_EQ("", Next());
  Finish("p1");
  EXPECT_EQ("p2", Next());
}

TEST_F(PlanTest, FailedEdgeReleasesItsPoolSlot) {
  Parse(
      "pool one\n"
      "  depth = 1\n"
      "build a: cat src\n  pool = one\n"
      "build b: cat src\n  pool = one\n"
      "build all: phony a b\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  EXPECT_EQ("", Next());
  Finish("a", Plan::EdgeResult::kFailed);
  EXPECT_EQ("b", Next());
}

TEST_F(PlanTest, ConsolePoolRunsOneAtATime) {
  Parse(
      "build a: cat src\n  pool = console\n"
      "build b: cat src\n  pool = console\n"
      "build all: phony a b\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  EXPECT_EQ("", Next());
  Finish("a");
  EXPECT_EQ("b", Next());
}

TEST_F(PlanTest, ZeroDepthPoolIsUnlimited) {
  Parse(
      "pool any\n"
      "  depth = 0\n"
      "build a: cat src\n  pool = any\n"
      "build b: cat src\n  pool = any\n"
      "build all: phony a b\n");
  disk_.CreateAt("src", 1);
  Add("all");
  plan_.PrepareQueue();
  EXPECT_EQ("a", Next());
  EXPECT_EQ("b", Next());
  EXPECT_EQ(0, state_.LookupPool("any")->current_use);
}

// ---------------------------------------------------------------- restat

TEST_F(PlanTest, CleanNodeDropsDependentsThatBecameClean) {
  Parse("build mid: restat in\nbuild out: cat mid\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("mid", 3);
  disk_.CreateAt("out", 4);
  Add("out");
  EXPECT_EQ(2, plan_.command_edge_count());
  plan_.PrepareQueue();
  EXPECT_EQ("mid", Next());
  // The restat command left mid untouched.
  std::string err;
  EXPECT_TRUE(plan_.CleanNode(&scan_, GetNode("mid"), &err)) << err;
  EXPECT_FALSE(GetNode("mid")->dirty);
  EXPECT_FALSE(GetNode("out")->dirty);
  EXPECT_EQ(1, plan_.command_edge_count());
  ASSERT_EQ(1u, delegate_.removed.size());
  EXPECT_EQ(EdgeFor("out"), delegate_.removed[0]);
  Finish("mid");
  EXPECT_EQ("", Next());
  EXPECT_FALSE(plan_.more_to_do());
}

TEST_F(PlanTest, CleanNodeKeepsDependentsWithOtherDirtyInputs) {
  Parse("build mid: restat in\nbuild other: cat in\nbuild out: cat mid other\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("mid", 3);
  disk_.CreateAt("other", 3);
  disk_.CreateAt("out", 4);
  Add("out");
  plan_.PrepareQueue();
  EXPECT_EQ("mid", Next());
  std::string err;
  EXPECT_TRUE(plan_.CleanNode(&scan_, GetNode("mid"), &err)) << err;
  EXPECT_EQ(3, plan_.command_edge_count());
  EXPECT_TRUE(delegate_.removed.empty());
  EXPECT_TRUE(GetNode("out")->dirty);
}

TEST_F(PlanTest, CleanNodeKeepsDependentsOlderThanTheirInputs) {
  Parse("build mid: restat in\nbuild out: cat mid\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("mid", 3);
  disk_.CreateAt("out", 2);  // out is older than mid anyway
  Add("out");
  plan_.PrepareQueue();
  EXPECT_EQ("mid", Next());
  std::string err;
  EXPECT_TRUE(plan_.CleanNode(&scan_, GetNode("mid"), &err)) << err;
  EXPECT_EQ(2, plan_.command_edge_count());
  Finish("mid");
  EXPECT_EQ("out", Next());
}

TEST_F(PlanTest, CleanNodeCascades) {
  Parse("build mid: restat in\nbuild out1: cat mid\nbuild out2: cat out1\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("mid", 3);
  disk_.CreateAt("out1", 4);
  disk_.CreateAt("out2", 4);
  Add("out2");
  EXPECT_EQ(3, plan_.command_edge_count());
  plan_.PrepareQueue();
  EXPECT_EQ("mid", Next());
  std::string err;
  EXPECT_TRUE(plan_.CleanNode(&scan_, GetNode("mid"), &err)) << err;
  EXPECT_EQ(1, plan_.command_edge_count());
  EXPECT_EQ(2u, delegate_.removed.size());
  Finish("mid");
  EXPECT_FALSE(plan_.more_to_do());
}

TEST_F(PlanTest, CleanNodeSkipsEdgesWithMissingDeps) {
  Parse("build mid: restat in\nbuild out: cat mid\n  depfile = out.d\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("mid", 3);
  disk_.CreateAt("out", 4);  // no out.d: deps missing
  Add("out");
  plan_.PrepareQueue();
  EXPECT_EQ("mid", Next());
  std::string err;
  EXPECT_TRUE(plan_.CleanNode(&scan_, GetNode("mid"), &err)) << err;
  EXPECT_EQ(2, plan_.command_edge_count());
  Finish("mid");
  EXPECT_EQ("out", Next());
}

// ----------------------------------------------------------- long chains

TEST_F(PlanTest, HundredThousandEdgeChainRunsIteratively) {
  const int kDepth = 100000;
  Parse(test::ChainManifest(kDepth));
  disk_.CreateAt("n0", 1);
  Add("n" + std::to_string(kDepth));
  EXPECT_EQ(kDepth, plan_.command_edge_count());
  plan_.PrepareQueue();
  EXPECT_EQ(kDepth, EdgeFor("n1")->critical_path_weight);
  int started = 0;
  std::string err;
  while (Edge* edge = plan_.FindWork()) {
    ++started;
    ASSERT_TRUE(plan_.EdgeFinished(edge, Plan::EdgeResult::kSucceeded, &err)) << err;
  }
  EXPECT_EQ(kDepth, started);
  EXPECT_FALSE(plan_.more_to_do());
}

TEST_F(PlanTest, HundredThousandCleanEdgesFinishIteratively) {
  const int kDepth = 100000;
  Parse("build gen: cat gsrc\nbuild n1: cat n0 || gen\n" + test::ChainManifest(kDepth, 2));
  disk_.CreateAt("gsrc", 1);
  for (int i = 0; i <= kDepth; ++i) disk_.CreateAt("n" + std::to_string(i), 2);
  Add("n" + std::to_string(kDepth));
  EXPECT_EQ(1, plan_.command_edge_count());
  plan_.PrepareQueue();
  EXPECT_EQ("gen", Next());
  Finish("gen");
  EXPECT_FALSE(plan_.more_to_do());
  EXPECT_TRUE(EdgeFor("n" + std::to_string(kDepth))->outputs_ready);
}

TEST_F(PlanTest, HundredThousandEdgeRestatCascade) {
  const int kDepth = 100000;
  Parse("build n1: restat n0\n" + test::ChainManifest(kDepth, 2));
  disk_.CreateAt("n0", 9);
  disk_.CreateAt("n1", 3);
  for (int i = 2; i <= kDepth; ++i) disk_.CreateAt("n" + std::to_string(i), 4);
  Add("n" + std::to_string(kDepth));
  EXPECT_EQ(kDepth, plan_.command_edge_count());
  plan_.PrepareQueue();
  EXPECT_EQ("n1", Next());
  std::string err;
  ASSERT_TRUE(plan_.CleanNode(&scan_, GetNode("n1"), &err)) << err;
  EXPECT_EQ(1, plan_.command_edge_count());
  Finish("n1");
  EXPECT_FALSE(plan_.more_to_do());
}

}  // namespace
}  // namespace ronin
