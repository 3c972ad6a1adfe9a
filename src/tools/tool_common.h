// Pieces shared by the subtools (tools/tools.cc and tools/tool_*.cc): the entry points
// the registry points at, Ninja-style option parsing, and graph helpers
// several tools need.
#ifndef RONIN_TOOLS_TOOL_COMMON_H_
#define RONIN_TOOLS_TOOL_COMMON_H_


#include <string>

#include "base/getopt.h"

namespace ronin {

class NinjaMain;
class BuildHistory;
class EventHistory;
class StateFile;
class State;
struct Node;
struct Options;

// Every tool has this shape; argv[0] is the first argument after the tool name.
using ToolFunc = int(NinjaMain* ninja, const Options* options, int argc, char** argv);

ToolFunc ToolAudit;
ToolFunc ToolBrowse;
ToolFunc ToolClean;
ToolFunc ToolCleanDead;
ToolFunc ToolCommands;
ToolFunc ToolCompdb;
ToolFunc ToolCompdbTargets;
ToolFunc ToolDeps;
ToolFunc ToolGraph;
ToolFunc ToolInputs;
ToolFunc ToolMissingDeps;
ToolFunc ToolMsvc;
ToolFunc ToolMultiInputs;
ToolFunc ToolQuery;
ToolFunc ToolRecompact;
ToolFunc ToolReport;
ToolFunc ToolRestat;
ToolFunc ToolRules;
ToolFunc ToolTargets;
ToolFunc ToolTrace;
ToolFunc ToolUrtle;
ToolFunc ToolWinCodePage;

// Option parsing as Ninja's tools do it: getopt runs over the tool's
// arguments with the slot before them (the tool name as typed, "clean" or
// "-tclean") as the program name, so getopt's own complaints read
// "clean: invalid option -- 'x'" (on Windows "clean: invalid option --
// `-x'", base/getopt.h). Options may follow operands; the operands are
// available afterwards.
class ToolArgs {
 public:
  ToolArgs(int argc, char** argv) : argc_(argc + 1), argv_(argv - 1) {
    optind = 0;  // a full re-initialisation after the top-level parse
  }
  // The next option character, '?' for a bad one, -1 at the end.
  int Next(const char* optstring, const option* long_options = nullptr) {
    return GetoptLong(argc_, argv_, optstring, long_options);
  }
  int rest_count() const { return argc_ - optind; }
  char** rest() const { return argv_ + optind; }

 private:
  int argc_;
  char** argv_;
};

// Loads `node`'s dyndep file as the query/graph tools do: a failure is only
// a warning (with Ninja's stray extra newline), and the graph stays as far
// as the loader got.
void LoadDyndepsOrWarn(NinjaMain* ninja, Node* node);

// Loads every pending dyndep file, ignoring errors (clean, cleandead: clean
// as much as is known).
void LoadAllDyndepsQuietly(NinjaMain* ninja);

// Writes bytes to stdout as they are (paths may contain anything but NUL).
void PrintRaw(const std::string& text);

// Reads every line of the build log (-t trace, -t report), and ronin's own
// record of those runs (edge_outcome.h) into *state_file, as far as it is
// whole (only detail depends on it: a damaged file is read without a word
// and left for the next build to mend). The lines that settled skips
// (skip_settlement.h) are left out: they ran nothing. False after an error
// worded as the other tools word a log they cannot load.
bool LoadBuildHistory(NinjaMain* ninja, StateFile* state_file, BuildHistory* history);
// Reads an event stream (-e FILE) for the same tools; false after an
// error message.
bool LoadEventHistory(NinjaMain* ninja, const std::string& path, EventHistory* events);

// Writes `text` to the file at `path`, or to stdout if `path` is empty.
// False after an error message.
bool WriteToolOutput(const std::string& path, const std::string& text);

}  // namespace ronin

#endif  // RONIN_TOOLS_TOOL_COMMON_H_
