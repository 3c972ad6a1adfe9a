// Tests for the real runner (exec/real_command_runner.h): a command the
// system refuses for good (longer than it takes) is a failed command, handed
// out by the next wait, and the runner goes on running the others.
#include "exec/real_command_runner.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;

// More than Linux takes in one argument (128 KiB), and the whole command
// is one argument of /bin/sh -c.
const std::string kTooLong(300000, 'x');

class RealCommandRunnerTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ParseManifest(&state_, "rule r\n  command = $text\n"
                                       "build big: r\n  text = echo " + kTooLong + "\n"
                                       "build small: r\n  text = echo small\n"));
  }
  Edge* EdgeOf(const char* output) { return state_.LookupNode(output)->in_edge; }

  State state_;
  RealCommandRunner runner_{/*reap_jobs=*/false, /*watch_commands=*/false};
};

TEST_F(RealCommandRunnerTest, ACommandTooLongToStartIsAFailedCommand) {
  ASSERT_TRUE(runner_.StartCommand(EdgeOf("big")));
  EXPECT_TRUE(runner_.GetActiveEdges().empty());  // nothing runs for it
  CommandRunner::Result result;
  ASSERT_TRUE(runner_.WaitForCommand(&result, -1, -1, -1));
  EXPECT_EQ(EdgeOf("big"), result.edge);
  EXPECT_EQ(kExitFailure, result.status);
  EXPECT_EQ(0u, result.output.find("ninja: error: cannot start the command for 'big': it is "));
  EXPECT_NE(std::string::npos, result.output.find("rspfile"));
  EXPECT_EQ('\n', result.output.back());
}

TEST_F(RealCommandRunnerTest, TheOthersRunAsUsual) {
  ASSERT_TRUE(runner_.StartCommand(EdgeOf("small")));
  ASSERT_TRUE(runner_.StartCommand(EdgeOf("big")));
  std::set<std::string> finished;
  for (int i = 0; i < 2; ++i) {
    CommandRunner::Result result;
    ASSERT_TRUE(runner_.WaitForCommand(&result, -1, -1, -1));
    ASSERT_TRUE(result.edge);
    std::string output(result.edge->outputs[0]->path);
    if (output == "small") {
      EXPECT_EQ(kExitSuccess, result.status);
      EXPECT_EQ("small\n", result.output);
    } else {
      EXPECT_EQ(kExitFailure, result.status);
    }
    finished.insert(output);
  }
  EXPECT_EQ((std::set<std::string>{"big", "small"}), finished);
}

TEST_F(RealCommandRunnerTest, AbortDropsFailuresNotYetHandedOut) {
  ASSERT_TRUE(runner_.StartCommand(EdgeOf("big")));
  runner_.Abort();
  ASSERT_TRUE(runner_.StartCommand(EdgeOf("small")));
  CommandRunner::Result result;
  ASSERT_TRUE(runner_.WaitForCommand(&result, -1, -1, -1));
  EXPECT_EQ(EdgeOf("small"), result.edge);
}

}  // namespace
}  // namespace ronin
