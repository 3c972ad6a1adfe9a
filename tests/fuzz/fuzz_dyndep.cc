// Fuzz target: the dyndep file parser, then the loader that merges a parsed
// file into the graph.
//
// Input: the dyndep file's text. It is parsed against a small fixed manifest
// (kManifest: edges whose outputs `build X: dyndep` can name, some with a
// dyndep binding for "dd1" or "dd2"), then loaded through DyndepLoader as the
// file "dd1" (even-sized inputs) or "dd2" (odd-sized), and the graph's links
// are checked afterwards.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <string>

#include "fuzz_support.h"
#include "graph/graph.h"
#include "graph/manifest_parser.h"
#include "graph/state.h"
#include "scan/dyndep.h"
#include "scan/explain.h"

using namespace ronin;

namespace {

const char kManifest[] =
    "rule r\n"
    "  command = cc $in -o $out\n"
    "build out1 | out1.imp: r in1 || dd1\n"
    "  dyndep = dd1\n"
    "build out2 out3: r in2 | in3 || dd1\n"
    "  dyndep = dd1\n"
    "build sub/out4: r in4 || dd2\n"
    "  dyndep = dd2\n"
    "build out5: r in5 |@ val\n"
    "build dd1: r dd1.in\n"
    "build dd2: r\n"
    "build all: phony out1 out2 sub/out4 out5\n";

void CheckGraph(const State& state) {
  for (const Edge* edge : state.edges()) {
    fuzz::CheckEdgeLinks(edge);
    std::string command;
    FUZZ_CHECK(edge->TryEvaluateCommand(&command, true));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  fuzz::ResetEvalBudget();
  {
    State state;
    fuzz::MemoryDisk disk;
    std::string err;
    {
      ManifestParser parser(&state, &disk);
      FUZZ_CHECK(parser.ParseTest(kManifest, &err));
    }
    const std::string name = size % 2 == 0 ? "dd1" : "dd2";

    // The parser alone, as `ninja -t` tools and the loader use it.
    DyndepFile file;
    if (!ParseDyndepText(&state, name, input, &file, &err)) {
      FUZZ_CHECK(!err.empty());
    } else {
      for (const auto& entry : file) FUZZ_CHECK(entry.first != nullptr);
    }

    // The loader: parse again into the graph and merge.
    disk.Add(name, input);
    Node* node = state.LookupNode(name);
    FUZZ_CHECK(node);
    Explanations explanations(true);
    DyndepLoader loader(&state, &disk, &explanations);
    DyndepFile loaded;
    err.clear();
    if (!loader.LoadDyndeps(node, &loaded, &err)) FUZZ_CHECK(!err.empty());
    CheckGraph(state);
  }
  fuzz::ResetGraphArena();
  return 0;
}
