// `-t browse` on Windows: ninja.exe has no browser tool (Ninja's is a
// Python script it runs, built only for POSIX), and says so in these words.
#include "tools/tool_common.h"

#include "base/util.h"

namespace ronin {

int ToolBrowse(NinjaMain*, const Options*, int, char**) { Fatal("browse tool not supported on this platform"); }

}  // namespace ronin
