// file_watcher.h on Windows: no watcher yet. ReadDirectoryChangesW (one
// overlapped read per watched directory, or per tree) is the way there;
// until then --watch is refused before anything is built, rather than
// taken and never woken.
#include "watch/file_watcher.h"

namespace ronin {

bool FileWatcher::Available(std::string* err) {
  *err = "watching files for changes is not implemented on Windows yet (ReadDirectoryChangesW is the way there); "
         "run ninja again after each change";
  return false;
}

std::unique_ptr<FileWatcher> FileWatcher::Create(int64_t, std::string* err) {
  Available(err);
  return nullptr;
}

}  // namespace ronin
