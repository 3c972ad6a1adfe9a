// The remote-launcher classifier (sched/remote_launchers.h).
#include "sched/remote_launchers.h"

#include <ctype.h>

namespace ronin {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Splits off the next shell word of `*rest`, removing simple quotes and
// backslash escapes. Stops at an unquoted operator (;, &, |, <, >, parens)
// so `distcc cc && x` reads as "distcc", "cc", and no word after "&&".
bool NextWord(std::string_view* rest, std::string* word) {
  word->clear();
  size_t i = 0;
  while (i < rest->size() && IsSpace((*rest)[i])) ++i;
  bool any = false;
  char quote = 0;
  for (; i < rest->size(); ++i) {
    char c = (*rest)[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < rest->size()) *word += (*rest)[++i];
      else *word += c;
      continue;
    }
    if (IsSpace(c)) break;
    if (c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')') break;
    any = true;
    if (c == '\'' || c == '"') quote = c;
    else if (c == '\\' && i + 1 < rest->size()) *word += (*rest)[++i];
    else *word += c;
  }
  *rest = rest->substr(i);
  return any;
}

// VAR=value, with VAR a shell name.
bool IsAssignment(const std::string& word) {
  size_t eq = word.find('=');
  if (eq == 0 || eq == std::string::npos) return false;
  if (isdigit(static_cast<unsigned char>(word[0]))) return false;
  for (size_t i = 0; i < eq; ++i) {
    unsigned char c = static_cast<unsigned char>(word[i]);
    if (!isalnum(c) && c != '_') return false;
  }
  return true;
}

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

RemoteLaunchers::RemoteLaunchers(const std::vector<std::string>& extra) : names_(Defaults()) {
  names_.insert(names_.end(), extra.begin(), extra.end());
}

const std::vector<std::string>& RemoteLaunchers::Defaults() {
  static const std::vector<std::string> defaults = {"distcc", "icecc", "sccache"};
  return defaults;
}

std::string RemoteLaunchers::LeadingProgram(std::string_view command) {
  std::string word;
  bool in_env = false;  // after `env`: its options' assignments come next
  while (NextWord(&command, &word)) {
    if (IsAssignment(word)) continue;
    if (in_env && word.size() > 1 && word[0] == '-') {
      // env's own options; -u and --unset take the name to drop.
      if (word == "-u" || word == "--unset") NextWord(&command, &word);
      continue;
    }
    std::string_view base = BaseName(word);
    if (!in_env && base == "env") {
      in_env = true;
      continue;
    }
    if (!in_env && (base == "cmake" || base == "cmake.exe")) {
      // `cmake -E env ...` is CMake's portable env.
      std::string_view rest = command;
      std::string e, env;
      if (NextWord(&rest, &e) && e == "-E" && NextWord(&rest, &env) && env == "env") {
        command = rest;
        in_env = true;
        continue;
      }
    }
    return word;
  }
  return std::string();
}

bool RemoteLaunchers::IsRemote(std::string_view command) const {
  std::string program = LeadingProgram(command);
  if (program.empty()) return false;
  std::string_view base = BaseName(program);
  for (const std::string& name : names_)
    if (base == name) return true;
  return false;
}

bool ParseLauncherNames(const char* value, std::vector<std::string>* names, std::string* err) {
  std::vector<std::string> parsed;
  std::string name;
  for (const char* p = value;; ++p) {
    if (*p == ',' || *p == 0) {
      if (name.empty()) {
        *err = std::string("empty launcher name in '") + value + "'";
        return false;
      }
      parsed.push_back(name);
      name.clear();
      if (*p == 0) break;
    } else if (*p == '/' || isspace(static_cast<unsigned char>(*p))) {
      *err = std::string("launcher names are program names without '/' or spaces, not '") + value + "'";
      return false;
    } else {
      name += *p;
    }
  }
  *names = parsed;
  return true;
}

}  // namespace ronin
