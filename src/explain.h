// -d explain: why each edge is dirty. Reasons are recorded per edge during
// the scan and printed just before the edge starts, as Ninja 1.13 does.
#ifndef RONIN_EXPLAIN_H_
#define RONIN_EXPLAIN_H_

#include <string>
#include <unordered_map>
#include <vector>

namespace ronin {

struct Edge;

class Explanations {
 public:
  explicit Explanations(bool enabled = false) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  void Record(const Edge* edge, const char* format, ...) __attribute__((format(printf, 3, 4)));
  // Prints "ninja explain: ..." lines for the edge to stderr, once.
  void PrintAndForget(const Edge* edge);

 private:
  bool enabled_;
  std::unordered_map<const Edge*, std::vector<std::string>> reasons_;
};

}  // namespace ronin

#endif  // RONIN_EXPLAIN_H_
