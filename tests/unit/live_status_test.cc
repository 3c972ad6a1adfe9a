// Tests for the live view's pure parts (live_status.h): the block's lines
// for a terminal size, and the last line of a job's output.
#include "live_status.h"

#include <gtest/gtest.h>
#include <stdio.h>

#include <string>
#include <vector>

namespace ronin {
namespace {

std::vector<LiveStatus::Job> Jobs(int n) {
  std::vector<LiveStatus::Job> jobs;
  for (int i = 0; i < n; ++i) jobs.push_back({nullptr, 1000 * i, "CC obj" + std::to_string(i) + ".o", "", 0});
  return jobs;
}

TEST(LiveStatusTest, OneLinePerJobOldestFirstWithElapsedTime) {
  std::vector<LiveStatus::Job> jobs = Jobs(2);
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
    std::vector<LiveStatus::Job> jobs = Jobs(1);
    std::string line = LiveStatus::BlockLines(jobs, millis, 200, 24).at(0);
    char expected[64];
    snprintf(expected, sizeof(expected), "%6.1fs CC obj0.o", millis / 1e3);
    EXPECT_EQ(expected, line) << millis;
  }
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

}  // namespace
}  // namespace ronin
