// Tests for the live view (status/live_status.h): the block's lines for a
// terminal size, the last line of a job's output, when it asks to be
// redrawn, and its list of running jobs (status/running_jobs.h).
#include "status/live_status.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

RunningJobs Jobs(int n) {
  RunningJobs jobs;
  for (int i = 0; i < n; ++i) {
    RunningJob& job = jobs.Add(nullptr, 1000 * i);
    job.description = "CC obj" + std::to_string(i) + ".o";
    job.described = true;
  }
  return jobs;
}

TEST(LiveStatusTest, OneLinePerJobOldestFirstWithElapsedTime) {
  RunningJobs jobs = Jobs(2);
  jobs[1].last_line = "compiling...";
  EXPECT_EQ((std::vector<std::string>{"   5.0s CC obj0.o", "   4.0s CC obj1.o | compiling..."}),
            LiveStatus::BlockLines(jobs, 5000, 80, 24));
}

TEST(LiveStatusTest, AtMostTheTerminalHeightMinusOne) {
  std::vector<std::string> lines = LiveStatus::BlockLines(Jobs(10), 9000, 80, 5);
  ASSERT_EQ(4u, lines.size());
  EXPECT_EQ("   9.0s CC obj0.o", lines[0]);
  EXPECT_EQ("   7.0s CC obj2.o", lines[2]);
  EXPECT_EQ("  ... and 7 more", lines[3]);
  EXPECT_EQ(5u, LiveStatus::BlockLines(Jobs(5), 9000, 80, 6).size());  // all fit: no "more" line
}

TEST(LiveStatusTest, NarrowerThanTheTerminal) {
  for (int columns : {1, 2, 10, 17, 40}) {
    for (const std::string& line : LiveStatus::BlockLines(Jobs(3), 3000, columns, 24))
      EXPECT_LT(line.size(), static_cast<size_t>(columns)) << line;
  }
  EXPECT_TRUE(LiveStatus::BlockLines(Jobs(3), 3000, 1, 24).empty());
  EXPECT_TRUE(LiveStatus::BlockLines(Jobs(3), 3000, 80, 1).empty());
}

TEST(LiveStatusTest, ElapsedTimeAsPrintfWouldShowIt) {
  // Halves aside (they round up), as "%6.1fs " of the seconds.
  for (int64_t millis : {0, 49, 51, 949, 951, 9999, 99951, 999949, 123456789}) {
    RunningJobs jobs = Jobs(1);
    std::string line = LiveStatus::BlockLines(jobs, millis, 200, 24).at(0);
    char expected[64];
    snprintf(expected, sizeof(expected), "%6.1fs CC obj0.o", millis / 1e3);
    EXPECT_EQ(expected, line) << millis;
  }
}

TEST(LiveStatusTest, RowsAsTheTerminalGetsThem) {
  RunningJobs jobs = Jobs(3);
  std::string frame;
  EXPECT_EQ(2, LiveStatus::AppendBlock(jobs, 3000, 80, 3, &frame));
  EXPECT_EQ("\r\n   3.0s CC obj0.o\x1B[K\r\n  ... and 2 more\x1B[K", frame);
  EXPECT_EQ(0u, LiveStatus::ShownJobs(3, 1));
  EXPECT_EQ(1u, LiveStatus::ShownJobs(3, 3));
  EXPECT_EQ(3u, LiveStatus::ShownJobs(3, 4));
}

TEST(LiveStatusTest, ARowTooWideIsElidedInTheMiddle) {
  RunningJobs jobs = Jobs(1);
  jobs[0].last_line = std::string(100, 'x') + "END";
  std::vector<std::string> lines = LiveStatus::BlockLines(jobs, 0, 40, 24);
  ASSERT_EQ(1u, lines.size());
  EXPECT_EQ("   0.0s CC obj0.o ..." + std::string(15, 'x') + "END", lines[0]);
}

TEST(LiveStatusTest, LastLineOfOutput) {
  EXPECT_EQ("", LiveStatus::LastLine(""));
  EXPECT_EQ("two", LiveStatus::LastLine("one\ntwo\n"));
  EXPECT_EQ("partial", LiveStatus::LastLine("one\npartial"));
  EXPECT_EQ("one", LiveStatus::LastLine("one\n\n  \n"));
  EXPECT_EQ("75%", LiveStatus::LastLine("50%\r75%\r"));
  EXPECT_EQ("warning: x", LiveStatus::LastLine("\x1B[35mwarning:\x1B[0m x\n"));
  EXPECT_EQ("a b", LiveStatus::LastLine("a\tb\n"));
}

// The view asks for a redraw a tenth of a second after jobs start running
// and after each redraw, and for none while nothing runs or a console job
// owns the terminal. stdout is captured (no terminal), so nothing is drawn.
TEST(LiveStatusTest, RefreshDeadline) {
  unsetenv("NINJA_STATUS");
  State state;
  ASSERT_TRUE(test::ParseManifest(&state, "rule r\n  command = run $out\n  pool = console\n"
                                          "rule q\n  command = run $out\nbuild a: q\nbuild b: q\nbuild c: r\n"));
  Edge* a = state.LookupNode("a")->in_edge;
  Edge* b = state.LookupNode("b")->in_edge;
  Edge* c = state.LookupNode("c")->in_edge;
  BuildConfig config;
  testing::internal::CaptureStdout();
  {
    LiveStatus live(config);
    live.EdgeAddedToPlan(a);
    live.EdgeAddedToPlan(b);
    live.EdgeAddedToPlan(c);
    live.BuildStarted();
    EXPECT_EQ(-1, live.RefreshDeadline());
    live.BuildEdgeStarted(a, 1000);
    EXPECT_EQ(1100, live.RefreshDeadline());
    live.BuildEdgeStarted(b, 1050);
    EXPECT_EQ(1100, live.RefreshDeadline());
    live.Refresh(1130);
    EXPECT_EQ(1230, live.RefreshDeadline());
    live.BuildEdgeFinished(a, 1000, 1200, kExitSuccess, "");
    live.BuildEdgeFinished(b, 1050, 1210, kExitSuccess, "");
    EXPECT_EQ(-1, live.RefreshDeadline());
    live.BuildEdgeStarted(c, 5000);
    EXPECT_EQ(-1, live.RefreshDeadline());  // the console job's terminal
    live.BuildEdgeFinished(c, 5000, 5100, kExitSuccess, "");
    live.BuildFinished();
  }
  testing::internal::GetCapturedStdout();
}

TEST(RunningJobsTest, OldestFirstWhateverEndsFirst) {
  static const char anchors[8] = {};  // distinct addresses: edges are only compared
  auto edge = [](int i) { return reinterpret_cast<const Edge*>(anchors + i); };
  RunningJobs jobs;
  for (int i = 0; i < 4; ++i) jobs.Add(edge(i), i);
  jobs.Remove(edge(1));
  jobs.Remove(edge(7));  // not running: nothing happens
  jobs.Add(edge(4), 4);  // in the slot job 1 left
  ASSERT_EQ(4u, jobs.size());
  std::vector<int64_t> starts;
  for (size_t i = 0; i < jobs.size(); ++i) starts.push_back(jobs[i].start_millis);
  EXPECT_EQ((std::vector<int64_t>{0, 2, 3, 4}), starts);
  ASSERT_NE(nullptr, jobs.Find(edge(4)));
  EXPECT_EQ(4, jobs.Find(edge(4))->start_millis);
  EXPECT_EQ(nullptr, jobs.Find(edge(1)));
  jobs.Clear();
  EXPECT_TRUE(jobs.empty());
}

TEST(LiveStatusTest, ASizeTheTerminalDoesNotGiveComesFromTheEnvironment) {
  if (isatty(STDOUT_FILENO)) GTEST_SKIP() << "stdout is a terminal: its own size is used";
  int columns = 0, rows = 0;
  setenv("COLUMNS", "50", 1);
  setenv("LINES", "10", 1);
  LiveStatus::ScreenSize(&columns, &rows);
  EXPECT_EQ(50, columns);
  EXPECT_EQ(10, rows);
  setenv("COLUMNS", "0", 1);
  unsetenv("LINES");
  LiveStatus::ScreenSize(&columns, &rows);
  EXPECT_EQ(80, columns);
  EXPECT_EQ(24, rows);
  unsetenv("COLUMNS");
}

TEST(RunningJobsTest, AReusedSlotForgetsTheJobBefore) {
  static const char anchors[2] = {};
  const Edge* first = reinterpret_cast<const Edge*>(anchors);
  const Edge* second = reinterpret_cast<const Edge*>(anchors + 1);
  RunningJobs jobs;
  RunningJob& job = jobs.Add(first, 10);
  job.description = "CC a.o";
  job.described = true;
  job.last_line = "warning";
  job.output_seen = 7;
  jobs.Remove(first);
  RunningJob& next = jobs.Add(second, 20);
  EXPECT_EQ(second, next.edge);
  EXPECT_EQ(20, next.start_millis);
  EXPECT_FALSE(next.described);
  EXPECT_EQ("", next.last_line);
  EXPECT_EQ(0u, next.output_seen);
}

}  // namespace
}  // namespace ronin
