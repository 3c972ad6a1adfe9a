// Tests for the file-access monitor (access_monitor.h) with real
// processes: what a shell command and its children did to files, exec
// failures, and that nothing is left waiting when a command leaves a
// process behind or the monitor goes away first.
#include "audit/access_monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "audit/watched_spawn.h"
#include "base/util.h"
#include "test_support.h"

extern char** environ;

namespace ronin {
namespace {

#ifdef __linux__

class AccessMonitorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    monitor_ = AccessMonitor::Start(&err);
    ASSERT_TRUE(monitor_) << err;
    dir_ = CanonicalAbsolutePath(WorkingDirectory(), temp_.path());
  }

  // Starts `sh -c script` in the scratch directory, output to a pipe.
  void Start(const std::string& script) {
    ASSERT_EQ(0, pipe2(pipe_, O_CLOEXEC));
    std::string command = "cd '" + dir_ + "' && " + script;
    argv_ = {"sh", "-c", command};
    std::vector<char*> argv;
    for (std::string& word : argv_) argv.push_back(&word[0]);
    argv.push_back(nullptr);
    WatchedSpawn spawn;
    spawn.path = "/bin/sh";
    spawn.argv = argv.data();
    spawn.envp = environ;
    spawn.output_fd = pipe_[1];
    spawn.own_process_group = true;
    sigemptyset(&spawn.mask);
    sigemptyset(&spawn.defaults);
    ASSERT_EQ(0, monitor_->Spawn(spawn, &pid_, &watch_));
    close(pipe_[1]);
  }

  // Everything the command and what it left printed, waiting at most
  // `seconds` for the pipe to close (a hang fails the test, not the run).
  std::string ReadOutput(int seconds = 20) {
    std::string output;
    char buffer[4096];
    for (;;) {
      pollfd fd = {pipe_[0], POLLIN, 0};
      if (poll(&fd, 1, seconds * 1000) <= 0) {
        ADD_FAILURE() << "the command's output did not end: something waits";
        break;
      }
      ssize_t n = read(pipe_[0], buffer, sizeof(buffer));
      if (n <= 0) break;
      output.append(buffer, n);
    }
    close(pipe_[0]);
    return output;
  }

  // Waits for the command and returns what it did.
  FileAccesses Finish(int* status = nullptr) {
    int wait_status = 0;
    while (waitpid(pid_, &wait_status, 0) < 0 && errno == EINTR) {
    }
    if (status) *status = wait_status;
    return monitor_->Finish(watch_);
  }

  FileAccesses Run(const std::string& script) {
    Start(script);
    output_ = ReadOutput();
    return Finish();
  }

  bool Did(const FileAccesses& accesses, const std::string& name, FileAccess access) {
    auto it = accesses.records().find(dir_ + "/" + name);
    return it != accesses.records().end() && it->second.Has(access);
  }

  test::ScopedTempDir temp_;
  std::string dir_;
  std::unique_ptr<AccessMonitor> monitor_;
  std::vector<std::string> argv_;
  int pipe_[2] = {-1, -1};
  pid_t pid_ = -1;
  CommandWatch* watch_ = nullptr;
  std::string output_;
};

TEST_F(AccessMonitorTest, SeesWhatAPipelineReadsWritesAndRemoves) {
  test::WriteRealFile(temp_.File("in.txt"), "hello\n");
  test::WriteRealFile(temp_.File("old.txt"), "x");
  test::WriteRealFile(temp_.File("gone.txt"), "x");
  FileAccesses accesses =
      Run("cat in.txt | tr a-z A-Z > out.txt && mv old.txt new.txt && rm gone.txt && test -e probe.txt; "
          "mkdir -p sub && cd sub && cat ../in.txt > copy.txt");
  EXPECT_TRUE(Did(accesses, "in.txt", FileAccess::kRead));
  EXPECT_TRUE(Did(accesses, "out.txt", FileAccess::kWrite));
  EXPECT_TRUE(Did(accesses, "old.txt", FileAccess::kRemove));
  EXPECT_TRUE(Did(accesses, "new.txt", FileAccess::kWrite));
  EXPECT_TRUE(Did(accesses, "gone.txt", FileAccess::kRemove));
  EXPECT_TRUE(Did(accesses, "probe.txt", FileAccess::kProbe));
  // Relative to a directory the shell moved into.
  EXPECT_TRUE(Did(accesses, "sub/copy.txt", FileAccess::kWrite));
  EXPECT_TRUE(accesses.records().count("/bin/cat") || accesses.records().count("/usr/bin/cat"));
  EXPECT_EQ("HELLO\n", test::ReadRealFile(temp_.File("out.txt")));
  EXPECT_FALSE(accesses.records().at(dir_ + "/in.txt").Wrote());
}

TEST_F(AccessMonitorTest, ChildrenWithAnEmptyEnvironmentAreWatchedToo) {
  test::WriteRealFile(temp_.File("in.txt"), "x");
  FileAccesses accesses = Run("env -i /bin/sh -c 'cat in.txt > out.txt'");
  EXPECT_TRUE(Did(accesses, "in.txt", FileAccess::kRead));
  EXPECT_TRUE(Did(accesses, "out.txt", FileAccess::kWrite));
}

TEST_F(AccessMonitorTest, AFailedExecIsReportedAndLeavesNothingBehind) {
  char name[] = "no-such-program";
  char* argv[] = {name, nullptr};
  WatchedSpawn spawn;
  spawn.path = "/no/such/program";
  spawn.argv = argv;
  spawn.envp = environ;
  sigemptyset(&spawn.mask);
  sigemptyset(&spawn.defaults);
  pid_t pid;
  CommandWatch* watch;
  EXPECT_EQ(ENOENT, monitor_->Spawn(spawn, &pid, &watch));
  // The monitor still works for the next command.
  test::WriteRealFile(temp_.File("in.txt"), "x");
  EXPECT_TRUE(Did(Run("cat in.txt"), "in.txt", FileAccess::kRead));
}

TEST_F(AccessMonitorTest, AProcessLeftBehindIsNeverStuck) {
  test::WriteRealFile(temp_.File("in.txt"), "x");
  // The background job outlives the command and keeps the pipe open.
  Start("(sleep 0.3; cat in.txt > later.txt; echo done) &");
  int status = 0;
  FileAccesses accesses = Finish(&status);
  EXPECT_TRUE(WIFEXITED(status));
  // Finished: its later calls are answered, not noted.
  EXPECT_EQ("done\n", ReadOutput());
  EXPECT_EQ("x", test::ReadRealFile(temp_.File("later.txt")));
  EXPECT_FALSE(Did(accesses, "later.txt", FileAccess::kWrite));
}

TEST_F(AccessMonitorTest, ProcessesOutlivingTheMonitorFailTheirCallsInsteadOfWaiting) {
  Start("(echo started; sleep 0.2; cat /dev/null > later.txt; echo \"after $?\") &");
  Finish();
  // Once the background job runs (its start-up opens done), the monitor
  // goes, as when ninja exits or is killed.
  std::string output;
  char buffer[64];
  while (output.find("started\n") == std::string::npos) {
    ssize_t n = read(pipe_[0], buffer, sizeof(buffer));
    ASSERT_GT(n, 0);
    output.append(buffer, n);
  }
  monitor_.reset();
  output += ReadOutput();
  // Its later path calls failed (ENOSYS) and the shell went on.
  EXPECT_NE(std::string::npos, output.find("after ")) << output;
  EXPECT_EQ(std::string::npos, output.find("after 0")) << output;
  EXPECT_FALSE(test::RealFileExists(temp_.File("later.txt")));
}

TEST_F(AccessMonitorTest, ACommandKilledWhileTrappedIsGone) {
  // Many path calls in a loop; killed at some point of it, most likely
  // inside one. The kill must take effect and the monitor must go on.
  Start("while :; do test -e x; done");
  usleep(100 * 1000);
  kill(-pid_, SIGKILL);
  int status = 0;
  FileAccesses accesses = Finish(&status);
  ReadOutput();
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(Did(accesses, "x", FileAccess::kProbe));
  test::WriteRealFile(temp_.File("in.txt"), "x");
  EXPECT_TRUE(Did(Run("cat in.txt"), "in.txt", FileAccess::kRead));
}

#else

TEST(AccessMonitorTest, IsRefusedOffLinux) {
  std::string err;
  EXPECT_FALSE(AccessMonitor::Start(&err));
  EXPECT_NE(std::string::npos, err.find("Linux"));
}

#endif  // __linux__

}  // namespace
}  // namespace ronin
