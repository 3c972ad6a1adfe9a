// Tests for what --audit counts as the project (project_dirs.h) and how it
// finds a file's node under the names a manifest gives it.
#include "audit/project_dirs.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace ronin {
namespace {

TEST(ProjectDirsTest, TheBuildDirectoryAndTheManifestsSources) {
  State state;
  ASSERT_TRUE(test::ParseManifest(&state,
                                  "rule regen\n  command = cmake\n  generator = 1\n"
                                  "rule cc\n  command = cc\n"
                                  "build build.ninja: regen ../src/CMakeLists.txt ../src/lib/CMakeLists.txt "
                                  "/usr/share/cmake/Modules/CMakeCInformation.cmake CMakeCache.txt\n"
                                  "build a.o: cc /elsewhere/a.c /usr/lib/libz.so\n"));
  ProjectDirs dirs("/p/build");
  dirs.AddManifestSources(state, "build.ninja");
  // The source tree, not CMake's modules, nor a link's library, nor a
  // source the manifest does not come from.
  EXPECT_EQ((std::vector<std::string>{"/p/build", "/p/src"}), dirs.roots());
  EXPECT_TRUE(dirs.Contains("/p/src/lib/x.h"));
  EXPECT_TRUE(dirs.Contains("/p/build"));
  EXPECT_FALSE(dirs.Contains("/p/srcs/x.h"));
  EXPECT_FALSE(dirs.Contains("/usr/include/stdio.h"));
  EXPECT_FALSE(dirs.Contains("/tmp/cc1234.s"));
}

TEST(ProjectDirsTest, SourcesReachedThroughPhonyEdgesAndGenerators) {
  State state;
  // GN's shape: build.ninja is a phony of a stamp its generator makes.
  ASSERT_TRUE(test::ParseManifest(&state,
                                  "rule gn\n  command = gn\n"
                                  "build build.ninja.stamp: gn ../../BUILD.gn ../../.gn\n"
                                  "build build.ninja: phony build.ninja.stamp\n"));
  ProjectDirs dirs("/w/tree/out/Debug");
  dirs.AddManifestSources(state, "build.ninja");
  EXPECT_TRUE(dirs.Contains("/w/tree/base/x.cc"));
  EXPECT_EQ(1u, dirs.roots().size());  // the build directory is inside the tree
}

TEST(ProjectDirsTest, ASystemDirectoryHoldingTheBuildIsTheProject) {
  State state;
  ASSERT_TRUE(test::ParseManifest(&state,
                                  "rule regen\n  command = cmake\n"
                                  "build build.ninja: regen /usr/src/googletest/CMakeLists.txt\n"));
  ProjectDirs dirs("/usr/src/googletest/build");
  dirs.AddManifestSources(state, "build.ninja");
  EXPECT_TRUE(dirs.Contains("/usr/src/googletest/include/gtest/gtest.h"));
  ProjectDirs elsewhere("/tmp/gtest-build");
  elsewhere.AddManifestSources(state, "build.ninja");
  EXPECT_FALSE(elsewhere.Contains("/usr/src/googletest/include/gtest/gtest.h"));
  elsewhere.AddRoot("/usr/src/googletest");  // --audit-root
  EXPECT_TRUE(elsewhere.Contains("/usr/src/googletest/include/gtest/gtest.h"));
}

TEST(ProjectDirsTest, RootsAreRelativeToTheBuildDirectory) {
  ProjectDirs dirs("/p/out");
  dirs.AddRoot("../third_party");
  dirs.AddRoot("/p/out/gen");  // already inside
  EXPECT_EQ((std::vector<std::string>{"/p/out", "/p/third_party"}), dirs.roots());
  dirs.AddRoot("/p");  // holds both
  EXPECT_EQ((std::vector<std::string>{"/p"}), dirs.roots());
}

TEST(ProjectDirsTest, FindsNodesUnderEachName) {
  State state;
  ASSERT_TRUE(test::ParseManifest(&state,
                                  "rule cc\n  command = cc\n"
                                  "build gen/x.h: cc ../src/x.in\n"
                                  "build a.o: cc /p/src/a.c | /p/out/gen/x.h\n"));
  ProjectDirs dirs("/p/out");
  EXPECT_EQ(test::NodeOrNull(state, "../src/x.in"), dirs.FindNode(state, "/p/src/x.in"));
  EXPECT_EQ(test::NodeOrNull(state, "/p/src/a.c"), dirs.FindNode(state, "/p/src/a.c"));
  // Two nodes for one file: the one an edge makes.
  EXPECT_EQ(test::NodeOrNull(state, "gen/x.h"), dirs.FindNode(state, "/p/out/gen/x.h"));
  EXPECT_EQ(nullptr, dirs.FindNode(state, "/p/out/unknown"));
  EXPECT_EQ("gen/x.h", dirs.Display("/p/out/gen/x.h"));
  EXPECT_EQ("/p/src/a.c", dirs.Display("/p/src/a.c"));
  EXPECT_EQ("/p/outside", dirs.Display("/p/outside"));
}

TEST(PathIsUnderTest, ComponentsNotPrefixes) {
  EXPECT_TRUE(PathIsUnder("/a/b", "/a"));
  EXPECT_TRUE(PathIsUnder("/a", "/a"));
  EXPECT_FALSE(PathIsUnder("/ab", "/a"));
  EXPECT_TRUE(PathIsUnder("/x", "/"));
}

}  // namespace
}  // namespace ronin
