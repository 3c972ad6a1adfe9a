// base/directory_listing.h: GetFileAttributesExW and FindFirstFileExW, every
// path through WidePath (UTF-8 whatever the code page, no MAX_PATH limit).
#include "base/directory_listing.h"

#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

namespace {

bool IsMissing(DWORD error) { return error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND; }

std::string Lowercase(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

// The part of `path` before its last separator ('/' or '\'), without the
// run of separators there.
std::string DirectoryOf(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  if (slash == std::string::npos) return std::string();
  while (slash > 0 && (path[slash - 1] == '/' || path[slash - 1] == '\\')) --slash;
  return path.substr(0, slash);
}

}  // namespace

TimeStamp FileAttributesTime(const std::string& path, std::string* err) {
  WIN32_FILE_ATTRIBUTE_DATA attributes;
  if (!GetFileAttributesExW(WidePath(path).c_str(), GetFileExInfoStandard, &attributes)) {
    DWORD error = GetLastError();
    if (IsMissing(error)) return 0;
    *err = "GetFileAttributesEx(" + path + "): " + ErrorText(error);
    return -1;
  }
  return TimeStampFromFileTime(attributes.ftLastWriteTime);
}

DirectoryListing::Place DirectoryListing::PlaceOf(const std::string& path) {
  Place place;
  place.dir = DirectoryOf(path);
  std::string name = path.substr(place.dir.empty() ? 0 : place.dir.size() + 1);
  if (name == "..") {
    // A listing's ".." entry has "."'s time: ask the directory itself.
    name = ".";
    place.dir = path;
  }
  place.dir_key = Lowercase(place.dir);
  place.name_key = Lowercase(std::move(name));
  return place;
}

bool DirectoryListing::List(const std::string& dir, std::string* err) {
  std::string listed = dir.empty() ? "." : dir;
  WIN32_FIND_DATAW found;
  // FindExInfoBasic: no short (8.3) names, which are not needed here.
  HANDLE search = FindFirstFileExW(WidePath(listed + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch,
                                   nullptr, 0);
  if (search == INVALID_HANDLE_VALUE) {
    DWORD error = GetLastError();
    if (IsMissing(error) || error == ERROR_DIRECTORY) return true;  // nothing in it exists
    // (ninja.exe's words, which name the A function)
    *err = "FindFirstFileExA(" + listed + "): " + ErrorText(error);
    return false;
  }
  do {
    if (wcscmp(found.cFileName, L"..") == 0) continue;
    entries_.emplace(Lowercase(Utf8Text(found.cFileName, wcslen(found.cFileName))),
                     TimeStampFromFileTime(found.ftLastWriteTime));
  } while (FindNextFileW(search, &found));
  FindClose(search);
  return true;
}

}  // namespace ronin
