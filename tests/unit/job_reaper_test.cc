// Tests for the job reaper's events (exec/job_reaper_protocol.h), the bytes
// both reapers read: the forked one on POSIX and ninja.exe started again on
// Windows. The reapers themselves are tested black-box (test_job_reaper.py,
// test_win_job_reaper.py), since they act only once ninja is gone.
#include "exec/job_reaper_protocol.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "base/platform.h"
#include "log/build_lock.h"
#include "test_support.h"

namespace ronin {
namespace {

using namespace reaper_protocol;

Header HeaderOf(const std::string& event) {
  Header header;
  EXPECT_GE(event.size(), sizeof header);
  memcpy(&header, event.data(), sizeof header);
  return header;
}

TEST(JobReaperProtocolTest, AnAddCarriesEachFileWithItsMtimeAndRule) {
  std::string event = AddEvent(4242, /*whole_group=*/true, {{"out.o", 1234567890123LL, false}, {"out.d", 0, true}});
  Header header = HeaderOf(event);
  EXPECT_EQ(4242, header.id);
  EXPECT_EQ(kAdd, header.kind);
  ASSERT_EQ(event.size() - sizeof header, header.payload);
  ASSERT_EQ(2 * kFileRecordHead + 5 + 5, header.payload);

  const char* at = event.data() + sizeof header;
  int64_t mtime;
  uint32_t length;
  memcpy(&mtime, at, 8);
  memcpy(&length, at + 8, 4);
  EXPECT_EQ(1234567890123LL, mtime);
  EXPECT_EQ(5u, length);  // removed only if written: no kAlways
  EXPECT_EQ("out.o", std::string(at + kFileRecordHead, 5));
  at += kFileRecordHead + 5;
  memcpy(&mtime, at, 8);
  memcpy(&length, at + 8, 4);
  EXPECT_EQ(0, mtime);
  EXPECT_EQ(5u | kAlways, length);
  EXPECT_EQ("out.d", std::string(at + kFileRecordHead, 5));
}

TEST(JobReaperProtocolTest, AConsoleJobIsItsPidAlone) {
  EXPECT_EQ(kAdd | kLonePid, HeaderOf(AddEvent(7, /*whole_group=*/false, {})).kind);
  EXPECT_EQ(0u, HeaderOf(AddEvent(7, false, {})).payload);
  Header removed = HeaderOf(RemoveEvent(7, /*whole_group=*/false));
  EXPECT_EQ(7, removed.id);
  EXPECT_EQ(kRemove | kLonePid, removed.kind);
  EXPECT_EQ(kRemove, HeaderOf(RemoveEvent(7, true)).kind);
  EXPECT_EQ(sizeof(Header), RemoveEvent(7, true).size());
}

TEST(JobReaperProtocolTest, LettingGoIsAHeaderOfItsOwn) {
  std::string event = LetGoOfLockEvent();
  ASSERT_EQ(sizeof(Header), event.size());
  EXPECT_EQ(kLetGoOfLock, HeaderOf(event).kind);
  EXPECT_EQ(0u, HeaderOf(event).payload);
}

TEST(JobReaperProtocolTest, EachLockHasAHandoverOnWindowsOnly) {
  // On Windows a reaper holds one mutex per lock in the lock's stead; on
  // POSIX it keeps the lock's descriptors instead.
  size_t before = BuildLockHandoverNames().size();
  test::ScopedTempDir dir;
  bool waited = true;
  std::string err;
  ASSERT_TRUE(LockBuildDirectory(dir.path(), &waited, &err)) << err;
  EXPECT_FALSE(waited);
  std::vector<std::string> names = BuildLockHandoverNames();
  if (kWindows) {
    ASSERT_EQ(before + 1, names.size());
    for (const std::string& name : names) EXPECT_NE(std::string::npos, name.find("-handover")) << name;
  } else {
    EXPECT_TRUE(names.empty());
    EXPECT_FALSE(HeldBuildLockDescriptors().empty());
  }
}

}  // namespace
}  // namespace ronin
