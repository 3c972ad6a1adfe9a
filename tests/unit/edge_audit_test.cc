// Tests for the comparison of what a command did with what its edge
// declares (edge_audit.h): each kind of finding, and what is not one.
// Files live in a real scratch directory, the build directory of the
// manifest under test; accesses are made up as the monitor would note them.
#include "audit/edge_audit.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "base/util.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

class EdgeAuditTest : public ::testing::Test {
 protected:
  void SetUp() override { build_dir_ = CanonicalAbsolutePath(WorkingDirectory(), temp_.path()); }

  void Parse(const std::string& manifest) {
    ASSERT_TRUE(test::ParseManifest(&state_, manifest));
    auditor_.reset(new EdgeAuditor(&state_, ProjectDirs(build_dir_), build_dir_));
  }
  std::string Abs(const std::string& name) { return build_dir_ + "/" + name; }
  void Create(const std::string& name) { test::WriteRealFile(Abs(name), "x"); }
  const Edge* EdgeOf(const std::string& output) { return test::NodeOrNull(state_, output)->in_edge; }

  // "kind path" for each finding of `output`'s edge.
  std::string Findings(const std::string& output, const FileAccesses& accesses,
                       const std::vector<std::string>& discovered = {}) {
    std::vector<Node*> nodes;
    for (const std::string& path : discovered) nodes.push_back(state_.GetNode(path));
    std::string text;
    for (const AuditFinding& finding : auditor_->Audit(EdgeOf(output), accesses, nodes)) {
      if (!text.empty()) text += ", ";
      text += std::string(FindingKindId(finding.kind)) + " " + finding.path;
    }
    return text;
  }

  test::ScopedTempDir temp_;
  std::string build_dir_;
  State state_;
  std::unique_ptr<EdgeAuditor> auditor_;
};

const char kRules[] =
    "rule cc\n  command = cc $in -o $out\n  depfile = $out.d\n  deps = gcc\n"
    "rule gen\n  command = gen $in $out\n";

TEST_F(EdgeAuditTest, AGeneratedHeaderWithNoPathToItsGenerator) {
  Parse(std::string(kRules) + "build gen.h: gen gen.in\nbuild a.o: cc a.c\nbuild b.o: cc b.c || gen.h\n");
  Create("gen.h");
  FileAccesses accesses;
  accesses.Note(Abs("a.c"), FileAccess::kRead);
  accesses.Note(Abs("gen.h"), FileAccess::kRead);
  // Its depfile names it, but that orders nothing in a clean build.
  EXPECT_EQ("undeclared-input gen.h", Findings("a.o", accesses, {"gen.h"}));
  std::vector<AuditFinding> findings = auditor_->Audit(EdgeOf("a.o"), accesses, {});
  ASSERT_EQ(1u, findings.size());
  EXPECT_EQ(
      "a.o: undeclared input from another edge: gen.h (made by the edge building 'gen.h', with no dependency "
      "path from it in the manifest: expected gen.h as an input or order-only input)",
      DescribeFinding("a.o", findings[0]));
  // An order-only dependency orders it; the depfile then declares it.
  FileAccesses b;
  b.Note(Abs("gen.h"), FileAccess::kRead);
  EXPECT_EQ("", Findings("b.o", b, {"gen.h"}));
  EXPECT_EQ("missing-dep gen.h", Findings("b.o", b));
}

TEST_F(EdgeAuditTest, AReadMissingFromTheDepfile) {
  Parse(std::string(kRules) + "build a.o: cc a.c\nbuild tool_out: gen tool.in\n");
  for (const char* name : {"a.c", "config.h", "a.h"}) Create(name);
  FileAccesses accesses;
  accesses.Note(Abs("a.c"), FileAccess::kRead);
  accesses.Note(Abs("a.h"), FileAccess::kRead);
  accesses.Note(Abs("config.h"), FileAccess::kRead);
  EXPECT_EQ("missing-dep config.h", Findings("a.o", accesses, {"a.h"}));
  std::vector<Node*> discovered = {state_.GetNode("a.h")};
  EXPECT_EQ(
      "a.o: input missing from the discovered deps: config.h (neither a declared input nor in its depfile or deps "
      "log: expected it as an input (implicit: | config.h) or in the depfile)",
      DescribeFinding("a.o", auditor_->Audit(EdgeOf("a.o"), accesses, discovered)[0]));
  // Without a depfile, the same read is simply undeclared.
  FileAccesses tool;
  tool.Note(Abs("config.h"), FileAccess::kExecute);
  EXPECT_EQ("missing-dep config.h", Findings("tool_out", tool));
}

TEST_F(EdgeAuditTest, AnUndeclaredOutputThatALaterEdgeReads) {
  Parse(std::string(kRules) + "build a.o: cc a.c\nbuild b.o: cc b.c\n");
  Create("extra.log");
  FileAccesses a;
  a.Note(Abs("extra.log"), FileAccess::kWrite);
  EXPECT_EQ("undeclared-output extra.log", Findings("a.o", a));
  FileAccesses b;
  b.Note(Abs("extra.log"), FileAccess::kRead);
  EXPECT_EQ("undeclared-input extra.log", Findings("b.o", b));
}

TEST_F(EdgeAuditTest, WritingASourceOrAnotherEdgesOutputIsAClobber) {
  Parse(std::string(kRules) + "build a.o: cc a.c\nbuild b.o: cc b.c\n");
  for (const char* name : {"a.c", "b.o"}) Create(name);
  FileAccesses accesses;
  accesses.Note(Abs("a.c"), FileAccess::kRead);
  accesses.Note(Abs("a.c"), FileAccess::kWrite);  // sed -i
  accesses.Note(Abs("b.o"), FileAccess::kRemove);
  EXPECT_EQ("clobber a.c, clobber b.o", Findings("a.o", accesses));
  std::vector<AuditFinding> findings = auditor_->Audit(EdgeOf("a.o"), accesses, {});
  EXPECT_EQ("wrote a source file: expected a command to write only its own outputs", findings[0].expected);
  EXPECT_EQ("removed an output of the edge building 'b.o': expected a command to write only its own outputs",
            findings[1].expected);
}

TEST_F(EdgeAuditTest, WhatIsNotAFinding) {
  Parse(std::string(kRules) + "rule regen\n  command = regen\n  generator = 1\n"
                              "build a.o: cc a.c\n  rspfile = a.rsp\n"
                              "build build.ninja: regen build.in\n");
  for (const char* name : {"a.c", "a.o", "a.o.d", "a.rsp", "made_by_generator", ".ninja_log", "undeclared"})
    Create(name);
  ASSERT_EQ(0, mkdir(Abs("made_dir").c_str(), 0755));
  FileAccesses accesses;
  accesses.Note(Abs("a.c"), FileAccess::kRead);          // declared
  accesses.Note(Abs("a.o"), FileAccess::kWrite);         // its output
  accesses.Note(Abs("a.o.d"), FileAccess::kWrite);       // its depfile
  accesses.Note(Abs("a.rsp"), FileAccess::kRead);        // its rspfile
  accesses.Note(Abs("tmp123"), FileAccess::kWrite);      // created and removed again
  accesses.Note(Abs("made_dir"), FileAccess::kWrite);    // a directory
  accesses.Note(Abs(".ninja_log"), FileAccess::kWrite);  // ninja's own
  accesses.Note(Abs("undeclared"), FileAccess::kProbe);  // only probed
  accesses.Note(Abs("missing.h"), FileAccess::kRead);    // an include path search that failed
  accesses.Note("/usr/include/stdio.h", FileAccess::kRead);  // outside the project
  accesses.Note("/tmp/cc1234.s", FileAccess::kWrite);
  EXPECT_EQ("", Findings("a.o", accesses));
  FileAccesses regen;
  regen.Note(Abs("made_by_generator"), FileAccess::kWrite);
  EXPECT_EQ("", Findings("build.ninja", regen));
}

TEST_F(EdgeAuditTest, AFileAnInputIsMadeFromRerunsTheEdgeAnyway) {
  // A thin archive: the linker reads the member, which the archive's edge
  // takes as input; a new member remakes the archive and relinks.
  Parse(std::string(kRules) +
        "build util.o: cc util.c\nbuild libutil.a: gen util.o\nbuild app: gen main.o libutil.a\n"
        "build main.o: cc main.c || util.o\n");
  Create("util.o");
  FileAccesses link;
  link.Note(Abs("libutil.a"), FileAccess::kRead);
  link.Note(Abs("util.o"), FileAccess::kRead);
  EXPECT_EQ("", Findings("app", link));
  // Ordered only through an order-only input: a new util.o reruns nothing.
  FileAccesses compile;
  compile.Note(Abs("util.o"), FileAccess::kRead);
  EXPECT_EQ("missing-dep util.o", Findings("main.o", compile));
}

TEST_F(EdgeAuditTest, PathsFollowDeclaredInputsOnly) {
  // c.o waits for gen.h through a phony and an order-only input; d.o only
  // through a deps-log entry of its input, which orders no clean build.
  Parse(std::string(kRules) +
        "build gen.h: gen gen.in\nbuild headers: phony gen.h\n"
        "build c.o: cc c.c || headers\nbuild lib.h: gen lib.in\nbuild d.o: cc d.c | lib.h\n");
  Create("gen.h");
  FileAccesses accesses;
  accesses.Note(Abs("gen.h"), FileAccess::kRead);
  EXPECT_EQ("", Findings("c.o", accesses, {"gen.h"}));
  // A discovered dep of lib.h's edge on gen.h is not a declared path.
  Edge* lib = const_cast<Edge*>(EdgeOf("lib.h"));
  Node* discovered[] = {state_.GetNode("gen.h")};
  lib->inputs.insert(lib->inputs.end() - lib->order_only_deps, discovered, discovered + 1);
  ++lib->implicit_deps;
  ++lib->discovered_deps;
  EXPECT_EQ("undeclared-input gen.h", Findings("d.o", accesses, {"gen.h"}));
}

}  // namespace
}  // namespace ronin
