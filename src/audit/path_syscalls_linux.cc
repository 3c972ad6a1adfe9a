#ifdef __linux__
#include "audit/path_syscalls_linux.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <stddef.h>
#include <sys/syscall.h>

namespace ronin {

namespace {

#if defined(__x86_64__)
const uint32_t kNativeArch = AUDIT_ARCH_X86_64;
const uint32_t kForeignAbiBit = 0x40000000;  // x32 system calls
#elif defined(__aarch64__)
const uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
const uint32_t kForeignAbiBit = 0;
#elif defined(__riscv) && __riscv_xlen == 64
const uint32_t kNativeArch = AUDIT_ARCH_RISCV64;
const uint32_t kForeignAbiBit = 0;
#else
const uint32_t kNativeArch = 0;  // unknown: no filter, no --audit
const uint32_t kForeignAbiBit = 0;
#endif

const int8_t kNone = -1;  // no such argument: a path relative to the working directory
// An access decided by the open flags (`flags_arg`) or by openat2's struct.
enum class How : uint8_t { kFixed, kOpenFlags, kOpenHow };

struct PathArgument {
  int8_t dirfd;  // argument holding the directory descriptor, or kNone
  int8_t path;   // argument holding the path's address, or kNone (no path)
  FileAccess access;
};

struct PathCall {
  long nr;
  How how;
  int8_t flags_arg;  // How::kOpenFlags: the flags; kOpenHow: the struct open_how
  PathArgument first;
  PathArgument second;
};

constexpr PathArgument kNoPath = {kNone, kNone, FileAccess::kRead};
constexpr PathArgument At(int dirfd, int path, FileAccess access) {
  return {static_cast<int8_t>(dirfd), static_cast<int8_t>(path), access};
}
constexpr PathArgument Cwd(int path, FileAccess access) { return {kNone, static_cast<int8_t>(path), access}; }
constexpr PathCall Fixed(long nr, PathArgument first, PathArgument second = kNoPath) {
  return {nr, How::kFixed, kNone, first, second};
}
constexpr PathCall Open(long nr, PathArgument path, int flags_arg, How how = How::kOpenFlags) {
  return {nr, how, static_cast<int8_t>(flags_arg), path, kNoPath};
}

const FileAccess kRead = FileAccess::kRead;
const FileAccess kProbe = FileAccess::kProbe;
const FileAccess kExecute = FileAccess::kExecute;
const FileAccess kWrite = FileAccess::kWrite;
const FileAccess kRemove = FileAccess::kRemove;

const PathCall kPathCalls[] = {
#ifdef SYS_open
    Open(SYS_open, Cwd(0, kRead), 1),
#endif
    Open(SYS_openat, At(0, 1, kRead), 2),
#ifdef SYS_openat2
    Open(SYS_openat2, At(0, 1, kRead), 2, How::kOpenHow),
#endif
#ifdef SYS_creat
    Fixed(SYS_creat, Cwd(0, kWrite)),
#endif
#ifdef SYS_stat
    Fixed(SYS_stat, Cwd(0, kProbe)),
#endif
#ifdef SYS_lstat
    Fixed(SYS_lstat, Cwd(0, kProbe)),
#endif
    Fixed(SYS_newfstatat, At(0, 1, kProbe)),
#ifdef SYS_statx
    Fixed(SYS_statx, At(0, 1, kProbe)),
#endif
#ifdef SYS_access
    Fixed(SYS_access, Cwd(0, kProbe)),
#endif
    Fixed(SYS_faccessat, At(0, 1, kProbe)),
#ifdef SYS_faccessat2
    Fixed(SYS_faccessat2, At(0, 1, kProbe)),
#endif
    Fixed(SYS_execve, Cwd(0, kExecute)),
    Fixed(SYS_execveat, At(0, 1, kExecute)),
#ifdef SYS_rename
    Fixed(SYS_rename, Cwd(0, kRemove), Cwd(1, kWrite)),
#endif
#ifdef SYS_renameat
    Fixed(SYS_renameat, At(0, 1, kRemove), At(2, 3, kWrite)),
#endif
#ifdef SYS_renameat2
    Fixed(SYS_renameat2, At(0, 1, kRemove), At(2, 3, kWrite)),
#endif
#ifdef SYS_unlink
    Fixed(SYS_unlink, Cwd(0, kRemove)),
#endif
    Fixed(SYS_unlinkat, At(0, 1, kRemove)),
#ifdef SYS_link
    Fixed(SYS_link, Cwd(1, kWrite)),
#endif
    Fixed(SYS_linkat, At(2, 3, kWrite)),
#ifdef SYS_symlink
    Fixed(SYS_symlink, Cwd(1, kWrite)),
#endif
    Fixed(SYS_symlinkat, At(1, 2, kWrite)),
    Fixed(SYS_truncate, Cwd(0, kWrite)),
#ifdef SYS_utime
    Fixed(SYS_utime, Cwd(0, kWrite)),
#endif
#ifdef SYS_utimes
    Fixed(SYS_utimes, Cwd(0, kWrite)),
#endif
#ifdef SYS_futimesat
    Fixed(SYS_futimesat, At(0, 1, kWrite)),
#endif
    Fixed(SYS_utimensat, At(0, 1, kWrite)),
#ifdef SYS_mknod
    Fixed(SYS_mknod, Cwd(0, kWrite)),
#endif
    Fixed(SYS_mknodat, At(0, 1, kWrite)),
};

const PathCall* FindCall(long nr) {
  for (const PathCall& call : kPathCalls)
    if (call.nr == nr) return &call;
  return nullptr;
}

// Offset of the low 32 bits of argument `index` in seccomp_data.
constexpr uint32_t ArgLow(int index) {
  return offsetof(seccomp_data, args) + 8 * index + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 4 : 0);
}
constexpr uint32_t ArgHigh(int index) {
  return offsetof(seccomp_data, args) + 8 * index + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 0 : 4);
}

sock_filter Load(uint32_t offset) { return BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset); }
sock_filter Return(uint32_t action) { return BPF_STMT(BPF_RET | BPF_K, action); }
sock_filter JumpIfEqual(uint32_t value, uint8_t if_true, uint8_t if_false) {
  return BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, if_true, if_false);
}

// Let through `nr` when `flag` is set in argument `arg` (a call on a file
// descriptor, not a path); the accumulator holds the call number after.
void AllowWhenFlag(long nr, int arg, uint32_t flag, std::vector<sock_filter>* program) {
  program->push_back(JumpIfEqual(static_cast<uint32_t>(nr), 0, 4));
  program->push_back(Load(ArgLow(arg)));
  program->push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, flag, 0, 1));
  program->push_back(Return(SECCOMP_RET_ALLOW));
  program->push_back(Load(offsetof(seccomp_data, nr)));
}

// Let through `nr` when argument `arg` is a null pointer (utimensat with
// no path is futimens); the accumulator holds the call number after.
void AllowWithoutPath(long nr, int arg, std::vector<sock_filter>* program) {
  program->push_back(JumpIfEqual(static_cast<uint32_t>(nr), 0, 6));
  program->push_back(Load(ArgLow(arg)));
  program->push_back(JumpIfEqual(0, 0, 3));
  program->push_back(Load(ArgHigh(arg)));
  program->push_back(JumpIfEqual(0, 0, 1));
  program->push_back(Return(SECCOMP_RET_ALLOW));
  program->push_back(Load(offsetof(seccomp_data, nr)));
}

}  // namespace

FileAccess AccessOfOpenFlags(uint64_t flags) {
  if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC))) return FileAccess::kWrite;
  return FileAccess::kRead;
}

bool DecodeTrappedCall(const seccomp_data& data, TrappedCall* call) {
  *call = TrappedCall();
  if (data.arch != kNativeArch) return false;
  const PathCall* shape = FindCall(data.nr);
  if (!shape) return false;
  for (const PathArgument& argument : {shape->first, shape->second}) {
    if (argument.path == kNone) continue;
    TrappedPath& path = call->paths[call->count++];
    path.dirfd = argument.dirfd == kNone ? AT_FDCWD : static_cast<int>(data.args[argument.dirfd]);
    path.address = data.args[argument.path];
    path.access = argument.access;
  }
  if (shape->how == How::kOpenFlags) call->paths[0].access = AccessOfOpenFlags(data.args[shape->flags_arg]);
  if (shape->how == How::kOpenHow) call->open_how = data.args[shape->flags_arg];
  return true;
}

std::vector<sock_filter> PathCallFilter() {
  std::vector<sock_filter> program;
  if (kNativeArch == 0) return program;
  program.push_back(Load(offsetof(seccomp_data, arch)));
  program.push_back(JumpIfEqual(kNativeArch, 1, 0));
  program.push_back(Return(SECCOMP_RET_ALLOW));
  program.push_back(Load(offsetof(seccomp_data, nr)));
  if (kForeignAbiBit) {
    program.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kForeignAbiBit, 0, 1));
    program.push_back(Return(SECCOMP_RET_ALLOW));
  }
  program.push_back(JumpIfEqual(SYS_io_uring_setup, 0, 1));
  program.push_back(Return(SECCOMP_RET_ERRNO | ENOSYS));
  AllowWhenFlag(SYS_newfstatat, 3, AT_EMPTY_PATH, &program);
#ifdef SYS_statx
  AllowWhenFlag(SYS_statx, 2, AT_EMPTY_PATH, &program);
#endif
  AllowWithoutPath(SYS_utimensat, 1, &program);
  // One comparison per call, each jumping to the trap at the end.
  size_t count = sizeof(kPathCalls) / sizeof(kPathCalls[0]);
  for (size_t i = 0; i < count; ++i)
    program.push_back(JumpIfEqual(static_cast<uint32_t>(kPathCalls[i].nr), static_cast<uint8_t>(count - i), 0));
  program.push_back(Return(SECCOMP_RET_ALLOW));
  program.push_back(Return(SECCOMP_RET_USER_NOTIF));
  return program;
}

}  // namespace ronin
#endif  // __linux__
