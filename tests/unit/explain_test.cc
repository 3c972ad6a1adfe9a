// Tests for -d explain's printing (explain.h): every `ninja explain:` line
// comes after what stdout held, on one terminal or file.
#include "scan/explain.h"

#include <stdio.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace ronin {
namespace {

// Sends stdout and stderr to one file while it lives.
class BothStreamsToFile {
 public:
  explicit BothStreamsToFile(const std::string& path) {
    fflush(stdout);
    saved_out_ = dup(STDOUT_FILENO);
    saved_err_ = dup(STDERR_FILENO);
    FILE* file = fopen(path.c_str(), "w");
    EXPECT_TRUE(file);
    dup2(fileno(file), STDOUT_FILENO);
    dup2(fileno(file), STDERR_FILENO);
    fclose(file);
  }
  ~BothStreamsToFile() {
    fflush(stdout);
    dup2(saved_out_, STDOUT_FILENO);
    dup2(saved_err_, STDERR_FILENO);
    close(saved_out_);
    close(saved_err_);
  }

 private:
  int saved_out_, saved_err_;
};

TEST(ExplainTest, ALineFollowsWhatStdoutHeld) {
  test::ScopedTempDir dir;
  std::string path = dir.File("both");
  {
    BothStreamsToFile both(path);
    printf("[1/2] cc a\n");  // buffered: stdout is a file here
    PrintExplanation("%s is dirty (%d)", "a.o", 7);
    printf("[2/2] cc b\n");
  }
  EXPECT_EQ("[1/2] cc a\nninja explain: a.o is dirty (7)\n[2/2] cc b\n", test::ReadRealFile(path));
}

TEST(ExplainTest, LongMessagesArePrintedWhole) {
  test::ScopedTempDir dir;
  std::string path = dir.File("both");
  std::string reason(5000, 'x');
  {
    BothStreamsToFile both(path);
    PrintExplanation("%s", reason.c_str());
  }
  EXPECT_EQ("ninja explain: " + reason + "\n", test::ReadRealFile(path));
}

}  // namespace
}  // namespace ronin
