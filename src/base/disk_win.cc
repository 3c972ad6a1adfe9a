// RealDiskInterface on Windows, as ninja.exe behaves: GetFileAttributesEx
// for a file's time (in ninja.exe's units, win32.h), a per-directory cache
// filled by FindFirstFileEx while targets are scanned, reading with
// Windows' error texts, and removal that clears a read-only attribute
// first and removes directories too.
#include "base/disk.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <unordered_map>

#include "base/metrics.h"
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

// Whether the system accepts paths longer than MAX_PATH from this process
// (the manifest asks for it; the system setting must allow it too).
bool LongPathsEnabled() {
  static const bool enabled = [] {
    HMODULE ntdll = GetModuleHandleW(L"ntdll");
    if (!ntdll) return false;
    using Query = BOOLEAN(WINAPI*)();
    auto query = reinterpret_cast<Query>(reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlAreLongPathsEnabled")));
    return query && query() != 0;
  }();
  return enabled;
}

TimeStamp StatOneFile(const std::string& path, std::string* err) {
  WIN32_FILE_ATTRIBUTE_DATA attributes;
  if (!GetFileAttributesExA(path.c_str(), GetFileExInfoStandard, &attributes)) {
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
    WIN32_FIND_DATAA found;
    // FindExInfoBasic: no short (8.3) names, which are not needed here.
    HANDLE search = FindFirstFileExA((dir + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch,
                                     nullptr, 0);
    if (search == INVALID_HANDLE_VALUE) {
      DWORD error = GetLastError();
      if (IsMissing(error) || error == ERROR_DIRECTORY) return true;  // nothing in it exists
      *err = "FindFirstFileExA(" + dir + "): " + ErrorText(error);
      return false;
    }
    do {
      if (strcmp(found.cFileName, "..") == 0) continue;
      entries->emplace(Lowercase(found.cFileName), TimeStampFromFileTime(found.ftLastWriteTime));
    } while (FindNextFileA(search, &found));
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
  // Without long path support, a path past MAX_PATH fails as in ninja.exe
  // (a path starting with '\' may be \\?\-prefixed, which has no limit).
  if (!path.empty() && path[0] != '\\' && path.size() > MAX_PATH && !LongPathsEnabled()) {
    *err = "Stat(" + path + "): Filename longer than " + std::to_string(MAX_PATH) + " characters";
    return -1;
  }
  if (stat_cache_) return stat_cache_->Stat(path, err);
  return StatOneFile(path, err);
}

FileReader::Status RealDiskInterface::ReadFile(const std::string& path, std::string* contents,
                                               std::string* err) {
  contents->clear();
  HANDLE file = CreateFileA(path.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
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
  DWORD attributes = GetFileAttributesA(path.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) {
    if (IsMissing(GetLastError())) return 1;
  } else if (attributes & FILE_ATTRIBUTE_READONLY) {
    // remove() deletes a read-only file on POSIX; so does ninja.exe. A
    // failure here shows in the removal's own error.
    SetFileAttributesA(path.c_str(), attributes & ~FILE_ATTRIBUTE_READONLY);
  }
  // (Attributes unknown: all bits set, so the directory branch, as ninja.exe.)
  bool removed = (attributes & FILE_ATTRIBUTE_DIRECTORY) ? RemoveDirectoryA(path.c_str()) : DeleteFileA(path.c_str());
  if (removed) return 0;
  DWORD error = GetLastError();
  if (IsMissing(error)) return 1;
  Error("remove(%s): %s", path.c_str(), ErrorText(error).c_str());
  return -1;
}

bool RealDiskInterface::SetMtime(const std::string& path, TimeStamp mtime, std::string* err) {
  HANDLE file = CreateFileA(path.c_str(), FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                            nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  FILETIME time = FileTimeFromTimeStamp(mtime);
  bool set = file != INVALID_HANDLE_VALUE && SetFileTime(file, nullptr, nullptr, &time);  // the access time stays
  if (!set) *err = "SetFileTime(" + path + "): " + LastErrorText();
  if (file != INVALID_HANDLE_VALUE) CloseHandle(file);
  return set;
}

}  // namespace ronin
