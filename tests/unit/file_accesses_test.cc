// Tests for a command's recorded file accesses (log/file_accesses.h): paths
// made absolute and canonical, and whether a read came before a write.
#include "log/file_accesses.h"

#include <gtest/gtest.h>

namespace ronin {
namespace {

TEST(CanonicalAbsolutePathTest, JoinsAndFolds) {
  EXPECT_EQ("/b/src/a.c", CanonicalAbsolutePath("/b/out", "../src/a.c"));
  EXPECT_EQ("/b/out/gen/x.h", CanonicalAbsolutePath("/b/out", "./gen//x.h"));
  EXPECT_EQ("/usr/include/stdio.h", CanonicalAbsolutePath("/b/out", "/usr/include/../include/stdio.h"));
  EXPECT_EQ("/x", CanonicalAbsolutePath("/b", "../../../x"));  // "/.." is "/"
  EXPECT_EQ("/", CanonicalAbsolutePath("/", ".."));
  EXPECT_EQ("/b/out", CanonicalAbsolutePath("/b/out/", ""));
  EXPECT_EQ("/b/dir", CanonicalAbsolutePath("/b", "dir/"));
}

TEST(FileAccessesTest, RecordsEveryKindOnce) {
  FileAccesses accesses;
  accesses.Note("/p/a", FileAccess::kRead);
  accesses.Note("/p/a", FileAccess::kProbe);
  accesses.Note("/p/b", FileAccess::kWrite);
  EXPECT_EQ(3u, accesses.count());
  ASSERT_EQ(2u, accesses.records().size());
  const FileAccesses::Record& a = accesses.records().at("/p/a");
  EXPECT_TRUE(a.Has(FileAccess::kRead));
  EXPECT_TRUE(a.Has(FileAccess::kProbe));
  EXPECT_FALSE(a.Wrote());
  EXPECT_TRUE(accesses.records().at("/p/b").Wrote());
}

TEST(FileAccessesTest, AReadAfterTheCommandsOwnWriteSeesNothingOlder) {
  FileAccesses accesses;
  // gcc writes its assembly, then `as` reads it: not an input.
  accesses.Note("/tmp/cc.s", FileAccess::kWrite);
  accesses.Note("/tmp/cc.s", FileAccess::kRead);
  EXPECT_FALSE(accesses.records().at("/tmp/cc.s").read_before_write);
  // sed -i: reads the file as it was, then replaces it.
  accesses.Note("/p/a.c", FileAccess::kRead);
  accesses.Note("/p/a.c", FileAccess::kRemove);
  accesses.Note("/p/a.c", FileAccess::kWrite);
  EXPECT_TRUE(accesses.records().at("/p/a.c").read_before_write);
  // Removed first, recreated, then read.
  accesses.Note("/p/stamp", FileAccess::kRemove);
  accesses.Note("/p/stamp", FileAccess::kExecute);
  EXPECT_FALSE(accesses.records().at("/p/stamp").read_before_write);
}

}  // namespace
}  // namespace ronin
