// Which edges are cached (cache/cache_policy.h).
#include "cache/cache_policy.h"

#include <algorithm>

#include "graph/graph.h"

namespace ronin {

bool IsCacheable(const Edge* edge, const std::vector<std::string>& extra_rules) {
  if (edge->is_phony() || edge->use_console() || edge->outputs.empty()) return false;
  if (edge->GetBindingBool(Rule::kGenerator) || edge->GetBindingBool(Rule::kRestat)) return false;
  std::string deps = edge->GetBinding(Rule::kDeps);
  if (deps == "gcc" || deps == "msvc" || !edge->GetUnescapedDepfile().empty()) return true;
  std::string_view rule = edge->rule->name();
  return std::find(extra_rules.begin(), extra_rules.end(), rule) != extra_rules.end();
}

}  // namespace ronin
