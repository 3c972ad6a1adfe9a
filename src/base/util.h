// Small helpers shared by every module: diagnostics, path canonicalisation,
// shell quoting, spelling suggestions and facts about the machine.
#ifndef RONIN_BASE_UTIL_H_
#define RONIN_BASE_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/platform.h"

namespace ronin {

// File modification time in nanoseconds since the epoch; 0 = missing, -1 = unknown or error.
using TimeStamp = int64_t;

// Diagnostics in Ninja's exact shape. Fatal exits with status 1 (or as set below).
#ifdef RONIN_FUZZING
// Fuzz builds only (tests/fuzz, never in ninja): Fatal throws this instead of
// printing and exiting, so a fuzz target can treat the fatal errors its input
// may cause by design (a rule-variable cycle) as an outcome.
struct FuzzFatalError {
  std::string message;
};
#endif
[[noreturn]] void Fatal(const char* format, ...) RONIN_PRINTF(1, 2);
// The status Fatal exits with (1 unless set; --question's errors are 2).
void SetFatalExitStatus(int status);
void Warning(const char* format, ...) RONIN_PRINTF(1, 2);
void Error(const char* format, ...) RONIN_PRINTF(1, 2);
void Info(const char* format, ...) RONIN_PRINTF(1, 2);

// Lexical path canonicalisation as Ninja does it: drops "." and empty
// components, folds "x/.." where possible, keeps leading "..", strips a
// trailing slash. No symlink resolution. Returns the new length (in place).
size_t CanonicalizePath(char* path, size_t len);
void CanonicalizePath(std::string* path);
// The same with Windows' rules: '\' separates too, a leading "\\" or "//"
// (a UNC path) is kept, and every separator comes out as '/', the ones
// that were '\' marked in *slash_bits (platform.h). Shared logic, so that
// it is tested everywhere; used where kWindows.
size_t CanonicalizeWindowsPath(char* path, size_t len, uint64_t* slash_bits);
// The platform's canonical form of a path from the manifest, a depfile or
// the command line, and its slash bits (always 0 on POSIX).
inline void CanonicalizePath(std::string* path, uint64_t* slash_bits) {
  if constexpr (kWindows) {
    if (!path->empty()) path->resize(CanonicalizeWindowsPath(&(*path)[0], path->size(), slash_bits));
  } else {
    *slash_bits = 0;
    CanonicalizePath(path);
  }
}
// True if CanonicalizePath would leave `path` unchanged (cheap check, so the
// common clean path needs no copy). With Windows' rules, a path holding a
// '\' never is.
bool IsCanonicalPath(std::string_view path);
// `path` with the separators `slash_bits` marks written as '\' again.
std::string Decanonicalize(std::string_view path, uint64_t slash_bits);

// Appends `text` quoted for a POSIX shell, only if it needs quoting.
void AppendShellEscaped(std::string_view text, std::string* out);
// Appends `text` quoted for a Windows command line (CommandLineToArgv's
// rules), only if it holds a space or a '"', as Ninja quotes $in on Windows.
void AppendWin32Escaped(std::string_view text, std::string* out);
// How $in and $out quote paths: AppendWin32Escaped on Windows, else
// AppendShellEscaped.
inline void AppendCommandEscaped(std::string_view text, std::string* out) {
  if constexpr (kWindows)
    AppendWin32Escaped(text, out);
  else
    AppendShellEscaped(text, out);
}

// `text` as the platform writes a text file (an rspfile): each "\n" as
// "\r\n" on Windows (what its C library's text mode does, and so Ninja
// since 1.13.1), unchanged elsewhere.
std::string TextFileBytes(std::string text);

// JSON string escaping as Ninja's compdb does it: named escapes for the
// common control characters, \u00xx for the rest, bytes >= 0x20 (UTF-8
// included) passed through.
void AppendJsonString(std::string_view text, std::string* out);

// The current directory's absolute path (fatal if it cannot be known).
// util_posix.cc / util_win.cc, as the machine facts below.
std::string WorkingDirectory();
bool IsShellSafe(std::string_view text);

// Levenshtein distance with an early exit once `max_distance` is exceeded.
int EditDistance(std::string_view a, std::string_view b, int max_distance);
// The closest of `words` to `text` within edit distance 3, or empty.
std::string_view SpellcheckString(std::string_view text, const std::vector<std::string_view>& words);

// The words of `text` between runs of white space (isspace).
std::vector<std::string_view> WhitespaceFields(std::string_view text);

// Removes ANSI CSI escape sequences (colours) from command output.
std::string StripAnsiEscapeCodes(std::string_view text);
// Length of the CSI sequence ("ESC [ ... letter") at text[i], or 0 if none
// starts there. An unterminated one runs to the end of the text.
size_t AnsiEscapeLength(std::string_view text, size_t i);

// Number of CPUs this process may use (affinity and cgroup quota included).
int GetProcessorCount();
// 1-minute load average, or a negative number if unknown.
double GetLoadAverage();

// Directory part of a path ("" when there is none); on Windows '\'
// separates too.
std::string_view DirName(std::string_view path);
// The last `byte` in data[0, size), or null (memrchr, which not every C
// library has).
const char* FindLastByte(const char* data, char byte, size_t size);

std::string StringPrintf(const char* format, ...) RONIN_PRINTF(1, 2);
// "1 command", "0 commands": a count and its noun, singular for exactly one
// (ronin's own messages; Ninja's keep Ninja's words).
std::string Counted(int64_t count, std::string_view singular, std::string_view plural);

// Reads from `fd` until `size` bytes are in `data` or the file ends,
// retrying when a signal interrupts: how many bytes were read, or -1 on an
// error (errno says which).
int64_t ReadUpTo(int fd, char* data, size_t size);
// Writes all `size` bytes of `data` to `fd`, retrying when a signal
// interrupts; false on an error (errno says which).
bool WriteFully(int fd, const char* data, size_t size);

// Milliseconds of a monotonic clock.
int64_t MonotonicMillis();

// The most bytes the system takes for a command's arguments (ARG_MAX; on
// Windows, CreateProcess's command line limit).
int64_t CommandLineLimit();

// Whether the process's code page is UTF-8 (Windows: its active code page,
// which ninja.exe's manifest asks to be; POSIX systems pass bytes through,
// taken as UTF-8).
bool ActiveCodePageIsUtf8();

// The system's words for the last call that failed: strerror(errno) on
// POSIX, Windows' own text for GetLastError() (with its "\r\n") there.
std::string LastSystemError();

// The process's command line as one string, as Windows keeps it
// (GetCommandLine); "" on POSIX, where the kernel keeps only argv.
std::string RawCommandLine();
// Adds or replaces an environment variable, given as "NAME=VALUE".
void PutEnvironmentEntry(const std::string& entry);

// Makes every thread allocate from one malloc arena (glibc), so that what
// helper threads free is reused by the main thread; nothing elsewhere.
void UseOneMallocArena();

// A non-negative decimal of 1 to 18 digits and nothing else (no sign, no
// space): the counts and times of ronin's own text records.
bool ParseCount(std::string_view text, int64_t* value);

// strtoll(text, nullptr, 10) and strtoull(text, nullptr, 16) on a
// NUL-terminated text, computed in place when it is nothing but digits
// (every number of a .ninja_log: 200k of them per load); anything else
// (signs, spaces, 0x, trailing text, overflow) is left to libc.
int64_t ParseDecimal(const char* text);
uint64_t ParseHex(const char* text);

}  // namespace ronin

#endif  // RONIN_BASE_UTIL_H_
