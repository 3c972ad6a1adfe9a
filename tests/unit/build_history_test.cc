// Tests for the trace and report tools' model of a build: the builds in
// .ninja_log (insight/build_history.h), job slots (insight/job_slots.h) and the critical
// path (insight/critical_path.h).
#include "insight/build_history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "graph/state.h"
#include "insight/critical_path.h"
#include "insight/job_slots.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::ScopedTempDir;
using test::WriteRealFile;

std::vector<std::string> FirstOutputs(const std::vector<LoggedJob>& jobs) {
  std::vector<std::string> names;
  for (const LoggedJob& job : jobs) names.emplace_back(job.outputs.front());
  return names;
}

class BuildHistoryTest : public ::testing::Test {
 protected:
  // Loads a log made of `lines` after a v7 header.
  void Load(const std::string& lines) {
    WriteRealFile(path_, "# ninja log v7\n" + lines);
    std::string err;
    ASSERT_TRUE(history_.Load(path_, &err)) << err;
  }
  ScopedTempDir dir_;
  std::string path_ = dir_.path() + "/.ninja_log";
  BuildHistory history_;
};

TEST_F(BuildHistoryTest, LastBuildStartsAfterTheLastDropInEndTimes) {
  Load("0\t10\t0\ta\t1\n10\t20\t0\tb\t2\n"  // first build
       "0\t5\t0\ta\t1\n"                    // second: ends before 20
       "1\t30\t0\tc\t3\n2\t30\t0\td\t4\n");  // still the second (30 >= 5, 30 >= 30)
  EXPECT_EQ((std::vector<std::string>{"a", "c", "d"}), FirstOutputs(history_.LastBuild()));
  EXPECT_EQ(5u, history_.line_count());
}

TEST_F(BuildHistoryTest, OneCommandsOutputsAreOneJob) {
  Load("0\t10\t0\tx\t7\n0\t10\t0\ty\t7\n0\t10\t0\tz\t8\n");
  std::vector<LoggedJob> jobs = history_.LastBuild();
  ASSERT_EQ(2u, jobs.size());
  EXPECT_EQ((std::vector<std::string_view>{"x", "y"}), jobs[0].outputs);
  EXPECT_EQ(10, jobs[0].duration_ms());
  EXPECT_EQ(0x7u, jobs[0].command_hash);
}

TEST_F(BuildHistoryTest, LatestOfEveryOutputAndEarlierDurations) {
  Load("0\t10\t0\ta\t1\n10\t25\t0\tb\t2\n0\t4\t0\ta\t1\n4\t9\t0\tc\t3\n");
  std::vector<LoggedJob> latest = history_.LatestOfEveryOutput();
  ASSERT_EQ((std::vector<std::string>{"b", "a", "c"}), FirstOutputs(latest));
  EXPECT_EQ(4, latest[1].duration_ms());
  std::vector<LoggedJob> last = history_.LastBuild();
  EXPECT_EQ((std::vector<int>{10, -1}), history_.EarlierDurations(last));
}

TEST_F(BuildHistoryTest, SkipsBadLinesAndACutTail) {
  Load("0\t10\t0\ta\t1\njunk\n\n1\t2\t3\n10\t20\t0\tb\t2\n20\t30\t0\tc");
  EXPECT_EQ((std::vector<std::string>{"a", "b"}), FirstOutputs(history_.LastBuild()));
}

TEST_F(BuildHistoryTest, TimesOutsideTheRangeAreClamped) {
  Load("-5\t99999999999999999999\t0\ta\t1\n");
  std::vector<LoggedJob> jobs = history_.LastBuild();
  ASSERT_EQ(1u, jobs.size());
  EXPECT_EQ(0, jobs[0].start_ms);
  EXPECT_EQ(1 << 30, jobs[0].end_ms);
}

TEST_F(BuildHistoryTest, EmptyAndHeaderOnlyLogsHoldNoBuild) {
  WriteRealFile(path_, "");
  std::string err;
  ASSERT_TRUE(history_.Load(path_, &err));
  EXPECT_TRUE(history_.LastBuild().empty());
  Load("");
  EXPECT_TRUE(history_.LastBuild().empty());
}

TEST_F(BuildHistoryTest, ErrorsUseTheBuildLogsWords) {
  std::string err;
  EXPECT_FALSE(history_.Load(dir_.path() + "/missing", &err));
  EXPECT_EQ("No such file or directory", err);
  for (auto [header, message] : {std::pair{"# ninja log v4\n", "build log version is too old"},
                                 std::pair{"# ninja log v8\n", "build log version is too new"},
                                 std::pair{"garbage\n", "build log version is too old"}}) {
    WriteRealFile(path_, header);
    EXPECT_FALSE(history_.Load(path_, &err));
    EXPECT_EQ(message, err);
  }
  WriteRealFile(path_, "# ninja log v5\n0\t1\t0\ta\t1\n");  // old versions have the same lines
  EXPECT_TRUE(history_.Load(path_, &err));
  EXPECT_EQ(1u, history_.LastBuild().size());
}

LoggedJob Job(int start, int end) {
  LoggedJob job;
  job.start_ms = start;
  job.end_ms = end;
  return job;
}

// The most jobs running at one instant.
int PeakOverlap(const std::vector<LoggedJob>& jobs) {
  std::vector<std::pair<int, int>> events;
  for (const LoggedJob& job : jobs) {
    events.push_back({job.start_ms, 1});
    events.push_back({job.end_ms, -1});
  }
  std::sort(events.begin(), events.end());  // ends (-1) before starts at one instant
  int running = 0, peak = 0;
  for (auto& event : events) peak = std::max(peak, running += event.second);
  return peak;
}

TEST(JobSlotsTest, NoOverlapOnASlotAndAsFewSlotsAsThePeak) {
  std::mt19937 random(42);
  for (int round = 0; round < 20; ++round) {
    std::vector<LoggedJob> jobs;
    for (int i = 0; i < 300; ++i) {
      int start = static_cast<int>(random() % 5000);
      jobs.push_back(Job(start, start + static_cast<int>(random() % 400)));
    }
    SlotLayout layout = AssignSlots(jobs);
    EXPECT_EQ(PeakOverlap(jobs), layout.slot_count);
    for (size_t a = 0; a < jobs.size(); ++a) {
      for (size_t b = a + 1; b < jobs.size(); ++b) {
        if (layout.slot_of_job[a] != layout.slot_of_job[b]) continue;
        bool apart = jobs[a].end_ms <= jobs[b].start_ms || jobs[b].end_ms <= jobs[a].start_ms;
        EXPECT_TRUE(apart) << a << " and " << b << " overlap on slot " << layout.slot_of_job[a];
      }
    }
  }
}

TEST(JobSlotsTest, BackToBackJobsShareASlot) {
  SlotLayout layout = AssignSlots({Job(10, 20), Job(0, 10), Job(20, 20)});
  EXPECT_EQ(1, layout.slot_count);
  EXPECT_EQ((std::vector<int>{0, 0, 0}), layout.slot_of_job);
  EXPECT_EQ(0, AssignSlots({}).slot_count);
}

class CriticalPathTest : public ::testing::Test {
 protected:
  // Jobs for `outputs` with the given durations, run back to back.
  void Run(const std::vector<std::pair<std::string, int>>& outputs) {
    int now = 0;
    for (auto& [output, duration] : outputs) {
      names_.push_back(output);
      jobs_.push_back(Job(now, now + duration));
      now += duration;
    }
    for (size_t i = 0; i < jobs_.size(); ++i) jobs_[i].outputs = {names_[i]};
  }
  std::vector<std::string> Path() {
    CriticalPath path = FindCriticalPath(state_, jobs_, EdgesOfJobs(state_, jobs_));
    std::vector<std::string> names;
    for (size_t job : path.jobs) names.push_back(names_[job]);
    total_ = path.total_ms;
    return names;
  }
  State state_;
  std::vector<std::string> names_;
  std::vector<LoggedJob> jobs_;
  int64_t total_ = 0;
};

TEST_F(CriticalPathTest, LongestChainByDuration) {
  ASSERT_TRUE(ParseManifest(&state_,
                            "rule r\n  command = r\n"
                            "build a: r\nbuild b: r\nbuild c: r a\nbuild d: r b\nbuild e: r c d\n"));
  Run({{"a", 50}, {"b", 10}, {"c", 10}, {"d", 100}, {"e", 5}});
  EXPECT_EQ((std::vector<std::string>{"b", "d", "e"}), Path());
  EXPECT_EQ(115, total_);
}

TEST_F(CriticalPathTest, PassesThroughPhonyAndUpToDateEdges) {
  ASSERT_TRUE(ParseManifest(&state_,
                            "rule r\n  command = r\n"
                            "build gen: r\nbuild alias: phony gen\nbuild clean: r alias\n"
                            "build top: r clean || other\nbuild other: r\n"));
  // `clean` did not run in this build; `top` still waited for `gen`.
  Run({{"gen", 30}, {"other", 20}, {"top", 5}});
  EXPECT_EQ((std::vector<std::string>{"gen", "top"}), Path());
  EXPECT_EQ(35, total_);
}

TEST_F(CriticalPathTest, OutputsGoneFromTheManifestStandAlone) {
  ASSERT_TRUE(ParseManifest(&state_, "rule r\n  command = r\nbuild a: r\n"));
  Run({{"a", 10}, {"gone", 40}});
  EXPECT_EQ((std::vector<std::string>{"a"}), Path());
  EXPECT_EQ(nullptr, EdgesOfJobs(state_, jobs_)[1]);
}

TEST_F(CriticalPathTest, ACycleIsCutAndADeepChainNeedsNoRecursion) {
  std::string manifest = "rule r\n  command = r\nbuild x: r y\nbuild y: r x\nbuild n0: r\n";
  const int kDepth = 200000;
  for (int i = 1; i < kDepth; ++i)
    manifest += "build n" + std::to_string(i) + ": r n" + std::to_string(i - 1) + "\n";
  ASSERT_TRUE(ParseManifest(&state_, manifest));
  std::vector<std::pair<std::string, int>> run = {{"x", 1}, {"y", 1}};
  for (int i = 0; i < kDepth; ++i) run.push_back({"n" + std::to_string(i), 1});
  Run(run);
  EXPECT_EQ(static_cast<size_t>(kDepth), Path().size());
  EXPECT_EQ(kDepth, total_);
}

}  // namespace
}  // namespace ronin
