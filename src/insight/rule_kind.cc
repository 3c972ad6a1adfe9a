#include "insight/rule_kind.h"

#include <ctype.h>

#include <string>

#include "graph/graph.h"

namespace ronin {

namespace {

std::string Lowercase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool IsLinkRule(const std::string& name) { return name.find("link") != std::string::npos || name == "ar"; }

bool IsCompileRule(const Edge* edge, const std::string& name) {
  if (!edge->GetBinding(Rule::kDepfile).empty() || !edge->GetBinding(Rule::kDeps).empty()) return true;
  if (name.find("compile") != std::string::npos) return true;
  for (const char* compiler : {"cc", "cxx", "c", "cpp", "objc", "objcxx", "asm"})
    if (name == compiler) return true;
  return false;
}

}  // namespace

std::string_view RuleKindOf(const Edge* edge) {
  if (!edge || edge->is_phony()) return "custom";
  std::string name = Lowercase(edge->rule->name());
  if (IsLinkRule(name)) return "link";
  if (IsCompileRule(edge, name)) return "compile";
  return "custom";
}

}  // namespace ronin
