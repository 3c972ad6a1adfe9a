// Dyndep files: dependency information discovered by a build step (e.g.
// Fortran or C++ module scanners), loaded once the file is up to date and
// merged into the graph as extra implicit inputs and outputs.
#ifndef RONIN_SCAN_DYNDEP_H_
#define RONIN_SCAN_DYNDEP_H_

#include <map>
#include <string>
#include <vector>

namespace ronin {

class DiskInterface;
class Explanations;
class State;
struct Edge;
struct Node;

struct Dyndeps {
  bool used = false;
  bool restat = false;
  std::vector<Node*> implicit_inputs;
  std::vector<Node*> implicit_outputs;
};

// What one dyndep file says, per edge. Ordered by edge id for determinism.
struct EdgeIdLess {
  bool operator()(const Edge* a, const Edge* b) const;
};
using DyndepFile = std::map<Edge*, Dyndeps, EdgeIdLess>;

// Parses a dyndep file into `file`. Every edge named must already exist.
bool ParseDyndepFile(State* state, DiskInterface* disk, const std::string& path, DyndepFile* file,
                     std::string* err);
// Parses dyndep text directly (tests and fuzzers); `input` must be NUL-terminated.
bool ParseDyndepText(State* state, const std::string& filename, const std::string& input,
                     DyndepFile* file, std::string* err);

class DyndepLoader {
 public:
  DyndepLoader(State* state, DiskInterface* disk, Explanations* explanations)
      : state_(state), disk_(disk), explanations_(explanations) {}

  // Loads `node`'s dyndep file and updates every edge that names it.
  bool LoadDyndeps(Node* node, DyndepFile* file, std::string* err) const;

 private:
  bool UpdateEdge(Edge* edge, const Dyndeps& dyndeps, std::string* err) const;

  State* state_;
  DiskInterface* disk_;
  Explanations* explanations_;
};

}  // namespace ronin

#endif  // RONIN_SCAN_DYNDEP_H_
