#include "base/win32.h"

#include <errno.h>
#include <stdio.h>
#include <tlhelp32.h>

#include <utility>

namespace ronin {

std::string ErrorText(DWORD error) {
  char* text = nullptr;
  FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                 nullptr, error, MAKELANGID(LANG_ENGLISH, SUBLANG_DEFAULT), reinterpret_cast<char*>(&text), 0,
                 nullptr);
  if (!text) {
    char fallback[64];
    snprintf(fallback, sizeof fallback, "GetLastError() = %lu", static_cast<unsigned long>(error));
    return fallback;
  }
  std::string result = text;
  LocalFree(text);
  return result;
}

std::string LastErrorText() { return ErrorText(GetLastError()); }

int ErrnoFromWindowsError(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_PATHNAME:
    case ERROR_INVALID_DRIVE:
      return ENOENT;
    case ERROR_DIRECTORY:
      return ENOTDIR;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
      return EACCES;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return EEXIST;
    case ERROR_DIR_NOT_EMPTY:
      return ENOTEMPTY;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
      return ENOMEM;
    case ERROR_TOO_MANY_OPEN_FILES:
      return EMFILE;
    case ERROR_INVALID_HANDLE:
      return EBADF;
    case ERROR_BROKEN_PIPE:
      return EPIPE;
    case ERROR_FILENAME_EXCED_RANGE:
      return ENAMETOOLONG;
    default:
      return EIO;
  }
}

bool SetErrnoFromLastError() {
  errno = ErrnoFromWindowsError(GetLastError());
  return false;
}

std::map<DWORD, DWORD> ParentProcessIds() {
  std::map<DWORD, DWORD> parents;
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snapshot == INVALID_HANDLE_VALUE) return parents;
  PROCESSENTRY32 entry;
  entry.dwSize = sizeof entry;
  for (bool more = Process32First(snapshot, &entry); more; more = Process32Next(snapshot, &entry))
    parents[entry.th32ProcessID] = entry.th32ParentProcessID;
  CloseHandle(snapshot);
  return parents;
}

namespace {
// 400 years of 100 ns ticks (1601 -> 2001): what Ninja subtracts, so that
// ninja.exe's .ninja_log and ours agree.
const int64_t kFourHundredYears = 12622770400LL * (1000000000LL / 100);
}  // namespace

TimeStamp TimeStampFromFileTime(const FILETIME& time) {
  uint64_t ticks = (static_cast<uint64_t>(time.dwHighDateTime) << 32) | time.dwLowDateTime;
  return static_cast<TimeStamp>(ticks) - kFourHundredYears;
}

FILETIME FileTimeFromTimeStamp(TimeStamp time) {
  uint64_t ticks = static_cast<uint64_t>(time + kFourHundredYears);
  FILETIME result;
  result.dwLowDateTime = static_cast<DWORD>(ticks);
  result.dwHighDateTime = static_cast<DWORD>(ticks >> 32);
  return result;
}

InheritOnly::InheritOnly(std::vector<HANDLE> handles) : handles_(std::move(handles)) {}

InheritOnly::~InheritOnly() {
  if (initialized_) DeleteProcThreadAttributeList(reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attributes_.data()));
}

DWORD InheritOnly::Attach(STARTUPINFOEXW* startup) {
  startup->StartupInfo.cb = sizeof *startup;
  SIZE_T size = 0;
  InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
  if (!size || initialized_) return 0;
  attributes_.resize(size);
  auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attributes_.data());
  if (!InitializeProcThreadAttributeList(list, 1, 0, &size)) return 0;
  initialized_ = true;
  if (!UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles_.data(),
                                 handles_.size() * sizeof(HANDLE), nullptr, nullptr))
    return 0;
  startup->lpAttributeList = list;
  return EXTENDED_STARTUPINFO_PRESENT;
}

}  // namespace ronin
