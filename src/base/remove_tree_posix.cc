// remove_tree.h on POSIX: directories opened without following links,
// listed with readdir, entries removed with unlinkat.
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

}  // namespace

bool RemoveFilesIn(const std::string& dir, uint64_t device, std::vector<std::string>* subdirs, std::string* err) {
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
      if (static_cast<uint64_t>(st.st_dev) != device) {
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

bool IsRealDirectory(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool TreeRoot(const std::string& path, uint64_t* device, std::string* err) {
  struct stat root;
  if (lstat(path.c_str(), &root) != 0) {
    *err = RemoveError(path, errno);
    return false;
  }
  *device = static_cast<uint64_t>(root.st_dev);
  return true;
}

bool RemoveEmptyDirectory(const std::string& dir, std::string* err) {
  if (rmdir(dir.c_str()) == 0) return true;
  *err = RemoveError(dir, errno);
  return false;
}

}  // namespace ronin
