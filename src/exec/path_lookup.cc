// Finding a program as the shell does (exec/path_lookup.h).
#include "exec/path_lookup.h"

#include <stdlib.h>

#include <mutex>
#include <string_view>
#include <unordered_map>

#include "base/file_io.h"
#include "base/platform.h"

namespace ronin {
namespace {

// A name with a separator is a path, not searched ('\\' one too on Windows).
bool IsPathName(const std::string& program) {
  return program.find('/') != std::string::npos || (kWindows && program.find('\\') != std::string::npos);
}

}  // namespace

std::string FindProgramIn(const std::string& program, const char* path) {
  if (program.empty()) return "";
  if (IsPathName(program)) return IsExecutableFile(program.c_str()) ? program : "";
  if (!path) return "";
  std::string_view entries(path);
  for (size_t start = 0; start <= entries.size();) {
    size_t colon = entries.find(kPathListSeparator, start);
    if (colon == std::string_view::npos) colon = entries.size();
    std::string_view entry = entries.substr(start, colon - start);
    std::string candidate = (entry.empty() ? std::string(".") : std::string(entry)) + "/" + program;
    if (IsExecutableFile(candidate.c_str())) return candidate;
    start = colon + 1;
  }
  return "";
}

std::string FindProgram(const std::string& program) {
  if (IsPathName(program)) return FindProgramIn(program, nullptr);
  static std::mutex mutex;
  // Never destroyed: a thread may still ask while the process exits.
  static auto* found = new std::unordered_map<std::string, std::string>;
  std::lock_guard<std::mutex> lock(mutex);
  auto known = found->find(program);
  if (known != found->end()) return known->second;
  return found->emplace(program, FindProgramIn(program, getenv("PATH"))).first->second;
}

}  // namespace ronin
