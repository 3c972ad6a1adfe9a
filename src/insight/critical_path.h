// The critical path of a build: the longest chain of the commands it ran
// through the graph's dependencies, by their measured durations. The chain
// may pass through edges the build did not run (phony, up to date) at no
// cost, so two commands linked only through a phony alias still chain.
#ifndef RONIN_INSIGHT_CRITICAL_PATH_H_
#define RONIN_INSIGHT_CRITICAL_PATH_H_

#include <stdint.h>

#include <vector>

#include "insight/build_history.h"

namespace ronin {

class State;
struct Edge;

// The edge that produces each job's first output in the manifest now, or
// null (an output the manifest no longer has).
std::vector<const Edge*> EdgesOfJobs(const State& state, const std::vector<LoggedJob>& jobs);

struct CriticalPath {
  std::vector<size_t> jobs;  // indices into the jobs, first to run first
  int64_t total_ms = 0;      // the sum of their durations
};

// `edges` from EdgesOfJobs. Walks the graph with an explicit stack (its
// depth never reaches the C++ stack); a dependency cycle is cut where the
// walk meets it.
CriticalPath FindCriticalPath(const State& state, const std::vector<LoggedJob>& jobs,
                              const std::vector<const Edge*>& edges);

}  // namespace ronin

#endif  // RONIN_INSIGHT_CRITICAL_PATH_H_
