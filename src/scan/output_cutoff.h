// Early cutoff: after a command succeeded, the outputs it rewrote with the
// content they had before, whose dependents need not run (as if a restat
// rule had left them untouched). --content-hash decides it by content
// (content_hash_store.h); without it nothing is cut off (NoOutputCutoff).
#ifndef RONIN_SCAN_OUTPUT_CUTOFF_H_
#define RONIN_SCAN_OUTPUT_CUTOFF_H_

#include <vector>

namespace ronin {

struct Edge;
struct Node;

class OutputCutoff {
 public:
  virtual ~OutputCutoff() = default;
  // After the command for `edge` succeeded: appends the outputs it left as
  // they were to *unchanged. False if the outputs were not looked at.
  virtual bool UnchangedOutputs(Edge* edge, std::vector<Node*>* unchanged) = 0;
};

class NoOutputCutoff : public OutputCutoff {
 public:
  bool UnchangedOutputs(Edge*, std::vector<Node*>*) override { return false; }
};

}  // namespace ronin

#endif  // RONIN_SCAN_OUTPUT_CUTOFF_H_
