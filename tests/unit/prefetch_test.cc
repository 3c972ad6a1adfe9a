// Tests for Prefetcher (scan/prefetch.h): the stats it takes ahead are the ones
// the scan would take, and a small graph is left to the scan.
#include "scan/prefetch.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/disk.h"
#include "base/platform.h"
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

// Prefetches `paths` into `state` on the prefetcher's threads.
void PrefetchAll(const std::vector<std::string>& paths, State* state, bool list_directories) {
  Prefetcher prefetcher(state, list_directories);
  prefetcher.NodesExpected(1 << 20);  // as the graph image announces a large graph
  for (const std::string& path : paths) state->GetNode(path);
  prefetcher.ParsingDone();
  prefetcher.Join();
}

// `ahead`, prefetched, has the status the scan's own stat gives `path`
// through `disk`: the same, or unknown where the scan's stat fails (the
// scan reports that error; under wine, Windows' listing of a file as a
// directory fails so).
void ExpectTheScansOwn(const std::string& path, const Node* ahead, RealDiskInterface* disk) {
  ASSERT_NE(nullptr, ahead);
  State fresh;
  Node* own = fresh.GetNode(path);
  std::string err;
  if (!own->Stat(disk, &err)) {
    EXPECT_FALSE(ahead->status_known()) << path << ": " << err;
    return;
  }
  ASSERT_TRUE(ahead->status_known()) << path;
  EXPECT_EQ(own->exists(), ahead->exists()) << path;
  EXPECT_EQ(own->mtime, ahead->mtime) << path;
}

// The same for every path, against the scan with its stat cache or
// without (on Windows listing directories, or -d nostatcache's stats).
void ExpectTheScansOwn(const std::vector<std::string>& paths, const State& state, bool stat_cache) {
  RealDiskInterface disk;
  disk.AllowStatCache(stat_cache);
  for (const std::string& path : paths) ExpectTheScansOwn(path, state.LookupNode(path), &disk);
}

TEST(PrefetchTest, StatsTakenAheadMatchTheScansOwn) {
  ScopedTempDir dir;
  std::vector<std::string> paths = MakeTree(dir);
  for (bool list_directories : {true, false}) {
    SCOPED_TRACE(list_directories ? "listing directories" : "file by file");
    State state;
    PrefetchAll(paths, &state, list_directories);
    ExpectTheScansOwn(paths, state, /*stat_cache=*/list_directories);
  }
}

// Windows' names ignore case, and so does its scan's stat cache: a path
// spelled in other case than the file is found (on POSIX it is another
// name, missing). Either way the prefetcher answers as the scan would.
TEST(PrefetchTest, StatsOfPathsInOtherCaseMatchTheScansOwn) {
  ScopedTempDir dir;
  std::vector<std::string> paths = MakeTree(dir);
  std::vector<std::string> other_case;
  for (size_t i = 0; i < paths.size(); i += 3) {
    std::string path = paths[i];
    size_t name = path.find_last_of('/') + 1;
    for (size_t c = name; c < path.size(); ++c)
      if (path[c] >= 'a' && path[c] <= 'z') path[c] = static_cast<char>(path[c] - 'a' + 'A');
    other_case.push_back(path);
  }
  State state;
  PrefetchAll(other_case, &state, /*list_directories=*/true);
  ExpectTheScansOwn(other_case, state, /*stat_cache=*/true);
  if (kWindows) {
    EXPECT_TRUE(state.LookupNode(other_case[1])->exists()) << other_case[1];
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
  disk.AllowStatCache(true);
  for (size_t i = 0; i < paths.size(); ++i)
    ExpectTheScansOwn(paths[i], i % 3 == 0 ? elsewhere.LookupNode(paths[i]) : state.LookupNode(paths[i]), &disk);
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
