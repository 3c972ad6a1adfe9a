// Tests for the monitor's table of path system calls and its seccomp
// filter (path_syscalls_linux.h). The filter is run here by a small
// classic-BPF interpreter over made-up calls, so each rule (trap, let
// through, fail) is checked without starting a process.
#ifdef __linux__
#include "audit/path_syscalls_linux.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>

#include <gtest/gtest.h>

namespace ronin {
namespace {

#if defined(__x86_64__)
const uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
const uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
const uint32_t kArch = 0;
#endif

// Runs a classic BPF program (the subset the filter uses) over `data`.
uint32_t RunFilter(const std::vector<sock_filter>& program, const seccomp_data& data) {
  uint32_t accumulator = 0;
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&data);
  for (size_t pc = 0; pc < program.size(); ++pc) {
    const sock_filter& op = program[pc];
    switch (op.code) {
      case BPF_LD | BPF_W | BPF_ABS:
        EXPECT_LE(op.k + 4, sizeof(data));
        memcpy(&accumulator, bytes + op.k, 4);
        break;
      case BPF_RET | BPF_K:
        return op.k;
      case BPF_JMP | BPF_JEQ | BPF_K:
        pc += accumulator == op.k ? op.jt : op.jf;
        break;
      case BPF_JMP | BPF_JGE | BPF_K:
        pc += accumulator >= op.k ? op.jt : op.jf;
        break;
      case BPF_JMP | BPF_JSET | BPF_K:
        pc += (accumulator & op.k) ? op.jt : op.jf;
        break;
      default:
        ADD_FAILURE() << "unexpected BPF instruction " << op.code;
        return 0;
    }
  }
  ADD_FAILURE() << "the filter fell off its end";
  return 0;
}

seccomp_data Call(long nr, std::initializer_list<int64_t> args, uint32_t arch = kArch) {
  seccomp_data data;
  memset(&data, 0, sizeof(data));
  data.nr = static_cast<int>(nr);
  data.arch = arch;
  int i = 0;
  for (int64_t arg : args) data.args[i++] = static_cast<uint64_t>(arg);
  return data;
}

class PathCallFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kArch == 0) GTEST_SKIP() << "no filter on this architecture";
    program_ = PathCallFilter();
    ASSERT_FALSE(program_.empty());
  }
  uint32_t Action(const seccomp_data& data) { return RunFilter(program_, data); }
  std::vector<sock_filter> program_;
};

TEST_F(PathCallFilterTest, TrapsPathCalls) {
  for (long nr : {long{SYS_openat}, long{SYS_execve}, long{SYS_unlinkat}, long{SYS_renameat2}, long{SYS_linkat},
                  long{SYS_faccessat}, long{SYS_truncate}, long{SYS_symlinkat}})
    EXPECT_EQ(SECCOMP_RET_USER_NOTIF, Action(Call(nr, {0, 0x1000, 0, 0}))) << nr;
  EXPECT_EQ(SECCOMP_RET_USER_NOTIF, Action(Call(SYS_newfstatat, {AT_FDCWD, 0x1000, 0x2000, 0})));
  EXPECT_EQ(SECCOMP_RET_USER_NOTIF, Action(Call(SYS_utimensat, {AT_FDCWD, 0x1000, 0, 0})));
  EXPECT_EQ(SECCOMP_RET_USER_NOTIF, Action(Call(SYS_utimensat, {AT_FDCWD, int64_t{1} << 40, 0, 0})));
}

TEST_F(PathCallFilterTest, LetsCallsOnDescriptorsThrough) {
  // fstat as glibc makes it, futimens, and what is never trapped.
  EXPECT_EQ(SECCOMP_RET_ALLOW, Action(Call(SYS_newfstatat, {3, 0x1000, 0x2000, AT_EMPTY_PATH})));
#ifdef SYS_statx
  EXPECT_EQ(SECCOMP_RET_ALLOW, Action(Call(SYS_statx, {3, 0x1000, AT_EMPTY_PATH, 0x7ff, 0x2000})));
  EXPECT_EQ(SECCOMP_RET_USER_NOTIF, Action(Call(SYS_statx, {AT_FDCWD, 0x1000, 0, 0x7ff, 0x2000})));
#endif
  EXPECT_EQ(SECCOMP_RET_ALLOW, Action(Call(SYS_utimensat, {3, 0, 0, 0})));
  for (long nr : {long{SYS_readlinkat}, long{SYS_read}, long{SYS_write}, long{SYS_close}, long{SYS_getdents64}})
    EXPECT_EQ(SECCOMP_RET_ALLOW, Action(Call(nr, {3, 0x1000, 0x2000})));
}

TEST_F(PathCallFilterTest, FailsIoUringAndPassesForeignAbis) {
  EXPECT_EQ(SECCOMP_RET_ERRNO | ENOSYS, Action(Call(SYS_io_uring_setup, {4, 0x1000})));
  EXPECT_EQ(SECCOMP_RET_ALLOW, Action(Call(SYS_openat, {0, 0x1000, 0}, AUDIT_ARCH_I386)));
#if defined(__x86_64__)
  EXPECT_EQ(SECCOMP_RET_ALLOW, Action(Call(SYS_openat | 0x40000000, {0, 0x1000, 0})));
#endif
}

TEST(DecodeTrappedCallTest, OpenFlagsDecideReadOrWrite) {
  TrappedCall call;
  ASSERT_TRUE(DecodeTrappedCall(Call(SYS_openat, {AT_FDCWD, 0x1000, O_RDONLY | O_CLOEXEC}), &call));
  ASSERT_EQ(1, call.count);
  EXPECT_EQ(AT_FDCWD, call.paths[0].dirfd);
  EXPECT_EQ(0x1000u, call.paths[0].address);
  EXPECT_EQ(FileAccess::kRead, call.paths[0].access);
  for (int64_t flags : {O_WRONLY, O_RDWR, O_RDONLY | O_CREAT, O_RDONLY | O_TRUNC}) {
    ASSERT_TRUE(DecodeTrappedCall(Call(SYS_openat, {7, 0x1000, flags}), &call));
    EXPECT_EQ(FileAccess::kWrite, call.paths[0].access) << flags;
    EXPECT_EQ(7, call.paths[0].dirfd);
  }
#ifdef SYS_openat2
  ASSERT_TRUE(DecodeTrappedCall(Call(SYS_openat2, {AT_FDCWD, 0x1000, 0x3000, 24}), &call));
  EXPECT_EQ(0x3000u, call.open_how);  // the flags are in the caller's memory
#endif
}

TEST(DecodeTrappedCallTest, RenameNamesBothPaths) {
  TrappedCall call;
  ASSERT_TRUE(DecodeTrappedCall(Call(SYS_renameat2, {3, 0x1000, 4, 0x2000, 0}), &call));
  ASSERT_EQ(2, call.count);
  EXPECT_EQ(FileAccess::kRemove, call.paths[0].access);
  EXPECT_EQ(3, call.paths[0].dirfd);
  EXPECT_EQ(FileAccess::kWrite, call.paths[1].access);
  EXPECT_EQ(4, call.paths[1].dirfd);
  EXPECT_EQ(0x2000u, call.paths[1].address);
  // link: the new name is written; the old one is only named.
  ASSERT_TRUE(DecodeTrappedCall(Call(SYS_linkat, {3, 0x1000, AT_FDCWD, 0x2000, 0}), &call));
  ASSERT_EQ(1, call.count);
  EXPECT_EQ(0x2000u, call.paths[0].address);
  EXPECT_EQ(FileAccess::kWrite, call.paths[0].access);
}

TEST(DecodeTrappedCallTest, ExecAndProbes) {
  TrappedCall call;
  ASSERT_TRUE(DecodeTrappedCall(Call(SYS_execve, {0x1000, 0x2000, 0x3000}), &call));
  EXPECT_EQ(AT_FDCWD, call.paths[0].dirfd);
  EXPECT_EQ(FileAccess::kExecute, call.paths[0].access);
  ASSERT_TRUE(DecodeTrappedCall(Call(SYS_faccessat, {AT_FDCWD, 0x1000, 0}), &call));
  EXPECT_EQ(FileAccess::kProbe, call.paths[0].access);
  EXPECT_FALSE(DecodeTrappedCall(Call(SYS_read, {3, 0x1000, 10}), &call));
  EXPECT_FALSE(DecodeTrappedCall(Call(SYS_openat, {AT_FDCWD, 0x1000, 0}, 0x12345678), &call));  // a foreign ABI
}

}  // namespace
}  // namespace ronin
#endif  // __linux__
