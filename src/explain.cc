#include "explain.h"

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

void Explanations::PrintAndForget(const Edge* edge) {
  if (!enabled_) return;
  auto it = reasons_.find(edge);
  if (it == reasons_.end()) return;
  fflush(stdout);
  for (const std::string& reason : it->second) fprintf(stderr, "ninja explain: %s\n", reason.c_str());
  reasons_.erase(it);
}

}  // namespace ronin
