// Tests for content digests (scan/content_digest.h): files and bytes agree
// across read and block boundaries, any changed byte or length changes the
// digest, and what cannot be read gets none.
#include "scan/content_digest.h"

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

TEST(ContentDigestTest, FileAndBytesAgreeAcrossBlockAndReadBoundaries) {
  ScopedTempDir dir;
  for (size_t size : {0u, 1u, 65535u, 65536u, 65537u, (1u << 20) - 1, 1u << 20, (1u << 20) + 3, 3u << 20}) {
    std::string data(size, '\0');
    for (size_t i = 0; i < size; ++i) data[i] = static_cast<char>((i * 131) ^ (i >> 9));
    WriteRealFile(dir.File("f"), data);
    FileDigest file;
    std::string err;
    ASSERT_TRUE(DigestFile(dir.File("f"), &file, &err)) << err;
    EXPECT_EQ(static_cast<int64_t>(size), file.size);
    EXPECT_GT(file.mtime, 0);
    EXPECT_EQ(DigestBytes(data.data(), data.size()), file.digest) << size;
  }
}

TEST(ContentDigestTest, EveryByteAndTheLengthCount) {
  std::string data(200000, 'x');
  ContentDigest base = DigestBytes(data.data(), data.size());
  for (size_t at : {0u, 1u, 65535u, 65536u, 131072u, 199999u}) {
    std::string changed = data;
    changed[at] = 'y';
    EXPECT_NE(base, DigestBytes(changed.data(), changed.size())) << at;
  }
  EXPECT_NE(base, DigestBytes(data.data(), data.size() - 1));
  EXPECT_NE(DigestBytes("", 0), DigestBytes("\0", 1));
  ContentDigest digest = DigestBytes("abc", 3);
  EXPECT_NE(digest.low, digest.high);
}

TEST(ContentDigestTest, MissingFilesAndDirectoriesHaveNoDigest) {
  ScopedTempDir dir;
  FileDigest file;
  std::string err;
  EXPECT_FALSE(DigestFile(dir.File("missing"), &file, &err));
  EXPECT_EQ("No such file or directory", err);
  EXPECT_FALSE(DigestFile(dir.path(), &file, &err));
  EXPECT_EQ("not a regular file", err);
}

}  // namespace
}  // namespace ronin
