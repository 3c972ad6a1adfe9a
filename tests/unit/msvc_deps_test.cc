#include "scan/msvc_deps.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace ronin {
namespace {

using namespace std::string_view_literals;
using Strings = std::vector<std::string>;

// All expectations were checked against ninja 1.13.2 (`deps = msvc`, a
// command printing the text, then the printed output and `ninja -t deps`).

struct Filtered {
  std::string output;
  Strings includes;
};

Filtered Filter(std::string_view text, std::string_view prefix = {},
                PathCanonicalizer canonicalize = nullptr) {
  Filtered f;
  f.output = FilterShowIncludes(text, prefix, &f.includes, canonicalize);
  return f;
}

TEST(MsvcDepsTest, EmptyOutputStaysEmpty) {
  Filtered f = Filter("");
  EXPECT_EQ("", f.output);
  EXPECT_TRUE(f.includes.empty());
}

TEST(MsvcDepsTest, UnterminatedLastLineGainsNewline) {
  EXPECT_EQ("hello\n", Filter("hello").output);
}

TEST(MsvcDepsTest, BlankLinesAreKept) {
  EXPECT_EQ("\n", Filter("\n").output);
  EXPECT_EQ("\n\n", Filter("\n\n").output);
}

TEST(MsvcDepsTest, CrlfBecomesLf) {
  EXPECT_EQ("a\nb\n", Filter("a\r\nb\r\n").output);
}

TEST(MsvcDepsTest, LoneCrEndsALine) {
  // "\r\r\n" is a line end followed by an empty line.
  EXPECT_EQ("x\n\ny\nz\n", Filter("x\r\r\ny\rz").output);
}

TEST(MsvcDepsTest, IncludeLinesAreRemovedAndCollected) {
  Filtered f = Filter(
      "a.cc\n"
      "Note: including file: z.h\n"
      "Note: including file:   a.h\n"
      "warning\n"
      "b.cc\n");
  EXPECT_EQ("warning\nb.cc\n", f.output);
  // Sorted, not in order of appearance: ninja keeps them in a std::set.
  EXPECT_EQ(Strings({"a.h", "z.h"}), f.includes);
}

TEST(MsvcDepsTest, DefaultPrefixIncludesTheSpace) {
  Filtered f = Filter("Note: including file:x.h\n");
  EXPECT_EQ("Note: including file:x.h\n", f.output);
  EXPECT_TRUE(f.includes.empty());
}

TEST(MsvcDepsTest, PrefixWithoutPathIsOrdinaryOutput) {
  Filtered f = Filter("Note: including file: \nNote: including file:   \nfoo");
  EXPECT_EQ("Note: including file: \nNote: including file:   \nfoo\n",
            f.output);
  EXPECT_TRUE(f.includes.empty());
}

TEST(MsvcDepsTest, PrefixIsCaseSensitiveAndAnchored) {
  Filtered f = Filter(
      "note: including file: x.h\n"
      " Note: including file: y.h\n");
  EXPECT_EQ("note: including file: x.h\n Note: including file: y.h\n",
            f.output);
  EXPECT_TRUE(f.includes.empty());
}

TEST(MsvcDepsTest, OnlySpacesAreSkippedAfterPrefix) {
  Filtered f = Filter(
      "Note: including file: \tb.h\n"
      "Note: including file:\tc.h\n");
  // A tab right after "file:" means the prefix (ending in a space) does not
  // match at all.
  EXPECT_EQ("Note: including file:\tc.h\n", f.output);
  EXPECT_EQ(Strings({"\tb.h"}), f.includes);
}

TEST(MsvcDepsTest, TrailingSpacesStayInPath) {
  EXPECT_EQ(Strings({"t.h  "}),
            Filter("Note: including file: t.h  \n").includes);
}

TEST(MsvcDepsTest, SystemIncludesAreRemovedButNotRecorded) {
  Filtered f = Filter(
      "a.c\r\n"
      "Note: including file: C:\\Program Files\\x.h\r\n"
      "Note: including file: c:\\microsoft visual studio\\y.h\r\n"
      "Note: including file: PROGRAM FILES (x86)/z.h\r\n"
      "Note: including file: q.h\r\n"
      "rest\r\n");
  EXPECT_EQ("rest\n", f.output);
  EXPECT_EQ(Strings({"q.h"}), f.includes);
}

TEST(MsvcDepsTest, SourceEchoDroppedOnlyBeforeFirstInclude) {
  Filtered f = Filter(
      "A.CPP\nx.C\ny.c++\nz.Cxx\nw.cC\nv.c \nu.h\n"
      "Note: including file: q.h\n"
      "late.cc\n");
  EXPECT_EQ("v.c \nu.h\nlate.cc\n", f.output);
  EXPECT_EQ(Strings({"q.h"}), f.includes);
}

TEST(MsvcDepsTest, SourceEchoDroppedWithoutAnyInclude) {
  EXPECT_EQ("error\n", Filter("a.cc\nerror\n").output);
  EXPECT_EQ("c\n", Filter(".c\nc\n").output);
}

TEST(MsvcDepsTest, EmptyIncludeLineDoesNotEndSourceEcho) {
  EXPECT_EQ("Note: including file: \n",
            Filter("Note: including file: \nb.cpp\n").output);
}

TEST(MsvcDepsTest, CustomPrefix) {
  Filtered f = Filter("INC:x.h\nINC: y.h\nNote: including file: z.h\nfoo.cc\n",
                      "INC:");
  EXPECT_EQ("Note: including file: z.h\nfoo.cc\n", f.output);
  EXPECT_EQ(Strings({"x.h", "y.h"}), f.includes);

  f = Filter("a.cc\nINC:\nINC:q.h\n", "INC:");
  EXPECT_EQ("INC:\n", f.output);
  EXPECT_EQ(Strings({"q.h"}), f.includes);
}

TEST(MsvcDepsTest, EmptyPrefixMeansDefault) {
  EXPECT_EQ(Strings({"x.h"}),
            Filter("Note: including file: x.h\n", "").includes);
  EXPECT_EQ("Note: including file: ", kDefaultShowIncludesPrefix);
}

TEST(MsvcDepsTest, DuplicatesRecordedOnce) {
  Filtered f = Filter(
      "Note: including file: a.h\n"
      "Note: including file: b.h\n"
      "Note: including file: a.h\n");
  EXPECT_EQ(Strings({"a.h", "b.h"}), f.includes);
}

TEST(MsvcDepsTest, SortIsBytewiseUnsigned) {
  Filtered f = Filter(
      "Note: including file: \xc3\xa9.h\n"
      "Note: including file: a.h\n"
      "Note: including file: Z.h\n"
      "Note: including file: a.h\x80\n");
  EXPECT_EQ(Strings({"Z.h", "a.h", "a.h\x80", "\xc3\xa9.h"}), f.includes);
}

// Toy stand-in for CanonicalizePath, enough for the paths used below.
void ToyCanonicalize(std::string* path) {
  if (path->compare(0, 2, "./") == 0) path->erase(0, 2);
  size_t up = path->find("/../");
  if (up != std::string::npos) {
    size_t dir = path->rfind('/', up - 1);
    dir = dir == std::string::npos ? 0 : dir + 1;
    path->erase(dir, up + 4 - dir);
  }
}

TEST(MsvcDepsTest, CanonicalizerRunsBeforeSystemCheckDedupAndSort) {
  Filtered f = Filter(
      "Note: including file: ./z.h\n"
      "Note: including file: a.h\n"
      "Note: including file: ./a.h\n"
      "Note: including file: c:/Program Files/../x.h\n"
      "Note: including file: q/../Microsoft Visual Studio/y.h\n",
      {}, ToyCanonicalize);
  EXPECT_EQ("", f.output);
  EXPECT_EQ(Strings({"a.h", "c:/x.h", "z.h"}), f.includes);
}

TEST(MsvcDepsTest, IncludesVectorIsReplaced) {
  Strings includes = {"stale"};
  FilterShowIncludes("Note: including file: x.h\n", {}, &includes);
  EXPECT_EQ(Strings({"x.h"}), includes);
}

TEST(MsvcDepsTest, NulBytesAreOrdinary) {
  Filtered f = Filter("a\0b\nNote: including file: x\0y.h\n"sv);
  EXPECT_EQ("a\0b\n"sv, f.output);
  EXPECT_EQ(Strings({std::string("x\0y.h"sv)}), f.includes);
}

TEST(MsvcDepsTest, EveryPrefixOfTrickyOutput) {
  const std::string text =
      "a.cpp\r\nNote: including file: C:\\x.h\r\r\nNote: including file: ";
  for (size_t len = 0; len <= text.size(); ++len) {
    Strings includes;
    std::string out = FilterShowIncludes(text.substr(0, len), {}, &includes);
    EXPECT_TRUE(out.empty() || out.back() == '\n') << len;
  }
}

}  // namespace
}  // namespace ronin
