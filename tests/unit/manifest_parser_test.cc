// Tests for ManifestParser. Every error text below is what ninja 1.13.2
// prints for the same manifest (with "build.ninja" in place of "input").
#include "graph/manifest_parser.h"

#include <gtest/gtest.h>

#include <string>

#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::LoadManifest;
using test::NodeOrNull;
using test::ParseManifest;
using test::ParseManifestError;
using test::Paths;
using test::VirtualDisk;

std::string Error(const std::string& text) {
  State state;
  return ParseManifestError(&state, text);
}

std::string Command(const State& state, const std::string& output) {
  Node* node = NodeOrNull(state, output);
  if (!node || !node->in_edge) return "<no edge>";
  return node->in_edge->EvaluateCommand();
}

const char kCatRule[] = "rule cat\n  command = cat $in > $out\n";

// ---------------------------------------------------------------- statements

TEST(ManifestParserTest, EmptyInput) {
  State state;
  EXPECT_TRUE(ParseManifest(&state, ""));
  EXPECT_TRUE(ParseManifest(&state, "\n\n   \n# just a comment\n"));
  EXPECT_TRUE(state.edges().empty());
  EXPECT_TRUE(state.nodes().empty());
}

TEST(ManifestParserTest, RuleBindingsStayUnevaluated) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule cc\n"
                            "  command = gcc -c $in -o $out $flags\n"
                            "  description = CC ${out}\n"
                            "  depfile = $out.d\n"
                            "  deps = gcc\n"
                            "  # comments are fine in rule blocks\n"
                            "  restat = 1\n"
                            "  generator = 1\n"
                            "  msvc_deps_prefix = Note: \n"
                            "  rspfile = $out.rsp\n"
                            "  rspfile_content = $in\n"
                            "  dyndep = dd\n"
                            "  pool = console\n"));
  const Rule* rule = state.root_scope()->LookupRule("cc");
  ASSERT_NE(nullptr, rule);
  EXPECT_EQ("cc", rule->name());
  EXPECT_EQ("gcc -c ${in} -o ${out} ${flags}", rule->GetBinding(Rule::kCommand)->Unparse());
  EXPECT_EQ("CC ${out}", rule->GetBinding("description")->Unparse());
  EXPECT_EQ("${out}.d", rule->GetBinding(Rule::kDepfile)->Unparse());
  EXPECT_EQ("gcc", rule->GetBinding(Rule::kDeps)->Unparse());
  EXPECT_EQ("Note: ", rule->GetBinding(Rule::kMsvcDepsPrefix)->Unparse());
  EXPECT_EQ("${in}", rule->GetBinding(Rule::kRspfileContent)->Unparse());
  EXPECT_EQ("console", rule->GetBinding(Rule::kPool)->Unparse());
  EXPECT_FALSE(rule->IsPhony());
}

TEST(ManifestParserTest, PhonyRuleAlwaysExists) {
  State state;
  const Rule* phony = state.root_scope()->LookupRule("phony");
  ASSERT_NE(nullptr, phony);
  EXPECT_TRUE(phony->IsPhony());
  EXPECT_EQ(nullptr, phony->GetBinding(Rule::kCommand));
  ASSERT_TRUE(ParseManifest(&state, "build a: phony b\n"));
  EXPECT_TRUE(state.edges()[0]->is_phony());
  EXPECT_EQ("", state.edges()[0]->EvaluateCommand());
}

TEST(ManifestParserTest, VariablesAreExpandedImmediately) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "a = 1\n"
                            "b = $a$a ${a}\n"
                            "a = 2\n"
                            "c = $a $undefined.\n"));
  Scope* scope = state.root_scope();
  EXPECT_EQ("11 1", scope->LookupVariable("b"));
  EXPECT_EQ("2", scope->LookupVariable("a"));
  EXPECT_EQ("2 .", scope->LookupVariable("c"));
}

TEST(ManifestParserTest, VariableValueSyntax) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "x = a:b|c || d # not a comment  \n"
                            "y =$\n"
                            "    continued$\n"
                            "    here\n"
                            "z = $$ $: $ .\n"
                            "dotted.name = ok\n"
                            "w = ${dotted.name} $dotted.name\n"));
  Scope* scope = state.root_scope();
  EXPECT_EQ("a:b|c || d # not a comment  ", scope->LookupVariable("x"));
  EXPECT_EQ("continuedhere", scope->LookupVariable("y"));
  EXPECT_EQ("$ :  .", scope->LookupVariable("z"));
  EXPECT_EQ("ok .name", scope->LookupVariable("w"));
}

TEST(ManifestParserTest, CrLfLineEndings) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule cat\r\n"
                            "  command = cat $in > $out\r\n"
                            "\r\n"
                            "# comment\r\n"
                            "build out: cat in\r\n"
                            "  extra = $\r\n"
                            "    x\r\n"));
  EXPECT_EQ("cat in > out", Command(state, "out"));
  std::string_view extra;
  ASSERT_TRUE(state.edges()[0]->FindOwnBinding("extra", &extra));
  EXPECT_EQ("x", extra);
}

TEST(ManifestParserTest, BuildStatementInputKinds) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, std::string(kCatRule) +
                                        "build o1 o2 | io1 io2: cat e1 e2 | i1 || oo1 oo2 |@ v1 v2\n"));
  ASSERT_EQ(1u, state.edges().size());
  Edge* edge = state.edges()[0];
  EXPECT_EQ("o1 o2 io1 io2", Paths(edge->outputs));
  EXPECT_EQ(2, edge->implicit_outs);
  EXPECT_EQ("e1 e2 i1 oo1 oo2", Paths(edge->inputs));
  EXPECT_EQ(1, edge->implicit_deps);
  EXPECT_EQ(2, edge->order_only_deps);
  EXPECT_EQ("v1 v2", Paths(edge->validations()));
  EXPECT_EQ(2u, edge->explicit_input_count());
  EXPECT_EQ(2u, edge->explicit_output_count());
  EXPECT_FALSE(edge->is_implicit(1));
  EXPECT_TRUE(edge->is_implicit(2));
  EXPECT_FALSE(edge->is_implicit(3));
  EXPECT_TRUE(edge->is_order_only(3));
  EXPECT_FALSE(edge->is_order_only(2));
  EXPECT_TRUE(edge->is_implicit_out(2));
  EXPECT_FALSE(edge->is_implicit_out(1));
  EXPECT_EQ("cat e1 e2 > o1 o2", edge->EvaluateCommand());
}

TEST(ManifestParserTest, UsersInManifestOrderWithDroppedSelfInputs) {
  // Users are linked after the parse: each node's list in edge order, an
  // edge once per mention, and a phony edge that named its own output keeps
  // its place among that node's users (once per dropped mention), as AddIn
  // while parsing would have had it.
  State state;
  ManifestParserOptions options;
  options.quiet = true;
  ASSERT_TRUE(ParseManifest(&state, std::string(kCatRule) +
                                        "build x: cat s s\n"
                                        "build p: phony s p p\n"
                                        "build y: cat p s\n"
                                        "build z: cat s\n",
                            options));
  auto edges = state.edges();
  std::vector<Edge*> want_s = {edges[0], edges[0], edges[1], edges[2], edges[3]};
  std::vector<Edge*> want_p = {edges[1], edges[1], edges[2]};
  Node* s = NodeOrNull(state, "s");
  Node* p = NodeOrNull(state, "p");
  EXPECT_EQ(want_s, std::vector<Edge*>(s->out_edges.begin(), s->out_edges.end()));
  EXPECT_EQ(want_p, std::vector<Edge*>(p->out_edges.begin(), p->out_edges.end()));
  EXPECT_EQ("s", Paths(edges[1]->inputs));
  // Edges added after the parse are users as before.
  state.AddIn(edges[3], s);
  EXPECT_EQ(6u, s->out_edges.size());
  EXPECT_EQ(edges[3], s->out_edges.back());
}

TEST(ManifestParserTest, GraphIsWired) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, std::string(kCatRule) +
                                        "build mid: cat src\n"
                                        "build out: cat mid |@ check\n"));
  Node* src = NodeOrNull(state, "src");
  Node* mid = NodeOrNull(state, "mid");
  Node* out = NodeOrNull(state, "out");
  Node* check = NodeOrNull(state, "check");
  ASSERT_TRUE(src && mid && out && check);
  EXPECT_EQ(nullptr, src->in_edge);
  EXPECT_EQ(state.edges()[0], mid->in_edge);
  EXPECT_EQ(state.edges()[1], out->in_edge);
  ASSERT_EQ(1u, src->out_edges.size());
  EXPECT_EQ(state.edges()[0], src->out_edges[0]);
  ASSERT_EQ(1u, mid->out_edges.size());
  EXPECT_EQ(state.edges()[1], mid->out_edges[0]);
  EXPECT_TRUE(check->out_edges.empty());
  ASSERT_EQ(1u, state.ValidationUsers(check).size());
  EXPECT_EQ(state.edges()[1], state.ValidationUsers(check)[0]);
  EXPECT_FALSE(src->generated_by_dep_loader);
  EXPECT_FALSE(out->generated_by_dep_loader);
  EXPECT_FALSE(check->generated_by_dep_loader);
  EXPECT_EQ(0u, state.edges()[0]->id);
  EXPECT_EQ(1u, state.edges()[1]->id);
}

TEST(ManifestParserTest, OnlyImplicitOutputs) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build | x: phony\n"));
  Edge* edge = state.edges()[0];
  EXPECT_EQ("x", Paths(edge->outputs));
  EXPECT_EQ(1, edge->implicit_outs);
  EXPECT_EQ(0u, edge->explicit_output_count());
}

TEST(ManifestParserTest, EmptyPipeSectionsAreAllowed) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build x: phony | \n"));
  EXPECT_EQ(0, state.edges()[0]->implicit_deps);
  EXPECT_TRUE(state.edges()[0]->inputs.empty());
}

TEST(ManifestParserTest, PathsAreCanonicalised) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build ./a/../b//c/: phony ./x/./y ../z/\n"));
  EXPECT_EQ("b/c", Paths(state.edges()[0]->outputs));
  EXPECT_EQ("x/y ../z", Paths(state.edges()[0]->inputs));
}

// A literal path is checked for canonical form only when the graph does
// not have it yet: other spellings of a known path still find its node.
TEST(ManifestParserTest, OtherSpellingsOfAKnownPathFindItsNode) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "build b/c: phony x/y\n"
                            "build out: phony ./b/c b//c x/./y b/c x/y |@ ./x/y\n"
                            "build new/./p: phony ./q/../r\n"));
  EXPECT_EQ("b/c b/c x/y b/c x/y", Paths(state.edges()[1]->inputs));
  EXPECT_EQ("x/y", Paths(state.edges()[1]->validations()));
  EXPECT_EQ(state.LookupNode("b/c"), state.edges()[1]->inputs[0]);
  EXPECT_EQ("new/p", Paths(state.edges()[2]->outputs));
  EXPECT_EQ("r", Paths(state.edges()[2]->inputs));
  EXPECT_EQ(5u, state.nodes().size());  // b/c x/y out new/p r
  State again;
  std::string err = ParseManifestError(&again, "build a/b: phony\nbuild ./a//b: phony\n");
  EXPECT_NE(std::string::npos, err.find("multiple rules generate a/b")) << err;
}

TEST(ManifestParserTest, PathsSplitBeforeExpansion) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "x = a b\n"
                            "build $x c$ d e$:f: phony g$$h\n"));
  const CompactVector<Node*>& outs = state.edges()[0]->outputs;
  ASSERT_EQ(3u, outs.size());
  EXPECT_EQ("a b", outs[0]->path);
  EXPECT_EQ("c d", outs[1]->path);
  EXPECT_EQ("e:f", outs[2]->path);
  EXPECT_EQ("g$h", Paths(state.edges()[0]->inputs));
}

TEST(ManifestParserTest, ManyMixedPathsKeepTheirOrderAndText) {
  // Literal, evaluated and non-canonical paths alternate on long lines (the
  // evaluated ones share one buffer that grows while the line is read), and
  // a second edge reuses the scratch of a longer first one.
  std::string manifest = "d = dir\nbuild out: phony";
  std::string expected;
  for (int i = 0; i < 3000; ++i) {
    std::string n = std::to_string(i);
    std::string path = i % 3 == 0 ? "lit" + n : i % 3 == 1 ? "$d/e" + n : "./x/../n" + n + "/";
    manifest += " " + path;
    expected += (i ? " " : "") + (i % 3 == 0 ? "lit" + n : i % 3 == 1 ? "dir/e" + n : "n" + n);
  }
  manifest += " | $d/imp || ord |@ $d/../val\nbuild out2 ${d}2: phony a $d\n";
  State state;
  ASSERT_TRUE(ParseManifest(&state, manifest));
  ASSERT_EQ(2u, state.edges().size());
  const Edge* edge = state.edges()[0];
  EXPECT_EQ(expected + " dir/imp ord", Paths(edge->inputs));
  EXPECT_EQ(1, edge->implicit_deps);
  EXPECT_EQ(1, edge->order_only_deps);
  EXPECT_EQ("val", Paths(edge->validations()));
  EXPECT_EQ("out2 dir2", Paths(state.edges()[1]->outputs));
  EXPECT_EQ("a dir", Paths(state.edges()[1]->inputs));
}

TEST(ManifestParserErrorTest, EmptyPathAfterManyEvaluatedOnes) {
  std::string manifest = "d = dir\nbuild out: phony";
  for (int i = 0; i < 100; ++i) manifest += " $d/" + std::to_string(i);
  manifest += " $empty x\n";
  EXPECT_EQ("input:3: empty path\n", Error(manifest));
}

TEST(ManifestParserTest, PathContinuationJoinsLines) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "build x$\n"
                            "  y: phony a$\n"
                            "  b c $\n"
                            "    d\n"));
  EXPECT_EQ("xy", Paths(state.edges()[0]->outputs));
  EXPECT_EQ("ab c d", Paths(state.edges()[0]->inputs));
}

TEST(ManifestParserTest, KeywordsCanBeNames) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule build\n"
                            "  command = x\n"
                            "build build: build rule\n"
                            "default build\n"));
  EXPECT_EQ("x", Command(state, "build"));
  EXPECT_EQ("build", Paths(state.defaults()));
}

TEST(ManifestParserTest, DefaultStatementsAccumulate) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "build a: phony\n"
                            "build b: phony\n"
                            "build c: phony\n"
                            "t = c\n"
                            "default a\n"
                            "default $\n"
                            "  b ./$t\n"));
  EXPECT_EQ("a b c", Paths(state.defaults()));
  std::string err;
  EXPECT_EQ("a b c", Paths(state.DefaultNodes(&err)));
  EXPECT_EQ("", err);
}

TEST(ManifestParserTest, Pools) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "d = 3\n"
                            "pool link\n"
                            "  depth = $d\n"
                            "pool unlimited\n"
                            "  depth = 0\n"
                            "rule ld\n"
                            "  command = ld\n"
                            "  pool = link\n"
                            "build a: ld\n"
                            "build b: ld\n"
                            "  pool =\n"
                            "build c: ld\n"
                            "  pool = console\n"
                            "build d: phony\n"
                            "  pool = unlimited\n"));
  Pool* link = state.LookupPool("link");
  ASSERT_NE(nullptr, link);
  EXPECT_EQ(3, link->depth);
  EXPECT_EQ(0, state.LookupPool("unlimited")->depth);
  EXPECT_EQ(link, state.edges()[0]->pool);
  EXPECT_EQ(state.default_pool(), state.edges()[1]->pool);
  EXPECT_EQ(state.console_pool(), state.edges()[2]->pool);
  EXPECT_TRUE(state.edges()[2]->use_console());
  EXPECT_FALSE(state.edges()[0]->use_console());
  EXPECT_EQ(state.LookupPool("unlimited"), state.edges()[3]->pool);
  EXPECT_EQ(1, state.console_pool()->depth);
  EXPECT_EQ(state.default_pool(), state.LookupPool(""));
}

TEST(ManifestParserTest, NonNumericPoolDepthIsZero) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "pool p\n  depth = x\n"));
  EXPECT_EQ(0, state.LookupPool("p")->depth);
}

// ------------------------------------------------------------------- scoping

TEST(ManifestParserTest, EdgeBindingsEvaluateInTheFileScope) {
  // ninja 1.13.2: "[edge] [file] []".
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "a = file\n"
                            "rule r\n"
                            "  command = [$a] [$b] [$c]\n"
                            "build o: r\n"
                            "  a = edge\n"
                            "  b = $a\n"
                            "  c = $in\n"));
  EXPECT_EQ("[edge] [file] []", Command(state, "o"));
}

TEST(ManifestParserTest, EdgeBindingsNameTheEdgesPaths) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build $o: phony $i\n  o = out\n  i = in\n"));
  EXPECT_EQ("out", Paths(state.edges()[0]->outputs));
  EXPECT_EQ("in", Paths(state.edges()[0]->inputs));
}

TEST(ManifestParserTest, EdgeBindingShadowsRuleBinding) {
  // ninja 1.13.2 prints "[1/1] edge o": $command in the description is the edge's.
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule r\n"
                            "  command = cc\n"
                            "  description = $command $out\n"
                            "build o: r\n"
                            "  command = edge\n"));
  Edge* edge = state.edges()[0];
  EXPECT_EQ("edge", edge->EvaluateCommand());
  EXPECT_EQ("edge o", edge->GetBinding(Rule::kDescription));
}

TEST(ManifestParserTest, EdgesKeepTheirFileScopeAndOwnBindings) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "rule r\n  command = x\nbuild a: r\n  x=1\n  y=2\n  x=3\nbuild b: r\n"));
  Edge* a = state.edges()[0];
  EXPECT_EQ(state.root_scope(), a->scope);
  ASSERT_EQ(2u, a->binding_count);  // a name bound twice keeps its last value
  std::string_view x, y;
  ASSERT_TRUE(a->FindOwnBinding("x", &x));
  ASSERT_TRUE(a->FindOwnBinding("y", &y));
  EXPECT_EQ("3", x);
  EXPECT_EQ("2", y);
  Edge* b = state.edges()[1];
  EXPECT_EQ(state.root_scope(), b->scope);
  EXPECT_EQ(0u, b->binding_count);
  EXPECT_FALSE(b->FindOwnBinding("x", &x));
}

TEST(ManifestParserTest, RuleBindingsSeeVariablesDefinedLater) {
  // ninja 1.13.2: "echo late []" -- the rule is evaluated when asked, the
  // edge binding when parsed.
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule r\n"
                            "  command = echo $x $y\n"
                            "build o: r\n"
                            "  y = [$x]\n"
                            "x = late\n"));
  EXPECT_EQ("echo late []", Command(state, "o"));
}

TEST(ManifestParserTest, IncludeSharesTheScopeSubninjaDoesNot) {
  // ninja 1.13.2 -t commands: "echo inc incy", "echo sub incy", "sub sub incy", "echo inc incy".
  VirtualDisk disk;
  disk.Create("build.ninja",
              "rule r\n"
              "  command = echo $x $y\n"
              "x = top\n"
              "include inc.ninja\n"
              "subninja sub.ninja\n"
              "build o1: r\n");
  disk.Create("inc.ninja", "x = inc\ny = incy\nbuild o2: r\n");
  disk.Create("sub.ninja",
              "x = sub\n"
              "rule r2\n"
              "  command = sub $x $y\n"
              "build o3: r\n"
              "build o4: r2\n");
  State state;
  ASSERT_TRUE(LoadManifest(&state, &disk, "build.ninja"));
  EXPECT_EQ("echo inc incy", Command(state, "o1"));
  EXPECT_EQ("echo inc incy", Command(state, "o2"));
  EXPECT_EQ("echo sub incy", Command(state, "o3"));
  EXPECT_EQ("sub sub incy", Command(state, "o4"));
  EXPECT_EQ("inc", state.root_scope()->LookupVariable("x"));
  EXPECT_EQ(nullptr, state.root_scope()->LookupRule("r2"));
  EXPECT_EQ((std::vector<std::string>{"build.ninja", "inc.ninja", "sub.ninja"}), disk.reads);
}

TEST(ManifestParserTest, SubninjaRulesDoNotLeak) {
  VirtualDisk disk;
  disk.Create("build.ninja", "x = 1\nsubninja sub.ninja\nbuild p: r2\n");
  disk.Create("sub.ninja", "x = 2\nrule r2\n  command = y\n");
  State state;
  ManifestParser parser(&state, &disk);
  std::string err;
  EXPECT_FALSE(parser.Load("build.ninja", &err));
  EXPECT_EQ("build.ninja:3: unknown build rule 'r2'\nbuild p: r2\n         ^ near here", err);
}

TEST(ManifestParserTest, SubninjaMayShadowARuleIncludeMayNot) {
  VirtualDisk disk;
  disk.Create("build.ninja", "rule r\n  command = a\nsubninja sub.ninja\n");
  disk.Create("sub.ninja", "rule r\n  command = b\nbuild o: r\n");
  State state;
  ASSERT_TRUE(LoadManifest(&state, &disk, "build.ninja"));
  EXPECT_EQ("b", Command(state, "o"));

  disk.Create("build.ninja", "rule r\n  command = a\ninclude sub.ninja\n");
  State state2;
  ManifestParser parser(&state2, &disk);
  std::string err;
  EXPECT_FALSE(parser.Load("build.ninja", &err));
  EXPECT_EQ("sub.ninja:1: duplicate rule 'r'\nrule r\n      ^ near here", err);
}

TEST(ManifestParserTest, SubninjaSeesParentVariablesDefinedLater) {
  // ninja 1.13.2: "echo late".
  VirtualDisk disk;
  disk.Create("build.ninja", "subninja sub.ninja\nx = late\n");
  disk.Create("sub.ninja", "rule r\n  command = echo $x\nbuild o: r\n");
  State state;
  ASSERT_TRUE(LoadManifest(&state, &disk, "build.ninja"));
  EXPECT_EQ("echo late", Command(state, "o"));
}

TEST(ManifestParserTest, IncludePathIsEvaluated) {
  VirtualDisk disk;
  disk.Create("build.ninja", "x = a\ninclude $x.ninja\nsubninja ${x}2.ninja\n");
  disk.Create("a.ninja", "build y: phony\n");
  disk.Create("a2.ninja", "build z: phony\n");
  State state;
  ASSERT_TRUE(LoadManifest(&state, &disk, "build.ninja"));
  EXPECT_EQ(2u, state.edges().size());
  EXPECT_NE(nullptr, state.LookupNode("y"));
  EXPECT_NE(nullptr, state.LookupNode("z"));
}

TEST(ManifestParserTest, MissingManifest) {
  VirtualDisk disk;
  State state;
  ManifestParser parser(&state, &disk);
  std::string err;
  EXPECT_FALSE(parser.Load("build.ninja", &err));
  EXPECT_EQ("loading 'build.ninja': No such file or directory", err);
}

TEST(ManifestParserTest, MissingIncludeNamesTheIncludingLine) {
  VirtualDisk disk;
  disk.Create("build.ninja", "\n\nsubninja nope.ninja\n");
  disk.Create("top.ninja", "include nope.ninja\n");
  {
    State state;
    ManifestParser parser(&state, &disk);
    std::string err;
    EXPECT_FALSE(parser.Load("build.ninja", &err));
    EXPECT_EQ(
        "build.ninja:3: loading 'nope.ninja': No such file or directory\n"
        "subninja nope.ninja\n"
        "                   ^ near here",
        err);
  }
  {
    State state;
    ManifestParser parser(&state, &disk);
    std::string err;
    EXPECT_FALSE(parser.Load("top.ninja", &err));
    EXPECT_EQ(
        "top.ninja:1: loading 'nope.ninja': No such file or directory\n"
        "include nope.ninja\n"
        "                  ^ near here",
        err);
  }
}

TEST(ManifestParserTest, IncludeWithoutPath) {
  // ninja 1.13.2 tries to load '' and fails.
  EXPECT_EQ("input:2: loading '': No such file or directory\ninclude\n       ^ near here",
            Error("x = y\ninclude\n"));
  EXPECT_EQ("input:1: loading '': No such file or directory\nsubninja\n        ^ near here",
            Error("subninja\n"));
}

TEST(ManifestParserTest, ErrorsInIncludedFilesNameThatFile) {
  VirtualDisk disk;
  disk.Create("build.ninja", "rule r\n  command = x\ninclude a.ninja\n");
  disk.Create("a.ninja", "build o: r\n\nbuild o: r\n");
  State state;
  ManifestParser parser(&state, &disk);
  std::string err;
  EXPECT_FALSE(parser.Load("build.ninja", &err));
  EXPECT_EQ("a.ninja:4: multiple rules generate o\n", err);

  disk.Create("a.ninja", "build o: r\n\n  foo\n");
  State state2;
  ManifestParser parser2(&state2, &disk);
  EXPECT_FALSE(parser2.Load("build.ninja", &err));
  EXPECT_EQ("a.ninja:3: unexpected indent\n", err);
}

// ------------------------------------------------------------- phony cycles

TEST(ManifestParserTest, PhonySelfReferenceIsDroppedWithAWarning) {
  State state;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ParseManifest(&state, "build a: phony a b\n"));
  EXPECT_EQ("ninja: warning: phony target 'a' names itself as an input; ignoring [-w phonycycle=warn]\n",
            testing::internal::GetCapturedStderr());
  EXPECT_EQ("b", Paths(state.edges()[0]->inputs));
  // Like ninja, "a" still counts as used: there is no root node.
  std::string err;
  EXPECT_TRUE(state.RootNodes(&err).empty());
  EXPECT_EQ("could not determine root nodes of build graph", err);
}

TEST(ManifestParserTest, PhonySelfReferenceQuietOption) {
  State state;
  ManifestParserOptions options;
  options.quiet = true;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ParseManifest(&state, "build a: phony a\n", options));
  EXPECT_EQ("", testing::internal::GetCapturedStderr());
  EXPECT_TRUE(state.edges()[0]->inputs.empty());
}

TEST(ManifestParserTest, PhonySelfReferenceKeptWhenCyclesAreErrors) {
  State state;
  ManifestParserOptions options;
  options.phony_cycle_is_error = true;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ParseManifest(&state, "build a: phony a\n", options));
  EXPECT_EQ("", testing::internal::GetCapturedStderr());
  EXPECT_EQ("a", Paths(state.edges()[0]->inputs));
}

TEST(ManifestParserTest, PhonyWithImplicitInputsKeepsTheSelfReference) {
  State state;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ParseManifest(&state, "build c: phony c | d\nbuild e | f: phony e\n"));
  EXPECT_EQ("", testing::internal::GetCapturedStderr());
  EXPECT_EQ("c d", Paths(state.edges()[0]->inputs));
  EXPECT_EQ("e", Paths(state.edges()[1]->inputs));
}

// ------------------------------------------------------------------- dyndep

TEST(ManifestParserTest, DyndepBindingMarksThePendingNode) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule r\n"
                            "  command = x\n"
                            "build o: r i || ./dd\n"
                            "  dyndep = dd\n"));
  Edge* edge = state.edges()[0];
  ASSERT_NE(nullptr, edge->dyndep());
  EXPECT_EQ("dd", edge->dyndep()->path);
  EXPECT_TRUE(edge->dyndep()->dyndep_pending);
  EXPECT_FALSE(NodeOrNull(state, "i")->dyndep_pending);
}

TEST(ManifestParserTest, DyndepMustBeAnInput) {
  EXPECT_EQ("input:5: dyndep 'dd' is not an input\n",
            Error("rule r\n  command = x\nbuild o: r i\n  dyndep = dd\n"));
  EXPECT_EQ("input:5: dyndep 'dd' is not an input\n",
            Error("rule r\n  command = x\nbuild o: r i\n  dyndep = dd\nbuild p: phony\n"));
}

// ------------------------------------------------------- required version

TEST(ManifestParserTest, RequiredVersionOlderMajorWarns) {
  State state;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ParseManifest(&state, "ninja_required_version = 0.9\n"));
  EXPECT_EQ(
      "ninja: warning: ninja executable version (1.13.2) greater than build file "
      "ninja_required_version (0.9); versions may be incompatible.\n",
      testing::internal::GetCapturedStderr());
}

TEST(ManifestParserTest, RequiredVersionSatisfiedIsSilent) {
  for (const char* version : {"1.0", "1.13", "1.13.9", "1.7.2"}) {
    State state;
    testing::internal::CaptureStderr();
    EXPECT_TRUE(ParseManifest(&state, std::string("ninja_required_version = ") + version + "\n"));
    EXPECT_EQ("", testing::internal::GetCapturedStderr()) << version;
  }
}

TEST(ManifestParserTest, RequiredVersion114IsAcceptedForItsLanguage) {
  // ronin reads Ninja 1.14's manifest language ($^), so 1.14 is no error.
  for (const char* version : {"1.14", "1.14.0", "1.14.0.git"}) {
    State state;
    testing::internal::CaptureStderr();
    EXPECT_TRUE(ParseManifest(&state, std::string("ninja_required_version = ") + version + "\n"));
    EXPECT_EQ("", testing::internal::GetCapturedStderr()) << version;
  }
}

TEST(ManifestParserTest, NewlineEscapeOnceVersion114IsRequired) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "ninja_required_version = 1.14\n"
                            "x = a$^b\n"
                            "rule r\n  command = echo $x$^echo c\n"
                            "build o$^p: r\n"));
  EXPECT_EQ("echo a\nb\necho c", Command(state, "o\np"));
}

TEST(ManifestParserTest, NewlineEscapeWithoutVersion114IsNinja113sBadEscape) {
  // A manifest that never asks for 1.14 is read as 1.13.2 reads it.
  const std::string kBadEscape =
      ": bad $-escape (literal $ must be written as $$)\n  command = a$^b\n             ^ near here";
  EXPECT_EQ("input:2" + kBadEscape, Error("rule r\n  command = a$^b\n"));
  EXPECT_EQ("input:3" + kBadEscape, Error("ninja_required_version = 1.13\nrule r\n  command = a$^b\n"));
}

TEST(ManifestParserTest, NewlineEscapeBeforeTheVersionIsStillABadEscape) {
  // The parse stops before the file asks for 1.14, as 1.13.2's does.
  EXPECT_EQ("input:2: bad $-escape (literal $ must be written as $$)\n  command = a$^b\n             ^ near here",
            Error("rule r\n  command = a$^b\nninja_required_version = 1.14\n"));
}

// The error a manifest of several files gives (or "<no error>").
std::string LoadError(const std::string& top, const std::string& sub) {
  VirtualDisk disk;
  disk.Create("build.ninja", top);
  disk.Create("sub.ninja", sub);
  State state;
  ManifestParser parser(&state, &disk);
  std::string err;
  return parser.Load("build.ninja", &err) ? "<no error>" : err;
}

TEST(ManifestParserTest, NewlineEscapeIsAllowedPerFileNotInIncludes) {
  // As in Ninja 1.14: the version counts for the file that sets it only.
  for (std::string keyword : {"include", "subninja"}) {
    std::string err = LoadError("ninja_required_version = 1.14\n" + keyword + " sub.ninja\n", "x = a$^b\n");
    EXPECT_EQ(0u, err.find("sub.ninja:1: using $^ escape")) << err;
    err = LoadError(keyword + " sub.ninja\nx = a$^b\n", "ninja_required_version = 1.14\ny = c$^d\n");
    EXPECT_EQ(0u, err.find("build.ninja:2: using $^ escape")) << err;
  }
  EXPECT_EQ("<no error>", LoadError("ninja_required_version = 1.14\ninclude sub.ninja\nx = a$^b\n",
                                    "ninja_required_version = 1.14\ny = c$^d\n"));
}

TEST(ManifestParserDeathTest, RequiredVersionNewerIsFatal) {
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state, "ninja_required_version = 1.15\n");
      },
      testing::ExitedWithCode(1),
      "ninja: fatal: ninja version \\(1\\.13\\.2\\) incompatible with build file "
      "ninja_required_version version \\(1\\.15\\)\\.");
  EXPECT_EXIT(
      {
        State state;
        (void)ParseManifest(&state, "v = 2\nninja_required_version = $v\n");
      },
      testing::ExitedWithCode(1), "incompatible with build file ninja_required_version version \\(2\\)");
}

// ------------------------------------------------------------------- errors

TEST(ManifestParserErrorTest, TopLevelLexingErrors) {
  EXPECT_EQ("input:1: lexing error\n", Error("# c"));
  EXPECT_EQ("input:1: unexpected EOF\nx = 3\n     ^ near here", Error("x = 3"));
  EXPECT_EQ("input:1: expected '=', got lexing error\nx\t= a\n ^ near here", Error("x\t= a\n"));
  EXPECT_EQ("input:2: tabs are not allowed, use spaces\n", Error("build x: phony\n\tfoo = bar\n"));
}

TEST(ManifestParserErrorTest, UnexpectedIndent) {
  EXPECT_EQ("input:1: unexpected indent\n", Error(" x = a\n"));
  EXPECT_EQ("input:2: unexpected indent\n", Error("x = a\n  y = b\n"));
  EXPECT_EQ("input:4: unexpected indent\n", Error("build x: phony\n  y = z\n\n  q = r\n"));
}

TEST(ManifestParserErrorTest, RuleErrors) {
  EXPECT_EQ("input:1: expected rule name\nrule\n    ^ near here", Error("rule\n"));
  EXPECT_EQ("input:1: expected newline, got eof\nrule cc\n       ^ near here", Error("rule cc"));
  EXPECT_EQ("input:3: duplicate rule 'cc'\nrule cc\n       ^ near here",
            Error("rule cc\n  command = a\nrule cc\n  command = b\n"));
  EXPECT_EQ("input:3: unexpected variable 'foo'\n  foo = b\n         ^ near here",
            Error("rule cc\n  command = a\n  foo = b\n"));
  EXPECT_EQ("input:3: expected variable name\n  = y\n  ^ near here",
            Error("rule r\n  command = x\n  = y\n"));
}

TEST(ManifestParserErrorTest, RuleNeedsACommand) {
  EXPECT_EQ("input:2: expected 'command =' line\n", Error("rule cc\n\tcommand = x\n"));
  EXPECT_EQ("input:3: expected 'command =' line\n", Error("rule r\n  command =\n"));
  EXPECT_EQ("input:2: expected 'command =' line\n", Error("rule r\n"));
}

TEST(ManifestParserErrorTest, RspfileNeedsContentAndViceVersa) {
  EXPECT_EQ("input:4: rspfile and rspfile_content need to be both specified\n",
            Error("rule cc\n  rspfile = a\n  command = b\n"));
  EXPECT_EQ("input:4: rspfile and rspfile_content need to be both specified\n",
            Error("rule cc\n  rspfile_content = a\n  command = b\n"));
  EXPECT_EQ("input:5: rspfile and rspfile_content need to be both specified\n",
            Error("rule r\n  command = x\n  rspfile =\n  rspfile_content = y\n"));
}

TEST(ManifestParserErrorTest, PoolErrors) {
  EXPECT_EQ("input:1: expected pool name\npool\n    ^ near here", Error("pool\n"));
  EXPECT_EQ("input:2: expected 'depth =' line\n", Error("pool p\n"));
  EXPECT_EQ("input:2: invalid pool depth\n  depth = -1\n            ^ near here",
            Error("pool p\n  depth = -1\n"));
  EXPECT_EQ("input:2: unexpected variable 'foo'\n  foo = 1\n         ^ near here",
            Error("pool p\n  foo = 1\n"));
  EXPECT_EQ("input:3: duplicate pool 'p'\npool p\n      ^ near here",
            Error("pool p\n  depth = 1\npool p\n  depth = 2\n"));
  EXPECT_EQ("input:1: duplicate pool 'console'\npool console\n            ^ near here",
            Error("pool console\n  depth = 2\n"));
}

TEST(ManifestParserErrorTest, UnknownPool) {
  EXPECT_EQ("input:5: unknown pool name 'nope'\n",
            Error("rule cc\n  command = a\n  pool = nope\nbuild x: cc\n"));
}

TEST(ManifestParserErrorTest, BuildLineErrors) {
  EXPECT_EQ("input:1: expected build command name\nbuild x: \n         ^ near here", Error("build x: \n"));
  EXPECT_EQ("input:1: expected build command name\nbuild x:\tphony\n        ^ near here",
            Error("build x:\tphony\n"));
  EXPECT_EQ("input:1: expected path\nbuild: phony\n     ^ near here", Error("build: phony\n"));
  EXPECT_EQ("input:1: expected ':', got newline ($ also escapes ':')\nbuild x phony\n             ^ near here",
            Error("build x phony\n"));
  EXPECT_EQ("input:1: unknown build rule 'cc'\nbuild a: cc\n         ^ near here", Error("build a: cc\n"));
  EXPECT_EQ("input:1: expected newline, got '||'\nbuild x: phony || a ||\n                    ^ near here",
            Error("build x: phony || a ||\n"));
  EXPECT_EQ("input:2: unexpected EOF\n", Error("build x: phony y z $\n"));
  EXPECT_EQ("input:4: unexpected EOF\nbuild a: cc\n           ^ near here",
            Error("rule cc\n  command = x\nbuild a: cc\nbuild a: cc"));
}

TEST(ManifestParserErrorTest, EmptyPath) {
  EXPECT_EQ("input:2: empty path\n", Error("build $x: phony\n"));
  EXPECT_EQ("input:2: empty path\n", Error("build x: phony $y\n"));
}

TEST(ManifestParserErrorTest, DuplicateOutputs) {
  EXPECT_EQ("input:4: a is defined as an output multiple times\n",
            Error("rule cc\n  command = x\nbuild a a: cc\n"));
  EXPECT_EQ("input:3: 1.y is defined as an output multiple times\n",
            Error("x=1\nbuild ${x}.y $x.y: phony\n"));
  EXPECT_EQ("input:5: multiple rules generate a\n",
            Error("rule cc\n  command = x\nbuild a: cc\nbuild a: cc\n"));
  EXPECT_EQ("input:6: multiple rules generate a\n",
            Error("rule cc\n  command = x\nbuild a: cc\nbuild a: cc\n  foo = bar\n"));
  EXPECT_EQ("input:5: multiple rules generate a\n",
            Error("rule cc\n  command = x\nbuild a: cc\nbuild ./a: cc\n\n\n"));
}

TEST(ManifestParserErrorTest, DefaultErrors) {
  EXPECT_EQ("input:1: expected target name\ndefault\n       ^ near here", Error("default\n"));
  EXPECT_EQ("input:1: unknown target 'nope'\ndefault nope\n            ^ near here", Error("default nope\n"));
  EXPECT_EQ("input:2: unknown target 'nope'\ndefault x nope\n              ^ near here",
            Error("build x: phony\ndefault x nope\n"));
}

TEST(ManifestParserErrorTest, BadEscapes) {
  EXPECT_EQ("input:1: bad $-escape (literal $ must be written as $$)\nx = $!\n    ^ near here",
            Error("x = $!\n"));
  EXPECT_EQ("input:2: unexpected EOF\n", Error("x = $\n"));
}

TEST(ManifestParserErrorTest, MoreStatementErrors) {
  EXPECT_EQ("input:1: duplicate rule 'phony'\nrule phony\n          ^ near here",
            Error("rule phony\n  command = x\n"));
  EXPECT_EQ("input:3: unknown pool name 'nope'\n", Error("build a: phony\n  pool = nope\n"));
  EXPECT_EQ("input:4: expected variable name\n  $ = 1\n  ^ near here",
            Error("rule r\n  command = x\nbuild a: r\n  $ = 1\n"));
  EXPECT_EQ("input:3: unknown target '1'\ndefault $x\n          ^ near here",
            Error("x=1\nbuild a: phony\ndefault $x\n"));
}

TEST(ManifestParserTest, ContinuationFollowedByABlankLineEndsTheValue) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "rule r\n  command = x\n  description = $\n\nbuild a: r\n"));
  EXPECT_EQ("", state.edges()[0]->GetBinding(Rule::kDescription));
  EXPECT_EQ(1u, state.edges().size());
}

TEST(ManifestParserErrorTest, ErrorUsesTheFileName) {
  VirtualDisk disk;
  disk.Create("dir/my.ninja", "\n\nrule\n");
  State state;
  ManifestParser parser(&state, &disk);
  std::string err;
  EXPECT_FALSE(parser.Load("dir/my.ninja", &err));
  EXPECT_EQ("dir/my.ninja:3: expected rule name\nrule\n    ^ near here", err);
}

}  // namespace
}  // namespace ronin
