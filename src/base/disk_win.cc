// RealDiskInterface on Windows, as ninja.exe behaves: GetFileAttributesEx
// for a file's time (in ninja.exe's units, win32.h), a per-directory cache
// filled by FindFirstFileEx while targets are scanned, reading with
// Windows' error texts, and removal that clears a read-only attribute
// first and removes directories too. Every path goes to the wide API
// through WidePath: UTF-8 whatever the code page, and no MAX_PATH limit.
#include "base/disk.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <unordered_map>

#include "base/metrics.h"
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

TimeStamp StatOneFile(const std::string& path, std::string* err) {
  WIN32_FILE_ATTRIBUTE_DATA attributes;
  if (!GetFileAttributesExW(WidePath(path).c_str(), GetFileExInfoStandard, &attributes)) {
    DWORD error = GetLastError();
    if (IsMissing(error)) return 0;
    *err = "GetFileAttributesEx(" + path + "): " + ErrorText(error);
    return -1;
  }
  return TimeStampFromFileTime(attributes.ftLastWriteTime);
}

}  // namespace

// Each directory's entries by lowercase name (Windows' names ignore case),
// listed the first time a file in it is asked for.
class RealDiskInterface::StatCache {
 public:
  TimeStamp Stat(const std::string& path, std::string* err) {
    std::string dir = DirectoryOf(path);
    std::string name = path.substr(dir.empty() ? 0 : dir.size() + 1);
    if (name == "..") {
      // A listing's ".." entry has "."'s time: ask the directory itself.
      name = ".";
      dir = path;
    }
    std::string key = Lowercase(dir);
    auto found = directories_.find(key);
    if (found == directories_.end()) {
      Entries entries;
      if (!List(dir.empty() ? "." : dir, &entries, err)) return -1;
      found = directories_.emplace(std::move(key), std::move(entries)).first;
    }
    auto entry = found->second.find(Lowercase(name));
    return entry == found->second.end() ? 0 : entry->second;
  }

 private:
  using Entries = std::unordered_map<std::string, TimeStamp>;

  static bool List(const std::string& dir, Entries* entries, std::string* err) {
    WIN32_FIND_DATAW found;
    // FindExInfoBasic: no short (8.3) names, which are not needed here.
    HANDLE search = FindFirstFileExW(WidePath(dir + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch,
                                     nullptr, 0);
    if (search == INVALID_HANDLE_VALUE) {
      DWORD error = GetLastError();
      if (IsMissing(error) || error == ERROR_DIRECTORY) return true;  // nothing in it exists
      // (ninja.exe's words, which name the A function)
      *err = "FindFirstFileExA(" + dir + "): " + ErrorText(error);
      return false;
    }
    do {
      if (wcscmp(found.cFileName, L"..") == 0) continue;
      entries->emplace(Lowercase(Utf8Text(found.cFileName, wcslen(found.cFileName))),
                       TimeStampFromFileTime(found.ftLastWriteTime));
    } while (FindNextFileW(search, &found));
    FindClose(search);
    return true;
  }

  std::unordered_map<std::string, Entries> directories_;
};

RealDiskInterface::RealDiskInterface() = default;
RealDiskInterface::~RealDiskInterface() = default;

bool RealDiskInterface::HasStatCache() { return true; }

void RealDiskInterface::AllowStatCache(bool allow) {
  if (!allow)
    stat_cache_.reset();
  else if (!stat_cache_)
    stat_cache_.reset(new StatCache);
}

TimeStamp RealDiskInterface::Stat(const std::string& path, std::string* err) const {
  METRIC_RECORD("node stat");
  // No MAX_PATH check: ninja.exe 1.13.2 fails a longer path here unless
  // the system enables long paths; WidePath lifts the limit instead.
  if (stat_cache_) return stat_cache_->Stat(path, err);
  return StatOneFile(path, err);
}

FileReader::Status RealDiskInterface::ReadFile(const std::string& path, std::string* contents,
                                               std::string* err) {
  contents->clear();
  HANDLE file = CreateFileW(WidePath(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                            FILE_FLAG_SEQUENTIAL_SCAN, nullptr);
  if (file == INVALID_HANDLE_VALUE) {
    // Whatever the reason (a directory too), ninja.exe takes a file it
    // cannot open as missing, with Windows' words for why.
    *err = LastErrorText();
    return Status::kNotFound;
  }
  LARGE_INTEGER size;
  if (GetFileSizeEx(file, &size) && size.QuadPart > 0) contents->reserve(static_cast<size_t>(size.QuadPart) + 1);
  char buffer[64 << 10];
  for (;;) {
    DWORD got = 0;
    if (!::ReadFile(file, buffer, sizeof buffer, &got, nullptr)) {
      *err = LastErrorText();
      contents->clear();
      CloseHandle(file);
      return Status::kOtherError;
    }
    if (got == 0) break;
    contents->append(buffer, got);
  }
  CloseHandle(file);
  return Status::kOkay;
}

int RealDiskInterface::RemoveFile(const std::string& path) {
  std::wstring wide = WidePath(path);
  DWORD attributes = GetFileAttributesW(wide.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) {
    if (IsMissing(GetLastError())) return 1;
  } else if (attributes & FILE_ATTRIBUTE_READONLY) {
    // remove() deletes a read-only file on POSIX; so does ninja.exe. A
    // failure here shows in the removal's own error.
    SetFileAttributesW(wide.c_str(), attributes & ~FILE_ATTRIBUTE_READONLY);
  }
  // (Attributes unknown: all bits set, so the directory branch, as ninja.exe.)
  bool removed = (attributes & FILE_ATTRIBUTE_DIRECTORY) ? RemoveDirectoryW(wide.c_str()) : DeleteFileW(wide.c_str());
  if (removed) return 0;
  DWORD error = GetLastError();
  if (IsMissing(error)) return 1;
  Error("remove(%s): %s", path.c_str(), ErrorText(error).c_str());
  return -1;
}

bool RealDiskInterface::SetMtime(const std::string& path, TimeStamp mtime, std::string* err) {
  HANDLE file = CreateFileW(WidePath(path).c_str(), FILE_WRITE_ATTRIBUTES,
                            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                            FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  FILETIME time = FileTimeFromTimeStamp(mtime);
  bool set = file != INVALID_HANDLE_VALUE && SetFileTime(file, nullptr, nullptr, &time);  // the access time stays
  if (!set) *err = "SetFileTime(" + path + "): " + LastErrorText();
  if (file != INVALID_HANDLE_VALUE) CloseHandle(file);
  return set;
}

}  // namespace ronin
