// Tests for base/background_thread.h: a helper thread never takes the signals
// the build loop waits for.
#include "base/background_thread.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>

#include "exec/subprocess.h"

namespace ronin {
namespace {

sigset_t CurrentMask() {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return mask;
}

TEST(BackgroundThreadTest, BlocksAsynchronousSignalsButNotFaults) {
  sigset_t before = CurrentMask();
  sigset_t inside;
  std::thread thread = StartBackgroundThread([&inside] { inside = CurrentMask(); });
  thread.join();
  for (int blocked : {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGWINCH, SIGQUIT, SIGPIPE, SIGUSR1})
    EXPECT_TRUE(sigismember(&inside, blocked)) << blocked;
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) EXPECT_FALSE(sigismember(&inside, fault)) << fault;
  // The creator's own mask is as it was.
  sigset_t after = CurrentMask();
  for (int signum = 1; signum < NSIG; ++signum)
    EXPECT_EQ(sigismember(&before, signum), sigismember(&after, signum)) << signum;
}

// The race this guards against: an interrupt arriving while the build loop
// is between waits (its signals blocked) went to a helper thread, and the
// loop then slept until its commands ended by themselves.
TEST(BackgroundThreadTest, InterruptBetweenWaitsEndsTheNextWait) {
  std::atomic<bool> stop(false);
  std::thread helper = StartBackgroundThread([&stop] {
    while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  {
    SubprocessSet set(/*reap_jobs=*/false);
    ASSERT_NE(set.Add("sleep 3"), nullptr);
    // The main thread blocks it here; a helper that did not would take it
    // within the pause (it wakes every millisecond), leaving nothing pending.
    kill(getpid(), SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(set.DoWork());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1500));
    EXPECT_EQ(set.interrupted(), SIGINT);
    set.Clear();
  }
  stop = true;
  helper.join();
}

}  // namespace
}  // namespace ronin
