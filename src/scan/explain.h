// -d explain: why each edge is dirty. Reasons are recorded per edge during
// the scan; the status printer shows them with each status line it prints
// for the edge (as Ninja 1.13 does: at the start on a smart terminal, and
// again when it finishes). Every `ninja explain:` line is printed by
// PrintExplanation.
#ifndef RONIN_SCAN_EXPLAIN_H_
#define RONIN_SCAN_EXPLAIN_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "base/platform.h"

namespace ronin {

struct Edge;

// Prints "ninja explain: " and the message as a line on stderr, after
// what stdout holds, so that the two keep their order on one terminal.
void PrintExplanation(const char* format, ...) __attribute__((format(printf, 1, 2)));

class Explanations {
 public:
  explicit Explanations(bool enabled = false) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  void Record(const Edge* edge, const char* format, ...) RONIN_PRINTF(3, 4);
  // The reasons recorded for the edge, in order; null if none.
  const std::vector<std::string>* Lookup(const Edge* edge) const;

 private:
  bool enabled_;
  std::unordered_map<const Edge*, std::vector<std::string>> reasons_;
};

}  // namespace ronin

#endif  // RONIN_SCAN_EXPLAIN_H_
