#include "base/disk.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <vector>

#include "base/file_io.h"

namespace ronin {

bool ReadFileIfExists(FileReader* reader, const std::string& path, std::string* contents, std::string* err) {
  switch (reader->ReadFile(path, contents, err)) {
    case FileReader::Status::kOkay:
      return true;
    case FileReader::Status::kNotFound:
      err->clear();
      contents->clear();
      return true;
    case FileReader::Status::kOtherError:
      break;
  }
  return false;
}

bool DiskInterface::MakeDirs(std::string_view path) {
  // Walk up to the first existing ancestor, then create downwards.
  std::vector<std::string> missing;
  std::string dir(DirName(path));
  while (!dir.empty()) {
    std::string err;
    TimeStamp mtime = Stat(dir, &err);
    if (mtime < 0) {
      Error("%s", err.c_str());
      return false;
    }
    if (mtime > 0) break;
    missing.push_back(dir);
    dir = std::string(DirName(dir));
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!MakeDir(*it)) return false;
  }
  return true;
}

// Both platforms (POSIX's mkdir and Windows' _mkdir give the errno texts
// Ninja prints on each).
bool RealDiskInterface::MakeDir(const std::string& path) {
  if (!MakeDirectory(path.c_str()) && errno != EEXIST) {
    Error("mkdir(%s): %s", path.c_str(), strerror(errno));
    return false;
  }
  return true;
}

bool RealDiskInterface::WriteFile(const std::string& path, std::string_view contents) {
  int fd = OpenFile(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    Error("WriteFile(%s): Unable to create file. %s", path.c_str(), strerror(errno));
    return false;
  }
  if (!WriteFully(fd, contents.data(), contents.size())) {
    Error("WriteFile(%s): Unable to write to the file. %s", path.c_str(), strerror(errno));
    close(fd);
    return false;
  }
  if (close(fd) < 0) {
    Error("WriteFile(%s): Unable to close the file. %s", path.c_str(), strerror(errno));
    return false;
  }
  return true;
}

}  // namespace ronin
