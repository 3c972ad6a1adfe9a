// Tests for Prefetcher (scan/prefetch.h): the stats it takes ahead are the ones
// the scan would take, and a small graph is left to the scan.
#include "scan/prefetch.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/disk.h"
#include "graph/graph.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

// Paths of existing files in several directories (more than one batch,
// neighbours sharing a directory and not), missing files, a file under a
// missing directory and under a file, and the directory itself.
std::vector<std::string> MakeTree(const ScopedTempDir& dir) {
  std::vector<std::string> paths;
  for (int d = 0; d < 4; ++d) {
    std::string sub = dir.File("d" + std::to_string(d));
    mkdir(sub.c_str(), 0755);
  }
  for (int i = 0; i < 1200; ++i) {
    std::string path = dir.File("d" + std::to_string(i % 7 < 4 ? i % 4 : 0) + "/f" + std::to_string(i));
    if (i % 5 != 0) WriteRealFile(path, "x");
    paths.push_back(path);
  }
  paths.push_back(dir.File("gone/c"));
  paths.push_back(dir.File("d1/f1/under_a_file"));
  paths.push_back(dir.File("top"));
  WriteRealFile(dir.File("top"), "y");
  paths.push_back(dir.path());
  return paths;
}

TEST(PrefetchTest, StatsTakenAheadMatchTheScansOwn) {
  ScopedTempDir dir;
  std::vector<std::string> paths = MakeTree(dir);
  State state;
  {
    Prefetcher prefetcher(&state);
    prefetcher.NodesExpected(1 << 20);  // as the graph image announces a large graph
    for (const std::string& path : paths) state.GetNode(path);
    prefetcher.ParsingDone();
    prefetcher.Join();
  }
  RealDiskInterface disk;
  State fresh;
  for (const std::string& path : paths) {
    Node* ahead = state.LookupNode(path);
    ASSERT_NE(nullptr, ahead);
    ASSERT_TRUE(ahead->status_known()) << path;
    Node* own = fresh.GetNode(path);
    std::string err;
    ASSERT_TRUE(own->Stat(&disk, &err)) << err;
    EXPECT_EQ(own->exists(), ahead->exists()) << path;
    EXPECT_EQ(own->mtime, ahead->mtime) << path;
  }
}

TEST(PrefetchTest, NodesNotAdjacentInMemoryAreStattedToo) {
  // Batches are runs of nodes adjacent in memory: nodes of two stores in
  // turn break every run.
  ScopedTempDir dir;
  std::vector<std::string> paths = MakeTree(dir);
  State state, elsewhere;
  std::vector<Node*> others;
  {
    Prefetcher prefetcher(&state);
    prefetcher.NodesExpected(1 << 20);
    for (size_t i = 0; i < paths.size(); ++i) {
      if (i % 3 == 0) {
        others.push_back(elsewhere.GetNode(paths[i]));
        prefetcher.NodeCreated(others.back());
      } else {
        state.GetNode(paths[i]);
      }
    }
    prefetcher.ParsingDone();
    prefetcher.Join();
  }
  RealDiskInterface disk;
  for (size_t i = 0; i < paths.size(); ++i) {
    Node* ahead = i % 3 == 0 ? elsewhere.LookupNode(paths[i]) : state.LookupNode(paths[i]);
    ASSERT_TRUE(ahead->status_known()) << paths[i];
    State fresh;
    Node* own = fresh.GetNode(paths[i]);
    std::string err;
    ASSERT_TRUE(own->Stat(&disk, &err)) << err;
    EXPECT_EQ(own->mtime, ahead->mtime) << paths[i];
  }
}

TEST(PrefetchTest, ASmallGraphIsLeftToTheScan) {
  ScopedTempDir dir;
  std::vector<std::string> paths = MakeTree(dir);
  State state;
  {
    Prefetcher prefetcher(&state);
    prefetcher.NodesExpected(paths.size());  // well under the threshold
    for (const std::string& path : paths) state.GetNode(path);
    prefetcher.ParsingDone();
    prefetcher.Join();
  }
  for (const std::string& path : paths) EXPECT_FALSE(state.LookupNode(path)->status_known()) << path;
}

}  // namespace
}  // namespace ronin
