// Tests for FileWatcher (watch/file_watcher.h) on the real kernel: which
// changes of a watched directory are reported (settled ones only), lost
// directories, the watch limit, queue overflow and interruption. inotify
// queues an event before the system call that caused it returns, so a
// Wait with no timeout right after an operation sees exactly its events:
// nothing here depends on timing.
#include "watch/file_watcher.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

class FileWatcherTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    watcher_ = FileWatcher::Create(-1, &err);
    ASSERT_TRUE(watcher_) << err;
    dir_ = tmp_.path();
    ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(dir_));
  }

  // Watches `dir`, remembering its name under the id the watcher gave.
  FileWatcher::WatchResult Watch(const std::string& dir) {
    std::string err;
    int id = -1;
    FileWatcher::WatchResult result = watcher_->Watch(dir, &id, &err);
    EXPECT_NE(FileWatcher::WatchResult::kFailed, result) << err;
    if (result == FileWatcher::WatchResult::kWatching) names_.insert({id, dir});
    return result;
  }

  // What is queued now (no waiting for more).
  FileWatcher::Changes Queued() {
    FileWatcher::Changes changes;
    std::string err;
    EXPECT_TRUE(watcher_->Wait(0, 0, 0, &changes, &err)) << err;
    return changes;
  }
  // The paths queued now (a "+" before those reported as created), sorted
  // and without repeats.
  std::vector<std::string> QueuedPaths() {
    std::vector<std::string> paths;
    for (const auto& entry : Queued().entries) {
      auto names = names_.equal_range(entry.watch);
      EXPECT_NE(names.first, names.second) << "an unknown watch id " << entry.watch;
      for (auto name = names.first; name != names.second; ++name)
        paths.push_back((entry.created ? "+" : "") + name->second + "/" + entry.name);
    }
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    return paths;
  }
  std::string In(const std::string& name) const { return dir_ + "/" + name; }
  std::string Created(const std::string& name) const { return "+" + In(name); }

  ScopedTempDir tmp_;
  std::string dir_;
  std::unique_ptr<FileWatcher> watcher_;
  std::multimap<int, std::string> names_;  // what the caller knows: id -> directory
};

TEST_F(FileWatcherTest, NothingChangedReportsNothing) {
  FileWatcher::Changes changes = Queued();
  EXPECT_TRUE(changes.empty());
  EXPECT_EQ(1u, watcher_->watch_count());
}

TEST_F(FileWatcherTest, AFileWrittenAndClosedIsReportedOnce) {
  WriteRealFile(In("a.c"), "int a;\n");
  EXPECT_EQ((std::vector<std::string>{Created("a.c"), In("a.c")}), QueuedPaths());
  WriteRealFile(In("a.c"), "int b;\n");
  EXPECT_EQ(std::vector<std::string>{In("a.c")}, QueuedPaths());
  EXPECT_TRUE(Queued().empty());
}

TEST_F(FileWatcherTest, AFileStillBeingWrittenIsReportedWhenClosed) {
  WriteRealFile(In("old.c"), "");
  Queued();
  int fd = open(In("old.c").c_str(), O_WRONLY | O_TRUNC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(3, write(fd, "abc", 3));
  EXPECT_TRUE(Queued().empty());  // written, not settled
  close(fd);
  EXPECT_EQ(std::vector<std::string>{In("old.c")}, QueuedPaths());
  // A new file is reported as created at once (the caller tells a file
  // not yet written from a link), then again when its writer closes it.
  fd = open(In("new.c").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(3, write(fd, "abc", 3));
  EXPECT_EQ(std::vector<std::string>{Created("new.c")}, QueuedPaths());
  close(fd);
  EXPECT_EQ(std::vector<std::string>{In("new.c")}, QueuedPaths());
}

TEST_F(FileWatcherTest, OnlyEntriesComingOrGoingMayContinue) {
  // A save (closed, renamed into place, touched) is settled: the wait ends
  // without a delay. A creation or a removal may have its counterpart
  // coming (the file written, or put back): the wait collects a while.
  WriteRealFile(In("a.c"), "");
  EXPECT_TRUE(Queued().may_continue);  // created
  WriteRealFile(In("a.c"), "int a;\n");
  EXPECT_FALSE(Queued().may_continue);
  ASSERT_EQ(0, utimes(In("a.c").c_str(), nullptr));
  EXPECT_FALSE(Queued().may_continue);
  WriteRealFile(In("tmp"), "");
  Queued();
  ASSERT_EQ(0, rename(In("tmp").c_str(), In("a.c").c_str()));
  EXPECT_TRUE(Queued().may_continue);  // tmp moved away...
  ASSERT_EQ(0, unlink(In("a.c").c_str()));
  EXPECT_TRUE(Queued().may_continue);
}

TEST_F(FileWatcherTest, NewTimesRemovalAndRenamesAreReported) {
  WriteRealFile(In("a"), "");
  WriteRealFile(In("b"), "");
  Queued();
  ASSERT_EQ(0, utimes(In("a").c_str(), nullptr));
  EXPECT_EQ(std::vector<std::string>{In("a")}, QueuedPaths());
  ASSERT_EQ(0, unlink(In("a").c_str()));
  EXPECT_EQ(std::vector<std::string>{In("a")}, QueuedPaths());
  // An editor's save: written elsewhere, renamed over the file.
  ASSERT_EQ(0, rename(In("b").c_str(), In("c").c_str()));
  EXPECT_EQ((std::vector<std::string>{In("b"), In("c")}), QueuedPaths());
}

TEST_F(FileWatcherTest, LinksAndDirectoriesAreReportedAtCreation) {
  WriteRealFile(In("target"), "");
  Queued();
  ASSERT_EQ(0, symlink("target", In("soft").c_str()));
  ASSERT_EQ(0, link(In("target").c_str(), In("hard").c_str()));
  ASSERT_EQ(0, mkdir(In("sub").c_str(), 0755));
  EXPECT_EQ((std::vector<std::string>{Created("hard"), Created("soft"), Created("sub")}), QueuedPaths());
}

TEST_F(FileWatcherTest, SubdirectoriesAreNotWatchedUnlessAsked) {
  ASSERT_EQ(0, mkdir(In("sub").c_str(), 0755));
  Queued();
  WriteRealFile(In("sub/x"), "");
  EXPECT_TRUE(Queued().empty());
  ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(In("sub")));
  WriteRealFile(In("sub/x"), "again");
  EXPECT_EQ(std::vector<std::string>{In("sub/x")}, QueuedPaths());
}

TEST_F(FileWatcherTest, ARemovedOrRenamedDirectoryIsLost) {
  ASSERT_EQ(0, mkdir(In("gone").c_str(), 0755));
  ASSERT_EQ(0, mkdir(In("moved").c_str(), 0755));
  ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(In("gone")));
  ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(In("moved")));
  Queued();
  ASSERT_EQ(0, rmdir(In("gone").c_str()));
  ASSERT_EQ(0, rename(In("moved").c_str(), In("elsewhere").c_str()));
  FileWatcher::Changes changes = Queued();
  std::vector<std::string> lost;
  for (int id : changes.lost) {
    for (auto name = names_.lower_bound(id); name != names_.upper_bound(id); ++name) lost.push_back(name->second);
    names_.erase(id);
  }
  std::sort(lost.begin(), lost.end());
  EXPECT_EQ((std::vector<std::string>{In("gone"), In("moved")}), lost);
  EXPECT_EQ(1u, watcher_->watch_count());
  // The moved directory is no longer watched under either name.
  WriteRealFile(In("elsewhere/x"), "");
  EXPECT_TRUE(Queued().entries.empty());
  // Created again: watched again when asked.
  ASSERT_EQ(0, mkdir(In("gone").c_str(), 0755));
  Queued();
  ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(In("gone")));
  WriteRealFile(In("gone/y"), "");
  EXPECT_EQ((std::vector<std::string>{Created("gone/y"), In("gone/y")}), QueuedPaths());
}

TEST_F(FileWatcherTest, ADirectoryReachedTwiceHasOneId) {
  ASSERT_EQ(0, mkdir(In("real").c_str(), 0755));
  ASSERT_EQ(0, symlink("real", In("alias").c_str()));
  ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(In("real")));
  ASSERT_EQ(FileWatcher::WatchResult::kWatching, Watch(In("alias")));
  EXPECT_EQ(2u, watcher_->watch_count());  // one kernel watch for the pair, plus the top
  Queued();
  WriteRealFile(In("real/f"), "");
  EXPECT_EQ((std::vector<std::string>{Created("alias/f"), Created("real/f"), In("alias/f"), In("real/f")}),
            QueuedPaths());
}

TEST_F(FileWatcherTest, MissingDirectoriesAndFilesAreNotWatched) {
  EXPECT_EQ(FileWatcher::WatchResult::kMissing, Watch(In("nope")));
  WriteRealFile(In("file"), "");
  EXPECT_EQ(FileWatcher::WatchResult::kMissing, Watch(In("file")));
  EXPECT_EQ(1u, watcher_->watch_count());
}

TEST(FileWatcherLimitTest, WatchesBeyondTheLimitAreRefusedAndSaidSo) {
  ScopedTempDir tmp;
  ASSERT_EQ(0, mkdir(tmp.File("a").c_str(), 0755));
  ASSERT_EQ(0, mkdir(tmp.File("b").c_str(), 0755));
  std::string err;
  std::unique_ptr<FileWatcher> watcher = FileWatcher::Create(1, &err);
  ASSERT_TRUE(watcher) << err;
  int a = -1, again = -2, b = -3;
  EXPECT_EQ(FileWatcher::WatchResult::kWatching, watcher->Watch(tmp.File("a"), &a, &err));
  EXPECT_EQ(FileWatcher::WatchResult::kWatching, watcher->Watch(tmp.File("a"), &again, &err));
  EXPECT_EQ(a, again);
  EXPECT_EQ(FileWatcher::WatchResult::kOutOfWatches, watcher->Watch(tmp.File("b"), &b, &err));
  EXPECT_EQ(1u, watcher->watch_count());
  EXPECT_EQ("RONIN_WATCH_LIMIT = 1", watcher->LimitDescription());
}

TEST(FileWatcherLimitTest, TheSystemLimitIsDescribed) {
  std::string err;
  std::unique_ptr<FileWatcher> watcher = FileWatcher::Create(-1, &err);
  ASSERT_TRUE(watcher) << err;
  std::string description = watcher->LimitDescription();
  EXPECT_EQ(0u, description.find("fs.inotify.max_user_watches = ")) << description;
  EXPECT_NE('?', description.back());
}

TEST_F(FileWatcherTest, AnOverflowingQueueIsReported) {
  int queue = 16384;
  std::ifstream limit("/proc/sys/fs/inotify/max_queued_events");
  limit >> queue;
  ASSERT_LT(queue, 200000) << "max_queued_events too large to fill here";
  // Two events per new file (created, closed after writing).
  for (int i = 0; i < queue / 2 + 16; ++i) WriteRealFile(In("f" + std::to_string(i)), "");
  FileWatcher::Changes changes = Queued();
  EXPECT_TRUE(changes.overflow);
  EXPECT_FALSE(changes.empty());
}

TEST_F(FileWatcherTest, APendingSignalEndsTheWait) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, &old));
  ASSERT_EQ(0, raise(SIGTERM));  // pending until the wait lets it through
  FileWatcher::Changes changes;
  std::string err;
  // No timeout: only the signal can end this wait.
  EXPECT_TRUE(watcher_->Wait(-1, 0, 0, &changes, &err)) << err;
  EXPECT_TRUE(changes.interrupted);
  EXPECT_EQ("", err);
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGTERM));  // taken by the wait, not left behind
  sigprocmask(SIG_SETMASK, &old, nullptr);
}

// Whether thread `tid` of this process comes to be (or to no longer be)
// asleep in ppoll, as /proc shows its system call; false if not within a
// guard of ten seconds or more, never reached when things work.
bool ComesToSleepInPpoll(pid_t tid, bool asleep) {
  std::string path = "/proc/self/task/" + std::to_string(tid) + "/syscall";
  for (int tries = 0; tries < 10000; ++tries) {
    std::ifstream file(path);
    long number = -1;
    file >> number;
    if ((number == SYS_ppoll) == asleep) return true;
    usleep(1000);
  }
  return false;
}

TEST_F(FileWatcherTest, ASignalHandledOnAnotherThreadEndsTheWait) {
  // The handler may run on any thread that lets the signal through (say a
  // build's worker): ppoll's mask then wakes nobody, the wait must still end.
  pid_t waiter = static_cast<pid_t>(syscall(SYS_gettid));
  bool signalled = false, woke = false;
  std::thread other([this, waiter, &signalled, &woke] {
    if (!ComesToSleepInPpoll(waiter, true)) return;
    signalled = pthread_kill(pthread_self(), SIGTERM) == 0;
    woke = ComesToSleepInPpoll(waiter, false);
    if (!woke) WriteRealFile(In("unstuck"), "");  // a change ends the wait: a failure, not a hang
  });
  FileWatcher::Changes changes;
  std::string err;
  EXPECT_TRUE(watcher_->Wait(-1, 0, 0, &changes, &err)) << err;
  other.join();
  ASSERT_TRUE(signalled);
  EXPECT_TRUE(woke);
  EXPECT_TRUE(changes.interrupted);
}

TEST_F(FileWatcherTest, ChangesQueuedBeforeTheWaitAreCollectedWithTheirBurst) {
  for (int i = 0; i < 100; ++i) WriteRealFile(In("burst" + std::to_string(i)), "x");
  FileWatcher::Changes changes;
  std::string err;
  ASSERT_TRUE(watcher_->Wait(-1, 0, 0, &changes, &err)) << err;
  std::vector<std::string> names;
  for (const auto& entry : changes.entries) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  EXPECT_EQ(100u, names.size());
}

}  // namespace
}  // namespace ronin
