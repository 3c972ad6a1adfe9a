// base/idle_memory.h on Windows: nothing is given back yet. Its one caller,
// --watch, is refused on Windows (watch/file_watcher_win.cc); the Windows
// way (_heapmin, then SetProcessWorkingSetSize(-1, -1)) comes with a
// watcher, when it can be measured on Windows itself (wine's working set
// is not Windows').
#include "base/idle_memory.h"

namespace ronin {

void ReleaseMemoryBeforeIdle() {}

}  // namespace ronin
