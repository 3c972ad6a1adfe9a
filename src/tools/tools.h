// Subtools (`ninja -t NAME`): the registry and when each one runs.
#ifndef RONIN_TOOLS_TOOLS_H_
#define RONIN_TOOLS_TOOLS_H_

#include <string>

namespace ronin {

class NinjaMain;
struct Options;

struct Tool {
  const char* name;
  const char* description;  // null: hidden from -t list
  enum When {
    kRunAfterFlags,  // needs no manifest
    kRunAfterLoad,   // needs the parsed manifest
    kRunAfterLogs,   // needs the manifest and both logs
  } when;
  // argv[0] is the tool's first argument (not its name).
  int (*run)(NinjaMain* ninja, const Options* options, int argc, char** argv);
  // Only ninja.exe has it (msvc, wincodepage): elsewhere it is unknown.
  bool windows_only = false;
};

// Looks up a tool; "list" prints the table and returns null. Fatal on an
// unknown name (with a suggestion).
const Tool* ChooseTool(const std::string& name);

}  // namespace ronin

#endif  // RONIN_TOOLS_TOOLS_H_
