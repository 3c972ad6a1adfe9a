// Files by descriptor: what ronin needs beyond read(), write(), close()
// and unlink(), which the C libraries of both platforms have. Opening
// (never inherited by commands; binary on Windows), positioned reads and
// writes, truncation, a rename that replaces, and a file's status.
// POSIX in file_io_posix.cc, Windows in file_io_win.cc.
//
// Errors are reported as the C library does, through errno (a missing file
// is ENOENT on both), so callers word them with strerror.
#ifndef RONIN_BASE_FILE_IO_H_
#define RONIN_BASE_FILE_IO_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "base/util.h"

namespace ronin {

// open(path, flags, mode) with O_* flags from <fcntl.h> (O_RDONLY,
// O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_EXCL): the descriptor is
// not inherited by commands, and on Windows reads and writes bytes as they
// are (no newline translation). -1 with errno on failure.
int OpenFile(const char* path, int flags, int mode = 0666);
// fopen(path, mode) whose descriptor commands do not inherit (mode as
// fopen's, "b" included where bytes matter).
FILE* OpenStream(const char* path, const char* mode);

// pread / pwrite: `size` bytes at `offset`, the descriptor's position
// unchanged on POSIX (moved on Windows, where nothing relies on it). ReadAt
// returns the bytes read (fewer at end of file) or -1; WriteAt writes all
// or fails.
int64_t ReadAt(int fd, char* data, size_t size, int64_t offset);
bool WriteAt(int fd, const char* data, size_t size, int64_t offset);
// ftruncate / truncate.
bool TruncateFile(int fd, int64_t size);
bool TruncatePath(const char* path, int64_t size);
// rename(from, to), replacing `to` if it exists (on Windows too, where
// rename() refuses to).
bool RenameReplacing(const char* from, const char* to);
// The rest of the descriptor's data reaches the disk (fsync).
bool SyncFile(int fd);
// mkdir(path, 0777): false with errno (EEXIST if it exists).
bool MakeDirectory(const char* path);
// Sets the file's modification time to now (futimens(fd, nullptr)).
bool TouchDescriptor(int fd);

// What stat(2) tells of a file, in the units the build uses.
struct FileStatus {
  enum class Kind : uint8_t { kFile, kDirectory, kOther };
  Kind kind = Kind::kOther;
  bool executable = false;  // POSIX: the owner may execute it; Windows: always false
  uint64_t size = 0;
  // As DiskInterface::Stat reports it (nanoseconds since 1970 on POSIX;
  // Ninja's 100 ns units since 2001 on Windows), 0 for the epoch itself.
  TimeStamp mtime = 0;
  // Which file this is: (st_dev, st_ino); on Windows the volume's serial
  // number and the file index.
  uint64_t device = 0;
  uint64_t inode = 0;
  uint32_t links = 1;  // hard links to it (st_nlink; Windows: nNumberOfLinks)
  bool is_directory() const { return kind == Kind::kDirectory; }
  bool is_file() const { return kind == Kind::kFile; }
};
// The current time in FileStatus::mtime's units, and how many of them make
// a second.
TimeStamp FileTimeNow();
extern const int64_t kFileTimeUnitsPerSecond;

// stat(2), following symbolic links. False with errno (ENOENT or ENOTDIR
// for a missing file) on failure.
bool StatPath(const char* path, FileStatus* status);
// The same without following a final symbolic link (lstat).
bool StatLink(const char* path, FileStatus* status);
bool StatDescriptor(int fd, FileStatus* status);

// copy_file_range: up to `size` bytes from `from`'s position to `to`'s,
// in the kernel; bytes copied (0 at end of file) or -1 where it cannot
// (always on Windows), to copy through a buffer instead.
int64_t CopyFileRange(int from, int to, size_t size);
// The most descriptors this process may have open (RLIMIT_NOFILE's soft
// limit), or -1 if unknown.
int64_t OpenFileLimit();

// Whether errno value `error` says the disk (or the user's quota) is full.
bool IsDiskFull(int error);

// Whether this process may execute `path` (POSIX: access(X_OK), true for
// a searchable directory too; Windows: it exists).
bool MayExecute(const char* path);
// Whether `path` is a regular file this process may run.
bool IsExecutableFile(const char* path);
// The absolute path of `path` with symbolic links resolved (realpath), or
// "" if it cannot be resolved.
std::string RealPath(const char* path);

// The path of the running program, or "" if unknown.
std::string ExecutablePath();

}  // namespace ronin

#endif  // RONIN_BASE_FILE_IO_H_
