// Tests for ForgetStaleVerdicts (scan/stale_verdicts.h): which verdicts a
// --watch round forgets, and that scanning again after it decides exactly
// what a scan from scratch decides.
#include "scan/stale_verdicts.h"

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

class StaleVerdictsTest : public testing::Test {
 protected:
  StaleVerdictsTest() : scan_(&state_, nullptr, nullptr, &disk_, &explanations_) {}

  void SetUp() override {
    // a.o reads h.h through its depfile only; `check` validates `all`.
    ASSERT_TRUE(ParseManifest(&state_,
                              "rule cat\n"
                              "  command = cat $in > $out\n"
                              "rule catdep\n"
                              "  command = cat $in > $out\n"
                              "  depfile = $out.d\n"
                              "build a.o: catdep a.c\n"
                              "build b.o: catdep b.c\n"
                              "build lib: cat a.o b.o\n"
                              "build other.o: cat other.c\n"
                              "build check: cat check.in\n"
                              "build all: phony lib other.o |@ check\n"));
    for (const char* source : {"a.c", "b.c", "h.h", "other.c", "check.in"}) disk_.CreateAt(source, 1);
    disk_.CreateAt("a.o.d", 2, "a.o: a.c h.h\n");
    disk_.CreateAt("b.o.d", 2, "b.o: b.c\n");
    for (const char* output : {"a.o", "b.o", "other.o", "check"}) disk_.CreateAt(output, 2);
    disk_.CreateAt("lib", 3);
    ScanAll();
  }

  void ScanAll() {
    std::string err;
    std::vector<Node*> validations;
    EXPECT_TRUE(scan_.RecomputeDirty(state_.GetNode("all"), &validations, &err)) << err;
  }
  // A file changed on disk, and stat'ed again as a round does.
  Node* Change(const std::string& path, TimeStamp mtime) {
    disk_.CreateAt(path, mtime);
    Node* node = state_.GetNode(path);
    std::string err;
    EXPECT_TRUE(node->Stat(&disk_, &err)) << err;
    return node;
  }
  // The edges (by first output) the next scan visits again.
  std::string Forgotten() {
    std::string names;
    for (Edge* edge : state_.edges()) {
      if (edge->mark == Edge::Visit::kDone) continue;
      if (!names.empty()) names += " ";
      names += std::string(edge->outputs[0]->path);
    }
    return names;
  }
  // Every node's dirty flag, by path.
  std::string Verdicts() {
    std::string verdicts;
    for (const Node& node : state_.nodes()) verdicts += std::string(node.path) + (node.dirty ? "=dirty " : " ");
    return verdicts;
  }
  // Scans the forgotten part again; the verdicts must be those of a scan
  // from scratch.
  void ExpectSameVerdictsAsFromScratch() {
    ScanAll();
    std::string incremental = Verdicts();
    state_.ForgetVerdicts();
    ScanAll();
    EXPECT_EQ(Verdicts(), incremental);
  }
  Edge* EdgeOf(const std::string& output) { return state_.GetNode(output)->in_edge; }

  State state_;
  VirtualDisk disk_;
  Explanations explanations_{false};
  DependencyScan scan_;
};

TEST_F(StaleVerdictsTest, NothingChangedForgetsNothing) {
  ForgetStaleVerdicts(state_, {}, {});
  EXPECT_EQ("", Forgotten());
}

TEST_F(StaleVerdictsTest, ASourceForgetsWhatItReaches) {
  ForgetStaleVerdicts(state_, {Change("b.c", 5)}, {});
  EXPECT_EQ("b.o lib all", Forgotten());
  ExpectSameVerdictsAsFromScratch();
  EXPECT_TRUE(state_.GetNode("lib")->dirty);
  EXPECT_FALSE(state_.GetNode("a.o")->dirty);
}

TEST_F(StaleVerdictsTest, AHeaderKnownFromADepfileForgetsItsUsers) {
  // h.h does not list a.o among its out_edges: a.o's discovered deps do.
  ASSERT_TRUE(state_.GetNode("h.h")->out_edges.empty());
  ForgetStaleVerdicts(state_, {Change("h.h", 5)}, {});
  EXPECT_EQ("a.o lib all", Forgotten());
  ExpectSameVerdictsAsFromScratch();
  EXPECT_TRUE(state_.GetNode("a.o")->dirty);
}

TEST_F(StaleVerdictsTest, AValidationForgetsWhatItValidates) {
  ForgetStaleVerdicts(state_, {Change("check.in", 5)}, {});
  EXPECT_EQ("check all", Forgotten());
  ExpectSameVerdictsAsFromScratch();
}

TEST_F(StaleVerdictsTest, AnOutputChangedOnDiskForgetsItsEdge) {
  disk_.Delete("other.o");
  Node* other = state_.GetNode("other.o");
  std::string err;
  ASSERT_TRUE(other->Stat(&disk_, &err)) << err;
  ForgetStaleVerdicts(state_, {other}, {});
  EXPECT_EQ("other.o all", Forgotten());
  ExpectSameVerdictsAsFromScratch();
  EXPECT_TRUE(other->dirty);
}

TEST_F(StaleVerdictsTest, WhatRanAndWhatWasLeftDirtyAreForgotten) {
  // b.o was dirty (left so by a failed build): scanned again though
  // nothing changed. a.o ran: its verdict is stale too.
  Change("b.c", 5);
  state_.ForgetVerdicts();
  ScanAll();
  ASSERT_TRUE(state_.GetNode("b.o")->dirty);
  ForgetStaleVerdicts(state_, {}, {EdgeOf("a.o")});
  EXPECT_EQ("a.o b.o lib all", Forgotten());
  ExpectSameVerdictsAsFromScratch();
}

}  // namespace
}  // namespace ronin
