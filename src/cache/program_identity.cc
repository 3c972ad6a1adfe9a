// Which programs a command runs, and what they are (program_identity.h).
#include "cache/program_identity.h"

#include <stdlib.h>

#include <mutex>
#include <unordered_map>

#include "base/file_io.h"
#include "cache/cache_key.h"

namespace ronin {
namespace {

// The executable file `word` names, resolved to its real path; empty if none.
std::string ResolveProgramUncached(const std::string& word) {
  std::string candidate;
  if (word.find('/') != std::string::npos) {
    candidate = word;
  } else {
    const char* path = getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (size_t start = 0; start <= dirs.size();) {
      size_t colon = dirs.find(kPathListSeparator, start);
      if (colon == std::string::npos) colon = dirs.size();
      std::string dir = dirs.substr(start, colon - start);
      std::string full = (dir.empty() ? "." : dir) + "/" + word;
      if (MayExecute(full.c_str())) {
        candidate = full;
        break;
      }
      start = colon + 1;
    }
  }
  if (candidate.empty() || !IsExecutableFile(candidate.c_str())) return "";
  std::string resolved = RealPath(candidate.c_str());
  return resolved.empty() ? candidate : resolved;
}

// ResolveProgram once per word and process: every cacheable command is
// keyed twice (before it runs and when it is stored), each time walking
// PATH for its leading words, and most commands of a build share them.
// PATH does not change during a build; a program replaced in place keeps
// its path and changes its digest, which FileHasher sees. A path (a word
// with '/') that names nothing yet is looked at again: the build may make it.
std::string ResolveProgram(const std::string& word) {
  static std::mutex mutex;
  static auto* resolved = new std::unordered_map<std::string, std::string>;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = resolved->find(word);
  if (found != resolved->end()) return found->second;
  std::string program = ResolveProgramUncached(word);
  if (!program.empty() || word.find('/') == std::string::npos) resolved->emplace(word, program);
  return program;
}

}  // namespace

std::vector<std::string> ProgramIdentities(std::string_view command, const BaseDirMapper& mapper,
                                           FileHasher* hasher, std::vector<FileHash>* read) {
  std::vector<std::string> identities;
  size_t at = 0;
  bool assignments = true;
  while (identities.size() < 3) {
    while (at < command.size() && (command[at] == ' ' || command[at] == '\t')) ++at;
    size_t end = command.find_first_of(" \t", at);
    if (end == std::string_view::npos) end = command.size();
    if (at == end) break;
    std::string word(command.substr(at, end - at));
    at = end;
    if (assignments && word.find('=') != std::string::npos && word[0] != '/') continue;
    assignments = false;
    std::string program = ResolveProgram(word);
    if (program.empty()) break;
    std::string digest = hasher->Digest(program);
    identities.push_back(mapper.ToKeyPath(program) + ":" + digest);
    if (read) read->emplace_back(program, digest);
  }
  return identities;
}

}  // namespace ronin
