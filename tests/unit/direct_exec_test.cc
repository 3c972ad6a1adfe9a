#include "exec/direct_exec.h"

#include <gtest/gtest.h>

namespace ronin {
namespace {

std::vector<std::string> Split(const char* command) {
  std::vector<std::string> argv;
  EXPECT_TRUE(SplitSimpleCommand(command, &argv)) << command;
  return argv;
}

bool NeedsShell(const char* command) {
  std::vector<std::string> argv{"untouched"};
  bool direct = SplitSimpleCommand(command, &argv);
  if (!direct) {
    EXPECT_EQ(argv, std::vector<std::string>{"untouched"}) << command;
  }
  return !direct;
}

TEST(DirectExecTest, SplitsPlainCommandsOnSpaces) {
  EXPECT_EQ(Split("touch out"), (std::vector<std::string>{"touch", "out"}));
  EXPECT_EQ(Split("  gcc   -c a.c  -o a.o "), (std::vector<std::string>{"gcc", "-c", "a.c", "-o", "a.o"}));
  EXPECT_EQ(Split("/usr/bin/cc -DX=1 -Iinclude/dir x.c"),
            (std::vector<std::string>{"/usr/bin/cc", "-DX=1", "-Iinclude/dir", "x.c"}));
  EXPECT_EQ(Split("./tool a,b c:d e%f g+h @rsp"),
            (std::vector<std::string>{"./tool", "a,b", "c:d", "e%f", "g+h", "@rsp"}));
  EXPECT_EQ(Split("ld"), (std::vector<std::string>{"ld"}));
}

TEST(DirectExecTest, NonAsciiBytesAreLiteral) {
  EXPECT_EQ(Split("cp caf\xc3\xa9 out"), (std::vector<std::string>{"cp", "caf\xc3\xa9", "out"}));
}

TEST(DirectExecTest, EmptyCommandsGoToTheShell) {
  EXPECT_TRUE(NeedsShell(""));
  EXPECT_TRUE(NeedsShell("   "));
}

TEST(DirectExecTest, QuotingAndEscapesGoToTheShell) {
  EXPECT_TRUE(NeedsShell("echo 'a b'"));
  EXPECT_TRUE(NeedsShell("cc \"-DX=a b\""));
  EXPECT_TRUE(NeedsShell("cc `pkg-config --cflags x`"));
  EXPECT_TRUE(NeedsShell("cp a\\ b c"));
}

TEST(DirectExecTest, ExpansionGoesToTheShell) {
  EXPECT_TRUE(NeedsShell("cc $CFLAGS x.c"));
  EXPECT_TRUE(NeedsShell("cc ${CFLAGS} x.c"));
  EXPECT_TRUE(NeedsShell("cp ~/x y"));
  EXPECT_TRUE(NeedsShell("rm *.o"));
  EXPECT_TRUE(NeedsShell("rm ?.o"));
  EXPECT_TRUE(NeedsShell("rm [ab].o"));
  EXPECT_TRUE(NeedsShell("rm a].o"));
  EXPECT_TRUE(NeedsShell("echo {a,b}"));
}

TEST(DirectExecTest, OperatorsAndRedirectionsGoToTheShell) {
  for (const char* command : {"a ; b", "a && b", "a & b", "a | b", "a || b", "a > out", "a < in", "a >> out",
                              "a 2>&1", "(a)", "a (b)", "a # comment", "! a", "a ^ b"}) {
    EXPECT_TRUE(NeedsShell(command)) << command;
  }
}

TEST(DirectExecTest, LineStructureGoesToTheShell) {
  EXPECT_TRUE(NeedsShell("a\nb"));
  EXPECT_TRUE(NeedsShell("a\tb"));
  EXPECT_TRUE(NeedsShell("a\r"));
  std::vector<std::string> argv;
  EXPECT_FALSE(SplitSimpleCommand(std::string_view("a\0b", 3), &argv));
}

TEST(DirectExecTest, AssignmentsGoToTheShell) {
  EXPECT_TRUE(NeedsShell("LC_ALL=C sort x"));
  EXPECT_TRUE(NeedsShell("X= cc"));
  // '=' after the program name is an ordinary argument.
  EXPECT_EQ(Split("env X=1 cc"), (std::vector<std::string>{"env", "X=1", "cc"}));
}

TEST(DirectExecTest, ReservedWordsAndBuiltinsGoToTheShell) {
  for (const char* command : {"if", "for x in y", "while true", "case x in", "echo hi", "printf x", "cd dir",
                              "exit 1", "true", "false", "test -f x", ": nothing", ". ./env.sh", "exec cc",
                              "export X", "set -e", "kill 1", "pwd", "wait", "command -v cc", "type cc",
                              "read x", "umask 022", "ulimit -n", "trap x", "eval x", "source x", "time cc",
                              "until x", "do", "done", "then", "fi", "function f"}) {
    EXPECT_TRUE(NeedsShell(command)) << command;
  }
  // Only the command position matters.
  EXPECT_EQ(Split("cc if.c echo.c"), (std::vector<std::string>{"cc", "if.c", "echo.c"}));
  // Paths to programs named like builtins are external programs.
  EXPECT_EQ(Split("/bin/echo hi"), (std::vector<std::string>{"/bin/echo", "hi"}));
}

}  // namespace
}  // namespace ronin
