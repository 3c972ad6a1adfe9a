// The system calls that name paths, as the access monitor traps them on
// Linux (access_monitor_linux.cc): which argument holds each path, the
// directory it is relative to, and what the call does to the file. One
// table serves both the seccomp filter (which calls to trap) and the
// decoding of a trapped call.
//
// Not trapped: readlink and readlinkat (70-78 % of a compiler's path calls,
// and a link's target says nothing about a file's content), calls on file
// descriptors (fstat is newfstatat or statx with AT_EMPTY_PATH, futimens is
// utimensat with no path: the filter lets those through), chdir, and calls
// of a foreign ABI (32-bit programs on a 64-bit kernel, x32), which run
// unwatched. io_uring_setup fails with ENOSYS under the monitor: an
// io_uring open would not pass through the filter, and programs fall back
// to plain system calls.
#ifndef RONIN_AUDIT_PATH_SYSCALLS_LINUX_H_
#define RONIN_AUDIT_PATH_SYSCALLS_LINUX_H_
#ifdef __linux__

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cstdint>
#include <vector>

#include "log/file_accesses.h"

namespace ronin {

// One path a trapped call names. `dirfd` is the directory file descriptor
// a relative path starts from (AT_FDCWD for the working directory);
// `address` is where the NUL-terminated path lies in the caller's memory
// (0: none, e.g. execveat with AT_EMPTY_PATH names the file by `dirfd`).
struct TrappedPath {
  int dirfd;
  uint64_t address;
  FileAccess access;
};

// What a trapped call names: up to two paths (rename, link). `open_how`,
// when non-zero, is the address of openat2's struct open_how, whose flags
// (its first 8 bytes) say whether the open reads or writes; the decoder
// cannot read them, so the first path's access is kRead until the caller
// has read them and called AccessOfOpenFlags.
struct TrappedCall {
  int count = 0;
  TrappedPath paths[2];
  uint64_t open_how = 0;
};

// Decodes a call the filter trapped; false for a call it does not trap.
bool DecodeTrappedCall(const seccomp_data& data, TrappedCall* call);

// kWrite for flags that create, truncate or open for writing; else kRead.
FileAccess AccessOfOpenFlags(uint64_t flags);

// The seccomp filter: traps the path calls of the native ABI, fails
// io_uring_setup with ENOSYS, lets everything else through. Empty on an
// architecture this build does not know (the monitor then refuses to start).
std::vector<sock_filter> PathCallFilter();

}  // namespace ronin

#endif  // __linux__
#endif  // RONIN_AUDIT_PATH_SYSCALLS_LINUX_H_
