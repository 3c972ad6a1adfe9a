// Which edges the build cache may serve: by default those that report their
// inputs (deps = gcc|msvc, or a depfile), plus rules named by
// --cache-rules; never phony, generator, restat or console-pool edges
// (their effects are not only their outputs).
#ifndef RONIN_CACHE_CACHE_POLICY_H_
#define RONIN_CACHE_CACHE_POLICY_H_

#include <string>
#include <vector>

namespace ronin {

struct Edge;

bool IsCacheable(const Edge* edge, const std::vector<std::string>& extra_rules);

}  // namespace ronin

#endif  // RONIN_CACHE_CACHE_POLICY_H_
