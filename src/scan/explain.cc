#include "scan/explain.h"

#include <stdarg.h>
#include <stdio.h>

namespace ronin {

void Explanations::Record(const Edge* edge, const char* format, ...) {
  if (!enabled_ || !edge) return;
  va_list ap;
  va_start(ap, format);
  char buffer[2048];
  vsnprintf(buffer, sizeof(buffer), format, ap);
  va_end(ap);
  reasons_[edge].emplace_back(buffer);
}

const std::vector<std::string>* Explanations::Lookup(const Edge* edge) const {
  if (!enabled_) return nullptr;
  auto it = reasons_.find(edge);
  return it == reasons_.end() ? nullptr : &it->second;
}

}  // namespace ronin
