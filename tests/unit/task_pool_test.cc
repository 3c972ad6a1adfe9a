// Tests for base/task_pool.h. Nothing here asserts a duration: the one wait
// has a generous guard that only turns a hang into a failure.
#include "base/task_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace ronin {
namespace {

TEST(TaskPoolTest, EveryPostedTaskRunsOnceBeforeDrainReturns) {
  TaskPool pool(3);
  std::vector<std::atomic<int>> runs(200);
  for (auto& count : runs) count = 0;
  for (size_t i = 0; i < runs.size(); ++i) pool.Post([&runs, i] { ++runs[i]; });
  pool.Drain();
  EXPECT_EQ(0u, pool.pending());
  for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(1, runs[i].load()) << "task " << i;
}

TEST(TaskPoolTest, TasksRunOffTheCallersThreadAndSideBySide) {
  TaskPool pool(2);
  // Each task waits until both have begun: one thread alone would hang
  // here (the guard then fails the test).
  std::mutex mutex;
  std::condition_variable changed;
  int begun = 0;
  bool both_met = true;
  std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> on_caller{false};
  for (int i = 0; i < 2; ++i) {
    pool.Post([&] {
      if (std::this_thread::get_id() == caller) on_caller = true;
      std::unique_lock<std::mutex> lock(mutex);
      ++begun;
      changed.notify_all();
      if (!changed.wait_for(lock, std::chrono::seconds(300), [&] { return begun == 2; })) both_met = false;
    });
  }
  pool.Drain();
  EXPECT_TRUE(both_met);
  EXPECT_FALSE(on_caller);
}

TEST(TaskPoolTest, WhatIsQueuedStillRunsWhenThePoolGoes) {
  std::atomic<int> runs{0};
  {
    TaskPool pool(1);
    for (int i = 0; i < 50; ++i) pool.Post([&runs] { ++runs; });
  }
  EXPECT_EQ(50, runs.load());
}

TEST(TaskPoolTest, APoolNeverPostedToDrainsAtOnce) {
  TaskPool pool(4);
  pool.Drain();
  EXPECT_EQ(0u, pool.pending());
}

}  // namespace
}  // namespace ronin
