// Tests for base/util.h. Expected canonical forms, quoting and stripping were
// checked against ninja 1.13.2 (e.g. `build P: phony` + `-t targets all`,
// `-t commands` for $in quoting, command output for escape stripping).
#include "base/util.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace ronin {
namespace {

std::string Canon(std::string path) {
  CanonicalizePath(&path);
  return path;
}

// (input, canonical form printed by ninja 1.13.2).
const std::pair<const char*, const char*> kCanonicalCases[] = {
    {"foo.h", "foo.h"},
    {"./foo.h", "foo.h"},
    {"./foo/./bar.h", "foo/bar.h"},
    {"./x/foo/../bar.h", "x/bar.h"},
    {"./x/foo/../../bar.h", "bar.h"},
    {"foo//bar", "foo/bar"},
    {"foo//.//..///bar", "bar"},
    {"./x/../foo/../../bar.h", "../bar.h"},
    {"foo/./.", "foo"},
    {"foo/bar/..", "foo"},
    {"foo/.hidden_bar", "foo/.hidden_bar"},
    {"/foo", "/foo"},
    {"//foo", "/foo"},
    {"///foo", "/foo"},
    {"..", ".."},
    {"../", ".."},
    {"../foo", "../foo"},
    {"../foo/", "../foo"},
    {"../..", "../.."},
    {"../../", "../.."},
    {"./../", ".."},
    {"/..", "/.."},
    {"/../..", "/../.."},
    {"/", "/"},
    {"//", "/"},
    {"/./", "/"},
    {"a/..", "."},
    {"./", "."},
    {".", "."},
    {"a/../..", ".."},
    {"a/../../b", "../b"},
    {"../a/../b", "../b"},
    {"../a/../../b", "../../b"},
    {"a/b/../../..", ".."},
    {"/a/../..", "/.."},
    {"/a/../../b", "/../b"},
    {"a/./b/..", "a"},
    {"..a/b", "..a/b"},
    {"a../b", "a../b"},
    {"a/.../b", "a/.../b"},
    {"./.a", ".a"},
    {".a/..", "."},
    {"a/b/c/../../../..", ".."},
    {"x/..foo", "x/..foo"},
    {"a/b/../../../c/d/../..", ".."},
};

TEST(CanonicalizePathTest, MatchesNinja) {
  for (const auto& c : kCanonicalCases) EXPECT_EQ(c.second, Canon(c.first)) << "input: " << c.first;
}

TEST(CanonicalizePathTest, CanonicalisingTwiceChangesNothing) {
  std::vector<std::string> inputs;
  for (const auto& c : kCanonicalCases) inputs.push_back(c.first);
  // Every 1..5 component path over a small alphabet of tricky components.
  const char* const parts[] = {"a", ".", "..", "", "b.c"};
  std::vector<std::string> level = {""};
  for (int depth = 0; depth < 5; ++depth) {
    std::vector<std::string> next;
    for (const std::string& prefix : level) {
      for (const char* part : parts) {
        std::string path = prefix.empty() && depth == 0 ? part : prefix + "/" + part;
        next.push_back(path);
        inputs.push_back(path);
        inputs.push_back("/" + path);
      }
    }
    level.swap(next);
  }
  for (const std::string& input : inputs) {
    if (input.empty()) continue;
    std::string once = Canon(input);
    EXPECT_FALSE(once.empty()) << "input: " << input;
    EXPECT_EQ(once, Canon(once)) << "input: " << input;
    // A canonical path never has "//", a trailing '/', or a "./" component.
    EXPECT_EQ(std::string::npos, once.find("//")) << once;
    if (once.size() > 1) {
      EXPECT_NE('/', once.back()) << once;
    }
    EXPECT_NE(0u, once.rfind("./", 0)) << once;
    EXPECT_EQ(std::string::npos, once.find("/./")) << once;
  }
}

TEST(CanonicalizePathTest, InPlaceReturnsNewLength) {
  char buffer[] = "./a/b/../c/";
  size_t len = CanonicalizePath(buffer, sizeof(buffer) - 1);
  EXPECT_EQ(3u, len);
  EXPECT_EQ("a/c", std::string(buffer, len));
}

TEST(CanonicalizePathTest, EmptyStaysEmpty) {
  std::string empty;
  CanonicalizePath(&empty);
  EXPECT_EQ("", empty);
  char c = 'x';
  EXPECT_EQ(0u, CanonicalizePath(&c, 0));
}

TEST(CanonicalizePathTest, LongPathWithManyComponents) {
  std::string path;
  for (int i = 0; i < 1000; ++i) path += "d" + std::to_string(i) + "/./";
  for (int i = 0; i < 999; ++i) path += "../";
  path += "f";
  EXPECT_EQ("d0/f", Canon(path));
}

TEST(ShellEscapeTest, SafeTextIsUnchanged) {
  std::string out = "x ";
  AppendShellEscaped("A-Z_0+9./x", &out);
  EXPECT_EQ("x A-Z_0+9./x", out);
  EXPECT_TRUE(IsShellSafe("abcXYZ019_+-./"));
}

TEST(ShellEscapeTest, UnsafeCharactersAreQuoted) {
  // Each of these was quoted by ninja 1.13.2 in $in.
  for (const char* text : {"a=b", "a,b", "a@b", "a%b", "a~b", "a*b", "a\\b", "a(b", "a;b", "a&b",
                           "a b", "e\"f", "g$h", "\xc3\xa9"}) {
    EXPECT_FALSE(IsShellSafe(text)) << text;
    std::string out;
    AppendShellEscaped(text, &out);
    EXPECT_EQ("'" + std::string(text) + "'", out);
  }
}

TEST(ShellEscapeTest, EveryByteAtEveryPlaceOfLongTexts) {
  // IsShellSafe looks at 16 bytes at a time: each byte value, at each
  // place of texts of every length around the block size, must count as
  // a lookup of the one table would have it.
  auto safe = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
           c == '-' || c == '.' || c == '/';
  };
  for (size_t size : {1, 15, 16, 17, 31, 32, 33, 47, 64}) {
    for (size_t place = 0; place < size; ++place) {
      for (int c = 0; c < 256; ++c) {
        std::string text(size, 'a');
        text[place] = static_cast<char>(c);
        ASSERT_EQ(safe(static_cast<unsigned char>(c)), IsShellSafe(text)) << size << " " << place << " " << c;
      }
    }
  }
}

TEST(ShellEscapeTest, SingleQuoteBecomesQuoteEscapeQuote) {
  std::string out;
  AppendShellEscaped("c'd", &out);
  EXPECT_EQ("'c'\\''d'", out);
  out.clear();
  AppendShellEscaped("''", &out);
  EXPECT_EQ("''\\'''\\'''", out);
}

TEST(ShellEscapeTest, EmptyTextAppendsNothing) {
  std::string out = "keep";
  AppendShellEscaped("", &out);
  EXPECT_EQ("keep", out);
  EXPECT_TRUE(IsShellSafe(""));
}

TEST(EditDistanceTest, Basics) {
  EXPECT_EQ(0, EditDistance("", "", 0));
  EXPECT_EQ(5, EditDistance("", "ninja", 0));
  EXPECT_EQ(5, EditDistance("ninja", "", 0));
  EXPECT_EQ(0, EditDistance("ninja", "ninja", 0));
  EXPECT_EQ(1, EditDistance("ninja", "njnja", 0));  // substitution
  EXPECT_EQ(1, EditDistance("ninja", "ninj", 0));   // deletion
  EXPECT_EQ(1, EditDistance("ninja", "ninjas", 0)); // insertion
  EXPECT_EQ(3, EditDistance("kitten", "sitting", 0));
  EXPECT_EQ(2, EditDistance("ab", "ba", 0));  // no transpositions
}

TEST(EditDistanceTest, IsSymmetric) {
  const char* const words[] = {"", "a", "build", "biuld", "rebuild", "clean", "cleaner"};
  for (const char* a : words)
    for (const char* b : words) EXPECT_EQ(EditDistance(a, b, 0), EditDistance(b, a, 0)) << a << " " << b;
}

TEST(EditDistanceTest, MaxDistanceCapsTheResult) {
  EXPECT_EQ(3, EditDistance("abcdef", "uvwxyz", 2));
  EXPECT_EQ(6, EditDistance("abcdef", "uvwxyz", 0));  // 0 means no limit
  EXPECT_EQ(2, EditDistance("abcd", "abxy", 2));       // within the limit: exact
}

TEST(SpellcheckStringTest, ClosestWordWithinThree) {
  std::vector<std::string_view> words = {"explain", "stats", "keepdepfile", "keeprsp"};
  EXPECT_EQ("explain", SpellcheckString("explian", words));
  EXPECT_EQ("stats", SpellcheckString("stat", words));
  EXPECT_EQ("keeprsp", SpellcheckString("keeprs", words));
  EXPECT_EQ("", SpellcheckString("completelydifferent", words));
}

TEST(SpellcheckStringTest, ExactlyThreeIsAcceptedFourIsNot) {
  std::vector<std::string_view> words = {"abcdefgh"};
  EXPECT_EQ("abcdefgh", SpellcheckString("abcdeXYZ", words));
  EXPECT_EQ("", SpellcheckString("abcdWXYZ", words));
}

TEST(SpellcheckStringTest, TiesGoToTheFirstWord) {
  std::vector<std::string_view> words = {"cat", "bat"};
  EXPECT_EQ("cat", SpellcheckString("rat", words));
  std::vector<std::string_view> reversed = {"bat", "cat"};
  EXPECT_EQ("bat", SpellcheckString("rat", reversed));
  EXPECT_EQ("", SpellcheckString("x", {}));
}

TEST(StripAnsiEscapeCodesTest, PlainTextUnchanged) {
  EXPECT_EQ("foo bar\n", StripAnsiEscapeCodes("foo bar\n"));
  EXPECT_EQ("", StripAnsiEscapeCodes(""));
}

TEST(StripAnsiEscapeCodesTest, StripsColourSequences) {
  EXPECT_EQ("redplain", StripAnsiEscapeCodes("\33[31mred\33[0mplain"));
  EXPECT_EQ("bold", StripAnsiEscapeCodes("\33[1;31;40mbold\33[m"));
  EXPECT_EQ("a: warning", StripAnsiEscapeCodes("\33[1ma:\33[0m \33[0;1;35mwarning\33[0m"));
}

TEST(StripAnsiEscapeCodesTest, NonCsiEscapeDropsOnlyTheEscape) {
  EXPECT_EQ("xy", StripAnsiEscapeCodes("\33xy"));
  EXPECT_EQ("ab", StripAnsiEscapeCodes("ab\33"));
  EXPECT_EQ("", StripAnsiEscapeCodes("\33[12"));  // unterminated: dropped to the end
}

// ninja 1.13.2 ends a CSI sequence only at an ASCII letter: command output
// "A\33[1~bc\33[31mred\33[0m\33xy\33[1@zw\33[12" is printed as "Acredxyw".
TEST(StripAnsiEscapeCodesTest, SequenceEndsOnlyAtALetter) {
  EXPECT_EQ("Acredxyw", StripAnsiEscapeCodes("A\33[1~bc\33[31mred\33[0m\33xy\33[1@zw\33[12"));
  EXPECT_EQ("c", StripAnsiEscapeCodes("\33[1~bc"));
}

TEST(DirNameTest, Basics) {
  EXPECT_EQ("", DirName("foo"));
  EXPECT_EQ("a", DirName("a/foo"));
  EXPECT_EQ("a/b", DirName("a/b/foo"));
  EXPECT_EQ("a", DirName("a//foo"));
  EXPECT_EQ("a/b", DirName("a/b/"));
  EXPECT_EQ("..", DirName("../foo"));
}

TEST(DirNameTest, RootIsKept) {
  EXPECT_EQ("/", DirName("/foo"));
  EXPECT_EQ("/", DirName("//foo"));
  EXPECT_EQ("/usr", DirName("/usr/lib"));
}

TEST(StringPrintfTest, ShortAndLong) {
  EXPECT_EQ("x=42 y=ab", StringPrintf("x=%d y=%s", 42, "ab"));
  std::string long_arg(1000, 'z');
  std::string result = StringPrintf("<%s>", long_arg.c_str());
  EXPECT_EQ(1002u, result.size());
  EXPECT_EQ("<" + long_arg + ">", result);
  EXPECT_EQ("", StringPrintf("%s", ""));
}

TEST(DiagnosticsTest, WarningAndErrorGoToStderrWithPrefix) {
  testing::internal::CaptureStderr();
  Warning("w %d", 1);
  Error("e %s", "two");
  EXPECT_EQ("ninja: warning: w 1\nninja: error: e two\n", testing::internal::GetCapturedStderr());
}

TEST(DiagnosticsTest, InfoGoesToStdout) {
  testing::internal::CaptureStdout();
  Info("no work to do.");
  EXPECT_EQ("ninja: no work to do.\n", testing::internal::GetCapturedStdout());
}

TEST(DiagnosticsDeathTest, FatalExitsWithStatusOne) {
  EXPECT_EXIT(Fatal("boom %d", 7), testing::ExitedWithCode(1), "^ninja: fatal: boom 7\n$");
}

TEST(MachineTest, ProcessorCountAndClock) {
  EXPECT_GE(GetProcessorCount(), 1);
  int64_t first = MonotonicMillis();
  int64_t second = MonotonicMillis();
  EXPECT_LE(first, second);
  EXPECT_GT(first, 0);
}

}  // namespace
}  // namespace ronin

namespace ronin {
namespace {

// IsCanonicalPath must agree with CanonicalizePath on every path built from
// a small alphabet of components (all combinations up to four components).
TEST(IsCanonicalPathTest, AgreesWithCanonicalizePath) {
  const char* parts[] = {"", ".", "..", "a", "bc", ".x", "..y", "z.", "..."};
  std::vector<std::string> paths = {"", "/"};
  std::vector<std::string> frontier = {""};
  for (int depth = 0; depth < 4; ++depth) {
    std::vector<std::string> next;
    for (const std::string& prefix : frontier) {
      for (const char* part : parts) {
        std::string path = prefix.empty() && depth == 0 ? part : prefix + "/" + part;
        next.push_back(path);
        paths.push_back(path);
        paths.push_back("/" + path);
        paths.push_back(path + "/");
      }
    }
    frontier.swap(next);
  }
  size_t canonical = 0;
  for (const std::string& path : paths) {
    if (path.empty()) {
      EXPECT_FALSE(IsCanonicalPath(path));
      continue;
    }
    std::string copy = path;
    CanonicalizePath(&copy);
    EXPECT_EQ(copy == path, IsCanonicalPath(path)) << "'" << path << "' canonicalises to '" << copy << "'";
    canonical += copy == path;
  }
  EXPECT_GT(canonical, 100u);
}

TEST(WhitespaceFieldsTest, WordsBetweenRunsOfWhiteSpace) {
  EXPECT_EQ(WhitespaceFields(""), std::vector<std::string_view>{});
  EXPECT_EQ(WhitespaceFields(" \t\n"), std::vector<std::string_view>{});
  EXPECT_EQ(WhitespaceFields("nameserver  127.0.0.1\t# x"),
            (std::vector<std::string_view>{"nameserver", "127.0.0.1", "#", "x"}));
  EXPECT_EQ(WhitespaceFields("\v--a=1\r\n--b "), (std::vector<std::string_view>{"--a=1", "--b"}));
}

TEST(ParseNumberTest, AgreesWithLibc) {
  // Digits only take the fast path; everything else must still be what
  // strtoll / strtoull(16) make of it, as Ninja reads its log with them.
  const char* cases[] = {"0", "7", "1600000000000000000", "999999999999999999", "9223372036854775807",
                         "9223372036854775808", "99999999999999999999", "-5", "+5", " 5", "5 ", "12abc",
                         "", "abc", "0x1f", "0X1F", "ffffffffffffffff", "10000000000000000", "DeadBeef",
                         "00000000000000000000001", "1f\t", "-1", "4294967296", "2147483648"};
  for (const char* text : cases) {
    EXPECT_EQ(strtoll(text, nullptr, 10), ParseDecimal(text)) << text;
    EXPECT_EQ(strtoull(text, nullptr, 16), ParseHex(text)) << text;
    EXPECT_EQ(atoi(text), static_cast<int>(ParseDecimal(text))) << text;
  }
  std::mt19937_64 random(3);
  for (int i = 0; i < 10000; ++i) {
    std::string text = std::to_string(random() >> (random() % 64));
    EXPECT_EQ(strtoll(text.c_str(), nullptr, 10), ParseDecimal(text.c_str())) << text;
    char hex[32];
    snprintf(hex, sizeof hex, "%" PRIx64, static_cast<uint64_t>(random() >> (random() % 64)));
    EXPECT_EQ(strtoull(hex, nullptr, 16), ParseHex(hex)) << hex;
  }
}

TEST(ReadUpToTest, ReadsWholeRequestOrToTheEnd) {
  int pipe_fds[2];
  ASSERT_EQ(0, pipe(pipe_fds));
  ASSERT_EQ(10, write(pipe_fds[1], "0123456789", 10));
  close(pipe_fds[1]);
  char buffer[16] = {};
  EXPECT_EQ(4, ReadUpTo(pipe_fds[0], buffer, 4));
  EXPECT_EQ("0123", std::string(buffer, 4));
  // More asked than is left: what is left, then nothing.
  EXPECT_EQ(6, ReadUpTo(pipe_fds[0], buffer, sizeof buffer));
  EXPECT_EQ("456789", std::string(buffer, 6));
  EXPECT_EQ(0, ReadUpTo(pipe_fds[0], buffer, sizeof buffer));
  close(pipe_fds[0]);
  EXPECT_EQ(-1, ReadUpTo(-1, buffer, sizeof buffer));
}

TEST(WriteFullyTest, WritesEverythingOrSaysWhy) {
  int pipe_fds[2];
  ASSERT_EQ(0, pipe(pipe_fds));
  ASSERT_TRUE(WriteFully(pipe_fds[1], "0123456789", 10));
  close(pipe_fds[1]);
  char buffer[16] = {};
  EXPECT_EQ(10, ReadUpTo(pipe_fds[0], buffer, sizeof buffer));
  EXPECT_EQ("0123456789", std::string(buffer, 10));
  close(pipe_fds[0]);
  errno = 0;
  EXPECT_FALSE(WriteFully(-1, "x", 1));
  EXPECT_EQ(EBADF, errno);
}

TEST(ParseCountTest, DigitsOnly) {
  int64_t value = -1;
  EXPECT_TRUE(ParseCount("0", &value));
  EXPECT_EQ(0, value);
  EXPECT_TRUE(ParseCount("123456789012345678", &value));
  EXPECT_EQ(123456789012345678, value);
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "1x", "0x1", "1234567890123456789"})
    EXPECT_FALSE(ParseCount(text, &value)) << text;
}

}  // namespace
}  // namespace ronin
