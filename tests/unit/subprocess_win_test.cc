// Tests for exec/subprocess_win.cc's own parts (built only for Windows, run
// as the .exe under wine): the commands that start on spawner threads once
// a few run, and the handle list that keeps what ninja holds from them. The
// interface both platforms keep is subprocess_test.cc's; what a command
// sees compared with ninja.exe 1.13.2 is test_win_scenarios' and
// test_win_diff's. Nothing here asserts a duration: every wait has a
// generous guard that only turns a hang into a failure.
#include "exec/subprocess.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/win32.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;

constexpr std::chrono::seconds kHangGuard(300);
// More than the jobs the loop starts itself: the rest go to spawners.
constexpr int kManyJobs = 24;
const char kProbeVariable[] = "RONIN_TEST_INHERITED_HANDLE";
const char kHeldText[] = "ronin: a handle ninja holds";
const char kHoldVariable[] = "RONIN_TEST_HOLD_MIB";

bool WorkUntilAllFinished(SubprocessSet* set) {
  auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (set->running_count() > 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "hang guard: still waiting after " << kHangGuard.count() << " s";
      return false;
    }
    if (set->DoWork(-1, nullptr, 1000)) return false;
  }
  return true;
}

std::vector<std::unique_ptr<Subprocess>> TakeFinished(SubprocessSet* set) {
  std::vector<std::unique_ptr<Subprocess>> jobs;
  while (std::unique_ptr<Subprocess> job = set->NextFinished()) jobs.push_back(std::move(job));
  return jobs;
}

TEST(SubprocessWinTest, JobsBeyondTheFirstFewStartOnSpawnersAndKeepTheirOutput) {
  SubprocessSet set(/*reap_jobs=*/false);
  std::vector<Subprocess*> added;
  for (int i = 0; i < kManyJobs; ++i) {
    Subprocess* job = set.Add("cmd /c echo job " + std::to_string(i));
    ASSERT_NE(nullptr, job);
    added.push_back(job);
  }
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::vector<std::unique_ptr<Subprocess>> jobs = TakeFinished(&set);
  ASSERT_EQ(added.size(), jobs.size());
  std::set<pid_t> pids;
  for (auto& job : jobs) {
    EXPECT_EQ(0, job->Finish());
    size_t index = std::find(added.begin(), added.end(), job.get()) - added.begin();
    EXPECT_EQ("job " + std::to_string(index) + "\r\n", job->output());
    EXPECT_GT(job->pid(), 0);
    pids.insert(job->pid());
  }
  EXPECT_EQ(jobs.size(), pids.size());
}

TEST(SubprocessWinTest, AMissingProgramStartedOnASpawnerFailsOnlyItsJob) {
  SubprocessSet set(/*reap_jobs=*/false);
  for (int i = 0; i < 6; ++i) ASSERT_NE(nullptr, set.Add("cmd /c exit 3"));
  Subprocess* missing = set.Add("ronin-no-such-program-anywhere.exe");
  ASSERT_NE(nullptr, missing);
  ASSERT_NE(nullptr, set.Add("cmd /c exit 3"));
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::vector<std::unique_ptr<Subprocess>> jobs = TakeFinished(&set);
  ASSERT_EQ(8u, jobs.size());
  for (auto& job : jobs) {
    if (job.get() == missing) {
      EXPECT_EQ(kExitFailure, job->Finish());
      EXPECT_EQ("CreateProcess failed: The system cannot find the file specified.\n", job->output());
    } else {
      EXPECT_EQ(3, job->Finish());
      EXPECT_EQ("", job->output());
    }
  }
}

TEST(SubprocessWinTest, AMissingProgramStartedInTheLoopFailsOnlyItsJob) {
  SubprocessSet set(/*reap_jobs=*/false);
  ASSERT_NE(nullptr, set.Add("cmd /c exit 3"));
  // Done at once; its pipe's connection completed on the port before it
  // closed, and that completion must not reach the job (it stopped the
  // build with "GetOverlappedResult: ..." once the loop waited again).
  Subprocess* missing = set.Add("ronin-no-such-program-anywhere.exe");
  ASSERT_NE(nullptr, missing);
  EXPECT_EQ(1u, set.finished_count());
  std::unique_ptr<Subprocess> gone = set.NextFinished();
  EXPECT_EQ(missing, gone.get());
  EXPECT_EQ(kExitFailure, gone->Finish());
  ASSERT_NE(nullptr, set.Add("cmd /c exit 4"));
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::vector<std::unique_ptr<Subprocess>> jobs = TakeFinished(&set);
  ASSERT_EQ(2u, jobs.size());
  std::multiset<int> codes;
  for (auto& job : jobs) codes.insert(job->Finish());
  EXPECT_EQ((std::multiset<int>{3, 4}), codes);
}

TEST(SubprocessWinTest, AJobReapedByWaitForRoomKeepsItsResult) {
  SubprocessSet set(/*reap_jobs=*/false);
  Subprocess* quick = set.Add("cmd /c exit 4");
  ASSERT_NE(nullptr, quick);
  // Waits for it and reaps it at once, as when a start failed for lack of room.
  EXPECT_TRUE(set.WaitForRoom());
  std::unique_ptr<Subprocess> finished = set.NextFinished();
  ASSERT_EQ(quick, finished.get());
  EXPECT_EQ(4, finished->Finish());
  EXPECT_EQ(4, finished->Finish());
}

TEST(SubprocessWinTest, ClearWhileStartsAreQueuedLeavesNothingBehind) {
  SubprocessSet set(/*reap_jobs=*/false);
  for (int i = 0; i < kManyJobs; ++i) ASSERT_NE(nullptr, set.Add("cmd /c echo cleared"));
  set.Clear();
  EXPECT_EQ(0u, set.running_count());
  EXPECT_EQ(0u, set.finished_count());
  // The set goes on working after it.
  Subprocess* job = set.Add("cmd /c echo after");
  ASSERT_NE(nullptr, job);
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::unique_ptr<Subprocess> done = set.NextFinished();
  ASSERT_EQ(job, done.get());
  EXPECT_EQ(0, done->Finish());
  EXPECT_EQ("after\r\n", done->output());
}

// Run as a command by the test below (skipped otherwise): holds that many
// MiB, every page written, for a second, many of the sampler's ticks.
TEST(SubprocessWinTest, ProbeThatHoldsMemory) {
  const char* mib = getenv(kHoldVariable);
  if (!mib) GTEST_SKIP() << "a probe run by AJobsPeakIsItsTreesSeenWhileItRan";
  size_t bytes = static_cast<size_t>(atoi(mib)) << 20;
  char* held = static_cast<char*>(VirtualAlloc(nullptr, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE));
  ASSERT_NE(nullptr, held);
  memset(held, 1, bytes);
  Sleep(1000);
  VirtualFree(held, 0, MEM_RELEASE);
}

std::string SelfRunning(const char* test) {
  char self[MAX_PATH * 4];
  DWORD length = GetModuleFileNameA(nullptr, self, sizeof self);
  EXPECT_TRUE(length > 0 && length < sizeof self);
  return std::string("\"") + self + "\" --gtest_filter=SubprocessWinTest." + test;
}

// Wine reports 0 for an ended process's peak working set, and Windows the
// process's own only: the sampler's view of the tree makes the peak.
TEST(SubprocessWinTest, AJobsPeakIsItsTreesSeenWhileItRan) {
  const int64_t kMiB = 1 << 20;
  const int kHeldMiB = 96;
  ASSERT_TRUE(SetEnvironmentVariableA(kHoldVariable, std::to_string(kHeldMiB).c_str()));
  SubprocessSet set(/*reap_jobs=*/false);
  // cmd waits for the probe, whose memory is what makes the peak.
  Subprocess* hog = set.Add("cmd /c " + SelfRunning("ProbeThatHoldsMemory"));
  ASSERT_TRUE(SetEnvironmentVariableA(kHoldVariable, nullptr));
  ASSERT_NE(nullptr, hog);
  // Short jobs, in the loop and on spawners, have a peak too.
  for (int i = 0; i < 6; ++i) ASSERT_NE(nullptr, set.Add("cmd /c exit 0"));
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::vector<std::unique_ptr<Subprocess>> jobs = TakeFinished(&set);
  ASSERT_EQ(7u, jobs.size());
  for (auto& job : jobs) {
    EXPECT_EQ(-1, job->peak_rss_bytes());
    EXPECT_EQ(0, job->Finish()) << job->output();
    if (job.get() == hog) {
      EXPECT_GE(job->peak_rss_bytes(), kHeldMiB * kMiB);
    } else {
      EXPECT_GT(job->peak_rss_bytes(), 0);
      EXPECT_LT(job->peak_rss_bytes(), kHeldMiB * kMiB);
    }
  }
}

// Run as a command by the test below (skipped otherwise): reads through the
// handle value it is told of, and says whether that is the file ninja holds.
TEST(SubprocessWinTest, ProbeOfAnInheritedHandle) {
  const char* value = getenv(kProbeVariable);
  if (!value) GTEST_SKIP() << "a probe run by ACommandCannotSeeAHandleNinjaHolds";
  HANDLE handle = reinterpret_cast<HANDLE>(static_cast<uintptr_t>(strtoull(value, nullptr, 16)));
  char text[64] = {};
  DWORD read = 0;
  bool readable = SetFilePointer(handle, 0, nullptr, FILE_BEGIN) != INVALID_SET_FILE_POINTER &&
                  ReadFile(handle, text, sizeof text - 1, &read, nullptr);
  printf("probe: %s\n", readable && std::string(text, read) == kHeldText ? "visible" : "hidden");
}

TEST(SubprocessWinTest, ACommandCannotSeeAHandleNinjaHolds) {
  ScopedTempDir dir;
  // Inheritable, as the C library opens the build log.
  SECURITY_ATTRIBUTES inheritable = {sizeof inheritable, nullptr, TRUE};
  HANDLE held = CreateFileA(dir.File("held").c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ,
                            &inheritable, CREATE_ALWAYS, 0, nullptr);
  ASSERT_NE(INVALID_HANDLE_VALUE, held);
  DWORD written = 0;
  ASSERT_TRUE(WriteFile(held, kHeldText, sizeof kHeldText - 1, &written, nullptr));
  char value[32];
  snprintf(value, sizeof value, "%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(held)));
  ASSERT_TRUE(SetEnvironmentVariableA(kProbeVariable, value));
  std::string probe = SelfRunning("ProbeOfAnInheritedHandle");

  // The probe tells: a process that inherits every inheritable handle
  // (_popen's CreateProcess, as ninja.exe's) sees the file.
  std::string inheriting_all;
  if (FILE* pipe = _popen(probe.c_str(), "r")) {
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) inheriting_all.append(buffer, n);
    _pclose(pipe);
  }
  EXPECT_NE(std::string::npos, inheriting_all.find("probe: visible")) << inheriting_all;

  // A job does not, whether the loop starts it or a spawner does.
  SubprocessSet set(/*reap_jobs=*/false);
  for (int i = 0; i < 6; ++i) ASSERT_NE(nullptr, set.Add(probe));
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::vector<std::unique_ptr<Subprocess>> jobs = TakeFinished(&set);
  EXPECT_EQ(6u, jobs.size());
  for (auto& job : jobs) {
    EXPECT_EQ(0, job->Finish());
    EXPECT_NE(std::string::npos, job->output().find("probe: hidden")) << job->output();
  }
  SetEnvironmentVariableA(kProbeVariable, nullptr);
  CloseHandle(held);
}

}  // namespace
}  // namespace ronin
