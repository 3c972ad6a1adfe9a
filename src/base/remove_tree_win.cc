// remove_tree.h on Windows: FindFirstFileEx listings. A directory link (a
// symbolic link or junction: a reparse point) is removed as a link, never
// entered; read-only files lose that attribute first, as RemoveFile does.
#include "base/remove_tree.h"

#include <string.h>

#include <vector>

#include "base/win32.h"

namespace ronin {

namespace {

std::string RemoveError(const std::string& path) { return "remove(" + path + "): " + LastErrorText(); }

bool IsDirectoryItself(DWORD attributes) {
  return (attributes & FILE_ATTRIBUTE_DIRECTORY) && !(attributes & FILE_ATTRIBUTE_REPARSE_POINT);
}

bool RemoveEntry(const std::string& path, DWORD attributes) {
  if (attributes & FILE_ATTRIBUTE_READONLY) SetFileAttributesA(path.c_str(), attributes & ~FILE_ATTRIBUTE_READONLY);
  return (attributes & FILE_ATTRIBUTE_DIRECTORY) ? RemoveDirectoryA(path.c_str()) : DeleteFileA(path.c_str());
}

}  // namespace

bool RemoveFilesIn(const std::string& dir, uint64_t, std::vector<std::string>* subdirs, std::string* err) {
  WIN32_FIND_DATAA found;
  HANDLE search = FindFirstFileExA((dir + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr, 0);
  if (search == INVALID_HANDLE_VALUE) {
    *err = RemoveError(dir);
    return false;
  }
  bool ok = true;
  do {
    if (strcmp(found.cFileName, ".") == 0 || strcmp(found.cFileName, "..") == 0) continue;
    std::string path = dir + "/" + found.cFileName;
    if (IsDirectoryItself(found.dwFileAttributes)) {
      subdirs->push_back(path);
    } else if (!RemoveEntry(path, found.dwFileAttributes) && GetLastError() != ERROR_FILE_NOT_FOUND) {
      *err = RemoveError(path);
      ok = false;
      break;
    }
  } while (FindNextFileA(search, &found));
  FindClose(search);
  return ok;
}

bool IsRealDirectory(const std::string& path) {
  DWORD attributes = GetFileAttributesA(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && IsDirectoryItself(attributes);
}

bool TreeRoot(const std::string& path, uint64_t* device, std::string* err) {
  *device = 0;  // (a mount point inside is a reparse point, never entered)
  if (GetFileAttributesA(path.c_str()) != INVALID_FILE_ATTRIBUTES) return true;
  *err = RemoveError(path);
  return false;
}

bool RemoveEmptyDirectory(const std::string& dir, std::string* err) {
  if (RemoveEntry(dir, GetFileAttributesA(dir.c_str()))) return true;
  *err = RemoveError(dir);
  return false;
}

}  // namespace ronin
