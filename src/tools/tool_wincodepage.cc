// `-t wincodepage` (ninja.exe only, tools.cc): the code page the manifest's
// bytes are read in, which CMake asks for before writing one.
#include <stdio.h>

#include "base/util.h"
#include "tools/tool_common.h"

namespace ronin {

int ToolWinCodePage(NinjaMain*, const Options*, int argc, char**) {
  if (argc != 0) {
    printf("usage: ninja -t wincodepage\n");
    return 1;
  }
  printf("Build file encoding: %s\n", ActiveCodePageIsUtf8() ? "UTF-8" : "ANSI");
  return 0;
}

}  // namespace ronin
