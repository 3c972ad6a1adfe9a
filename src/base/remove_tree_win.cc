// remove_tree.h on Windows: FindFirstFileEx listings. A directory link (a
// symbolic link or junction: a reparse point) is removed as a link, never
// entered; read-only files lose that attribute first, as RemoveFile does.
// Paths go to the wide API through WidePath (UTF-8, no MAX_PATH limit).
#include "base/remove_tree.h"

#include <string.h>

#include <vector>

#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

namespace {

std::string RemoveError(const std::string& path) { return "remove(" + path + "): " + LastErrorText(); }

bool IsDirectoryItself(DWORD attributes) {
  return (attributes & FILE_ATTRIBUTE_DIRECTORY) && !(attributes & FILE_ATTRIBUTE_REPARSE_POINT);
}

DWORD AttributesOf(const std::string& path) { return GetFileAttributesW(WidePath(path).c_str()); }

bool RemoveEntry(const std::string& path, DWORD attributes) {
  std::wstring wide = WidePath(path);
  if (attributes & FILE_ATTRIBUTE_READONLY) SetFileAttributesW(wide.c_str(), attributes & ~FILE_ATTRIBUTE_READONLY);
  return (attributes & FILE_ATTRIBUTE_DIRECTORY) ? RemoveDirectoryW(wide.c_str()) : DeleteFileW(wide.c_str());
}

}  // namespace

bool RemoveFilesIn(const std::string& dir, uint64_t, std::vector<std::string>* subdirs, std::string* err) {
  WIN32_FIND_DATAW found;
  HANDLE search =
      FindFirstFileExW(WidePath(dir + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr, 0);
  if (search == INVALID_HANDLE_VALUE) {
    *err = RemoveError(dir);
    return false;
  }
  bool ok = true;
  do {
    if (wcscmp(found.cFileName, L".") == 0 || wcscmp(found.cFileName, L"..") == 0) continue;
    std::string path = dir + "/" + Utf8Text(found.cFileName, wcslen(found.cFileName));
    if (IsDirectoryItself(found.dwFileAttributes)) {
      subdirs->push_back(path);
    } else if (!RemoveEntry(path, found.dwFileAttributes) && GetLastError() != ERROR_FILE_NOT_FOUND) {
      *err = RemoveError(path);
      ok = false;
      break;
    }
  } while (FindNextFileW(search, &found));
  FindClose(search);
  return ok;
}

bool IsRealDirectory(const std::string& path) {
  DWORD attributes = AttributesOf(path);
  return attributes != INVALID_FILE_ATTRIBUTES && IsDirectoryItself(attributes);
}

bool TreeRoot(const std::string& path, uint64_t* device, std::string* err) {
  *device = 0;  // (a mount point inside is a reparse point, never entered)
  if (AttributesOf(path) != INVALID_FILE_ATTRIBUTES) return true;
  *err = RemoveError(path);
  return false;
}

bool RemoveEmptyDirectory(const std::string& dir, std::string* err) {
  if (RemoveEntry(dir, AttributesOf(dir))) return true;
  *err = RemoveError(dir);
  return false;
}

}  // namespace ronin
