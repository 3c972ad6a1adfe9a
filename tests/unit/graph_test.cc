// Tests for State (graph/state.h), Node and Edge (graph/graph.h) over an
// in-memory disk. The dirty scan's tests are in scan_test.cc.
#include "graph/graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::NodeOrNull;
using test::ParseManifest;
using test::Paths;
using test::VirtualDisk;

// ------------------------------------------------------------------ State

TEST(StateTest, GetNodeInternsPaths) {
  State state;
  Node* a = state.GetNode("a/b");
  EXPECT_EQ(a, state.GetNode("a/b"));
  EXPECT_NE(a, state.GetNode("a/c"));
  EXPECT_EQ(a, state.LookupNode("a/b"));
  EXPECT_EQ(nullptr, state.LookupNode("a"));
  EXPECT_EQ("a/b", a->path);
  EXPECT_EQ(2u, state.nodes().size());
  // New nodes start unknown, and as if only a dep loader had named them.
  EXPECT_EQ(-1, a->mtime);
  EXPECT_FALSE(a->status_known());
  EXPECT_TRUE(a->generated_by_dep_loader);
  EXPECT_EQ(-1, a->deps_log_id);
}

TEST(StateTest, NodePathsOutliveTheirSource) {
  State state;
  Node* node;
  {
    std::string path = "temporary/path";
    node = state.GetNode(path);
    path.assign(path.size(), 'x');
  }
  EXPECT_EQ("temporary/path", node->path);
  EXPECT_EQ(node, state.LookupNode("temporary/path"));
}

TEST(StateTest, AddEdgeAssignsIdsAndTheDefaultPool) {
  State state;
  Rule rule("r");
  Edge* e0 = state.AddEdge(&rule, state.root_scope());
  Edge* e1 = state.AddEdge(&rule, state.root_scope());
  EXPECT_EQ(0u, e0->id);
  EXPECT_EQ(1u, e1->id);
  EXPECT_EQ(state.default_pool(), e0->pool);
  EXPECT_EQ(&rule, e0->rule);
  EXPECT_EQ(2u, state.edges().size());
}

TEST(StateTest, AddOutRejectsASecondProducer) {
  State state;
  Edge* e0 = state.AddEdge(&kPhonyRule, state.root_scope());
  Edge* e1 = state.AddEdge(&kPhonyRule, state.root_scope());
  std::string err;
  EXPECT_TRUE(state.AddOut(e0, "out", &err));
  EXPECT_EQ("", err);
  EXPECT_FALSE(state.AddOut(e0, "out", &err));
  EXPECT_EQ("out is defined as an output multiple times", err);
  EXPECT_FALSE(state.AddOut(e1, "out", &err));
  EXPECT_EQ("multiple rules generate out", err);
  EXPECT_EQ(1u, e0->outputs.size());
  EXPECT_TRUE(e1->outputs.empty());
  EXPECT_EQ(e0, state.LookupNode("out")->in_edge);
}

TEST(StateTest, AddInAndValidationWireBothWays) {
  State state;
  Edge* edge = state.AddEdge(&kPhonyRule, state.root_scope());
  state.AddIn(edge, "in");
  state.AddValidation(edge, "check");
  Node* in = state.LookupNode("in");
  Node* check = state.LookupNode("check");
  ASSERT_TRUE(in && check);
  EXPECT_EQ(edge, in->out_edges.at(0));
  EXPECT_EQ(edge, state.ValidationUsers(check).at(0));
  EXPECT_TRUE(check->out_edges.empty());
  EXPECT_FALSE(in->generated_by_dep_loader);
}

TEST(StateTest, AddDefaultNeedsAKnownNode) {
  State state;
  std::string err;
  EXPECT_FALSE(state.AddDefault("nope", &err));
  EXPECT_EQ("unknown target 'nope'", err);
  state.GetNode("yes");
  EXPECT_TRUE(state.AddDefault("yes", &err));
  EXPECT_EQ("yes", Paths(state.defaults()));
}

TEST(StateTest, RootNodesInManifestOrder) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "build z: phony mid\n"
                            "build mid: phony src\n"
                            "build a b: phony\n"
                            "build v: phony |@ a\n"));
  std::string err;
  // Validation inputs still count as roots; outputs that are inputs do not.
  EXPECT_EQ("z a b v", Paths(state.RootNodes(&err)));
  EXPECT_EQ("", err);
  EXPECT_EQ("z a b v", Paths(state.DefaultNodes(&err)));
}

TEST(StateTest, DefaultNodesPreferDefaults) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build a: phony\nbuild b: phony\ndefault b\n"));
  std::string err;
  EXPECT_EQ("b", Paths(state.DefaultNodes(&err)));
  EXPECT_EQ("a b", Paths(state.RootNodes(&err)));
}

TEST(StateTest, NoRootNodes) {
  State empty;
  std::string err;
  EXPECT_TRUE(empty.RootNodes(&err).empty());
  EXPECT_EQ("", err);  // an empty graph is not an error
  State cyclic;
  ASSERT_TRUE(ParseManifest(&cyclic, "build a: phony b\nbuild b: phony a\n"));
  EXPECT_TRUE(cyclic.RootNodes(&err).empty());
  EXPECT_EQ("could not determine root nodes of build graph", err);
}

TEST(StateTest, SpellcheckNode) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build install: phony\nbuild all: phony src/main.o\n"));
  EXPECT_EQ(NodeOrNull(state, "install"), state.SpellcheckNode("instal"));
  EXPECT_EQ(state.LookupNode("src/main.o"), state.SpellcheckNode("src/mian.o"));
  EXPECT_EQ(state.LookupNode("all"), state.SpellcheckNode("al"));
  EXPECT_EQ(nullptr, state.SpellcheckNode("completely-different"));
  EXPECT_EQ(nullptr, state.SpellcheckNode("inXXXXll"));
}

TEST(StateTest, PoolsAndScopes) {
  State state;
  EXPECT_EQ(2u, state.pools().size());
  EXPECT_EQ(state.console_pool(), state.LookupPool("console"));
  EXPECT_TRUE(state.console_pool()->is_console);
  EXPECT_EQ(0, state.default_pool()->depth);
  Pool* pool = state.NewPool("link", 2);
  state.AddPool(pool);
  EXPECT_EQ(pool, state.LookupPool("link"));
  EXPECT_EQ(3u, state.pools().size());
  EXPECT_EQ(nullptr, state.LookupPool("nope"));
  Scope* scope = state.NewScope(state.root_scope());
  EXPECT_EQ(state.root_scope(), scope->parent());
  EXPECT_EQ("r", state.NewRule("r")->name());
}

TEST(StateTest, ResetForgetsDiskState) {
  State state;
  ASSERT_TRUE(ParseManifest(&state, "build a: phony b\n"));
  Node* a = state.LookupNode("a");
  a->mtime = 5;
  a->existence = Node::Existence::kExists;
  a->dirty = true;
  Edge* edge = a->in_edge;
  edge->outputs_ready = true;
  edge->deps_loaded = true;
  edge->mark = Edge::Visit::kDone;
  state.Reset();
  EXPECT_EQ(-1, a->mtime);
  EXPECT_FALSE(a->status_known());
  EXPECT_FALSE(a->dirty);
  EXPECT_FALSE(edge->outputs_ready);
  EXPECT_FALSE(edge->deps_loaded);
  EXPECT_EQ(Edge::Visit::kNone, edge->mark);
}

TEST(NodeTest, StatRecordsExistence) {
  VirtualDisk disk;
  disk.CreateAt("f", 42);
  State state;
  Node* f = state.GetNode("f");
  Node* g = state.GetNode("g");
  std::string err;
  EXPECT_TRUE(f->StatIfNecessary(&disk, &err));
  EXPECT_TRUE(g->StatIfNecessary(&disk, &err));
  EXPECT_TRUE(f->exists());
  EXPECT_EQ(42, f->mtime);
  EXPECT_FALSE(g->exists());
  EXPECT_TRUE(g->status_known());
  EXPECT_EQ(0, g->mtime);
  EXPECT_TRUE(f->StatIfNecessary(&disk, &err));  // cached
  EXPECT_EQ(2u, disk.stats.size());
  disk.FailStat("h", "stat(h): Permission denied");
  Node* h = state.GetNode("h");
  EXPECT_FALSE(h->Stat(&disk, &err));
  EXPECT_EQ("stat(h): Permission denied", err);
  EXPECT_FALSE(h->status_known());
}

TEST(NodeTest, PhonyMtimeOnlyForMissingNodes) {
  Node missing("m");
  missing.MarkMissing();
  missing.UpdatePhonyMtime(7);
  EXPECT_EQ(7, missing.mtime);
  missing.UpdatePhonyMtime(3);  // never goes back
  EXPECT_EQ(7, missing.mtime);
  Node present("p");
  present.mtime = 2;
  present.existence = Node::Existence::kExists;
  present.UpdatePhonyMtime(9);
  EXPECT_EQ(2, present.mtime);
}

TEST(EdgeBindingTest, NameIsComparesWholeNames) {
  std::string name = "ab", value = "value";  // NUL-terminated, as arena copies are
  Edge::Binding binding = Edge::Binding::Of(name, value);
  EXPECT_TRUE(binding.NameIs("ab"));
  EXPECT_FALSE(binding.NameIs("a"));
  EXPECT_FALSE(binding.NameIs("abc"));
  EXPECT_FALSE(binding.NameIs("b"));
  EXPECT_FALSE(binding.NameIs(""));
  EXPECT_EQ("value", binding.value());
}

// ------------------------------------------------------- AllInputsReady

// What AllInputsReady answers, looked up from scratch.
bool AllInputsReadyFromScratch(const Edge* edge) {
  for (const Node* input : edge->inputs)
    if (input->in_edge && !input->in_edge->outputs_ready) return false;
  return true;
}

TEST(AllInputsReadyTest, AgreesWithAFullLookWhileInputsGetBuilt) {
  // One edge with many generated inputs, built in a random order, a source
  // file and a duplicate among them: after every step the resumed answer
  // equals the full one.
  State state;
  Rule rule("r");
  Edge* user = state.AddEdge(&rule, state.root_scope());
  std::vector<Edge*> producers;
  std::string err;
  for (int i = 0; i < 200; ++i) {
    Edge* producer = state.AddEdge(&rule, state.root_scope());
    ASSERT_TRUE(state.AddOut(producer, "gen" + std::to_string(i), &err));
    producers.push_back(producer);
    state.AddIn(user, producer->outputs[0]);
    if (i == 50) state.AddIn(user, "source");
    if (i == 70) state.AddIn(user, producers[3]->outputs[0]);
  }
  std::mt19937 random(7);
  std::shuffle(producers.begin(), producers.end(), random);
  for (Edge* producer : producers) {
    EXPECT_EQ(AllInputsReadyFromScratch(user), user->AllInputsReady());
    producer->outputs_ready = true;
  }
  EXPECT_TRUE(user->AllInputsReady());
}

TEST(AllInputsReadyTest, LooksAgainAfterInputsChange) {
  State state;
  ASSERT_TRUE(ParseManifest(&state,
                            "rule r\n"
                            "  command = x\n"
                            "build a: r\n"
                            "build b: r\n"
                            "build out: r a\n"));
  Edge* out = NodeOrNull(state, "out")->in_edge;
  NodeOrNull(state, "a")->in_edge->outputs_ready = true;
  EXPECT_TRUE(out->AllInputsReady());
  // An unbuilt input inserted before the cursor (as the deps log and dyndep
  // files do) is seen once the cursor is forgotten.
  out->inputs.insert(out->inputs.begin(), 1, NodeOrNull(state, "b"));
  out->ForgetReadyInputs();
  EXPECT_FALSE(out->AllInputsReady());
  // Inputs removed behind the cursor: it starts over by itself.
  NodeOrNull(state, "b")->in_edge->outputs_ready = true;
  EXPECT_TRUE(out->AllInputsReady());
  out->inputs.erase(out->inputs.begin(), out->inputs.end());
  out->inputs.insert(out->inputs.begin(), 1, NodeOrNull(state, "b"));
  NodeOrNull(state, "b")->in_edge->outputs_ready = false;
  EXPECT_FALSE(out->AllInputsReady());
  // State::Reset makes every output unbuilt again.
  NodeOrNull(state, "b")->in_edge->outputs_ready = true;
  EXPECT_TRUE(out->AllInputsReady());
  state.Reset();
  EXPECT_FALSE(out->AllInputsReady());
}

}  // namespace
}  // namespace ronin
