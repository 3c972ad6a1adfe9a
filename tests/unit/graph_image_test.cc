// Tests for the graph image: a parsed State written and loaded back is the
// same State, and damaged images are refused without crashing.
#include "image/graph_image.h"

#include <gtest/gtest.h>

#include <string>

#include "base/platform.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::VirtualDisk;

const char kMain[] =
    "ninja_required_version = 1.5\n"
    "cflags = -O2 $\n  -g\n"
    "pool link\n  depth = 2\n"
    "rule cc\n  command = cc $cflags -c $in -o $out\n  description = CC ${out}\n"
    "  depfile = $out.d\n  deps = gcc\n"
    "rule link\n  command = ld @$rspfile -o $out\n  rspfile = $out.rsp\n  rspfile_content = $in_newline\n"
    "  pool = link\n"
    "rule gen\n  command = gen $out\n  generator = 1\n  restat = 1\n"
    "build a.o: cc a.c | a.h || gen.stamp\n  cflags = -O0 $cflags\n"
    "build b.o b.dbg | b.extra: cc b.c\n"
    "build gen.stamp: phony\n"
    "build dd: gen\n"
    "build dyn.out: cc dyn.c | dd\n  dyndep = dd\n"
    "build app: link a.o b.o |@ check\n"
    "build check: phony app\n"
    "build console: cc c.c\n  pool = console\n"
    "build self: phony self other\n"
    "include inc.ninja\n"
    "subninja sub/sub.ninja\n"
    "default app check\n";
const char kInclude[] = "incvar = from include\nbuild inc.o: cc inc.c\n  cflags = $incvar\n";
const char kSub[] =
    "cflags = sub flags\n"
    "rule cc\n  command = subcc $cflags $in $out\n"
    "build sub/x.o: cc sub/x.c\n"
    "subninja sub/deeper.ninja\n";
const char kDeeper[] = "build sub/y.o: cc sub/y.c\n  extra = $cflags\n";

void Parse(State* state, const ManifestParserOptions& options = {}) {
  VirtualDisk disk;
  disk.Create("build.ninja", kMain);
  disk.Create("inc.ninja", kInclude);
  disk.Create("sub/sub.ninja", kSub);
  disk.Create("sub/deeper.ninja", kDeeper);
  ManifestParserOptions quiet = options;
  quiet.quiet = true;
  ASSERT_TRUE(test::LoadManifest(state, &disk, "build.ninja", quiet));
}

GraphImageKey Key() { return GraphImageKey::ForOptions("build.ninja", false); }

std::string BodyOf(const std::string& image) { return std::string(ImageBody(image)); }

// Loads `body` into `state`; the body must outlive the state.
bool Load(const std::string& body, State* state) {
  std::string err;
  return GraphImageReader::LoadBody(body, state, &err);
}

TEST(GraphImageTest, RoundTripReproducesTheSerializedState) {
  State parsed;
  Parse(&parsed);
  parsed.edges()[0]->command_hash = 0x1234;
  parsed.edges()[0]->command_hash_known = true;
  std::string image = GraphImageWriter::Serialize(parsed, Key());
  std::string body = BodyOf(image);
  State loaded;
  ASSERT_TRUE(Load(body, &loaded));
  EXPECT_EQ(image, GraphImageWriter::Serialize(loaded, Key()));
}

TEST(GraphImageTest, LoadedGraphEvaluatesLikeTheParsedOne) {
  State parsed;
  Parse(&parsed);
  std::string body = BodyOf(GraphImageWriter::Serialize(parsed, Key()));
  State loaded;
  ASSERT_TRUE(Load(body, &loaded));
  ASSERT_EQ(parsed.edges().size(), loaded.edges().size());
  for (size_t i = 0; i < parsed.edges().size(); ++i) {
    const Edge* a = parsed.edges()[i];
    const Edge* b = loaded.edges()[i];
    EXPECT_EQ(a->is_phony(), b->is_phony());
    if (!a->is_phony()) {
      EXPECT_EQ(a->EvaluateCommand(true), b->EvaluateCommand(true));
    }
    EXPECT_EQ(a->GetBinding(Rule::kDescription), b->GetBinding(Rule::kDescription));
    EXPECT_EQ(a->GetUnescapedDepfile(), b->GetUnescapedDepfile());
    EXPECT_EQ(a->GetBinding("extra"), b->GetBinding("extra"));
    EXPECT_EQ(a->pool->name, b->pool->name);
    EXPECT_EQ(test::Paths(a->inputs), test::Paths(b->inputs));
    EXPECT_EQ(test::Paths(a->outputs), test::Paths(b->outputs));
    EXPECT_EQ(test::Paths(a->validations()), test::Paths(b->validations()));
    EXPECT_EQ(a->dyndep() ? a->dyndep()->path : "", b->dyndep() ? b->dyndep()->path : "");
    EXPECT_EQ(a->implicit_deps, b->implicit_deps);
    EXPECT_EQ(a->order_only_deps, b->order_only_deps);
    EXPECT_EQ(a->implicit_outs, b->implicit_outs);
  }
  ASSERT_EQ(parsed.nodes().size(), loaded.nodes().size());
  auto a = parsed.nodes().begin();
  for (const Node& b : loaded.nodes()) {
    EXPECT_EQ(a->path, b.path);
    EXPECT_EQ(b.path.data()[b.path.size()], '\0');
    EXPECT_EQ(&b, loaded.LookupNode(b.path));
    EXPECT_EQ(a->out_edges.size(), b.out_edges.size());
    EXPECT_EQ(a->in_edge ? a->in_edge->id : -1u, b.in_edge ? b.in_edge->id : -1u);
    EXPECT_EQ(a->dyndep_pending, b.dyndep_pending);
    EXPECT_EQ(a->generated_by_dep_loader, b.generated_by_dep_loader);
    ++a;
  }
  std::string err_a, err_b;
  EXPECT_EQ(test::Paths(parsed.DefaultNodes(&err_a)), test::Paths(loaded.DefaultNodes(&err_b)));
  EXPECT_EQ(test::Paths(parsed.RootNodes(&err_a)), test::Paths(loaded.RootNodes(&err_b)));
  EXPECT_EQ(parsed.uses_dyndep(), loaded.uses_dyndep());
  EXPECT_EQ(1u, loaded.ValidationUsers(loaded.LookupNode("check")).size());
  EXPECT_EQ("1.5", loaded.root_scope()->LookupVariable("ninja_required_version"));
  ASSERT_NE(nullptr, loaded.LookupPool("link"));
  EXPECT_EQ(2, loaded.LookupPool("link")->depth);
  EXPECT_EQ(parsed.pools().size(), loaded.pools().size());
  // The phony self-reference was dropped from the inputs, but the node keeps its user.
  EXPECT_EQ("other", test::Paths(loaded.LookupNode("self")->in_edge->inputs));
  EXPECT_EQ(1u, loaded.LookupNode("self")->out_edges.size());
}

// On Windows a node keeps which of its separators the manifest wrote as
// '\' (its slash bits, base/platform.h); the image carries them, so that
// $in and $out from an image keep the manifest's spelling. (On POSIX a
// backslash is part of a name, which the image keeps as it is.)
TEST(GraphImageTest, SlashBitsSurviveTheImage) {
  VirtualDisk disk;
  disk.Create("build.ninja",
              "rule cc\n  command = cc $in -o $out\n"
              "build out\\a.o: cc src\\sub/a.c\nbuild out/b.o: cc out\\a.o\n");
  State parsed;
  ASSERT_TRUE(test::LoadManifest(&parsed, &disk, "build.ninja"));
  std::string image = GraphImageWriter::Serialize(parsed, Key());
  std::string body = BodyOf(image);
  State loaded;
  ASSERT_TRUE(Load(body, &loaded));
  ASSERT_EQ(2u, loaded.edges().size());
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(parsed.edges()[i]->EvaluateCommand(), loaded.edges()[i]->EvaluateCommand());
  if (kWindows) {
    EXPECT_EQ("cc src\\sub/a.c -o out\\a.o", loaded.edges()[0]->EvaluateCommand());
    EXPECT_EQ("cc out\\a.o -o out/b.o", loaded.edges()[1]->EvaluateCommand());
    EXPECT_EQ(1u, loaded.LookupNode("out/a.o")->slash_bits());
    EXPECT_EQ(0u, loaded.LookupNode("out/b.o")->slash_bits());
  }
  EXPECT_EQ(image, GraphImageWriter::Serialize(loaded, Key()));
}

TEST(GraphImageTest, PhonyCycleAsErrorKeepsTheSelfReference) {
  State parsed;
  ManifestParserOptions options;
  options.phony_cycle_is_error = true;
  Parse(&parsed, options);
  std::string image = GraphImageWriter::Serialize(parsed, Key());
  std::string body = BodyOf(image);
  State loaded;
  ASSERT_TRUE(Load(body, &loaded));
  EXPECT_EQ("self other", test::Paths(loaded.LookupNode("self")->in_edge->inputs));
  EXPECT_EQ(image, GraphImageWriter::Serialize(loaded, Key()));
}

TEST(GraphImageTest, LargeGraphsSpanSeveralBlocks) {
  // About 3 MB of sections: the loader reads them block by block.
  std::string manifest = "rule cc\n  command = cc $in -o $out\n";
  for (int i = 0; i < 40000; ++i) {
    std::string n = std::to_string(i);
    manifest += "build o" + n + ": cc s" + n + " h" + std::to_string(i % 97) + " | h" + std::to_string(i % 13) + "\n";
  }
  State parsed;
  ASSERT_TRUE(test::ParseManifest(&parsed, manifest, {}));
  std::string image = GraphImageWriter::Serialize(parsed, Key());
  std::string body = BodyOf(image);
  State loaded;
  ASSERT_TRUE(Load(body, &loaded));
  EXPECT_EQ(image, GraphImageWriter::Serialize(loaded, Key()));
  EXPECT_EQ(parsed.nodes().size(), loaded.nodes().size());
  // A block's damage is caught by its hash.
  std::string damaged = body;
  damaged[damaged.size() / 2] ^= 1;
  State refused;
  EXPECT_FALSE(Load(damaged, &refused));
}

TEST(GraphImageTest, TwoNodesWithOnePathAreRefused) {
  // The paths are interned a few nodes behind the decoding: a duplicate is
  // caught whether it is close behind its twin, far behind, or the last.
  std::string manifest;
  for (int i = 0; i < 40; ++i) manifest += "build node_" + std::to_string(100 + i) + ": phony\n";
  State parsed;
  ASSERT_TRUE(test::ParseManifest(&parsed, manifest, {}));
  std::string body = BodyOf(GraphImageWriter::Serialize(parsed, Key()));
  {
    State loaded;
    ASSERT_TRUE(Load(body, &loaded));
  }
  for (auto [twin, copy] : {std::pair{102, 105}, std::pair{110, 130}, std::pair{138, 139}, std::pair{100, 101}}) {
    // The string section is not covered by the blocks' hashes.
    std::string forged = body;
    std::string from = "node_" + std::to_string(copy) + '\0';
    size_t at = forged.find(from);
    ASSERT_NE(std::string::npos, at);
    forged.replace(at, from.size(), "node_" + std::to_string(twin) + '\0');
    State loaded;
    EXPECT_FALSE(Load(forged, &loaded)) << twin << " " << copy;
  }
}

TEST(GraphImageTest, TruncatedBodiesAreRefused) {
  State parsed;
  Parse(&parsed);
  std::string body = BodyOf(GraphImageWriter::Serialize(parsed, Key()));
  for (size_t size = 0; size < body.size(); size += 7) {
    std::string cut = body.substr(0, size);
    State loaded;
    EXPECT_FALSE(Load(cut, &loaded)) << size;
  }
}

TEST(GraphImageTest, DamagedBodiesNeverCrash) {
  State parsed;
  Parse(&parsed);
  std::string body = BodyOf(GraphImageWriter::Serialize(parsed, Key()));
  size_t refused = 0;
  for (size_t i = 0; i < body.size(); i += 3) {
    std::string damaged = body;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    State loaded;
    if (!Load(damaged, &loaded)) ++refused;
  }
  // Most flips land in an index, count or string reference and are caught
  // (text flips inside strings load a different but valid graph).
  EXPECT_GT(refused, 0u);
}

TEST(GraphImageTest, KeyRoundTripsAndRejectsOtherOptions) {
  GraphImageKey key = Key();
  ManifestStamp stamp;
  stamp.path = "build.ninja";
  stamp.size = 5;
  stamp.mtime_ns = 123;
  stamp.racy = true;
  stamp.content_hash = 99;
  key.files.push_back(stamp);
  ImageOut out;
  key.Write(&out);
  GraphImageKey read;
  ImageIn in(out.data());
  ASSERT_TRUE(read.Read(&in));
  EXPECT_EQ(key.identity, read.identity);
  ASSERT_EQ(1u, read.files.size());
  EXPECT_EQ(123, read.files[0].mtime_ns);
  EXPECT_TRUE(read.files[0].racy);
  EXPECT_EQ(99u, read.files[0].content_hash);
  // The file does not exist here, so the key cannot match; nor can other options.
  EXPECT_FALSE(read.Matches(key));
  EXPECT_FALSE(read.Matches(GraphImageKey::ForOptions("other.ninja", false)));
}

TEST(GraphImageTest, KeyMatchesOnlyWhileTheFileIsUnchanged) {
  test::ScopedTempDir dir;
  std::string path = dir.File("m.ninja");
  test::WriteRealFile(path, "build x: phony\n");
  GraphImageKey key = GraphImageKey::ForOptions(path, false);
  RealDiskInterface disk;
  StampingFileReader reader(&disk, &key.files);
  std::string contents, err;
  ASSERT_EQ(FileReader::Status::kOkay, reader.ReadFile(path, &contents, &err));
  ASSERT_TRUE(reader.complete());
  ASSERT_EQ(1u, key.files.size());
  EXPECT_TRUE(key.files[0].racy);  // just written
  EXPECT_TRUE(key.Matches(GraphImageKey::ForOptions(path, false)));
  EXPECT_FALSE(key.Matches(GraphImageKey::ForOptions(path, true)));
  // Same size, possibly the same mtime tick: the content hash tells.
  test::WriteRealFile(path, "build y: phony\n");
  EXPECT_FALSE(key.Matches(GraphImageKey::ForOptions(path, false)));
}

}  // namespace
}  // namespace ronin
