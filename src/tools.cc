#include "tools.h"

#include <stdio.h>

#include <vector>

#include "ninja_main.h"
#include "util.h"

namespace ronin {

namespace {

int ToolRecompact(NinjaMain* ninja, const Options*, int, char**) {
  if (!ninja->EnsureBuildDirExists()) return 1;
  if (!ninja->OpenBuildLog(/*recompact_only=*/true) || !ninja->OpenDepsLog(/*recompact_only=*/true))
    return 1;
  return 0;
}

int ToolRestat(NinjaMain* ninja, const Options*, int argc, char** argv) {
  std::vector<std::string> outputs;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || (arg.size() > 1 && arg[0] == '-')) {
      printf("usage: ninja -t restat [outputs]\n");
      return 1;
    }
    outputs.push_back(arg);
  }
  if (!ninja->EnsureBuildDirExists()) return 1;
  std::string path = ninja->BuildLogPath();
  std::string err;
  BuildLog::LoadStatus status = ninja->build_log_.Load(path, &err);
  if (status == BuildLog::LoadStatus::kError) {
    Error("loading build log %s: %s", path.c_str(), err.c_str());
    return 1;
  }
  if (status == BuildLog::LoadStatus::kNotFound) return 0;  // nothing to restat
  if (!err.empty()) {
    Warning("%s", err.c_str());
    err.clear();
  }
  if (!ninja->build_log_.Restat(path, ninja->disk_, outputs, &err)) {
    Error("failed recompaction: %s", err.c_str());
    return 1;
  }
  return 0;
}

const Tool kTools[] = {
    {"recompact", "recompacts ninja-internal data structures", Tool::kRunAfterLoad, ToolRecompact},
    {"restat", "restats all outputs in the build log", Tool::kRunAfterFlags, ToolRestat},
};

}  // namespace

const Tool* ChooseTool(const std::string& name) {
  if (name == "list") {
    printf("ninja subtools:\n");
    for (const Tool& tool : kTools) {
      if (tool.description) printf("%11s  %s\n", tool.name, tool.description);
    }
    return nullptr;
  }
  std::vector<std::string_view> names;
  for (const Tool& tool : kTools) {
    if (name == tool.name) return &tool;
    names.push_back(tool.name);
  }
  std::string_view suggestion = SpellcheckString(name, names);
  if (!suggestion.empty())
    Fatal("unknown tool '%s', did you mean '%s'?", name.c_str(), std::string(suggestion).c_str());
  Fatal("unknown tool '%s'", name.c_str());
}

}  // namespace ronin
