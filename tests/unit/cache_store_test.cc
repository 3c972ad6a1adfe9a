// The build cache's storage (cache/cache_store.h): the directory backend.
#include "cache/cache_store.h"
#include "cache/http_cache_store.h"

#include <sys/stat.h>
#include <utime.h>

#include <gtest/gtest.h>

#include <thread>

#include "base/sha256.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;

TEST(DirectoryCacheStoreTest, BlobsRoundTripByDigest) {
  ScopedTempDir dir;
  DirectoryCacheStore store(dir.path(), 0);
  std::string digest, bytes;
  ASSERT_TRUE(store.PutBlob("object code", &digest));
  EXPECT_EQ(Sha256Hex("object code"), digest);
  EXPECT_TRUE(test::RealFileExists(dir.File("cas/" + digest.substr(0, 2) + "/" + digest)));
  ASSERT_TRUE(store.GetBlob(digest, &bytes));
  EXPECT_EQ("object code", bytes);
  EXPECT_FALSE(store.GetBlob(Sha256Hex("other"), &bytes));
  EXPECT_FALSE(store.GetBlob("../../etc/passwd", &bytes));
}

TEST(DirectoryCacheStoreTest, DamagedBlobIsAMissAndIsReplaced) {
  ScopedTempDir dir;
  DirectoryCacheStore store(dir.path(), 0);
  std::string digest, bytes;
  ASSERT_TRUE(store.PutBlob("good bytes", &digest));
  std::string path = dir.File("cas/" + digest.substr(0, 2) + "/" + digest);
  for (const char* damage : {"good bytez", "good", ""}) {
    test::WriteRealFile(path, damage);
    EXPECT_FALSE(store.GetBlob(digest, &bytes)) << damage;
    EXPECT_FALSE(test::RealFileExists(path)) << "a damaged blob is removed";
    ASSERT_TRUE(store.PutBlob("good bytes", &digest));
    ASSERT_TRUE(store.GetBlob(digest, &bytes));
    EXPECT_EQ("good bytes", bytes);
  }
}

TEST(DirectoryCacheStoreTest, ActionsByKey) {
  ScopedTempDir dir;
  DirectoryCacheStore store(dir.path(), 0);
  std::string key = Sha256Hex("a command"), entry;
  EXPECT_FALSE(store.GetAction(key, &entry));
  ASSERT_TRUE(store.PutAction(key, "first"));
  ASSERT_TRUE(store.PutAction(key, "second"));  // replaced whole
  ASSERT_TRUE(store.GetAction(key, &entry));
  EXPECT_EQ("second", entry);
  EXPECT_FALSE(store.PutAction("not-a-key", "x"));
}

TEST(DirectoryCacheStoreTest, ConcurrentWritersLoseNothing) {
  ScopedTempDir dir;
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&dir, t] {
      DirectoryCacheStore store(dir.path(), 0);  // as another build would
      for (int i = 0; i < 50; ++i) {
        std::string digest;
        EXPECT_TRUE(store.PutBlob("shared " + std::to_string(i), &digest));
        EXPECT_TRUE(store.PutBlob("own " + std::to_string(t) + " " + std::to_string(i), &digest));
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  DirectoryCacheStore store(dir.path(), 0);
  std::string bytes;
  for (int i = 0; i < 50; ++i) {
    EXPECT_TRUE(store.GetBlob(Sha256Hex("shared " + std::to_string(i)), &bytes));
    for (int t = 0; t < 4; ++t)
      EXPECT_TRUE(store.GetBlob(Sha256Hex("own " + std::to_string(t) + " " + std::to_string(i)), &bytes));
  }
}

TEST(DirectoryCacheStoreTest, TrimEvictsLeastRecentlyUsed) {
  ScopedTempDir dir;
  DirectoryCacheStore store(dir.path(), 1000);
  std::vector<std::string> digests;
  for (int i = 0; i < 10; ++i) {
    std::string digest;
    ASSERT_TRUE(store.PutBlob(std::string(200, static_cast<char>('a' + i)), &digest));
    // Dated oldest first, so the order does not depend on the clock.
    std::string path = dir.File("cas/" + digest.substr(0, 2) + "/" + digest);
    struct utimbuf times = {1000 + i, 1000 + i};
    ASSERT_EQ(0, utime(path.c_str(), &times));
    digests.push_back(digest);
  }
  std::string bytes;
  ASSERT_TRUE(store.GetBlob(digests[0], &bytes));  // used now: kept
  CacheStore& any_store = store;                    // what the build cache calls
  EXPECT_EQ(1200, any_store.Trim());                // 2000 bytes down to <= 900
  EXPECT_TRUE(store.GetBlob(digests[0], &bytes));
  for (int i = 1; i <= 6; ++i) EXPECT_FALSE(store.GetBlob(digests[i], &bytes)) << i;
  for (int i = 7; i < 10; ++i) EXPECT_TRUE(store.GetBlob(digests[i], &bytes)) << i;
  EXPECT_EQ(0, store.Trim());
}

TEST(DirectoryCacheStoreTest, AReadRefreshesOnlyAnHourOldTime) {
  ScopedTempDir dir;
  DirectoryCacheStore store(dir.path(), 0);
  std::string old_digest, new_digest;
  ASSERT_TRUE(store.PutBlob("old", &old_digest));
  ASSERT_TRUE(store.PutBlob("new", &new_digest));
  std::string old_path = dir.File("cas/" + old_digest.substr(0, 2) + "/" + old_digest);
  std::string new_path = dir.File("cas/" + new_digest.substr(0, 2) + "/" + new_digest);
  time_t now = time(nullptr);
  struct utimbuf two_hours_ago = {now - 7200, now - 7200}, a_minute_ago = {now - 60, now - 60};
  ASSERT_EQ(0, utime(old_path.c_str(), &two_hours_ago));
  ASSERT_EQ(0, utime(new_path.c_str(), &a_minute_ago));
  std::string bytes;
  ASSERT_TRUE(store.GetBlob(old_digest, &bytes));
  ASSERT_TRUE(store.GetBlob(new_digest, &bytes));
  struct stat st;
  ASSERT_EQ(0, stat(old_path.c_str(), &st));
  EXPECT_GE(st.st_mtime, now);  // used now
  ASSERT_EQ(0, stat(new_path.c_str(), &st));
  EXPECT_EQ(now - 60, st.st_mtime);  // recent enough: not written
}

TEST(CacheStoreTest, EachStoreAnswersWhatTheBuildCacheAsks) {
  ScopedTempDir dir;
  DirectoryCacheStore directory(dir.path(), 0);
  const CacheStore& local = directory;
  EXPECT_FALSE(local.LookupsAreRoundTrips());  // reads are not worth overlapping
  EXPECT_FALSE(local.WarnsOfItsFailures());    // the build cache warns for it
  std::string err;
  std::unique_ptr<CacheStore> http = OpenHttpCacheStore("http://127.0.0.1:9/cache", &err);
  ASSERT_TRUE(http) << err;
  EXPECT_TRUE(http->LookupsAreRoundTrips());
  EXPECT_TRUE(http->WarnsOfItsFailures());
  EXPECT_EQ(0, http->Trim());  // the server keeps its own size
}

}  // namespace
}  // namespace ronin
