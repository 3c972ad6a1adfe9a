// Fuzz target: the .ninja_deps loader, then a recompaction checked by
// loading the rewritten file.
//
// Input: the log file's bytes, written to a scratch file (DepsLog::Load reads
// a path) under $RONIN_FUZZ_TMPDIR, /dev/shm or /tmp.
// Checks: ids and records are consistent after loading (whatever the damage);
// two thirds of the outputs are then given a `deps = gcc` build edge, and the
// recompacted log must load back to exactly their records (same paths, mtime
// and dependency paths), with the records of the others dropped.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "graph/graph.h"
#include "graph/manifest_parser.h"
#include "graph/state.h"
#include "log/deps_log.h"

using namespace ronin;

namespace {

fuzz::ScratchInput scratch_input("deps_log", {".recompact"});

void CheckConsistent(const DepsLog& log) {
  const std::vector<Node*>& nodes = log.nodes();
  for (size_t id = 0; id < nodes.size(); ++id) FUZZ_CHECK(nodes[id]->deps_log_id == static_cast<int>(id));
  FUZZ_CHECK(log.deps().size() <= nodes.size());
  for (size_t id = 0; id < log.deps().size(); ++id) {
    DepsLog::Deps* deps = log.deps()[id];
    if (!deps) continue;
    FUZZ_CHECK(log.GetDeps(nodes[id]) == deps);
    FUZZ_CHECK(deps->node_count >= 0);
    for (int i = 0; i < deps->node_count; ++i) {
      // A record read from the file holds its nodes; one this run made, ids.
      Node* node = log.DepNode(deps, i);
      if (!deps->resolved)
        FUZZ_CHECK(deps->ids[i] >= 0 && static_cast<size_t>(deps->ids[i]) < nodes.size());
      FUZZ_CHECK(node && node->deps_log_id >= 0 && static_cast<size_t>(node->deps_log_id) < nodes.size() &&
                 nodes[node->deps_log_id] == node);
    }
  }
}

bool IsLive(size_t id) { return id % 3 != 2; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scratch_input.Write(data, size);
  fuzz::ResetEvalBudget();
  {
    State state;
    fuzz::MemoryDisk disk;
    ManifestParser parser(&state, &disk);
    std::string err;
    FUZZ_CHECK(parser.ParseTest("rule r\n  command = c\n  deps = gcc\n", &err));
    const Rule* rule = state.root_scope()->LookupRule("r");
    FUZZ_CHECK(rule);

    DepsLog log;
    DepsLog::LoadStatus status = log.Load(path, &state, &err);
    FUZZ_CHECK(status != DepsLog::LoadStatus::kError);
    CheckConsistent(log);
    for (size_t i = 0; i < log.nodes().size() && i < 4; ++i) log.GetFirstReverseDepsNode(log.nodes()[i]);

    // What the recompacted log must hold: paths of live outputs' records.
    struct Expected {
      std::string output;
      TimeStamp mtime;
      std::vector<std::string> deps;
    };
    std::vector<Expected> expected;
    std::vector<Node*> outputs(log.nodes());
    for (size_t id = 0; id < outputs.size(); ++id) {
      if (!IsLive(id)) continue;
      Edge* edge = state.AddEdge(rule, state.root_scope());
      FUZZ_CHECK(state.AddOut(edge, outputs[id]->path, &err));
      DepsLog::Deps* deps = log.GetDeps(outputs[id]);
      if (!deps) continue;
      Expected want{std::string(outputs[id]->path), deps->mtime, {}};
      for (int i = 0; i < deps->node_count; ++i) want.deps.emplace_back(log.DepNode(deps, i)->path);
      expected.push_back(std::move(want));
    }

    FUZZ_CHECK(log.Recompact(path, &err));
    CheckConsistent(log);
    size_t records = 0;
    for (DepsLog::Deps* deps : log.deps()) records += deps != nullptr;
    FUZZ_CHECK(records == expected.size());
    log.Close();

    State fresh;
    DepsLog again;
    err.clear();
    FUZZ_CHECK(again.Load(path, &fresh, &err) == DepsLog::LoadStatus::kSuccess);
    FUZZ_CHECK(err.empty());
    CheckConsistent(again);
    records = 0;
    for (DepsLog::Deps* deps : again.deps()) records += deps != nullptr;
    FUZZ_CHECK(records == expected.size());
    for (const Expected& want : expected) {
      Node* node = fresh.LookupNode(want.output);
      FUZZ_CHECK(node != nullptr);
      DepsLog::Deps* deps = again.GetDeps(node);
      FUZZ_CHECK(deps != nullptr);
      FUZZ_CHECK(deps->mtime == want.mtime);
      FUZZ_CHECK(deps->node_count == static_cast<int>(want.deps.size()));
      for (int i = 0; i < deps->node_count; ++i) FUZZ_CHECK(again.DepNode(deps, i)->path == want.deps[i]);
    }
  }
  fuzz::ResetGraphArena();
  return 0;
}
