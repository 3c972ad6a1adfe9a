// file_io.h on Windows: CreateFileW (UTF-8 paths through WidePath, so
// neither the code page nor MAX_PATH limits them) wrapped into C library descriptors, which read() and write()
// then use as on POSIX. Files are shared for reading, writing and deleting,
// so that a log can be renamed over while another ninja reads it.
#include "base/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <direct.h>
#include <io.h>

#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

namespace {

DWORD CreationDisposition(int flags) {
  if ((flags & O_CREAT) && (flags & O_EXCL)) return CREATE_NEW;
  if ((flags & O_CREAT) && (flags & O_TRUNC)) return CREATE_ALWAYS;
  if (flags & O_CREAT) return OPEN_ALWAYS;
  if (flags & O_TRUNC) return TRUNCATE_EXISTING;
  return OPEN_EXISTING;
}

HANDLE HandleOf(int fd) { return reinterpret_cast<HANDLE>(_get_osfhandle(fd)); }

}  // namespace

int OpenFile(const char* path, int flags, int /*mode*/) {
  DWORD access = 0;
  switch (flags & (O_RDONLY | O_WRONLY | O_RDWR)) {
    case O_WRONLY: access = GENERIC_WRITE; break;
    case O_RDWR: access = GENERIC_READ | GENERIC_WRITE; break;
    default: access = GENERIC_READ; break;
  }
  // Not inherited (no SECURITY_ATTRIBUTES): commands never see it.
  HANDLE handle = CreateFileW(WidePath(path).c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, CreationDisposition(flags), FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS,
                              nullptr);
  if (handle == INVALID_HANDLE_VALUE) return SetErrnoFromLastError(), -1;
  int fd = _open_osfhandle(reinterpret_cast<intptr_t>(handle), (flags & (O_RDONLY | O_WRONLY | O_RDWR | O_APPEND)) | O_BINARY);
  if (fd < 0) {
    CloseHandle(handle);
    errno = EMFILE;
  }
  return fd;
}

FILE* OpenStream(const char* path, const char* mode) {
  FILE* file = _wfopen(WidePath(path).c_str(), WideText(mode).c_str());
  if (file) SetHandleInformation(HandleOf(fileno(file)), HANDLE_FLAG_INHERIT, 0);
  return file;
}

int64_t ReadAt(int fd, char* data, size_t size, int64_t offset) {
  OVERLAPPED at = {};
  at.Offset = static_cast<DWORD>(offset);
  at.OffsetHigh = static_cast<DWORD>(static_cast<uint64_t>(offset) >> 32);
  DWORD chunk = size > (1u << 30) ? (1u << 30) : static_cast<DWORD>(size);
  DWORD done = 0;
  if (!ReadFile(HandleOf(fd), data, chunk, &done, &at)) {
    if (GetLastError() == ERROR_HANDLE_EOF) return 0;
    return SetErrnoFromLastError(), -1;
  }
  return done;
}

bool WriteAt(int fd, const char* data, size_t size, int64_t offset) {
  while (size > 0) {
    OVERLAPPED at = {};
    at.Offset = static_cast<DWORD>(offset);
    at.OffsetHigh = static_cast<DWORD>(static_cast<uint64_t>(offset) >> 32);
    DWORD chunk = size > (1u << 30) ? (1u << 30) : static_cast<DWORD>(size);
    DWORD done = 0;
    if (!WriteFile(HandleOf(fd), data, chunk, &done, &at)) return SetErrnoFromLastError();
    if (done == 0) {
      errno = EIO;
      return false;
    }
    data += done;
    size -= done;
    offset += done;
  }
  return true;
}

bool TruncateFile(int fd, int64_t size) {
  FILE_END_OF_FILE_INFO end;
  end.EndOfFile.QuadPart = size;
  if (!SetFileInformationByHandle(HandleOf(fd), FileEndOfFileInfo, &end, sizeof end))
    return SetErrnoFromLastError();
  return true;
}

bool TruncatePath(const char* path, int64_t size) {
  int fd = OpenFile(path, O_WRONLY);
  if (fd < 0) return false;
  bool ok = TruncateFile(fd, size);
  int saved = errno;
  close(fd);
  errno = saved;
  return ok;
}

// Windows refuses to replace a file another process has open, shared or
// not (ERROR_ACCESS_DENIED), where POSIX's rename never does: a second
// ninja reading the very cache entry or state file this one replaces holds
// it for a moment. So a refusal is tried again, for about half a second.
bool RenameReplacing(const char* from, const char* to) {
  std::wstring wide_from = WidePath(from), wide_to = WidePath(to);
  for (DWORD pause = 1;; pause *= 2) {
    if (MoveFileExW(wide_from.c_str(), wide_to.c_str(), MOVEFILE_REPLACE_EXISTING)) return true;
    DWORD error = GetLastError();
    if ((error != ERROR_ACCESS_DENIED && error != ERROR_SHARING_VIOLATION) || pause > 256)
      return SetErrnoFromLastError();
    Sleep(pause);
  }
}

bool SyncFile(int fd) {
  if (!FlushFileBuffers(HandleOf(fd))) return SetErrnoFromLastError();
  return true;
}

bool MakeDirectory(const char* path) {
  if (!CreateDirectoryW(WidePath(path).c_str(), nullptr)) return SetErrnoFromLastError();
  return true;
}

bool TouchDescriptor(int fd) {
  FILETIME now;
  GetSystemTimeAsFileTime(&now);
  if (!SetFileTime(HandleOf(fd), nullptr, nullptr, &now)) return SetErrnoFromLastError();
  return true;
}

const int64_t kFileTimeUnitsPerSecond = 10000000;  // 100 ns units

TimeStamp FileTimeNow() {
  FILETIME now;
  GetSystemTimeAsFileTime(&now);
  return TimeStampFromFileTime(now);
}

namespace {

bool StatHandle(HANDLE handle, FileStatus* status) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(handle, &info)) return SetErrnoFromLastError();
  bool directory = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
  DWORD type = GetFileType(handle);
  status->kind = directory                  ? FileStatus::Kind::kDirectory
                 : type == FILE_TYPE_DISK   ? FileStatus::Kind::kFile
                                            : FileStatus::Kind::kOther;
  status->executable = false;
  status->size = (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  status->mtime = TimeStampFromFileTime(info.ftLastWriteTime);
  status->device = info.dwVolumeSerialNumber;
  status->inode = (static_cast<uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
  status->links = info.nNumberOfLinks;
  return true;
}

bool StatOpening(const char* path, DWORD flags, FileStatus* status) {
  HANDLE handle = CreateFileW(WidePath(path).c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | flags, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return SetErrnoFromLastError();
  bool ok = StatHandle(handle, status);
  int saved = errno;
  CloseHandle(handle);
  errno = saved;
  return ok;
}

}  // namespace

bool StatPath(const char* path, FileStatus* status) { return StatOpening(path, 0, status); }

bool StatLink(const char* path, FileStatus* status) {
  return StatOpening(path, FILE_FLAG_OPEN_REPARSE_POINT, status);
}

bool StatDescriptor(int fd, FileStatus* status) {
  HANDLE handle = HandleOf(fd);
  if (handle == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return false;
  }
  return StatHandle(handle, status);
}

int64_t CopyFileRange(int, int, size_t) {
  errno = ENOSYS;
  return -1;
}

int64_t OpenFileLimit() { return _getmaxstdio(); }

bool IsDiskFull(int error) { return error == ENOSPC; }

bool MayExecute(const char* path) { return GetFileAttributesW(WidePath(path).c_str()) != INVALID_FILE_ATTRIBUTES; }

bool IsExecutableFile(const char* path) {
  DWORD attributes = GetFileAttributesW(WidePath(path).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
}

std::string RealPath(const char* path) {
  HANDLE handle = CreateFileW(WidePath(path).c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return std::string();
  DWORD size = GetFinalPathNameByHandleW(handle, nullptr, 0, FILE_NAME_NORMALIZED);
  std::wstring resolved(size, L'\0');
  size = size ? GetFinalPathNameByHandleW(handle, &resolved[0], size, FILE_NAME_NORMALIZED) : 0;
  CloseHandle(handle);
  if (size == 0 || size >= resolved.size()) return std::string();
  std::string result = Utf8Text(resolved.data(), size);
  // "\\?\C:\x" -> "C:\x" (a long one too: RealPath's callers compare and print it)
  if (result.compare(0, 4, "\\\\?\\") == 0) result.erase(0, 4);
  return result;
}

std::string ExecutablePath() {
  std::wstring path(32768, L'\0');  // the longest path Windows has
  DWORD size = GetModuleFileNameW(nullptr, &path[0], static_cast<DWORD>(path.size()));
  if (size == 0 || size >= path.size()) return std::string();
  return Utf8Text(path.data(), size);
}

}  // namespace ronin
