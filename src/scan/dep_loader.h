// Discovered dependencies: turns an edge's depfile (edges without `deps`)
// or its .ninja_deps entry (edges with `deps = gcc|msvc`) into extra
// implicit inputs, during the dirty scan.
#ifndef RONIN_SCAN_DEP_LOADER_H_
#define RONIN_SCAN_DEP_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

namespace ronin {

class DepsLog;
class DiskInterface;
class Explanations;
class State;
struct Edge;
struct Node;

class DepLoader {
 public:
  DepLoader(State* state, DepsLog* deps_log, DiskInterface* disk, Explanations* explanations)
      : state_(state), deps_log_(deps_log), disk_(disk), explanations_(explanations) {}

  // Adds the edge's discovered inputs. Returns false with an empty *err when
  // the information is missing or stale (the edge is then dirty), false
  // with *err set on a real error.
  bool LoadDeps(Edge* edge, std::string* err);

 private:
  bool LoadDepfile(Edge* edge, const std::string& path, std::string* err);
  bool LoadFromDepsLog(Edge* edge, std::string* err);
  // Inserts nodes as implicit inputs (before the order-only ones).
  void AddImplicitInputs(Edge* edge, const std::vector<std::string_view>& paths);
  // Records `edge` as a user of a discovered input, where that matters.
  void NoteUser(Node* node, Edge* edge) const;

  State* state_;
  DepsLog* deps_log_;
  DiskInterface* disk_;
  Explanations* explanations_;
};

// Undoes LoadDeps for `edge` (whose command has run since, so its deps log
// record or depfile may say otherwise now): its discovered inputs go, and
// the next scan loads them again. A new input list is made rather than the
// old one shortened: the old may be a deps log record's block, which that
// record still reads. For --watch, which scans the same graph again.
void ForgetDiscoveredDeps(const State& state, Edge* edge);

}  // namespace ronin

#endif  // RONIN_SCAN_DEP_LOADER_H_
