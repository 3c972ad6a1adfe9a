// Tests for graph/eval.h (EvalString, Scope, SmallMap, Rule) and for the edge
// environment behind Edge::GetBinding. Expected command texts were checked
// with `ninja -t commands` (1.13.2) on the same manifests.
#include "graph/eval.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::NodeOrNull;
using test::Paths;
using test::ParseManifest;

// ------------------------------------------------------------- EvalString

TEST(EvalStringTest, EvaluatesTextAndVariables) {
  Scope scope;
  scope.AddBinding("name", "world");
  EvalString value;
  value.AddText("hello ");
  value.AddVariable("name");
  value.AddText("!");
  value.AddVariable("missing");
  EXPECT_EQ("hello world!", value.Evaluate(scope));
  std::string out = "prefix:";
  value.EvaluateInto(scope, &out);
  EXPECT_EQ("prefix:hello world!", out);
}

TEST(EvalStringTest, EmptyClearAndLiteral) {
  EvalString value;
  EXPECT_TRUE(value.empty());
  EXPECT_TRUE(value.IsLiteral());
  value.AddText("");  // empty text adds nothing
  EXPECT_TRUE(value.empty());
  value.AddText("abc");
  EXPECT_FALSE(value.empty());
  EXPECT_TRUE(value.IsLiteral());
  EXPECT_EQ("abc", value.LiteralText());
  value.AddVariable("v");
  EXPECT_FALSE(value.IsLiteral());
  value.Clear();
  EXPECT_TRUE(value.empty());
  EXPECT_EQ("", value.Serialize());
}

TEST(EvalStringTest, SerializeAndUnparse) {
  EvalString value;
  value.AddText("cc ");
  value.AddVariable("in");
  value.AddText(" -o ");
  value.AddVariable("out.o");
  EXPECT_EQ("[cc ][$in][ -o ][$out.o]", value.Serialize());
  EXPECT_EQ("cc ${in} -o ${out.o}", value.Unparse());
}

TEST(EvalStringTest, AdjacentTextFromOneBufferMerges) {
  std::string buffer = "abcd";
  std::string_view view(buffer);
  EvalString merged;
  merged.AddText(view.substr(0, 2));
  merged.AddText(view.substr(2, 2));
  EXPECT_EQ("[abcd]", merged.Serialize());
  EvalString separate;
  separate.AddText(view.substr(0, 1));
  separate.AddText(view.substr(2, 1));
  EXPECT_EQ("[a][c]", separate.Serialize());
  EXPECT_EQ("ac", separate.LiteralText());
}

TEST(EvalStringTest, PersistOutlivesTheSourceBuffer) {
  Arena arena;
  EvalString value;
  {
    std::string source = "text var more";
    std::string_view view(source);
    value.AddText(view.substr(0, 5));
    value.AddVariable(view.substr(5, 3));
    value.AddText(view.substr(8));
    value.Persist(&arena);
    source.assign(source.size(), 'X');
  }
  Scope scope;
  scope.AddBinding("var", "V");
  EXPECT_EQ("text V more", value.Evaluate(scope));
  EXPECT_EQ("[text ][$var][ more]", value.Serialize());
}

// ------------------------------------------------------------------ Scope

TEST(ScopeTest, LookupFallsBackToParents) {
  Scope root;
  Scope child(&root);
  Scope grandchild(&child);
  root.AddBinding("a", "root-a");
  root.AddBinding("b", "root-b");
  child.AddBinding("b", "child-b");
  EXPECT_EQ("root-a", grandchild.LookupVariable("a"));
  EXPECT_EQ("child-b", grandchild.LookupVariable("b"));
  EXPECT_EQ("root-b", root.LookupVariable("b"));
  EXPECT_EQ("", grandchild.LookupVariable("c"));
  EXPECT_EQ(&child, grandchild.parent());
  EXPECT_EQ(nullptr, root.parent());
}

TEST(ScopeTest, LookupLocalDoesNotFallBack) {
  Scope root;
  Scope child(&root);
  root.AddBinding("a", "1");
  EXPECT_EQ(nullptr, child.LookupLocal("a"));
  ASSERT_NE(nullptr, root.LookupLocal("a"));
  EXPECT_EQ("1", *root.LookupLocal("a"));
  child.AddBinding("a", "");
  ASSERT_NE(nullptr, child.LookupLocal("a"));  // bound to empty is still bound
  EXPECT_EQ("", child.LookupVariable("a"));
}

TEST(ScopeTest, RebindingReplaces) {
  Scope scope;
  scope.AddBinding("x", "1");
  scope.AddBinding("x", "2");
  EXPECT_EQ("2", scope.LookupVariable("x"));
  std::string out;
  scope.AppendVariable("x", &out);
  scope.AppendVariable("nope", &out);
  EXPECT_EQ("2", out);
}

TEST(ScopeTest, Rules) {
  Scope root;
  Scope child(&root);
  Rule a("a"), b_root("b"), b_child("b");
  root.AddRule(&a);
  root.AddRule(&b_root);
  child.AddRule(&b_child);
  EXPECT_EQ(&a, child.LookupRule("a"));
  EXPECT_EQ(nullptr, child.LookupRuleLocal("a"));
  EXPECT_EQ(&b_child, child.LookupRule("b"));
  EXPECT_EQ(&b_root, root.LookupRule("b"));
  EXPECT_EQ(nullptr, child.LookupRule("c"));
  ASSERT_EQ(2u, root.rules().size());
  EXPECT_EQ("a", root.rules()[0].first);
  EXPECT_EQ("b", root.rules()[1].first);
}

// --------------------------------------------------------------- SmallMap

TEST(SmallMapTest, SetFindReplace) {
  SmallMap<int> map;
  EXPECT_EQ(nullptr, map.Find("a"));
  map.Set("a", 1);
  map.Set("b", 2);
  map.Set("a", 3);
  ASSERT_NE(nullptr, map.Find("a"));
  EXPECT_EQ(3, *map.Find("a"));
  EXPECT_EQ(2, *map.Find("b"));
  ASSERT_EQ(2u, map.entries().size());
  EXPECT_EQ("a", map.entries()[0].first);
  EXPECT_EQ(3, map.entries()[0].second);
}

TEST(SmallMapTest, StaysCorrectPastTheLinearLimit) {
  SmallMap<int> map;
  std::vector<std::string> keys;
  for (int i = 0; i < 100; ++i) keys.push_back("key" + std::to_string(i));
  for (int i = 0; i < 100; ++i) {
    map.Set(keys[i], i);
    for (int j = 0; j <= i; ++j) {
      const int* value = map.Find(keys[j]);
      ASSERT_NE(nullptr, value) << "after " << i << " inserts, key " << j;
      ASSERT_EQ(j, *value);
    }
    ASSERT_EQ(nullptr, map.Find("absent"));
  }
  map.Set(keys[5], 500);  // replace once hashed
  EXPECT_EQ(500, *map.Find(keys[5]));
  EXPECT_EQ(100u, map.entries().size());
  EXPECT_EQ("key99", map.entries()[99].first);
}

// ------------------------------------------------------------------- Rule

TEST(RuleTest, BindingNamesAndIndices) {
  const char* const names[] = {"command", "depfile", "dyndep", "description", "deps", "generator",
                               "pool", "restat", "rspfile", "rspfile_content", "msvc_deps_prefix"};
  ASSERT_EQ(11, static_cast<int>(Rule::kBindingCount));
  for (int i = 0; i < Rule::kBindingCount; ++i) {
    EXPECT_EQ(i, Rule::BindingIndex(names[i]));
    EXPECT_STREQ(names[i], Rule::BindingName(i));
  }
  EXPECT_EQ(-1, Rule::BindingIndex("in"));
  EXPECT_EQ(-1, Rule::BindingIndex("Command"));
  EXPECT_EQ(-1, Rule::BindingIndex(""));
}

TEST(RuleTest, SetAndGetBindings) {
  Rule rule("cc");
  EXPECT_EQ("cc", rule.name());
  EXPECT_EQ(nullptr, rule.GetBinding(Rule::kCommand));
  EXPECT_EQ(nullptr, rule.GetBinding("command"));
  EXPECT_EQ(nullptr, rule.GetBinding("unknown"));
  EvalString command;
  command.AddText("gcc");
  rule.SetBinding(Rule::kCommand, command);
  ASSERT_NE(nullptr, rule.GetBinding("command"));
  EXPECT_EQ("[gcc]", rule.GetBinding(Rule::kCommand)->Serialize());
  rule.SetBinding(Rule::kDescription, EvalString());  // bound, but empty
  ASSERT_NE(nullptr, rule.GetBinding(Rule::kDescription));
  EXPECT_TRUE(rule.GetBinding(Rule::kDescription)->empty());
  EXPECT_FALSE(rule.IsPhony());
  rule.MarkPhony();
  EXPECT_TRUE(rule.IsPhony());
}

// ------------------------------------------------------- edge environment

class EdgeEnvTest : public testing::Test {
 protected:
  Edge* Parse(const std::string& manifest, const std::string& output) {
    EXPECT_TRUE(ParseManifest(&state_, manifest));
    Node* node = NodeOrNull(state_, output);
    return node ? node->in_edge : nullptr;
  }
  State state_;
};

TEST_F(EdgeEnvTest, InAndOutAreExplicitAndShellQuoted) {
  // ninja 1.13.2: "'a b' 'c'\''d' 'e"f' 'g$h'|o1 'o 2'|..."
  Edge* edge = Parse(
      "rule r\n"
      "  command = $in|$out\n"
      "build o1 o$ 2 | io: r a$ b c'd e\"f g$$h | imp || oo\n",
      "o1");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("'a b' 'c'\\''d' 'e\"f' 'g$h'|o1 'o 2'", edge->EvaluateCommand());
  EXPECT_EQ("'a b' 'c'\\''d' 'e\"f' 'g$h'", edge->GetBinding("in"));
  EXPECT_EQ("o1 'o 2'", edge->GetBinding("out"));
}

TEST_F(EdgeEnvTest, InNewline) {
  // ninja 1.13.2: "i1 i2|o1 o2|i1\ni2".
  Edge* edge = Parse(
      "rule r\n"
      "  command = $in|$out|$in_newline\n"
      "build o1 o2 | imp: r i1 i2 | ii || oo\n",
      "o1");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("i1 i2|o1 o2|i1\ni2", edge->EvaluateCommand());
  EXPECT_EQ("i1\ni2", edge->GetBinding("in_newline"));
}

TEST_F(EdgeEnvTest, NoInputsGiveEmptyIn) {
  Edge* edge = Parse("rule r\n  command = [${in}] [$in_newline]\nbuild o: r | imp\n", "o");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("[] []", edge->EvaluateCommand());
}

TEST_F(EdgeEnvTest, InAndOutCannotBeOverridden) {
  // ninja 1.13.2: "[i] [o] []".
  Edge* edge = Parse(
      "rule r\n"
      "  command = [$in] [$out] [$x]\n"
      "build o: r i\n"
      "  in = edge_in\n"
      "  out = edge_out\n"
      "  x = $in\n",
      "o");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("[i] [o] []", edge->EvaluateCommand());
}

TEST_F(EdgeEnvTest, UnescapedPathBindings) {
  Edge* edge = Parse(
      "rule r\n"
      "  command = c\n"
      "  depfile = $out.d\n"
      "  rspfile = $out.rsp\n"
      "  rspfile_content = $in\n"
      "build o$ 1: r x$ y .dd\n"
      "  dyndep = $out.dd\n",
      "o 1");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("o 1.d", edge->GetUnescapedDepfile());
  EXPECT_EQ("'o 1'.d", edge->GetBinding(Rule::kDepfile));
  EXPECT_EQ("o 1.rsp", edge->GetUnescapedRspfile());
  EXPECT_EQ("'o 1'.rsp", edge->GetBinding("rspfile"));
  // Edge bindings were evaluated when parsed, where $out is empty.
  EXPECT_EQ(".dd", edge->GetUnescapedDyndep());
}

TEST_F(EdgeEnvTest, RspfileContentJoinsTheHashedCommand) {
  Edge* edge = Parse(
      "rule r\n"
      "  command = link @$out.rsp\n"
      "  rspfile = $out.rsp\n"
      "  rspfile_content = $in\n"
      "build out: r a b\n",
      "out");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("link @out.rsp", edge->EvaluateCommand());
  EXPECT_EQ("link @out.rsp;rspfile=a b", edge->EvaluateCommand(true));
  Edge* plain = Parse("rule p\n  command = x\nbuild p: p\n", "p");
  ASSERT_NE(nullptr, plain);
  EXPECT_EQ("x", plain->EvaluateCommand(true));
}

TEST_F(EdgeEnvTest, BooleanBindingsAreNonEmptyStrings) {
  ASSERT_TRUE(ParseManifest(&state_,
                            "rule r\n"
                            "  command = c\n"
                            "  restat = 0\n"
                            "rule g\n"
                            "  command = c\n"
                            "  generator =\n"
                            "build a: r\n"
                            "build b: g\n"
                            "build c: g\n"
                            "  generator = $empty\n"
                            "build d: g\n"
                            "  generator = yes\n"));
  EXPECT_TRUE(NodeOrNull(state_, "a")->in_edge->GetBindingBool(Rule::kRestat));
  EXPECT_FALSE(NodeOrNull(state_, "a")->in_edge->GetBindingBool(Rule::kGenerator));
  EXPECT_FALSE(NodeOrNull(state_, "b")->in_edge->GetBindingBool(Rule::kGenerator));
  EXPECT_FALSE(NodeOrNull(state_, "c")->in_edge->GetBindingBool(Rule::kGenerator));
  EXPECT_TRUE(NodeOrNull(state_, "d")->in_edge->GetBindingBool(Rule::kGenerator));
}

TEST_F(EdgeEnvTest, RuleBindingsReferToEachOther) {
  // ninja 1.13.2: "echo D[o]" and "[o][o]".
  Edge* edge = Parse(
      "rule r\n"
      "  command = echo $description\n"
      "  description = D[$out]\n"
      "build o: r\n",
      "o");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("echo D[o]", edge->EvaluateCommand());
  Edge* twice = Parse(
      "rule r2\n"
      "  command = [$description][$description]\n"
      "  description = $out\n"
      "build o2: r2\n",
      "o2");
  ASSERT_NE(nullptr, twice);
  EXPECT_EQ("[o2][o2]", twice->EvaluateCommand());
}

TEST_F(EdgeEnvTest, FileScopeProvidesSpecialBindings) {
  // ninja 1.13.2 shows "top " as the description: a top-level variable with
  // a binding's name applies to edges whose rule lacks it.
  Edge* edge = Parse(
      "description = top $out\n"
      "restat = 1\n"
      "rule r\n"
      "  command = c\n"
      "build o: r\n",
      "o");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("top ", edge->GetBinding(Rule::kDescription));
  EXPECT_TRUE(edge->GetBindingBool(Rule::kRestat));
}

TEST_F(EdgeEnvTest, LookupOrderEdgeRuleFileParent) {
  test::VirtualDisk disk;
  disk.Create("build.ninja", "v = root\nw = root\nx = root\nsubninja sub.ninja\n");
  disk.Create("sub.ninja",
              "w = sub\n"
              "rule r\n"
              "  command = $v/$w/$x/$description/$depfile\n"
              "  description = rule\n"
              "  depfile = rule-dep\n"
              "build o: r\n"
              "  depfile = edge-dep\n");
  ASSERT_TRUE(test::LoadManifest(&state_, &disk, "build.ninja"));
  Edge* edge = NodeOrNull(state_, "o")->in_edge;
  EXPECT_EQ("root/sub/root/rule/edge-dep", edge->EvaluateCommand());
}

// Once the scopes note the reserved names they define (State::
// NoteReservedNames, after a load), an edge answers for a rule's literal
// binding without lookups: every answer must be what the lookup gives.
TEST_F(EdgeEnvTest, NotedReservedNamesAnswerAsTheLookup) {
  test::VirtualDisk disk;
  disk.Create("build.ninja",
              "rule lit\n  command = touch x\n  restat = 1\n  deps = gcc\n  depfile = $out.d\n"
              "rule bare\n  command = cc $in -o $out\n"
              "rule empty\n  command = c\n  generator =\n"
              "build a: lit\n"
              "build b: bare\n"
              "build c: lit\n  restat =\n  deps = msvc\n"
              "build d: empty\n"
              "build p: phony a\n"
              "subninja sub.ninja\n"
              "subninja other.ninja\n");
  // A file scope naming a reserved variable beats the rule (Ninja's quirk),
  // and so does an enclosing scope when the rule lacks it.
  disk.Create("sub.ninja", "deps = msvc\ngenerator = 1\nbuild e: lit\nbuild f: bare\n  description = own\n");
  disk.Create("other.ninja", "build g: lit\nbuild h: bare\n");
  ASSERT_TRUE(test::LoadManifest(&state_, &disk, "build.ninja"));
  std::vector<std::vector<std::string>> before;
  for (Edge* edge : state_.edges()) {
    before.emplace_back();
    for (int key = 0; key < Rule::kBindingCount; ++key)
      before.back().push_back(edge->GetBinding(static_cast<Rule::Binding>(key)));
  }
  std::string_view literal;
  EXPECT_FALSE(NodeOrNull(state_, "a")->in_edge->RuleLiteralIsBinding(Rule::kRestat, &literal)) << "not noted yet";
  state_.NoteReservedNames();
  size_t i = 0;
  for (Edge* edge : state_.edges()) {
    for (int key = 0; key < Rule::kBindingCount; ++key)
      EXPECT_EQ(before[i][key], edge->GetBinding(static_cast<Rule::Binding>(key)))
          << Paths(edge->outputs) << " " << Rule::BindingName(key);
    ++i;
  }
  // The fast path is taken where it may be, and only there.
  Edge* a = NodeOrNull(state_, "a")->in_edge;
  ASSERT_TRUE(a->RuleLiteralIsBinding(Rule::kRestat, &literal));
  EXPECT_EQ("1", literal);
  ASSERT_TRUE(a->RuleLiteralIsBinding(Rule::kGenerator, &literal));
  EXPECT_EQ("", literal);
  EXPECT_FALSE(a->RuleLiteralIsBinding(Rule::kDepfile, &literal)) << "$out.d is evaluated";
  EXPECT_FALSE(NodeOrNull(state_, "c")->in_edge->RuleLiteralIsBinding(Rule::kDeps, &literal)) << "the edge's own";
  EXPECT_FALSE(NodeOrNull(state_, "e")->in_edge->RuleLiteralIsBinding(Rule::kDeps, &literal)) << "its file scope";
  EXPECT_FALSE(NodeOrNull(state_, "f")->in_edge->RuleLiteralIsBinding(Rule::kGenerator, &literal)) << "enclosing";
  ASSERT_TRUE(NodeOrNull(state_, "g")->in_edge->RuleLiteralIsBinding(Rule::kDeps, &literal));
  EXPECT_EQ("gcc", literal);
  // A binding added anywhere after the note: every answer is looked up again.
  // (a's file scope now says restat is empty, and beats the rule's 1.)
  state_.root_scope()->AddBinding("restat", "");
  EXPECT_FALSE(a->RuleLiteralIsBinding(Rule::kGenerator, &literal));
  EXPECT_EQ("", a->GetBinding(Rule::kRestat));
}

TEST_F(EdgeEnvTest, UnknownVariableIsEmpty) {
  Edge* edge = Parse("rule r\n  command = a${nothing}b\nbuild o: r\n", "o");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("ab", edge->EvaluateCommand());
  EXPECT_EQ("", edge->GetBinding("nothing"));
  EXPECT_EQ("", edge->GetBinding(Rule::kDeps));
}

TEST_F(EdgeEnvTest, PhonyEdgeHasNoCommand) {
  Edge* edge = Parse("build p: phony q\n", "p");
  ASSERT_NE(nullptr, edge);
  EXPECT_EQ("", edge->EvaluateCommand(true));
  EXPECT_EQ("q", edge->GetBinding("in"));
}

// Fatal errors end the process: each runs in a death test.
TEST(EdgeEnvDeathTest, TwoVariableCycle) {
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state, "rule r\n  command = $description\n  description = $command\nbuild o: r\n");
        state.edges()[0]->EvaluateCommand();
      },
      testing::ExitedWithCode(1), "^ninja: fatal: cycle in rule variables: description -> command -> description\n$");
}

TEST(EdgeEnvDeathTest, SelfReference) {
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state, "rule r\n  command = $command\nbuild o: r\n");
        state.edges()[0]->EvaluateCommand();
      },
      testing::ExitedWithCode(1), "^ninja: fatal: cycle in rule variables: command -> command\n$");
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state, "rule r\n  command = a$description\n  description = $description\nbuild o: r\n");
        state.edges()[0]->EvaluateCommand();
      },
      testing::ExitedWithCode(1), "^ninja: fatal: cycle in rule variables: description -> description\n$");
}

TEST(EdgeEnvDeathTest, CycleBelowTheTopLevel) {
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state,
                            "rule r\n  command = a $depfile\n  depfile = $rspfile\n  rspfile = $depfile\n"
                            "  rspfile_content = x\nbuild o: r\n");
        state.edges()[0]->EvaluateCommand();
      },
      testing::ExitedWithCode(1), "^ninja: fatal: cycle in rule variables: depfile -> rspfile -> depfile\n$");
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state,
                            "rule r\n  command = a$description\n  description = b$depfile\n"
                            "  depfile=c$description\nbuild o: r\n");
        state.edges()[0]->EvaluateCommand();
      },
      testing::ExitedWithCode(1), "^ninja: fatal: cycle in rule variables: description -> depfile -> description\n$");
}

}  // namespace
}  // namespace ronin
