// Tests for memory-aware admission (sched/memory_admission.h) and the peak-RSS
// history behind it (sched/resource_history.h): reading a fake meminfo and cgroup
// through RONIN_MEMORY_INFO_DIR, measuring a process group, and deciding.
#include "sched/memory_admission.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <deque>
#include <string>

#include "exec/command_runner.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "log/state_file.h"
#include "sched/resource_history.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

constexpr int64_t kMiB = 1 << 20;

class MemoryAdmissionTest : public testing::Test {
 protected:
  void SetUp() override {
    setenv("RONIN_MEMORY_INFO_DIR", dir_.path().c_str(), 1);
    ASSERT_TRUE(test::ParseManifest(&state_,
                                    "rule big\n  command = big\nrule small\n  command = small\n"
                                    "build b1: big\nbuild b2: big\nbuild b3: big\nbuild s1: small\n"));
    std::string err;
    ASSERT_TRUE(file_.Load(dir_.File(".ronin_state"), &err)) << err;
  }
  void TearDown() override { unsetenv("RONIN_MEMORY_INFO_DIR"); }

  void SetAvailableMiB(int64_t mib) {
    WriteRealFile(dir_.File("meminfo"),
                  "MemTotal: 99999 kB\nMemFree: 1 kB\nMemAvailable: " + std::to_string(mib * 1024) + " kB\n");
  }
  Edge* EdgeFor(const char* output) { return state_.LookupNode(output)->in_edge; }

  ScopedTempDir dir_;
  State state_;
  StateFile file_;
};

TEST_F(MemoryAdmissionTest, ReadsMemAvailable) {
  SetAvailableMiB(300);
  EXPECT_EQ(300 * kMiB, AvailableMemory());
}

TEST_F(MemoryAdmissionTest, CgroupHeadroomIsTighter) {
  SetAvailableMiB(300);
  WriteRealFile(dir_.File("memory.max"), std::to_string(200 * kMiB) + "\n");
  WriteRealFile(dir_.File("memory.current"), std::to_string(150 * kMiB) + "\n");
  EXPECT_EQ(50 * kMiB, AvailableMemory());
  WriteRealFile(dir_.File("memory.max"), "max\n");  // no limit
  EXPECT_EQ(300 * kMiB, AvailableMemory());
}

TEST_F(MemoryAdmissionTest, UnknownWithoutMeminfo) { EXPECT_EQ(-1, AvailableMemory()); }

TEST_F(MemoryAdmissionTest, MeasuresOurOwnProcessGroup) {
  std::vector<int64_t> rss = ResidentMemoryOfGroups({getpgrp(), 999999999});
  ASSERT_EQ(2u, rss.size());
  EXPECT_GT(rss[0], 1 * kMiB);      // at least this test binary
  EXPECT_LT(rss[0], 64 * 1024 * kMiB);  // and not a misread field
  EXPECT_EQ(0, rss[1]);
}

TEST_F(MemoryAdmissionTest, HistoryKeepsPeaksAndRuleMedians) {
  ResourceHistory history(&state_, &file_);
  std::string err;
  EXPECT_EQ(-1, history.ExpectedPeakRss(EdgeFor("b1")));
  ASSERT_TRUE(history.RecordPeakRss(EdgeFor("b1"), 100 * kMiB, &err)) << err;
  ASSERT_TRUE(history.RecordPeakRss(EdgeFor("b2"), 300 * kMiB, &err)) << err;
  ASSERT_TRUE(history.RecordPeakRss(EdgeFor("s1"), 1 * kMiB, &err)) << err;
  EXPECT_EQ(100 * kMiB, history.ExpectedPeakRss(EdgeFor("b1")));

  // A new run reads them back; b3 never ran: its rule's median.
  StateFile reloaded;
  ASSERT_TRUE(reloaded.Load(dir_.File(".ronin_state"), &err)) << err;
  ResourceHistory next(&state_, &reloaded);
  EXPECT_EQ(300 * kMiB, next.ExpectedPeakRss(EdgeFor("b2")));
  EXPECT_EQ(300 * kMiB, next.ExpectedPeakRss(EdgeFor("b3")));  // median of {100, 300}
  EXPECT_EQ(1 * kMiB, next.ExpectedPeakRss(EdgeFor("s1")));
}

TEST_F(MemoryAdmissionTest, HistoryRecordsEveryFinishedCommandsPeak) {
  ResourceHistory history(&state_, &file_);
  std::string err;
  FinishedCommand failed;
  failed.edge = EdgeFor("b1");
  failed.status = kExitFailure;
  failed.peak_rss_bytes = 120 * kMiB;
  ASSERT_TRUE(history.Record(failed, &err)) << err;  // a failed run needed its memory too
  EXPECT_EQ(120 * kMiB, history.ExpectedPeakRss(EdgeFor("b1")));
  FinishedCommand unknown = failed;
  unknown.peak_rss_bytes = -1;
  ASSERT_TRUE(history.Record(unknown, &err)) << err;
  EXPECT_EQ(120 * kMiB, history.ExpectedPeakRss(EdgeFor("b1")));  // nothing learnt
}

TEST(ResourceHistoryTest, ParsesPayloads) {
  EXPECT_EQ(1234, ResourceHistory::ParsePeakRss("peak_rss=1234"));
  EXPECT_EQ(5, ResourceHistory::ParsePeakRss("cpu=9 peak_rss=5 other=x"));
  EXPECT_EQ(-1, ResourceHistory::ParsePeakRss(""));
  EXPECT_EQ(-1, ResourceHistory::ParsePeakRss("peak_rss="));
  EXPECT_EQ(-1, ResourceHistory::ParsePeakRss("peak_rss=-5"));
  EXPECT_EQ(-1, ResourceHistory::ParsePeakRss("peak_rss=12x"));
  EXPECT_EQ(-1, ResourceHistory::ParsePeakRss("peak_rss=99999999999999999999999"));
}

TEST_F(MemoryAdmissionTest, RunningJobsCountUntilTheyReachTheirNeed) {
  ResourceHistory history(&state_, &file_);
  std::string err;
  for (const char* edge : {"b1", "b2", "b3"}) ASSERT_TRUE(history.RecordPeakRss(EdgeFor(edge), 100 * kMiB, &err));
  MemoryAdmission admission(64 * kMiB, &history);
  SetAvailableMiB(250);
  std::string why;
  EXPECT_TRUE(admission.MayStart(EdgeFor("b1"), &why));  // nothing runs: always
  admission.JobStarted(EdgeFor("b1"), -1);
  // 250 - 100 (b1, not there yet) - 100 = 50 < 64.
  EXPECT_FALSE(admission.MayStart(EdgeFor("b2"), &why));
  EXPECT_NE(std::string::npos, why.find("needs ~100 MiB")) << why;
  SetAvailableMiB(300);
  EXPECT_TRUE(admission.MayStart(EdgeFor("b2"), &why));  // 300 - 100 - 100 >= 64
  admission.JobFinished(EdgeFor("b1"));
  SetAvailableMiB(100);
  EXPECT_TRUE(admission.MayStart(EdgeFor("b2"), &why));  // nothing runs again
}

TEST_F(MemoryAdmissionTest, AJobWhoseGroupHoldsItsNeedNoLongerCounts) {
  ResourceHistory history(&state_, &file_);
  std::string err;
  ASSERT_TRUE(history.RecordPeakRss(EdgeFor("b1"), 1 * kMiB, &err));
  ASSERT_TRUE(history.RecordPeakRss(EdgeFor("b2"), 100 * kMiB, &err));
  MemoryAdmission admission(64 * kMiB, &history);
  SetAvailableMiB(170);
  // Our own process group stands for b1: it already holds more than 1 MiB,
  // so only b2's need is left to count: 170 - 0 - 100 >= 64.
  admission.JobStarted(EdgeFor("b1"), getpgrp());
  std::string why;
  EXPECT_TRUE(admission.MayStart(EdgeFor("b2"), &why)) << why;
  // Without a group to look at, b1 counts whole: 164 - 1 - 100 < 64.
  MemoryAdmission blind(64 * kMiB, &history);
  blind.JobStarted(EdgeFor("b1"), -1);
  SetAvailableMiB(164);
  EXPECT_FALSE(blind.MayStart(EdgeFor("b2"), &why));
}

// The stage before the memory stage: hands out queued work, takes back
// what is put back.
class QueuedWork : public WorkSource {
 public:
  Work Next(bool local_room) override {
    if (!local_room || queue.empty()) return Work();
    Work work = queue.front();
    queue.pop_front();
    return work;
  }
  void PutBack(const Work& work) override { queue.push_front(work); }
  std::deque<Work> queue;
};

class NoRunner : public CommandRunner {
 public:
  bool StartCommand(Edge*) override { return true; }
  bool WaitForCommand(Result*, int64_t, int64_t, int) override { return false; }
};

TEST_F(MemoryAdmissionTest, AsAStageHoldsBackTheBestLocalEdgeAndWhatFollows) {
  ResourceHistory history(&state_, &file_);
  std::string err;
  for (const char* edge : {"b1", "b2", "b3"}) ASSERT_TRUE(history.RecordPeakRss(EdgeFor(edge), 100 * kMiB, &err));
  MemoryAdmission admission(64 * kMiB, &history, /*explain=*/true);
  QueuedWork ready;
  admission.set_upstream(&ready);
  ready.queue = {Work{EdgeFor("b1")}, Work{EdgeFor("b2")}, Work{EdgeFor("b3")}};
  SetAvailableMiB(250);
  NoRunner runner;
  Work first = admission.Next(true);
  ASSERT_EQ(EdgeFor("b1"), first.edge);  // nothing runs: always
  admission.Started(first, runner);
  testing::internal::CaptureStderr();
  EXPECT_EQ(nullptr, admission.Next(true).edge);  // 250 - 100 - 100 < 64
  EXPECT_EQ("ninja explain: not starting b2 yet: needs ~100 MiB, 250 MiB available of which running jobs may "
            "still take 100 MiB, keeping 64 MiB free\n",
            testing::internal::GetCapturedStderr());
  ASSERT_EQ(2u, ready.queue.size());
  EXPECT_EQ(EdgeFor("b2"), ready.queue.front().edge);  // back, first in line
  // A remote job's memory is the farm's.
  ready.queue.push_front(Work{EdgeFor("b3"), JobSlot::kRemote});
  EXPECT_EQ(EdgeFor("b3"), admission.Next(true).edge);
  admission.Finished(first);
  EXPECT_EQ(EdgeFor("b2"), admission.Next(true).edge);  // nothing runs again
}

}  // namespace
}  // namespace ronin
