// Tests for --audit's findings (audit_findings.h): their records round
// trip and refuse damage, the report's lines, summary and JSON, and the
// records read back from a real .ronin_state (audit_records.h).
#include "audit/audit_findings.h"

#include <gtest/gtest.h>

#include "audit/audit_records.h"
#include "audit/audit_report.h"
#include "log/state_file.h"
#include "test_support.h"

namespace ronin {
namespace {

AuditedEdge SampleEdge() {
  AuditedEdge edge;
  edge.build = 1764800000123;
  edge.findings.push_back({FindingKind::kUndeclaredInput, "gen/x.h", "made by 'gen/x.h'"});
  // Paths may hold anything but NUL, separators of the format included.
  edge.findings.push_back({FindingKind::kClobber, "odd \n12:path ", ""});
  return edge;
}

TEST(AuditedEdgeTest, RoundTrips) {
  AuditedEdge edge = SampleEdge();
  AuditedEdge parsed;
  ASSERT_TRUE(AuditedEdge::Parse(edge.Encode(), &parsed)) << edge.Encode();
  EXPECT_EQ(edge.build, parsed.build);
  EXPECT_EQ(edge.findings, parsed.findings);
  AuditedEdge clean;
  clean.build = 5;
  EXPECT_EQ("audit1 build=5", clean.Encode());
  ASSERT_TRUE(AuditedEdge::Parse(clean.Encode(), &parsed));
  EXPECT_TRUE(parsed.findings.empty());
}

TEST(AuditedEdgeTest, RefusesWhatEncodeWouldNotWrite) {
  AuditedEdge parsed;
  for (const char* payload :
       {"", "audit1", "audit2 build=1", "audit1 build=", "audit1 build=x", "audit1 build=1\n",
        "audit1 build=1\nclobber 3:abc", "audit1 build=1\nclobber 3:abc 4:xyz", "audit1 build=1\nnope 1:a 1:b",
        "audit1 build=1\nclobber 9:a 1:b", "audit1 build=1 x\nclobber 1:a 1:b", "audit1 build=1234567890123456789"})
    EXPECT_FALSE(AuditedEdge::Parse(payload, &parsed)) << payload;
  int64_t build;
  EXPECT_TRUE(ParseAuditedBuild(EncodeAuditedBuild(42), &build));
  EXPECT_EQ(42, build);
  EXPECT_FALSE(ParseAuditedBuild("audit1 build=42 x", &build));
}

TEST(AuditReportTest, LinesSummaryAndJson) {
  AuditReport report;
  report.set_build(7);
  report.AddEdge("b.o", {{FindingKind::kUndeclaredOutput, "extra.log", "not one of its outputs"}});
  report.AddEdge("a.o", {{FindingKind::kMissingDep, "conf \"x\".txt", "neither"},
                         {FindingKind::kUndeclaredInput, "gen.h", "made by 'gen.h'"}});
  report.AddEdge("c.o", {});
  EXPECT_EQ(
      "a.o: undeclared input from another edge: gen.h (made by 'gen.h')\n"
      "a.o: input missing from the discovered deps: conf \"x\".txt (neither)\n"
      "b.o: undeclared output: extra.log (not one of its outputs)\n",
      report.FindingLines(""));
  EXPECT_EQ(
      "3 commands audited, 3 findings: 1 undeclared input from another edge, 1 input missing from the "
      "discovered deps, 1 undeclared output",
      report.Summary());
  EXPECT_EQ(
      "{\"build_start_ms\":7,\"commands_audited\":3,\"counts\":{\"undeclared-input\":1,\"missing-dep\":1,"
      "\"undeclared-output\":1,\"clobber\":0},\"findings\":[\n"
      "{\"kind\":\"undeclared-input\",\"edge\":\"a.o\",\"path\":\"gen.h\",\"expected\":\"made by 'gen.h'\"},\n"
      "{\"kind\":\"missing-dep\",\"edge\":\"a.o\",\"path\":\"conf \\\"x\\\".txt\",\"expected\":\"neither\"},\n"
      "{\"kind\":\"undeclared-output\",\"edge\":\"b.o\",\"path\":\"extra.log\",\"expected\":\"not one of its "
      "outputs\"}\n]}\n",
      report.Json());
  AuditReport empty;
  empty.AddEdge("a.o", {});
  EXPECT_EQ("1 command audited, no findings", empty.Summary());
  EXPECT_EQ(
      "{\"build_start_ms\":null,\"commands_audited\":1,\"counts\":{\"undeclared-input\":0,\"missing-dep\":0,"
      "\"undeclared-output\":0,\"clobber\":0},\"findings\":[]}\n",
      empty.Json());
}

TEST(AuditRecordsTest, TheLastAuditedBuildReadsBack) {
  test::ScopedTempDir dir;
  std::string path = dir.File(".ronin_state");
  std::string err;
  {
    StateFile file;
    file.LoadOnFirstUse(path);
    AuditRecords earlier(&file, 100);
    ASSERT_TRUE(earlier.RecordEdge("a.o", {{FindingKind::kClobber, "src/a.c", "x"}}, &err)) << err;
    ASSERT_TRUE(earlier.RecordEdge("b.o", {{FindingKind::kMissingDep, "conf", "y"}}, &err)) << err;
  }
  {
    // The next build reruns a.o, clean now; b.o did not run.
    StateFile file;
    file.LoadOnFirstUse(path);
    AuditRecords later(&file, 200);
    ASSERT_TRUE(later.RecordEdge("a.o", {}, &err)) << err;
  }
  StateFile file;
  ASSERT_TRUE(file.LoadReadOnly(path, &err)) << err;
  AuditReport report;
  ASSERT_TRUE(ReadLastAudit(file, &report));
  EXPECT_EQ(200, report.build());
  EXPECT_EQ(1, report.edges());
  EXPECT_EQ(0u, report.finding_count());
  StateFile none;
  ASSERT_TRUE(none.LoadReadOnly(dir.File("missing"), &err));
  EXPECT_FALSE(ReadLastAudit(none, &report));
}

}  // namespace
}  // namespace ronin
