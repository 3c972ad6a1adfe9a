// Tests for exec/path_lookup.h: the program a name runs, as /bin/sh finds it
// (each layout is also run through the shell, which must agree), and the
// build cache's program identity naming that same file.
#include "exec/path_lookup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cache/cache_key.h"
#include "cache/program_identity.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedEnv;
using test::ScopedTempDir;

// The current directory for the scope (empty PATH entries and relative ones
// are relative to it).
class ScopedChdir {
 public:
  explicit ScopedChdir(const std::string& dir) {
    char cwd[PATH_MAX];
    EXPECT_NE(nullptr, getcwd(cwd, sizeof(cwd)));
    old_ = cwd;
    EXPECT_EQ(0, chdir(dir.c_str())) << dir;
  }
  ~ScopedChdir() { EXPECT_EQ(0, chdir(old_.c_str())); }

 private:
  std::string old_;
};

// A tree of PATH entries under a temporary directory, each with a script
// `name` that prints which entry it is in.
class ProgramTree {
 public:
  explicit ProgramTree(const std::string& name) : name_(name) {}
  const std::string& root() const { return dir_.path(); }
  std::string Entry(const std::string& entry) const { return dir_.File(entry); }

  // A script printing `entry` at ENTRY/name, with `mode`.
  void AddScript(const std::string& entry, mode_t mode = 0755) {
    mkdir(Entry(entry).c_str(), 0755);
    std::string path = Entry(entry) + "/" + name_;
    test::WriteRealFile(path, "#!/bin/sh\necho " + entry + "\n");
    ASSERT_EQ(0, chmod(path.c_str(), mode));
  }
  // A directory named like the program at ENTRY/name.
  void AddDirectory(const std::string& entry) {
    mkdir(Entry(entry).c_str(), 0755);
    ASSERT_EQ(0, mkdir((Entry(entry) + "/" + name_).c_str(), 0755));
  }

 private:
  ScopedTempDir dir_;
  std::string name_;
};

// What /bin/sh runs for `name` with PATH set to `path`, from the current
// directory: the first line the script prints, or "" if it found nothing.
std::string WhatTheShellRuns(const std::string& name, const char* path) {
  ScopedEnv env("PATH", path);
  std::string command = "/bin/sh -c '" + name + "' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "<popen failed>";
  char line[256] = "";
  if (!fgets(line, sizeof(line), pipe)) line[0] = '\0';
  pclose(pipe);
  std::string result(line);
  if (!result.empty() && result.back() == '\n') result.pop_back();
  return result;
}

TEST(PathLookupTest, EntriesAreSearchedInOrder) {
  ProgramTree tree("tool");
  tree.AddScript("a");
  tree.AddScript("b");
  std::string path = tree.Entry("a") + ":" + tree.Entry("b");
  EXPECT_EQ(tree.Entry("a") + "/tool", FindProgramIn("tool", path.c_str()));
  EXPECT_EQ("a", WhatTheShellRuns("tool", path.c_str()));
  path = tree.Entry("missing") + ":" + tree.Entry("b") + ":" + tree.Entry("a");
  EXPECT_EQ(tree.Entry("b") + "/tool", FindProgramIn("tool", path.c_str()));
  EXPECT_EQ("b", WhatTheShellRuns("tool", path.c_str()));
}

TEST(PathLookupTest, DirectoriesAndNonExecutablesArePassedOver) {
  ProgramTree tree("tool");
  tree.AddDirectory("dir");
  tree.AddScript("plain", 0644);
  tree.AddScript("exec");
  std::string path = tree.Entry("dir") + ":" + tree.Entry("plain") + ":" + tree.Entry("exec");
  EXPECT_EQ(tree.Entry("exec") + "/tool", FindProgramIn("tool", path.c_str()));
  EXPECT_EQ("exec", WhatTheShellRuns("tool", path.c_str()));
  // Nothing executable at all: not found, and the shell finds nothing either.
  path = tree.Entry("dir") + ":" + tree.Entry("plain");
  EXPECT_EQ("", FindProgramIn("tool", path.c_str()));
  EXPECT_EQ("", WhatTheShellRuns("tool", path.c_str()));
}

TEST(PathLookupTest, EmptyEntriesMeanTheCurrentDirectory) {
  ProgramTree tree("tool");
  tree.AddScript("here");
  tree.AddScript("b");
  ScopedChdir cwd(tree.Entry("here"));
  std::string b = tree.Entry("b");
  for (std::string path : {std::string(""), ":" + b, "::" + b}) {
    EXPECT_EQ("./tool", FindProgramIn("tool", path.c_str())) << "PATH=" << path;
    EXPECT_EQ("here", WhatTheShellRuns("tool", path.c_str())) << "PATH=" << path;
  }
  // A trailing empty entry comes last.
  std::string path = b + ":";
  EXPECT_EQ(b + "/tool", FindProgramIn("tool", path.c_str()));
  EXPECT_EQ("b", WhatTheShellRuns("tool", path.c_str()));
  path = tree.Entry("missing") + ":";
  EXPECT_EQ("./tool", FindProgramIn("tool", path.c_str()));
  EXPECT_EQ("here", WhatTheShellRuns("tool", path.c_str()));
}

TEST(PathLookupTest, RelativeEntriesAreRelativeToTheCurrentDirectory) {
  ProgramTree tree("tool");
  tree.AddScript("rel");
  ScopedChdir cwd(tree.root());
  EXPECT_EQ("rel/tool", FindProgramIn("tool", "rel"));
  EXPECT_EQ("rel", WhatTheShellRuns("tool", "rel"));
  EXPECT_EQ("./rel/tool", FindProgramIn("tool", "nothing:./rel"));
  EXPECT_EQ("rel", WhatTheShellRuns("tool", "nothing:./rel"));
}

TEST(PathLookupTest, NamesWithASlashAreThatPath) {
  ProgramTree tree("tool");
  tree.AddScript("a");
  tree.AddScript("plain", 0644);
  tree.AddDirectory("dir");
  std::string a = tree.Entry("a") + "/tool";
  EXPECT_EQ(a, FindProgramIn(a, "/nonexistent"));
  EXPECT_EQ(a, FindProgramIn(a, nullptr));  // PATH does not matter
  EXPECT_EQ("", FindProgramIn(tree.Entry("plain") + "/tool", "/bin"));
  EXPECT_EQ("", FindProgramIn(tree.Entry("dir") + "/tool", "/bin"));
  EXPECT_EQ("", FindProgramIn(tree.Entry("missing") + "/tool", "/bin"));
  ScopedChdir cwd(tree.root());
  EXPECT_EQ("a/tool", FindProgramIn("a/tool", ""));
  EXPECT_EQ("./a/tool", FindProgramIn("./a/tool", ""));
}

TEST(PathLookupTest, UnsetPathFindsNoName) {
  // The shell would search a default list of its own; none is guessed.
  EXPECT_EQ("", FindProgramIn("sh", nullptr));
  EXPECT_NE("", FindProgramIn("sh", "/usr/bin:/bin"));
  EXPECT_EQ("", FindProgramIn("", "/usr/bin:/bin"));
}

TEST(PathLookupTest, FindProgramRemembersNamesButNotPaths) {
  std::string name = "ronin-path-lookup-remembered-" + std::to_string(getpid());
  ProgramTree tree(name);
  tree.AddScript("a");
  std::string program = tree.Entry("a") + "/" + name;
  {
    ScopedEnv path("PATH", tree.Entry("a").c_str());
    EXPECT_EQ(program, FindProgram(name));
  }
  // Once found, a name keeps its answer for the run, whatever PATH says now.
  {
    ScopedEnv path("PATH", "/nonexistent");
    EXPECT_EQ(program, FindProgram(name));
  }
  // A path is looked at each time: a program the build makes is seen.
  std::string later = tree.Entry("a") + "/later";
  EXPECT_EQ("", FindProgram(later));
  test::WriteRealFile(later, "#!/bin/sh\n");
  ASSERT_EQ(0, chmod(later.c_str(), 0755));
  EXPECT_EQ(later, FindProgram(later));
}

// The real path the cache's identity names for the first program of
// `command` ("" if it names none).
std::string IdentifiedProgram(const std::string& command) {
  BaseDirMapper mapper("");
  FileHasher hasher;
  std::vector<FileHash> read;
  std::vector<std::string> identities = ProgramIdentities(command, mapper, &hasher, &read);
  return read.empty() ? "" : read[0].first;
}

std::string RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? resolved : "<" + path + " unresolved>";
}

// The build cache keyed by the program the spawner runs: where the two
// lookups used to differ, they now name the same file. A directory named
// like the program earlier in PATH made the cache's lookup stop there (and
// name no program), while the spawner, like the shell, went on to the next
// entry and ran the program found there.
TEST(PathLookupTest, CacheIdentityNamesTheProgramTheSpawnerRuns) {
  std::string name = "ronin-path-lookup-agree-" + std::to_string(getpid());
  ProgramTree tree(name);
  tree.AddDirectory("dir");
  tree.AddScript("plain", 0644);
  tree.AddScript("exec");
  std::string path = tree.Entry("dir") + ":" + tree.Entry("plain") + ":" + tree.Entry("exec");
  ScopedEnv env("PATH", path.c_str());
  std::string spawned = FindProgram(name);
  EXPECT_EQ(tree.Entry("exec") + "/" + name, spawned);
  EXPECT_EQ(RealPath(spawned), IdentifiedProgram(name + " -c x.c"));
  EXPECT_EQ("exec", WhatTheShellRuns(name, path.c_str()));
}

TEST(PathLookupTest, CacheIdentityNamesNoProgramWithPathUnset) {
  // The spawner then leaves the search to the shell, and the key names no
  // program rather than a guess (it used to search /usr/bin:/bin, the
  // spawner /usr/local/bin:/usr/bin:/bin). A program no other test runs,
  // so that no earlier answer is remembered for it.
  const std::string name = "printenv";
  if (FindProgramIn(name, "/usr/bin:/bin").empty()) GTEST_SKIP() << "no " << name << " in /usr/bin:/bin";
  ScopedEnv env("PATH", nullptr);
  EXPECT_EQ("", FindProgram(name));
  EXPECT_EQ("", IdentifiedProgram(name + " -c x.c"));
  // A path still names its program for both.
  EXPECT_EQ("/bin/sh", FindProgram("/bin/sh"));
  EXPECT_EQ(RealPath("/bin/sh"), IdentifiedProgram("/bin/sh -c true"));
}

}  // namespace
}  // namespace ronin
