// file_io.h on Windows: CreateFileA (UTF-8 paths under ninja.exe's
// manifest) wrapped into C library descriptors, which read() and write()
// then use as on POSIX. Files are shared for reading, writing and deleting,
// so that a log can be renamed over while another ninja reads it.
#include "base/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <direct.h>
#include <io.h>

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
  HANDLE handle = CreateFileA(path, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                              CreationDisposition(flags), FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return SetErrnoFromLastError(), -1;
  int fd = _open_osfhandle(reinterpret_cast<intptr_t>(handle), (flags & (O_RDONLY | O_WRONLY | O_RDWR | O_APPEND)) | O_BINARY);
  if (fd < 0) {
    CloseHandle(handle);
    errno = EMFILE;
  }
  return fd;
}

FILE* OpenStream(const char* path, const char* mode) {
  FILE* file = fopen(path, mode);
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

bool RenameReplacing(const char* from, const char* to) {
  if (!MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING)) return SetErrnoFromLastError();
  return true;
}

bool SyncFile(int fd) {
  if (!FlushFileBuffers(HandleOf(fd))) return SetErrnoFromLastError();
  return true;
}

bool MakeDirectory(const char* path) { return _mkdir(path) == 0; }

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
  HANDLE handle = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                              OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | flags, nullptr);
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

bool MayExecute(const char* path) { return GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES; }

bool IsExecutableFile(const char* path) {
  DWORD attributes = GetFileAttributesA(path);
  return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
}

std::string RealPath(const char* path) {
  HANDLE handle = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                              FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return std::string();
  char resolved[MAX_PATH * 4];
  DWORD size = GetFinalPathNameByHandleA(handle, resolved, sizeof resolved, FILE_NAME_NORMALIZED);
  CloseHandle(handle);
  if (size == 0 || size >= sizeof resolved) return std::string();
  std::string result(resolved, size);
  // "\\?\C:\x" -> "C:\x"
  if (result.compare(0, 4, "\\\\?\\") == 0) result.erase(0, 4);
  return result;
}

std::string ExecutablePath() {
  char path[MAX_PATH * 4];
  DWORD size = GetModuleFileNameA(nullptr, path, sizeof path);
  if (size == 0 || size >= sizeof path) return std::string();
  return std::string(path, size);
}

}  // namespace ronin
