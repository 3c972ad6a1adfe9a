// Tests for DirectoryDescriptors (scan/directory_descriptors.h): one descriptor
// per directory, missing directories told apart, more directories than it
// keeps open, and the descriptor table grown ahead of the stat threads.
#include "scan/directory_descriptors.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

bool FileThere(int dir_fd, const char* name) {
  struct stat st;
  return fstatat(dir_fd, name, &st, 0) == 0;
}

TEST(DirectoryDescriptorsTest, OneDescriptorPerDirectoryThatFindsItsFiles) {
  ScopedTempDir tmp;
  std::string a = tmp.File("a"), b = tmp.File("b");
  mkdir(a.c_str(), 0755);
  mkdir(b.c_str(), 0755);
  WriteRealFile(a + "/in_a", "");
  WriteRealFile(b + "/in_b", "");
  DirectoryDescriptors dirs;
  EXPECT_EQ(AT_FDCWD, dirs.Get(""));
  int fd_a = dirs.Get(a);
  int fd_b = dirs.Get(b);
  ASSERT_GE(fd_a, 0);
  ASSERT_GE(fd_b, 0);
  EXPECT_NE(fd_a, fd_b);
  EXPECT_EQ(fd_a, dirs.Get(a));
  // A view with other storage but the same text is the same directory.
  std::string a_again = a;
  EXPECT_EQ(fd_a, dirs.Get(a_again));
  EXPECT_TRUE(FileThere(fd_a, "in_a"));
  EXPECT_FALSE(FileThere(fd_a, "in_b"));
  EXPECT_TRUE(FileThere(fd_b, "in_b"));
}

TEST(DirectoryDescriptorsTest, MissingDirectoriesAndFilesAreTold) {
  ScopedTempDir tmp;
  WriteRealFile(tmp.File("file"), "");
  std::string gone = tmp.File("gone"), under_file = tmp.File("file/sub");
  DirectoryDescriptors dirs;
  EXPECT_EQ(DirectoryDescriptors::kMissing, dirs.Get(gone));
  EXPECT_EQ(DirectoryDescriptors::kMissing, dirs.Get(under_file));
  std::string too_long(5000, 'x');
  EXPECT_EQ(-1, dirs.Get(too_long));
}

TEST(DirectoryDescriptorsTest, MoreDirectoriesThanItKeepsOpen) {
  ScopedTempDir tmp;
  std::vector<std::string> names;
  const int kKept = 8;
  int count = kKept * 2 + 7;
  for (int i = 0; i < count; ++i) {
    names.push_back(tmp.File("d" + std::to_string(i)));
    mkdir(names.back().c_str(), 0755);
    WriteRealFile(names.back() + "/f" + std::to_string(i), "");
  }
  DirectoryDescriptors dirs(kKept);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < count; ++i) {
      int fd = dirs.Get(names[i]);
      ASSERT_GE(fd, 0) << i;
      EXPECT_TRUE(FileThere(fd, ("f" + std::to_string(i)).c_str())) << i;
    }
  }
}

// The descriptor table's size, as /proc/self/status reports it.
int TableSize() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("FDSize:", 0) == 0) return std::stoi(line.substr(7));
  return -1;
}

TEST(DirectoryDescriptorsTest, WithNoneKeptEveryDirectoryIsTheWorkingOne) {
  DirectoryDescriptors dirs(0);
  EXPECT_EQ(AT_FDCWD, dirs.Get("/"));
  EXPECT_EQ(AT_FDCWD, dirs.Get("somewhere/else"));
}

TEST(DirectoryDescriptorsTest, EachThreadsShareFitsUnderTheLimit) {
  rlimit saved;
  ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &saved));
  rlimit low = saved;
  low.rlim_cur = 200;
  if (saved.rlim_cur != RLIM_INFINITY && saved.rlim_cur < low.rlim_cur) low.rlim_cur = saved.rlim_cur;
  ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &low));
  int low_share = DirectoryDescriptors::OpenPerThread(2, 64);
  int none = DirectoryDescriptors::OpenPerThread(4, 1000);
  ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &saved));
  EXPECT_EQ(static_cast<int>((low.rlim_cur - 64) / 2), low_share);
  EXPECT_EQ(0, none);
  if (saved.rlim_cur == RLIM_INFINITY || saved.rlim_cur >= 64 + 2 * DirectoryDescriptors::kMaxOpen) {
    EXPECT_EQ(DirectoryDescriptors::kMaxOpen, DirectoryDescriptors::OpenPerThread(2, 64));
  }
}

TEST(DirectoryDescriptorsTest, RoomIsReservedInTheDescriptorTable) {
  rlimit limit;
  ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &limit));
  int before = TableSize();
  ASSERT_GT(before, 0);
  // As much as the limit allows, up to a table several times as large.
  long room = limit.rlim_cur == RLIM_INFINITY ? 4 * before : static_cast<long>(limit.rlim_cur) - 1;
  int wanted = static_cast<int>(std::min<long>(room, 4 * before));
  ReserveDescriptorRoom(4 * before);
  EXPECT_GE(TableSize(), std::max(wanted, before));
  // Nothing stays open.
  int probe = open("/", O_PATH | O_CLOEXEC);
  ASSERT_GE(probe, 0);
  EXPECT_LT(probe, before + 64);
  close(probe);
}

}  // namespace
}  // namespace ronin
