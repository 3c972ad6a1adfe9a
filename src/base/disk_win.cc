// RealDiskInterface on Windows, as ninja.exe behaves: GetFileAttributesEx
// for a file's time (in ninja.exe's units, win32.h), a per-directory cache
// filled by FindFirstFileEx while targets are scanned (both in
// base/directory_listing.h, which the prefetcher shares), reading with
// Windows' error texts, and removal that clears a read-only attribute
// first and removes directories too. Every path goes to the wide API
// through WidePath: UTF-8 whatever the code page, and no MAX_PATH limit.
#include "base/disk.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <unordered_map>

#include "base/directory_listing.h"
#include "base/metrics.h"
#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

namespace {

bool IsMissing(DWORD error) { return error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND; }

}  // namespace

// Each directory listed the first time a file in it is asked for (base/directory_listing.h).
// The scan's own, used from its one thread.
class RealDiskInterface::StatCache {
 public:
  TimeStamp Stat(const std::string& path, std::string* err) {
    DirectoryListing::Place place = DirectoryListing::PlaceOf(path);
    auto found = directories_.find(place.dir_key);
    if (found == directories_.end()) {
      DirectoryListing listing;
      if (!listing.List(place.dir, err)) return -1;
      found = directories_.emplace(std::move(place.dir_key), std::move(listing)).first;
    }
    return found->second.Find(place.name_key);
  }

 private:
  std::unordered_map<std::string, DirectoryListing> directories_;
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
  return FileAttributesTime(path, err);
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
