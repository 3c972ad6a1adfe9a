// Small helpers shared by every module: diagnostics, path canonicalisation,
// shell quoting, spelling suggestions and facts about the machine.
#ifndef RONIN_BASE_UTIL_H_
#define RONIN_BASE_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ronin {

// File modification time in nanoseconds since the epoch; 0 = missing, -1 = unknown or error.
using TimeStamp = int64_t;

// Diagnostics in Ninja's exact shape. Fatal exits with status 1.
#ifdef RONIN_FUZZING
// Fuzz builds only (tests/fuzz, never in ninja): Fatal throws this instead of
// printing and exiting, so a fuzz target can treat the fatal errors its input
// may cause by design (a rule-variable cycle) as an outcome.
struct FuzzFatalError {
  std::string message;
};
#endif
[[noreturn]] void Fatal(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Warning(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Error(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Info(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Lexical path canonicalisation as Ninja does it: drops "." and empty
// components, folds "x/.." where possible, keeps leading "..", strips a
// trailing slash. No symlink resolution. Returns the new length (in place).
size_t CanonicalizePath(char* path, size_t len);
void CanonicalizePath(std::string* path);
// True if CanonicalizePath would leave `path` unchanged (cheap check, so the
// common clean path needs no copy).
bool IsCanonicalPath(std::string_view path);

// Appends `text` quoted for a POSIX shell, only if it needs quoting.
void AppendShellEscaped(std::string_view text, std::string* out);

// JSON string escaping as Ninja's compdb does it: named escapes for the
// common control characters, \u00xx for the rest, bytes >= 0x20 (UTF-8
// included) passed through.
void AppendJsonString(std::string_view text, std::string* out);

// The current directory's absolute path (fatal if it cannot be known).
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

// Directory part of a path ("" when there is none).
std::string_view DirName(std::string_view path);

std::string StringPrintf(const char* format, ...) __attribute__((format(printf, 1, 2)));
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

// strtoll(text, nullptr, 10) and strtoull(text, nullptr, 16) on a
// NUL-terminated text, computed in place when it is nothing but digits
// (every number of a .ninja_log: 200k of them per load); anything else
// (signs, spaces, 0x, trailing text, overflow) is left to libc.
int64_t ParseDecimal(const char* text);
uint64_t ParseHex(const char* text);

}  // namespace ronin

#endif  // RONIN_BASE_UTIL_H_
