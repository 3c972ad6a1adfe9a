// Tests for dyndep files (scan/dyndep.h): the parser's errors (texts checked
// against ninja 1.13.2 loading the same file as "dd"), the loader's graph
// updates, and how the scan and the plan pick dyndep information up.
#include "scan/dyndep.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/state.h"
#include "scan/explain.h"
#include "scan/scan.h"
#include "sched/plan.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::NodeOrNull;
using test::ParseManifest;
using test::Paths;
using test::VirtualDisk;

const char kManifest[] =
    "rule r\n"
    "  command = touch $out\n"
    "build out: r in || dd\n"
    "  dyndep = dd\n"
    "build other: r in\n"
    "build in: phony\n";

class DyndepParserTest : public testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(ParseManifest(&state_, kManifest)); }
  std::string Error(const std::string& text) {
    DyndepFile file;
    std::string err;
    if (ParseDyndepText(&state_, "dd", text, &file, &err)) return "<no error>";
    return err;
  }
  Edge* EdgeFor(const std::string& output) { return NodeOrNull(state_, output)->in_edge; }
  State state_;
};

TEST_F(DyndepParserTest, MinimalFile) {
  DyndepFile file;
  std::string err;
  ASSERT_TRUE(ParseDyndepText(&state_, "dd", "ninja_dyndep_version = 1\nbuild out: dyndep\n", &file, &err))
      << err;
  ASSERT_EQ(1u, file.size());
  const Dyndeps& dyndeps = file.begin()->second;
  EXPECT_EQ(EdgeFor("out"), file.begin()->first);
  EXPECT_FALSE(dyndeps.restat);
  EXPECT_FALSE(dyndeps.used);
  EXPECT_TRUE(dyndeps.implicit_inputs.empty());
  EXPECT_TRUE(dyndeps.implicit_outputs.empty());
}

TEST_F(DyndepParserTest, ImplicitInputsOutputsAndRestat) {
  DyndepFile file;
  std::string err;
  ASSERT_TRUE(ParseDyndepText(&state_, "dd",
                              "# leading comment\n"
                              "\n"
                              "ninja_dyndep_version = 1.0\n"
                              "build ./out | out.imp ./x/../out2.imp: dyndep | in.imp $\n"
                              "    in2.imp\n"
                              "  restat = 1\n"
                              "build other: dyndep\n"
                              "  restat =\n",
                              &file, &err))
      << err;
  ASSERT_EQ(2u, file.size());
  const Dyndeps& out = file.at(EdgeFor("out"));
  EXPECT_TRUE(out.restat);
  EXPECT_EQ("out.imp out2.imp", Paths(out.implicit_outputs));
  EXPECT_EQ("in.imp in2.imp", Paths(out.implicit_inputs));
  EXPECT_FALSE(file.at(EdgeFor("other")).restat);
  // Entries iterate in edge order.
  EXPECT_EQ(EdgeFor("out"), file.begin()->first);
}

TEST_F(DyndepParserTest, AcceptedVersions) {
  for (const char* version : {"1", "1.0", "1.0.7", "1-foo"}) {
    EXPECT_EQ("<no error>", Error(std::string("ninja_dyndep_version = ") + version + "\nbuild out: dyndep\n"))
        << version;
  }
}

TEST_F(DyndepParserTest, UnsupportedVersions) {
  EXPECT_EQ("dd:1: unsupported 'ninja_dyndep_version = 1.1'\n"
            "ninja_dyndep_version = 1.1\n"
            "                          ^ near here",
            Error("ninja_dyndep_version = 1.1\n"));
  EXPECT_EQ("dd:1: unsupported 'ninja_dyndep_version = 2'\n"
            "ninja_dyndep_version = 2\n"
            "                        ^ near here",
            Error("ninja_dyndep_version = 2\n"));
}

TEST_F(DyndepParserTest, VersionMustComeFirst) {
  EXPECT_EQ("dd:1: expected 'ninja_dyndep_version = ...'\n", Error(""));
  EXPECT_EQ("dd:1: expected 'ninja_dyndep_version = ...'\n", Error("build out: dyndep\n"));
  EXPECT_EQ("dd:1: expected 'ninja_dyndep_version = ...'\nx = 1\n     ^ near here", Error("x = 1\n"));
}

TEST_F(DyndepParserTest, NoOtherStatements) {
  EXPECT_EQ("dd:2: unexpected identifier\n", Error("ninja_dyndep_version = 1\nx = 1\n"));
  EXPECT_EQ("dd:2: unexpected 'rule'\n", Error("ninja_dyndep_version = 1\nrule r\n"));
  EXPECT_EQ("dd:3: unexpected 'default'\n", Error("ninja_dyndep_version = 1\nbuild out: dyndep\ndefault out\n"));
  EXPECT_EQ("dd:2: unexpected indent\n", Error("ninja_dyndep_version = 1\n  x\n"));
  EXPECT_EQ("dd:4: unexpected indent\n",
            Error("ninja_dyndep_version = 1\nbuild out: dyndep\n  restat = 1\n  restat = 1\n"));
  EXPECT_EQ("dd:1: unexpected EOF\nninja_dyndep_version = 1\n                        ^ near here",
            Error("ninja_dyndep_version = 1"));
}

TEST_F(DyndepParserTest, OutputErrors) {
  EXPECT_EQ("dd:2: no build statement exists for 'nope'\nbuild nope: dyndep\n          ^ near here",
            Error("ninja_dyndep_version = 1\nbuild nope: dyndep\n"));
  EXPECT_EQ("dd:3: multiple statements for 'out'\nbuild out: dyndep\n         ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out: dyndep\nbuild out: dyndep\n"));
  EXPECT_EQ("dd:2: explicit outputs not supported\nbuild out out2: dyndep\n              ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out out2: dyndep\n"));
  EXPECT_EQ("dd:2: explicit outputs not supported\nbuild out dyndep\n                ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out dyndep\n"));
  EXPECT_EQ("dd:2: expected path\nbuild: dyndep\n     ^ near here", Error("ninja_dyndep_version = 1\nbuild: dyndep\n"));
  EXPECT_EQ("dd:2: empty path\nbuild $x: dyndep\n        ^ near here",
            Error("ninja_dyndep_version = 1\nbuild $x: dyndep\n"));
}

TEST_F(DyndepParserTest, RuleAndInputErrors) {
  EXPECT_EQ("dd:2: expected build command name 'dyndep'\nbuild out: notdyndep\n           ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out: notdyndep\n"));
  EXPECT_EQ("dd:2: explicit inputs not supported\nbuild out: dyndep in\n                    ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out: dyndep in\n"));
  EXPECT_EQ("dd:2: order-only inputs not supported\nbuild out: dyndep || x\n                  ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out: dyndep || x\n"));
  EXPECT_EQ("dd:3: binding is not 'restat'\n  foo = 1\n         ^ near here",
            Error("ninja_dyndep_version = 1\nbuild out: dyndep\n  foo = 1\n"));
}

TEST_F(DyndepParserTest, EmptyImplicitPaths) {
  EXPECT_EQ("dd:3: empty path\n", Error("ninja_dyndep_version = 1\nbuild out | $y: dyndep\n"));
  EXPECT_EQ("dd:3: empty path\n", Error("ninja_dyndep_version = 1\nbuild out: dyndep | a $z\n"));
}

// ------------------------------------------------------------ DyndepLoader

class DyndepLoaderTest : public testing::Test {
 protected:
  DyndepLoaderTest() : loader_(&state_, &disk_, &explanations_) {}
  void Parse(const std::string& manifest) { ASSERT_TRUE(ParseManifest(&state_, manifest)); }
  std::string Load(const std::string& dd) {
    DyndepFile file;
    std::string err;
    if (!loader_.LoadDyndeps(state_.GetNode(dd), &file, &err)) return err;
    return "ok";
  }
  Edge* EdgeFor(const std::string& output) { return NodeOrNull(state_, output)->in_edge; }

  State state_;
  VirtualDisk disk_;
  Explanations explanations_{false};
  DyndepLoader loader_;
};

TEST_F(DyndepLoaderTest, MissingFile) {
  Parse(kManifest);
  EXPECT_EQ("loading 'dd': No such file or directory", Load("dd"));
  EXPECT_FALSE(NodeOrNull(state_, "dd")->dyndep_pending);
}

TEST_F(DyndepLoaderTest, UpdatesTheEdge) {
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "build out | imp_out: r in | imp_in || dd\n"
      "  dyndep = dd\n");
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild out | dyn_out: dyndep | dyn_in\n  restat = yes\n");
  Node* dd = NodeOrNull(state_, "dd");
  EXPECT_TRUE(dd->dyndep_pending);
  EXPECT_EQ("ok", Load("dd"));
  EXPECT_FALSE(dd->dyndep_pending);
  Edge* edge = EdgeFor("out");
  EXPECT_EQ("out imp_out dyn_out", Paths(edge->outputs));
  EXPECT_EQ(2, edge->implicit_outs);
  EXPECT_EQ("in imp_in dyn_in dd", Paths(edge->inputs));
  EXPECT_EQ(2, edge->implicit_deps);
  EXPECT_EQ(1, edge->order_only_deps);
  EXPECT_EQ(edge, NodeOrNull(state_, "dyn_out")->in_edge);
  EXPECT_EQ(edge, NodeOrNull(state_, "dyn_in")->out_edges.at(0));
  EXPECT_TRUE(edge->GetBindingBool(Rule::kRestat));
  // $out still lists the explicit outputs only.
  EXPECT_EQ("touch out", edge->EvaluateCommand());
}

TEST_F(DyndepLoaderTest, InputsGoBeforeDiscoveredOnes) {
  // The deps log gave the edge its discovered deps before the dyndep file
  // was built: those stay last among the implicit inputs (graph.h).
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "build out: r in | imp_in || dd\n"
      "  dyndep = dd\n");
  Edge* edge = EdgeFor("out");
  Node* discovered[] = {state_.GetNode("found.h")};
  edge->inputs.insert(edge->inputs.end() - edge->order_only_deps, discovered, discovered + 1);
  ++edge->implicit_deps;
  ++edge->discovered_deps;
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild out: dyndep | dyn_in\n");
  EXPECT_EQ("ok", Load("dd"));
  EXPECT_EQ("in imp_in dyn_in found.h dd", Paths(edge->inputs));
  EXPECT_EQ(3, edge->implicit_deps);
  EXPECT_EQ(1, edge->discovered_deps);
}

TEST_F(DyndepLoaderTest, InputsGainedMakeEdgesWaitAgain) {
  // `src` was a source file, so `user` was ready; the dyndep file makes it
  // an output of `out`, which has not run: `user` must wait for it. And
  // `out`, ready before, must now wait for its new input `extra`.
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "build out: r in || dd\n"
      "  dyndep = dd\n"
      "build user: r src\n"
      "build extra: r\n");
  Edge* user = EdgeFor("user");
  Edge* out = EdgeFor("out");
  EXPECT_TRUE(user->AllInputsReady());
  EXPECT_TRUE(out->AllInputsReady());
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild out | src: dyndep | extra\n");
  EXPECT_EQ("ok", Load("dd"));
  EXPECT_FALSE(user->AllInputsReady());
  EXPECT_FALSE(out->AllInputsReady());
  EdgeFor("extra")->outputs_ready = true;
  EXPECT_TRUE(out->AllInputsReady());
}

TEST_F(DyndepLoaderTest, RestatDoesNotLeakIntoTheSharedScope) {
  // The dyndep binding comes from the rule, so the edge has no scope of its own.
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "  dyndep = dd\n"
      "build out: r in || dd\n"
      "build out2: r in2 || dd\n"
      "rule plain\n"
      "  command = x\n"
      "build unrelated: plain\n");
  ASSERT_EQ(0u, EdgeFor("out")->binding_count);
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild out: dyndep\n  restat = 1\nbuild out2: dyndep\n");
  EXPECT_EQ("ok", Load("dd"));
  EXPECT_TRUE(EdgeFor("out")->GetBindingBool(Rule::kRestat));
  EXPECT_FALSE(EdgeFor("out2")->GetBindingBool(Rule::kRestat));
  EXPECT_FALSE(EdgeFor("unrelated")->GetBindingBool(Rule::kRestat));
  EXPECT_EQ("", state_.root_scope()->LookupVariable("restat"));
}

TEST_F(DyndepLoaderTest, EdgeNotMentioned) {
  Parse(kManifest);
  disk_.Create("dd", "ninja_dyndep_version = 1\n");
  EXPECT_EQ("'out' not mentioned in its dyndep file 'dd'", Load("dd"));
}

TEST_F(DyndepLoaderTest, MentionedEdgeWithoutTheBinding) {
  Parse(kManifest);
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild out: dyndep\nbuild other: dyndep\n");
  EXPECT_EQ(
      "dyndep file 'dd' mentions output 'other' whose build statement does not have a dyndep binding for the file",
      Load("dd"));
}

TEST_F(DyndepLoaderTest, ImplicitOutputAlreadyProduced) {
  Parse(kManifest);
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild out | other: dyndep\n");
  EXPECT_EQ("multiple rules generate other", Load("dd"));
}

TEST_F(DyndepLoaderTest, ParseErrorsNameTheFile) {
  Parse(kManifest);
  disk_.Create("dd", "ninja_dyndep_version = 1\nbuild nope: dyndep\n");
  EXPECT_EQ("dd:2: no build statement exists for 'nope'\nbuild nope: dyndep\n          ^ near here", Load("dd"));
}

// ---------------------------------------------------- scan and plan usage

class DyndepBuildTest : public testing::Test, public PlanDelegate {
 protected:
  DyndepBuildTest() : scan_(&state_, nullptr, nullptr, &disk_, &explanations_), plan_(this) {}

  void OnEdgeAddedToPlan(const Edge*) override { ++added_; }
  void OnEdgeRemovedFromPlan(const Edge*) override {}
  bool LoadDyndeps(Node* node, std::string* err) override {
    DyndepFile file;
    if (!scan_.LoadDyndeps(node, &file, err)) return false;
    return plan_.DyndepsLoaded(&scan_, node, file, err);
  }

  void Parse(const std::string& manifest) { ASSERT_TRUE(ParseManifest(&state_, manifest)); }
  void ScanAndPlan(const std::string& target) {
    std::string err;
    std::vector<Node*> validations;
    Node* node = state_.GetNode(target);
    ASSERT_TRUE(scan_.RecomputeDirty(node, &validations, &err)) << err;
    ASSERT_TRUE(plan_.AddTarget(node, &err)) << err;
    plan_.PrepareQueue();
  }
  std::string Next() {
    Edge* edge = plan_.FindWork();
    return edge ? std::string(edge->outputs[0]->path) : std::string();
  }
  void Finish(const std::string& output) {
    std::string err;
    ASSERT_TRUE(plan_.EdgeFinished(state_.LookupNode(output)->in_edge, Plan::EdgeResult::kSucceeded, &err))
        << err;
  }

  State state_;
  VirtualDisk disk_;
  Explanations explanations_{false};
  DependencyScan scan_;
  Plan plan_;
  int added_ = 0;
};

TEST_F(DyndepBuildTest, ReadyDyndepFileIsLoadedDuringTheScan) {
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "build out: r in || dd\n"
      "  dyndep = dd\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("dd", 1, "ninja_dyndep_version = 1\nbuild out: dyndep | header\n");
  disk_.CreateAt("header", 9);
  std::string err;
  std::vector<Node*> validations;
  ASSERT_TRUE(scan_.RecomputeDirty(state_.GetNode("out"), &validations, &err)) << err;
  EXPECT_FALSE(state_.LookupNode("dd")->dyndep_pending);
  EXPECT_EQ("in header dd", Paths(state_.LookupNode("out")->in_edge->inputs));
  EXPECT_TRUE(state_.LookupNode("out")->dirty);  // header is newer than out
}

TEST_F(DyndepBuildTest, GeneratedDyndepFileExtendsThePlan) {
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "build dd: r dd.in\n"
      "build gen.h: r gen.in\n"
      "build out: r in || dd\n"
      "  dyndep = dd\n");
  disk_.CreateAt("dd.in", 1);
  disk_.CreateAt("gen.in", 1);
  disk_.CreateAt("in", 1);
  ScanAndPlan("out");
  EXPECT_EQ(2, plan_.command_edge_count());  // dd and out; gen.h is unknown yet
  EXPECT_TRUE(state_.LookupNode("dd")->dyndep_pending);
  EXPECT_EQ("dd", Next());
  EXPECT_EQ("", Next());
  // The dd edge "runs" and writes the file.
  disk_.CreateAt("dd", 2, "ninja_dyndep_version = 1\nbuild out: dyndep | gen.h\n");
  Finish("dd");
  EXPECT_FALSE(state_.LookupNode("dd")->dyndep_pending);
  EXPECT_EQ(3, plan_.command_edge_count());
  EXPECT_EQ(3, added_);
  EXPECT_EQ("gen.h", Next());
  EXPECT_EQ("", Next());  // out now waits for gen.h
  Finish("gen.h");
  EXPECT_EQ("out", Next());
  Finish("out");
  EXPECT_FALSE(plan_.more_to_do());
}

TEST_F(DyndepBuildTest, GeneratedDyndepFileErrorStopsTheBuild) {
  Parse(
      "rule r\n"
      "  command = touch $out\n"
      "build dd: r dd.in\n"
      "build out: r in || dd\n"
      "  dyndep = dd\n");
  disk_.CreateAt("dd.in", 1);
  disk_.CreateAt("in", 1);
  ScanAndPlan("out");
  EXPECT_EQ("dd", Next());
  disk_.CreateAt("dd", 2, "ninja_dyndep_version = 1\n");
  std::string err;
  EXPECT_FALSE(plan_.EdgeFinished(state_.LookupNode("dd")->in_edge, Plan::EdgeResult::kSucceeded, &err));
  EXPECT_EQ("'out' not mentioned in its dyndep file 'dd'", err);
}

}  // namespace
}  // namespace ronin
