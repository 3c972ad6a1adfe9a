// Which programs a command runs, and what they are (cache/program_identity.h).
#include "cache/program_identity.h"

#include <stdlib.h>

#include <mutex>
#include <unordered_map>

#include "base/file_io.h"
#include "cache/cache_key.h"
#include "exec/path_lookup.h"

namespace ronin {
namespace {

// The executable file `word` names (exec/path_lookup.h: the very file the
// spawner runs), resolved to its real path; empty if none.
std::string ResolveProgramUncached(const std::string& word) {
  std::string program = FindProgram(word);
  if (program.empty()) return "";
  std::string resolved = RealPath(program.c_str());
  return resolved.empty() ? program : resolved;
}

// ResolveProgramUncached once per word and process: every cacheable command
// is keyed twice (before it runs and when it is stored), each time for its
// leading words, and most commands of a build share them. A program
// replaced in place keeps its path and changes its digest, which
// FileHasher sees. A path (a word with '/') that names nothing yet is
// looked at again: the build may make it.
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
