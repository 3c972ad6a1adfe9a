#include "scan/explain.h"

#include <stdarg.h>
#include <stdio.h>

#include <string>

namespace ronin {

void PrintExplanation(const char* format, ...) {
  va_list ap, again;
  va_start(ap, format);
  va_copy(again, ap);
  int length = vsnprintf(nullptr, 0, format, ap);
  va_end(ap);
  std::string message(length > 0 ? length : 0, '\0');
  vsnprintf(&message[0], message.size() + 1, format, again);
  va_end(again);
  fflush(stdout);
  // One write: stderr is unbuffered.
  fprintf(stderr, "ninja explain: %s\n", message.c_str());
}

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
