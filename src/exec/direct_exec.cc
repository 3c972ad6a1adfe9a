#include "exec/direct_exec.h"

#include <stdlib.h>
#include <string.h>

namespace ronin {

namespace {

// Bytes that mean something to a POSIX shell anywhere in a command: quoting,
// expansion, redirection, control operators, globbing, comments, line
// structure. A command containing any of them goes to the shell.
bool IsShellSpecial(unsigned char c) {
  switch (c) {
    case '\'': case '"': case '`': case '\\': case '$':
    case ';': case '&': case '|': case '<': case '>': case '(': case ')':
    case '*': case '?': case '[': case ']': case '{': case '}': case '~':
    case '#': case '!': case '^':
    case '\t': case '\n': case '\r': case '\0':
      return true;
    default:
      return false;
  }
}

// Reserved words and builtins: in command position the shell does not run
// an external program of that name (and e.g. its `echo` differs from
// /bin/echo), so these always go to the shell.
bool IsShellWordInCommandPosition(std::string_view word) {
  static const char* const kWords[] = {
      // reserved words
      "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done",
      "in", "function", "select", "time",
      // special and regular builtins of dash and bash
      ":", ".", "alias", "bg", "break", "builtin", "cd", "chdir", "command", "continue", "declare",
      "echo", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "jobs",
      "kill", "let", "local", "printf", "pwd", "read", "readonly", "return", "set", "shift",
      "source", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias",
      "unset", "wait",
  };
  for (const char* reserved : kWords) {
    if (word == reserved) return true;
  }
  return false;
}

}  // namespace

bool SplitSimpleCommand(std::string_view command, std::vector<std::string>* argv) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < command.size()) {
    if (command[i] == ' ') {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < command.size() && command[i] != ' ') {
      if (IsShellSpecial(static_cast<unsigned char>(command[i]))) return false;
      ++i;
    }
    words.emplace_back(command.substr(start, i - start));
  }
  if (words.empty()) return false;
  // "NAME=value cmd" is an assignment; a program name never needs '='.
  if (words[0].find('=') != std::string::npos) return false;
  if (IsShellWordInCommandPosition(words[0])) return false;
  argv->swap(words);
  return true;
}

bool DirectExecEnabled() {
  static const bool enabled = [] {
    const char* setting = getenv("RONIN_SKIP_SHELL");
    return !(setting && strcmp(setting, "0") == 0);
  }();
  return enabled;
}

}  // namespace ronin
