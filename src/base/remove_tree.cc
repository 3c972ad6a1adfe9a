#include "base/remove_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace ronin {

namespace {

std::string RemoveError(const std::string& path, int error) {
  return "remove(" + path + "): " + strerror(error);
}

// Removes the entries of `dir` that are not directories; appends the
// subdirectories (on `device`) to *subdirs. False with *err on a failure.
bool RemoveFilesIn(const std::string& dir, dev_t device, std::vector<std::string>* subdirs, std::string* err) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR* listing = fd < 0 ? nullptr : fdopendir(fd);
  if (!listing) {
    *err = RemoveError(dir, errno);
    if (fd >= 0) close(fd);
    return false;
  }
  bool ok = true;
  while (dirent* entry = readdir(listing)) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    std::string path = dir + "/" + entry->d_name;
    struct stat st;
    if (fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
      if (st.st_dev != device) {
        *err = RemoveError(path, EXDEV);  // a mount point: not ours to empty
        ok = false;
        break;
      }
      subdirs->push_back(path);
    } else if (unlinkat(fd, entry->d_name, 0) != 0 && errno != ENOENT) {
      *err = RemoveError(path, errno);
      ok = false;
      break;
    }
  }
  closedir(listing);
  return ok;
}

}  // namespace

bool IsRealDirectory(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool EmptyDirectory(const std::string& path, std::string* err) {
  struct stat root;
  if (lstat(path.c_str(), &root) != 0) {
    *err = RemoveError(path, errno);
    return false;
  }
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
      if (!stack.empty() && rmdir(dir.c_str()) != 0) {
        *err = RemoveError(dir, errno);
        return false;
      }
      continue;
    }
    stack.back().listed = true;
    subdirs.clear();
    if (!RemoveFilesIn(stack.back().dir, root.st_dev, &subdirs, err)) return false;
    for (std::string& subdir : subdirs) stack.push_back({std::move(subdir), false});
  }
  return true;
}

}  // namespace ronin
