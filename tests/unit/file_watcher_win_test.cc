// Tests for watch/file_watcher_win.cc (built only for Windows, run as the
// .exe under wine): ReadDirectoryChangesW reports the entries of a watched
// directory that change, one watch serves two names of a directory, a
// missing directory is told apart, our own watch limit holds, and a
// directory renamed away is lost. The interface's Linux tests are
// file_watcher_test.cc's; --watch rounds under wine are test_win_options'.
// Every wait has a generous guard that only turns a hang into a failure.
#include "watch/file_watcher.h"

#include <windows.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

constexpr int64_t kGuardMillis = 20000;

class FileWatcherWinTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    watcher_ = FileWatcher::Create(-1, &err);
    ASSERT_TRUE(watcher_) << err;
  }

  int WatchDir(const std::string& dir) {
    int watch = -1;
    std::string err;
    EXPECT_EQ(FileWatcher::WatchResult::kWatching, watcher_->Watch(dir, &watch, &err)) << err;
    return watch;
  }

  // Waits until `name` in watch `watch` is reported (changes may come in
  // more than one wait), or the guard passes.
  bool Reported(int watch, const std::string& name, FileWatcher::Changes* all) {
    for (int i = 0; i < 20; ++i) {
      FileWatcher::Changes changes;
      std::string err;
      EXPECT_TRUE(watcher_->Wait(kGuardMillis / 20, 3, 100, &changes, &err)) << err;
      for (const auto& entry : changes.entries) {
        all->entries.push_back(entry);
        if (entry.watch == watch && entry.name == name) return true;
      }
      for (int lost : changes.lost) all->lost.push_back(lost);
      all->overflow |= changes.overflow;
    }
    return false;
  }

  ScopedTempDir dir_;
  std::unique_ptr<FileWatcher> watcher_;
};

TEST_F(FileWatcherWinTest, IsAvailable) {
  std::string err;
  EXPECT_TRUE(FileWatcher::Available(&err)) << err;
}

TEST_F(FileWatcherWinTest, AWrittenFileIsReportedByNameAndNeverAsStillBeingWritten) {
  int watch = WatchDir(dir_.path());
  EXPECT_EQ(1u, watcher_->watch_count());
  WriteRealFile(dir_.File("new.c"), "int x;\n");
  FileWatcher::Changes all;
  ASSERT_TRUE(Reported(watch, "new.c", &all));
  for (const auto& entry : all.entries) EXPECT_FALSE(entry.created) << entry.name;
  // And a change to a file that was there before.
  WriteRealFile(dir_.File("new.c"), "int y;\n");
  ASSERT_TRUE(Reported(watch, "new.c", &all));
}

TEST_F(FileWatcherWinTest, EntriesOfASubdirectoryAreNotItsParents) {
  ASSERT_TRUE(CreateDirectoryA(dir_.File("sub").c_str(), nullptr));
  int top = WatchDir(dir_.path());
  int sub = WatchDir(dir_.File("sub"));
  EXPECT_NE(top, sub);
  WriteRealFile(dir_.File("sub/inner.h"), "x\n");
  FileWatcher::Changes all;
  ASSERT_TRUE(Reported(sub, "inner.h", &all));
  for (const auto& entry : all.entries) EXPECT_FALSE(entry.watch == top && entry.name == "inner.h");
}

TEST_F(FileWatcherWinTest, TwoNamesOfOneDirectoryShareAWatch) {
  ASSERT_TRUE(CreateDirectoryA(dir_.File("d").c_str(), nullptr));
  int first = WatchDir(dir_.File("d"));
  int second = WatchDir(dir_.File("d/../d"));
  EXPECT_EQ(first, second);
  EXPECT_EQ(1u, watcher_->watch_count());
}

TEST_F(FileWatcherWinTest, AMissingDirectoryOrAFileIsMissing) {
  int watch = -1;
  std::string err;
  EXPECT_EQ(FileWatcher::WatchResult::kMissing, watcher_->Watch(dir_.File("nowhere"), &watch, &err));
  WriteRealFile(dir_.File("plain"), "");
  EXPECT_EQ(FileWatcher::WatchResult::kMissing, watcher_->Watch(dir_.File("plain"), &watch, &err));
  EXPECT_EQ("", err);
  EXPECT_EQ(0u, watcher_->watch_count());
}

TEST_F(FileWatcherWinTest, OurLimitOnWatchesIsOutOfWatches) {
  std::string err;
  std::unique_ptr<FileWatcher> limited = FileWatcher::Create(1, &err);
  ASSERT_TRUE(limited) << err;
  ASSERT_TRUE(CreateDirectoryA(dir_.File("a").c_str(), nullptr));
  ASSERT_TRUE(CreateDirectoryA(dir_.File("b").c_str(), nullptr));
  int watch = -1;
  EXPECT_EQ(FileWatcher::WatchResult::kWatching, limited->Watch(dir_.File("a"), &watch, &err));
  EXPECT_EQ(FileWatcher::WatchResult::kOutOfWatches, limited->Watch(dir_.File("b"), &watch, &err));
  EXPECT_EQ("RONIN_WATCH_LIMIT = 1", limited->LimitDescription());
}

// Its parent names it removed or renamed away. (Removed, Windows also fails
// the directory's own read; wine keeps a directory that a handle holds
// until the handle closes, so a rename shows it here.)
TEST_F(FileWatcherWinTest, ADirectoryRenamedAwayIsLost) {
  ASSERT_TRUE(CreateDirectoryA(dir_.File("gone").c_str(), nullptr));
  WatchDir(dir_.path());
  int gone = WatchDir(dir_.File("gone"));
  ASSERT_TRUE(MoveFileA(dir_.File("gone").c_str(), dir_.File("moved").c_str())) << GetLastError();
  bool lost = false;
  for (int i = 0; i < 20 && !lost; ++i) {
    FileWatcher::Changes changes;
    std::string err;
    ASSERT_TRUE(watcher_->Wait(kGuardMillis / 20, 3, 100, &changes, &err)) << err;
    lost = std::find(changes.lost.begin(), changes.lost.end(), gone) != changes.lost.end();

  }
  EXPECT_TRUE(lost);
  EXPECT_EQ(1u, watcher_->watch_count());
}

TEST_F(FileWatcherWinTest, NothingChangedIsATimeoutWithNothingToReport) {
  WatchDir(dir_.path());
  FileWatcher::Changes changes;
  std::string err;
  EXPECT_TRUE(watcher_->Wait(50, 3, 100, &changes, &err)) << err;
  EXPECT_TRUE(changes.empty());
  EXPECT_FALSE(watcher_->interrupted());
}

}  // namespace
}  // namespace ronin
