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

// The file a name runs: on Windows, CreateProcess adds ".exe" to a name
// whose last component has no extension (`tools\cc` runs tools\cc.exe).
std::string ExecutableFileName(const std::string& program) {
  if (!kWindows) return program;
  size_t last = program.find_last_of("/\\");
  size_t base = last == std::string::npos ? 0 : last + 1;
  return program.find('.', base) == std::string::npos ? program + ".exe" : program;
}

}  // namespace

std::string FindProgramIn(const std::string& name, const char* path) {
  if (name.empty()) return "";
  std::string program = ExecutableFileName(name);
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
