// Tests for the dirty scan (scan/scan.h, scan/dep_loader.h) over an
// in-memory disk: mtimes, phony edges, cycles, validations, depfiles, the
// deps log and the build log. Error texts and `-d explain` reasons were
// checked against ninja 1.13.2 on equivalent builds.
#include "scan/scan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "log/deps_log.h"
#include "scan/explain.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::Paths;
using test::VirtualDisk;

// ------------------------------------------------------------ the fixture

class ScanTest : public testing::Test {
 protected:
  ScanTest() : scan_(&state_, nullptr, nullptr, &disk_, &explanations_) {}

  void Parse(const std::string& manifest, ManifestParserOptions options = {}) {
    ASSERT_TRUE(ParseManifest(&state_,
                              "rule cat\n"
                              "  command = cat $in > $out\n"
                              "rule catdep\n"
                              "  command = cat $in > $out\n"
                              "  depfile = $out.d\n" +
                                  manifest,
                              options));
  }

  Node* GetNode(const std::string& path) { return state_.GetNode(path); }

  // Scans `path`; fails the test on error.
  void Scan(const std::string& path, std::vector<Node*>* validations = nullptr) {
    std::string err;
    std::vector<Node*> unused;
    EXPECT_TRUE(scan_.RecomputeDirty(GetNode(path), validations ? validations : &unused, &err)) << err;
    EXPECT_EQ("", err);
  }
  // Scans `path` expecting an error, which is returned.
  std::string ScanError(const std::string& path) {
    std::string err;
    std::vector<Node*> validations;
    EXPECT_FALSE(scan_.RecomputeDirty(GetNode(path), &validations, &err));
    return err;
  }
  bool Dirty(const std::string& path) { return GetNode(path)->dirty; }

  // The `-d explain` lines recorded for the edge producing `path`.
  std::string Explain(const std::string& path) {
    std::string lines;
    if (const std::vector<std::string>* reasons = explanations_.Lookup(GetNode(path)->in_edge))
      for (const std::string& reason : *reasons) lines += "ninja explain: " + reason + "\n";
    return lines;
  }

  State state_;
  VirtualDisk disk_;
  Explanations explanations_{true};
  DependencyScan scan_;
};

TEST_F(ScanTest, SourceFileDirtyOnlyWhenMissing) {
  disk_.CreateAt("present", 1);
  Scan("present");
  Scan("missing");
  EXPECT_FALSE(Dirty("present"));
  EXPECT_TRUE(Dirty("missing"));
  EXPECT_TRUE(GetNode("present")->exists());
}

TEST_F(ScanTest, MissingOutputIsDirty) {
  Parse("build out: cat in\n");
  disk_.CreateAt("in", 1);
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_FALSE(Dirty("in"));
  EXPECT_FALSE(GetNode("out")->in_edge->outputs_ready);
  EXPECT_EQ("ninja explain: output out doesn't exist\n", Explain("out"));
}

TEST_F(ScanTest, OlderOutputIsDirty) {
  Parse("build out: cat in\n");
  disk_.CreateAt("out", 1);
  disk_.CreateAt("in", 2);
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: output out older than most recent input in (1 vs 2)\n", Explain("out"));
}

TEST_F(ScanTest, NewerOrEqualOutputIsClean) {
  Parse("build out: cat in\nbuild out2: cat in\n");
  disk_.CreateAt("in", 2);
  disk_.CreateAt("out", 3);
  disk_.CreateAt("out2", 2);
  Scan("out");
  Scan("out2");
  EXPECT_FALSE(Dirty("out"));
  EXPECT_FALSE(Dirty("out2"));
  EXPECT_TRUE(GetNode("out")->in_edge->outputs_ready);
  EXPECT_EQ("", Explain("out"));
}

TEST_F(ScanTest, NewestInputCounts) {
  Parse("build out: cat a b c\n");
  disk_.CreateAt("a", 1);
  disk_.CreateAt("b", 5);
  disk_.CreateAt("c", 3);
  disk_.CreateAt("out", 4);
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: output out older than most recent input b (4 vs 5)\n", Explain("out"));
}

TEST_F(ScanTest, DirtinessPropagatesDownAChain) {
  Parse("build mid: cat src\nbuild out: cat mid\n");
  disk_.CreateAt("src", 3);
  disk_.CreateAt("mid", 2);
  disk_.CreateAt("out", 4);
  Scan("out");
  EXPECT_TRUE(Dirty("mid"));
  EXPECT_TRUE(Dirty("out"));  // newer than mid, but mid will be rebuilt
  EXPECT_EQ("ninja explain: mid is dirty\n", Explain("out"));
}

TEST_F(ScanTest, MissingSourceMakesDependentDirty) {
  Parse("build out: cat in\n");
  disk_.CreateAt("out", 1);
  Scan("out");
  EXPECT_TRUE(Dirty("in"));
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: in is dirty\n", Explain("out"));
}

TEST_F(ScanTest, ImplicitInputsCountLikeExplicitOnes) {
  Parse("build out: cat in | header\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  disk_.CreateAt("header", 3);
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
}

TEST_F(ScanTest, OrderOnlyInputsNeverDirtyTheOutput) {
  Parse("build out: cat in || oo\nbuild oo: cat src\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  disk_.CreateAt("src", 9);  // oo is missing and src is newest: oo is dirty
  Scan("out");
  EXPECT_TRUE(Dirty("oo"));
  EXPECT_FALSE(Dirty("out"));
  // ...but the edge has to wait for it.
  EXPECT_FALSE(GetNode("out")->in_edge->outputs_ready);
}

TEST_F(ScanTest, AnyMissingOutputDirtiesAllOutputs) {
  Parse("build a b: cat in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("a", 2);
  Scan("a");
  EXPECT_TRUE(Dirty("a"));
  EXPECT_TRUE(Dirty("b"));
  EXPECT_EQ("ninja explain: output b doesn't exist\n", Explain("a"));
}

TEST_F(ScanTest, EachEdgeIsVisitedOnce) {
  Parse("build a: cat src\nbuild b: cat a\nbuild c: cat a b\n");
  disk_.CreateAt("src", 1);
  Scan("c");
  Scan("b");
  int src_stats = 0;
  for (const std::string& path : disk_.stats) src_stats += path == "src";
  EXPECT_EQ(1, src_stats);
  EXPECT_EQ(4u, disk_.stats.size());  // src, a, b, c once each
}

TEST_F(ScanTest, PhonyWithoutInputsIsDirtyWhenMissing) {
  Parse("build always: phony\nbuild out: cat in always\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  Scan("out");
  EXPECT_TRUE(Dirty("always"));
  // Nothing to run for it: the phony edge counts as done.
  EXPECT_TRUE(GetNode("always")->in_edge->outputs_ready);
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: output always of phony edge with no inputs doesn't exist\n", Explain("always"));
  EXPECT_EQ("ninja explain: always is dirty\n", Explain("out"));
}

TEST_F(ScanTest, PhonyWithoutInputsIsCleanWhenItsFileExists) {
  Parse("build marker: phony\n");
  disk_.CreateAt("marker", 1);
  Scan("marker");
  EXPECT_FALSE(Dirty("marker"));
}

TEST_F(ScanTest, PhonyWithInputsTakesTheNewestInputMtime) {
  Parse("build alias: phony in1 in2\nbuild out: cat alias\n");
  disk_.CreateAt("in1", 3);
  disk_.CreateAt("in2", 8);
  disk_.CreateAt("out", 5);
  Scan("out");
  EXPECT_FALSE(Dirty("alias"));
  EXPECT_EQ(8, GetNode("alias")->mtime);
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: output out older than most recent input alias (5 vs 8)\n", Explain("out"));
}

TEST_F(ScanTest, PhonyWithInputsIsCleanWhenInputsAre) {
  Parse("build alias: phony in\nbuild out: cat alias\n");
  disk_.CreateAt("in", 3);
  disk_.CreateAt("out", 5);
  Scan("out");
  EXPECT_FALSE(Dirty("alias"));
  EXPECT_FALSE(Dirty("out"));
}

TEST_F(ScanTest, StatErrorStopsTheScan) {
  Parse("build out: cat in\n");
  disk_.FailStat("in", "stat(in): Permission denied");
  EXPECT_EQ("stat(in): Permission denied", ScanError("out"));
}

// ---------------------------------------------------------------- cycles

TEST_F(ScanTest, TwoNodeCycle) {
  Parse("build a: cat b\nbuild b: cat a\n");
  EXPECT_EQ("dependency cycle: a -> b -> a", ScanError("a"));
}

TEST_F(ScanTest, CycleIsReportedFromTheNodeThatClosesIt) {
  // ninja 1.13.2 `ninja a`: "dependency cycle: b -> c -> b".
  Parse("build a: cat b\nbuild b: cat c\nbuild c: cat b\n");
  EXPECT_EQ("dependency cycle: b -> c -> b", ScanError("a"));
}

TEST_F(ScanTest, ThreeNodeCycleFromTheMiddle) {
  // ninja 1.13.2 `ninja b`: "dependency cycle: b -> c -> a -> b".
  Parse("build a: cat b\nbuild b: cat c\nbuild c: cat a\n");
  EXPECT_EQ("dependency cycle: b -> c -> a -> b", ScanError("b"));
}

TEST_F(ScanTest, CycleThroughAnotherOutputOfTheEdge) {
  // ninja 1.13.2 `ninja a`: "dependency cycle: b -> c -> b".
  Parse("build a b: cat c\nbuild c: cat b\n");
  EXPECT_EQ("dependency cycle: b -> c -> b", ScanError("a"));
}

TEST_F(ScanTest, CycleThroughImplicitAndOrderOnlyInputs) {
  Parse("build a: cat | b\nbuild b: cat || a\n");
  EXPECT_EQ("dependency cycle: a -> b -> a", ScanError("a"));
}

TEST_F(ScanTest, SelfReferencingEdge) {
  Parse("build a: cat a\n");
  EXPECT_EQ("dependency cycle: a -> a", ScanError("a"));
}

TEST_F(ScanTest, PhonyCycleWhenKeptIsNamed) {
  ManifestParserOptions options;
  options.phony_cycle_is_error = true;
  Parse("build a: phony a\n", options);
  EXPECT_EQ("dependency cycle: a -> a [-w phonycycle=err]", ScanError("a"));
}

TEST_F(ScanTest, MultiOutputPhonyCycleHasNoSuffix) {
  // ninja 1.13.2 with -w phonycycle=err: "dependency cycle: b -> b".
  ManifestParserOptions options;
  options.phony_cycle_is_error = true;
  Parse("build a b: phony b\n", options);
  EXPECT_EQ("dependency cycle: b -> b", ScanError("a"));
}

// ------------------------------------------------------------ validations

TEST_F(ScanTest, ValidationsAreReportedAndScanned) {
  Parse("build out: cat in |@ check\nbuild check: cat in2\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  disk_.CreateAt("in2", 1);
  std::vector<Node*> validations;
  Scan("out", &validations);
  EXPECT_EQ("check", Paths(validations));
  EXPECT_FALSE(Dirty("out"));  // validations never dirty the edge
  EXPECT_TRUE(Dirty("check"));
  EXPECT_EQ(Edge::Visit::kDone, GetNode("check")->in_edge->mark);
}

TEST_F(ScanTest, ValidationMayDependOnTheEdgeItself) {
  Parse("build out: cat in |@ check\nbuild check: cat out\n");
  disk_.CreateAt("in", 1);
  std::vector<Node*> validations;
  Scan("out", &validations);
  EXPECT_EQ("check", Paths(validations));
  EXPECT_TRUE(Dirty("out"));
  EXPECT_TRUE(Dirty("check"));
}

TEST_F(ScanTest, ValidationsOfValidationsAreFollowed) {
  Parse("build out: cat in |@ v1\nbuild v1: cat in |@ v2\nbuild v2: cat in\n");
  disk_.CreateAt("in", 1);
  std::vector<Node*> validations;
  Scan("out", &validations);
  EXPECT_EQ("v1 v2", Paths(validations));
  EXPECT_TRUE(Dirty("v2"));
}

// -------------------------------------------------------------- depfiles

TEST_F(ScanTest, DepfileAddsImplicitInputs) {
  Parse("build out: catdep in || oo\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("oo", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out.d", 5, "out: ./inc/../h1.h \\\n h2.h\n");
  disk_.CreateAt("h1.h", 2);
  disk_.CreateAt("h2.h", 3);
  Scan("out");
  Edge* edge = GetNode("out")->in_edge;
  EXPECT_FALSE(Dirty("out"));
  EXPECT_EQ("in h1.h h2.h oo", Paths(edge->inputs));
  EXPECT_EQ(2, edge->implicit_deps);
  EXPECT_EQ(1, edge->order_only_deps);
  EXPECT_TRUE(edge->deps_loaded);
  EXPECT_TRUE(GetNode("h1.h")->generated_by_dep_loader);
  // Discovered source files do not record their users (nothing needs them).
  EXPECT_TRUE(GetNode("h2.h")->out_edges.empty());
  EXPECT_EQ((std::vector<std::string>{"out.d"}), disk_.reads);
}

TEST_F(ScanTest, NewerDepfileInputDirties) {
  Parse("build out: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out.d", 5, "out: in h.h\n");
  disk_.CreateAt("h.h", 6);
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: output out older than most recent input h.h (5 vs 6)\n", Explain("out"));
}

TEST_F(ScanTest, MissingDepfileInputOnlyDirties) {
  // A header deleted since the last build: not an error, just a rebuild.
  Parse("build out: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out.d", 5, "out: in gone.h\n");
  Scan("out");
  EXPECT_TRUE(Dirty("gone.h"));
  EXPECT_TRUE(Dirty("out"));
  EXPECT_TRUE(GetNode("gone.h")->generated_by_dep_loader);
}

TEST_F(ScanTest, MissingDepfileDirties) {
  Parse("build out: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_TRUE(GetNode("out")->in_edge->deps_missing);
  EXPECT_EQ("ninja explain: depfile 'out.d' is missing\n", Explain("out"));
}

TEST_F(ScanTest, EmptyDepfileDirties) {
  Parse("build out: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out.d", 5, "");
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: depfile 'out.d' is missing\n", Explain("out"));
}

TEST_F(ScanTest, DepfileForAnotherOutputDirties) {
  Parse("build out out2: cat in\n  depfile = dep.d\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out2", 5);
  disk_.CreateAt("dep.d", 5, "out2 out: in\n");
  Scan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: expected depfile 'dep.d' to mention 'out', got 'out2'\n", Explain("out"));
}

TEST_F(ScanTest, DepfileFirstTargetIsCanonicalised) {
  Parse("build out out2: cat in\n  depfile = dep.d\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out2", 5);
  disk_.CreateAt("dep.d", 5, "./out out2: in\n");
  Scan("out");
  EXPECT_FALSE(Dirty("out"));
}

TEST_F(ScanTest, DepfileWithUndeclaredOutputIsAnError) {
  Parse("build out: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out.d", 5, "out x: in\n");
  EXPECT_EQ("out.d: depfile mentions 'x' as an output, but no such output was declared", ScanError("out"));
}

TEST_F(ScanTest, DepfileOtherTargetsAreComparedAsWritten) {
  // ninja 1.13.2 canonicalises only the first target of a depfile:
  // "dep.d: depfile mentions './out2' as an output, but no such output was declared".
  Parse("build out out2: cat in\n  depfile = dep.d\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out2", 5);
  disk_.CreateAt("dep.d", 5, "out ./out2: in\n");
  EXPECT_EQ("dep.d: depfile mentions './out2' as an output, but no such output was declared",
            ScanError("out"));
}

TEST_F(ScanTest, DepfileParseErrors) {
  Parse("build out: catdep in\nbuild out2: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out.d", 5, "garbage\n");
  disk_.CreateAt("out2.d", 5, " \n");
  EXPECT_EQ("out.d: expected ':' in depfile", ScanError("out"));
  EXPECT_EQ("out2.d: no outputs declared", ScanError("out2"));
}

TEST_F(ScanTest, DepfileReadError) {
  Parse("build out: catdep in\n");
  disk_.CreateAt("in", 1);
  disk_.FailRead("out.d", "Is a directory");
  EXPECT_EQ("loading 'out.d': Is a directory", ScanError("out"));
}

TEST_F(ScanTest, DepfileIsNotReadForDepsEdges) {
  Parse("rule gcc\n  command = gcc\n  depfile = $out.d\n  deps = gcc\nbuild out: gcc in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("out.d", 5, "out: in h.h\n");
  Scan("out");
  EXPECT_TRUE(disk_.reads.empty());
  EXPECT_TRUE(Dirty("out"));  // no deps log at all
  EXPECT_EQ("ninja explain: deps for 'out' are missing\n", Explain("out"));
}

// -------------------------------------------------------------- deps log

class ScanWithDepsLogTest : public ScanTest {
 protected:
  ScanWithDepsLogTest() : log_scan_(&state_, nullptr, &deps_log_, &disk_, &explanations_) {}
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(deps_log_.OpenForWrite(dir_.File("deps"), &err)) << err;
    Parse("rule gcc\n  command = gcc $in\n  deps = gcc\n  depfile = $out.d\nbuild out: gcc in || oo\n");
  }
  void LogScan(const std::string& path) {
    std::string err;
    std::vector<Node*> validations;
    EXPECT_TRUE(log_scan_.RecomputeDirty(GetNode(path), &validations, &err)) << err;
  }
  test::ScopedTempDir dir_;
  DepsLog deps_log_;
  DependencyScan log_scan_;
};

TEST_F(ScanWithDepsLogTest, DepsComeFromTheLog) {
  ASSERT_TRUE(deps_log_.RecordDeps(GetNode("out"), 5, {GetNode("h1.h"), GetNode("h2.h")}));
  disk_.CreateAt("in", 1);
  disk_.CreateAt("oo", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("h1.h", 2);
  disk_.CreateAt("h2.h", 2);
  LogScan("out");
  Edge* edge = GetNode("out")->in_edge;
  EXPECT_FALSE(Dirty("out"));
  EXPECT_EQ("in h1.h h2.h oo", Paths(edge->inputs));
  EXPECT_EQ(2, edge->implicit_deps);
  EXPECT_TRUE(GetNode("h1.h")->out_edges.empty());  // a source file: no user list
  EXPECT_TRUE(disk_.reads.empty());  // the depfile is not consulted
}

TEST_F(ScanWithDepsLogTest, LoadedDepsBecomeTheInputListInPlace) {
  // A record read from the file holds room for the edge's other inputs:
  // the scan takes its block as the input list, in Ninja's order, and the
  // log still reads the record (an identical one is not written again).
  ASSERT_TRUE(ParseManifest(&state_, "build out2: gcc in | imp || oo\n"));
  ASSERT_TRUE(deps_log_.RecordDeps(GetNode("out2"), 5, {GetNode("h1.h"), GetNode("h2.h")}));
  deps_log_.Close();
  for (const char* path : {"out2", "h1.h", "h2.h"}) GetNode(path)->deps_log_id = -1;  // as in a new run
  DepsLog loaded;
  std::string err;
  ASSERT_EQ(DepsLog::LoadStatus::kSuccess, loaded.Load(dir_.File("deps"), &state_, &err));
  for (const char* path : {"in", "imp", "oo", "h1.h", "h2.h"}) disk_.CreateAt(path, 1);
  disk_.CreateAt("out2", 5);
  DependencyScan scan(&state_, nullptr, &loaded, &disk_, &explanations_);
  std::vector<Node*> validations;
  ASSERT_TRUE(scan.RecomputeDirty(GetNode("out2"), &validations, &err)) << err;
  Edge* edge = GetNode("out2")->in_edge;
  EXPECT_FALSE(Dirty("out2"));
  EXPECT_EQ("in imp h1.h h2.h oo", Paths(edge->inputs));
  EXPECT_EQ(3, edge->implicit_deps);
  DepsLog::Deps* deps = loaded.GetDeps(GetNode("out2"));
  ASSERT_NE(nullptr, deps);
  EXPECT_EQ(&edge->inputs[2], &deps->nodes[0]);  // one copy
  EXPECT_EQ("h1.h", loaded.DepNode(deps, 0)->path);
  EXPECT_EQ("h2.h", loaded.DepNode(deps, 1)->path);
  size_t size = test::ReadRealFile(dir_.File("deps")).size();
  ASSERT_TRUE(loaded.OpenForWrite(dir_.File("deps"), &err)) << err;
  ASSERT_TRUE(loaded.RecordDeps(GetNode("out2"), 5, {GetNode("h1.h"), GetNode("h2.h")}));
  loaded.Close();
  EXPECT_EQ(size, test::ReadRealFile(dir_.File("deps")).size());
}

TEST_F(ScanWithDepsLogTest, GeneratedDepsKnowTheirUsers) {
  // A generated header found through the deps log must make its users
  // ready when it is built, so they are recorded as its users.
  std::string err;
  Edge* generator = state_.AddEdge(&kPhonyRule, state_.root_scope());
  ASSERT_TRUE(state_.AddOut(generator, "gen.h", &err)) << err;
  ASSERT_TRUE(deps_log_.RecordDeps(GetNode("out"), 5, {GetNode("gen.h")}));
  disk_.CreateAt("in", 1);
  disk_.CreateAt("oo", 1);
  disk_.CreateAt("gen.h", 1);
  disk_.CreateAt("out", 5);
  LogScan("out");
  Edge* edge = GetNode("out")->in_edge;
  EXPECT_EQ("in gen.h oo", Paths(edge->inputs));
  ASSERT_EQ(1u, GetNode("gen.h")->out_edges.size());
  EXPECT_EQ(edge, GetNode("gen.h")->out_edges[0]);
}

TEST_F(ScanWithDepsLogTest, NewerDepInLogDirties) {
  ASSERT_TRUE(deps_log_.RecordDeps(GetNode("out"), 5, {GetNode("h.h")}));
  disk_.CreateAt("in", 1);
  disk_.CreateAt("oo", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("h.h", 7);
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
}

TEST_F(ScanWithDepsLogTest, OutputNewerThanRecordedDepsIsStale) {
  ASSERT_TRUE(deps_log_.RecordDeps(GetNode("out"), 4, {GetNode("h.h")}));
  disk_.CreateAt("in", 1);
  disk_.CreateAt("oo", 1);
  disk_.CreateAt("out", 5);
  disk_.CreateAt("h.h", 1);
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_TRUE(GetNode("out")->in_edge->deps_missing);
  EXPECT_EQ("in oo", Paths(GetNode("out")->in_edge->inputs));
  EXPECT_EQ("ninja explain: stored deps info out of date for 'out' (4 vs 5)\n", Explain("out"));
}

TEST_F(ScanWithDepsLogTest, MissingEntryDirties) {
  disk_.CreateAt("in", 1);
  disk_.CreateAt("oo", 1);
  disk_.CreateAt("out", 5);
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: deps for 'out' are missing\n", Explain("out"));
}

// ------------------------------------------------------------- build log

class ScanWithBuildLogTest : public ScanTest {
 protected:
  ScanWithBuildLogTest() : log_scan_(&state_, &build_log_, nullptr, &disk_, &explanations_) {}
  void LogScan(const std::string& path) {
    std::string err;
    std::vector<Node*> validations;
    EXPECT_TRUE(log_scan_.RecomputeDirty(GetNode(path), &validations, &err)) << err;
  }
  // Records a finished run in memory (no log file is opened).
  void Record(const std::string& output, TimeStamp mtime) {
    ASSERT_TRUE(build_log_.RecordCommand(GetNode(output)->in_edge, 0, 1, mtime));
  }
  BuildLog build_log_;
  DependencyScan log_scan_;
};

TEST_F(ScanWithBuildLogTest, NoLogEntryDirties) {
  Parse("build out: cat in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: command line not found in log for out\n", Explain("out"));
}

TEST_F(ScanWithBuildLogTest, MatchingEntryIsClean) {
  Parse("build out: cat in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  Record("out", 2);
  LogScan("out");
  EXPECT_FALSE(Dirty("out"));
}

TEST_F(ScanWithBuildLogTest, ChangedCommandDirties) {
  Parse("build out: cat in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("out", 2);
  Record("out", 2);
  build_log_.Lookup("out")->command_hash ^= 1;
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: command line changed for out\n", Explain("out"));
}

TEST_F(ScanWithBuildLogTest, RecordedMtimeOlderThanInputDirties) {
  Parse("build out: cat in\n");
  disk_.CreateAt("in", 3);
  disk_.CreateAt("out", 4);
  Record("out", 1);
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: recorded mtime of out older than most recent input in (1 vs 3)\n", Explain("out"));
}

TEST_F(ScanWithBuildLogTest, GeneratorIgnoresMissingEntryAndCommandChange) {
  Parse("rule gen\n  command = regen\n  generator = 1\nbuild a: gen in\nbuild b: gen in\n");
  disk_.CreateAt("in", 1);
  disk_.CreateAt("a", 2);
  disk_.CreateAt("b", 2);
  Record("b", 2);
  build_log_.Lookup("b")->command_hash ^= 1;
  LogScan("a");
  LogScan("b");
  EXPECT_FALSE(Dirty("a"));
  EXPECT_FALSE(Dirty("b"));
}

TEST_F(ScanWithBuildLogTest, RestatUsesTheRecordedMtime) {
  // The output was left untouched by a restat run after its input changed:
  // its own mtime is old, but the log says it is up to date.
  Parse("rule r\n  command = r\n  restat = 1\nbuild out: r in\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("out", 2);
  Record("out", 6);
  LogScan("out");
  EXPECT_FALSE(Dirty("out"));
}

TEST_F(ScanWithBuildLogTest, RestatWithoutEntryComparesMtimes) {
  Parse("rule r\n  command = r\n  restat = 1\nbuild out: r in\n");
  disk_.CreateAt("in", 5);
  disk_.CreateAt("out", 2);
  LogScan("out");
  EXPECT_TRUE(Dirty("out"));
  EXPECT_EQ("ninja explain: output out older than most recent input in (2 vs 5)\n", Explain("out"));
}

// ------------------------------------------------------------- deep graphs

TEST_F(ScanTest, HundredThousandDeepChainDoesNotOverflowTheStack) {
  const int kDepth = 100000;
  Parse(test::ChainManifest(kDepth));
  disk_.CreateAt("n0", 1);
  for (int i = 1; i <= kDepth; ++i) disk_.CreateAt("n" + std::to_string(i), 2);
  Scan("n" + std::to_string(kDepth));
  EXPECT_FALSE(Dirty("n" + std::to_string(kDepth)));
  // Touch the bottom: everything above becomes dirty.
  state_.Reset();
  disk_.CreateAt("n0", 3);
  Scan("n" + std::to_string(kDepth));
  EXPECT_TRUE(Dirty("n1"));
  EXPECT_TRUE(Dirty("n" + std::to_string(kDepth)));
}

TEST_F(ScanTest, DeepCycleIsReportedInFull) {
  const int kDepth = 2000;
  std::string manifest;
  for (int i = 0; i < kDepth; ++i)
    manifest += "build n" + std::to_string(i) + ": cat n" + std::to_string((i + 1) % kDepth) + "\n";
  Parse(manifest);
  std::string err = ScanError("n0");
  EXPECT_EQ(0u, err.rfind("dependency cycle: n0 -> n1 -> n2 -> ", 0)) << err.substr(0, 80);
  EXPECT_EQ(" -> n1999 -> n0", err.substr(err.size() - 15));
}

}  // namespace
}  // namespace ronin
