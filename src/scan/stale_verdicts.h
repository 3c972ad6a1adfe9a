// Which verdicts of the last scan a change makes stale, for `--watch`.
//
// A round of --watch scans again only the edges its changes can reach: the
// rest of the graph (on a large tree, all but a few edges) keeps the
// verdict the last scan gave it, which a scan from scratch would give
// again, since nothing it depends on changed. A scan then walks from the
// targets as usual and stops at every edge it has already decided.
#ifndef RONIN_SCAN_STALE_VERDICTS_H_
#define RONIN_SCAN_STALE_VERDICTS_H_

#include <vector>

namespace ronin {

class State;
struct Edge;
struct Node;

// Forgets the verdicts (State::ForgetVerdictOf) of every edge downstream of
// the `changed` nodes (through inputs, discovered deps and validations) or
// of the edges that `ran` since the last scan, and of every edge that scan
// left undecided or not ready (dirty, failed, never reached). The changed
// nodes must have been stat'ed again.
void ForgetStaleVerdicts(State& state, const std::vector<Node*>& changed, const std::vector<Edge*>& ran);

}  // namespace ronin

#endif  // RONIN_SCAN_STALE_VERDICTS_H_
