// remove_tree.h's walk, the same on both platforms.
#include "base/remove_tree.h"

namespace ronin {

bool EmptyDirectory(const std::string& path, std::string* err) {
  uint64_t device;
  if (!TreeRoot(path, &device, err)) return false;
  // Depth first without recursion: a directory is listed, its files go, its
  // subdirectories are emptied and removed, then it is left empty.
  struct Pending {
    std::string dir;
    bool listed;
  };
  std::vector<Pending> stack{{path, false}};
  std::vector<std::string> subdirs;
  while (!stack.empty()) {
    if (stack.back().listed) {
      std::string dir = stack.back().dir;
      stack.pop_back();
      if (!stack.empty() && !RemoveEmptyDirectory(dir, err)) return false;
      continue;
    }
    stack.back().listed = true;
    subdirs.clear();
    if (!RemoveFilesIn(stack.back().dir, device, &subdirs, err)) return false;
    for (std::string& subdir : subdirs) stack.push_back({std::move(subdir), false});
  }
  return true;
}

}  // namespace ronin
