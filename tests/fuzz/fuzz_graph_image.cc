// Fuzz target: the graph image loader (GraphImageReader::LoadBody), the
// part of an image that is trusted once its checksum matches.
//
// Input: an image body (what follows the header and the key; its blocks'
// hashes are not checked), and, read by GraphImageKey::Read, the same bytes
// as a key.
// Checks: whatever the damage, loading ends without a crash, leak or
// sanitizer report. A body that loads must describe a consistent graph
// (every node interned under its path, each output's producer the edge that
// lists it, users pointing at real edges), evaluate every edge's command
// without a crash (cycles reported, not fatal) and serialize back to a body
// that loads to the same bytes again.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "graph/eval.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "image/graph_image.h"

using namespace ronin;

namespace {

std::string BodyOf(const std::string& image) { return std::string(ImageBody(image)); }

void CheckConsistent(const State& state) {
  for (const Node& node : state.nodes()) {
    FUZZ_CHECK(state.LookupNode(node.path) == &node);
    FUZZ_CHECK(node.path.data()[node.path.size()] == '\0');
    for (const Edge* user : node.out_edges) FUZZ_CHECK(user->id < state.edges().size());
  }
  for (const Edge* edge : state.edges()) {
    FUZZ_CHECK(!edge->outputs.empty());
    for (const Node* output : edge->outputs) FUZZ_CHECK(output->in_edge == edge);
    FUZZ_CHECK(edge->implicit_deps + edge->order_only_deps <= static_cast<int>(edge->inputs.size()));
    FUZZ_CHECK(edge->implicit_outs <= static_cast<int>(edge->outputs.size()));
    std::string command;
    g_fuzz_eval_budget = 1 << 16;
    edge->TryEvaluateCommand(&command, /*include_rspfile=*/true);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  {
    GraphImageKey key;
    ImageIn in(bytes);
    key.Read(&in);
  }
  State state;
  std::string err;
  // The blocks' hashes are not checked: the fuzzer could never forge them.
  if (!GraphImageReader::LoadBody(bytes, &state, &err, /*verify_blocks=*/false)) {
    FUZZ_CHECK(!err.empty());
    return 0;
  }
  CheckConsistent(state);
  GraphImageKey key = GraphImageKey::ForOptions("build.ninja", false);
  std::string body = BodyOf(GraphImageWriter::Serialize(state, key));
  State again;
  FUZZ_CHECK(GraphImageReader::LoadBody(body, &again, &err));
  FUZZ_CHECK(BodyOf(GraphImageWriter::Serialize(again, key)) == body);
  return 0;
}
