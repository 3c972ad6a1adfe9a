// Tests for the build report's rendering (insight/report_html.h, insight/report_svg.h).
#include "insight/report_html.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "insight/report_svg.h"

namespace ronin {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++count;
  return count;
}

// `count` jobs of `duration` ms, `slots` at a time, all of rule "cc" but
// every tenth "link".
BuildReport MakeReport(int count, int duration, int slots) {
  static std::vector<std::string> names;
  names.clear();
  for (int i = 0; i < count; ++i) names.push_back("out/o" + std::to_string(i) + ".o");
  BuildReport report;
  report.title = "<dir>";
  for (int i = 0; i < count; ++i) {
    LoggedJob job;
    job.outputs = {names[i]};
    job.start_ms = (i / slots) * duration;
    job.end_ms = job.start_ms + duration;
    report.jobs.push_back(job);
    report.rules.push_back(i % 10 ? "cc" : "link");
    report.earlier_ms.push_back(-1);
  }
  report.slots = AssignSlots(report.jobs);
  Summarise(&report);
  return report;
}

TEST(ReportHtmlTest, FormatDuration) {
  EXPECT_EQ("0 ms", FormatDuration(0));
  EXPECT_EQ("999 ms", FormatDuration(999));
  EXPECT_EQ("1.50 s", FormatDuration(1500));
  EXPECT_EQ("12.3 s", FormatDuration(12345));
  EXPECT_EQ("4 min 05 s", FormatDuration(245000));
  EXPECT_EQ("2 h 03 min", FormatDuration(7380000));
}

TEST(ReportHtmlTest, SummaryRulesAndEscaping) {
  BuildReport report = MakeReport(20, 100, 4);
  ASSERT_EQ(2u, report.rule_totals.size());
  EXPECT_EQ("cc", report.rule_totals[0].name);
  EXPECT_EQ(18u, report.rule_totals[0].commands);
  EXPECT_EQ(1800, report.rule_totals[0].total_ms);
  EXPECT_EQ(0, report.start_ms());
  EXPECT_EQ(500, report.end_ms());
  std::string html = RenderReportHtml(report);
  EXPECT_NE(std::string::npos, html.find("&lt;dir&gt;"));
  EXPECT_EQ(std::string::npos, html.find("<dir>"));
  EXPECT_EQ(20u, Count(html, "<rect class=\"job\""));
  EXPECT_EQ(0u, Count(html, "<script"));
}

TEST(ReportHtmlTest, ManyShortCommandsAreFolded) {
  BuildReport report = MakeReport(50000, 10, 8);
  std::string html = RenderReportHtml(report);
  EXPECT_LE(Count(html, "<rect class=\"job\""), kMaxDrawnBars);
  EXPECT_GT(Count(html, "<rect class=\"folded\""), 0u);
  EXPECT_LT(html.size(), 3u << 20);
}

TEST(ReportHtmlTest, AtMostSoManyBarsOfTheirOwn) {
  // 6,000 commands, each half the build long: all wide enough to draw.
  std::string html = RenderReportHtml(MakeReport(6000, 100, 3000));
  EXPECT_EQ(kMaxDrawnBars, Count(html, "<rect class=\"job\""));
  EXPECT_GT(Count(html, "<rect class=\"folded\""), 0u);
}

TEST(ReportHtmlTest, EmptyBuild) {
  BuildReport report;
  Summarise(&report);
  EXPECT_NE(std::string::npos, RenderReportHtml(report).find("id=\"empty\""));
}

}  // namespace
}  // namespace ronin
