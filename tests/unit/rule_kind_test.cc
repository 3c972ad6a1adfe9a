// Tests for the report's kinds of command (rule_kind.h).
#include "insight/rule_kind.h"

#include <gtest/gtest.h>

#include <string>

#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

std::string_view KindOfRule(State* state, const std::string& rule, const std::string& bindings = "") {
  std::string output = "out_" + rule;
  EXPECT_TRUE(test::ParseManifest(state, "rule " + rule + "\n  command = c\n" + bindings + "build " + output + ": " +
                                             rule + "\n"));
  return RuleKindOf(state->LookupNode(output)->in_edge);
}

TEST(RuleKindTest, GeneratorsNamesAndCompilersReports) {
  State state;
  EXPECT_EQ("compile", KindOfRule(&state, "CXX_COMPILER__fmt_Release"));
  EXPECT_EQ("link", KindOfRule(&state, "CXX_EXECUTABLE_LINKER__app_Release"));
  EXPECT_EQ("link", KindOfRule(&state, "CXX_STATIC_LIBRARY_LINKER__fmt_Release"));
  EXPECT_EQ("custom", KindOfRule(&state, "CUSTOM_COMMAND"));
  EXPECT_EQ("custom", KindOfRule(&state, "RERUN_CMAKE"));
  for (const char* gn : {"cc", "cxx", "objc", "asm"}) EXPECT_EQ("compile", KindOfRule(&state, gn)) << gn;
  for (const char* gn : {"link", "alink", "solink"}) EXPECT_EQ("link", KindOfRule(&state, gn)) << gn;
  EXPECT_EQ("custom", KindOfRule(&state, "stamp"));
  EXPECT_EQ("compile", KindOfRule(&state, "my_tool", "  depfile = $out.d\n"));
  EXPECT_EQ("custom", RuleKindOf(nullptr));  // not in the manifest any more
}

}  // namespace
}  // namespace ronin
