#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>

namespace ronin {

namespace {

void PrintDiagnostic(FILE* stream, const char* prefix, const char* format, va_list ap) {
  // Flush stdout first so that our messages interleave correctly with the
  // status lines printed there.
  fflush(stdout);
  fputs(prefix, stream);
  vfprintf(stream, format, ap);
  fputc('\n', stream);
}

}  // namespace

namespace {
int g_fatal_exit_status = 1;
}  // namespace

void SetFatalExitStatus(int status) { g_fatal_exit_status = status; }

void Fatal(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
#ifdef RONIN_FUZZING
  char message[1024];
  vsnprintf(message, sizeof(message), format, ap);
  va_end(ap);
  throw FuzzFatalError{message};
#endif
  PrintDiagnostic(stderr, "ninja: fatal: ", format, ap);
  va_end(ap);
  fflush(stderr);
  // Skip static destructors and atexit handlers: a fatal error can happen
  // while the build graph is half-built.
  _exit(g_fatal_exit_status);
}

void Warning(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  PrintDiagnostic(stderr, "ninja: warning: ", format, ap);
  va_end(ap);
}

void Error(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  PrintDiagnostic(stderr, "ninja: error: ", format, ap);
  va_end(ap);
}

void Info(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  fputs("ninja: ", stdout);
  vfprintf(stdout, format, ap);
  fputc('\n', stdout);
  va_end(ap);
  fflush(stdout);
}

std::string Counted(int64_t count, std::string_view singular, std::string_view plural) {
  return std::to_string(count) + " " + std::string(count == 1 ? singular : plural);
}

std::string StringPrintf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  char small[256];
  int n = vsnprintf(small, sizeof(small), format, ap);
  va_end(ap);
  if (n < 0) return std::string();
  if (static_cast<size_t>(n) < sizeof(small)) return std::string(small, n);
  std::string big(n, '\0');
  va_start(ap, format);
  vsnprintf(&big[0], n + 1, format, ap);
  va_end(ap);
  return big;
}

size_t CanonicalizePath(char* path, size_t len) {
  if (len == 0) return 0;
  const char* in = path;
  const char* end = path + len;
  char* out = path;
  if (*in == '/') {
    *out++ = '/';
    ++in;
  }
  // Components before `base` (the root, or leading ".." runs) can never be
  // folded away by a later "..".
  char* base = out;
  while (in < end) {
    const char* sep = static_cast<const char*>(memchr(in, '/', end - in));
    if (!sep) sep = end;
    size_t n = sep - in;
    bool is_dot = n == 1 && in[0] == '.';
    bool is_dotdot = n == 2 && in[0] == '.' && in[1] == '.';
    if (n == 0 || is_dot) {
      // Empty or "." component: nothing to keep.
    } else if (is_dotdot && out > base) {
      // Drop the last kept component together with its separator.
      while (out > base && out[-1] != '/') --out;
      if (out > base) --out;
    } else {
      if (out > path && out[-1] != '/') *out++ = '/';
      memmove(out, in, n);
      out += n;
      if (is_dotdot) base = out;
    }
    in = sep + 1;
  }
  if (out == path) {
    *out++ = '.';
  }
  return out - path;
}

namespace {

bool IsPathSeparator(char c) { return c == '/' || c == '\\'; }

// IsCanonicalPath's answer under Windows' rules, for the paths whose
// answer differs there: a '\\' is never canonical, a UNC prefix is.
bool IsCanonicalWindowsPath(std::string_view path, bool* decided) {
  *decided = true;
  if (path.find('\\') != std::string_view::npos) return false;
  if (path.size() >= 2 && path[0] == '/' && path[1] == '/') {
    std::string copy(path);
    uint64_t bits;
    return CanonicalizeWindowsPath(&copy[0], copy.size(), &bits) == copy.size() && copy == path;
  }
  *decided = false;
  return false;
}

}  // namespace

bool IsCanonicalPath(std::string_view path) {
  if constexpr (kWindows) {
    bool decided;
    bool canonical = IsCanonicalWindowsPath(path, &decided);
    if (decided) return canonical;
  }
  const char* p = path.data();
  const char* end = p + path.size();
  if (p == end) return false;
  if (path == ".") return true;
  if (*p == '/' && ++p == end) return true;  // "/"
  // Leading ".." components are kept as they are.
  while (end - p >= 2 && p[0] == '.' && p[1] == '.' && (end - p == 2 || p[2] == '/')) {
    if (end - p == 2) return true;
    p += 3;
    if (p == end) return false;  // trailing slash
  }
  // Now every component must be a normal one: not empty, ".", or "..".
  if (*p == '/' || (*p == '.' && (end - p == 1 || p[1] == '/'))) return false;
  if (end - p >= 2 && p[0] == '.' && p[1] == '.' && (end - p == 2 || p[2] == '/')) return false;
  for (;;) {
    const char* slash = static_cast<const char*>(memchr(p, '/', end - p));
    if (!slash) return true;
    const char* next = slash + 1;
    if (next == end || *next == '/') return false;
    if (*next == '.') {
      if (next + 1 == end || next[1] == '/') return false;
      if (next[1] == '.' && (next + 2 == end || next[2] == '/')) return false;
    }
    p = next;
  }
}

void CanonicalizePath(std::string* path) {
  if (path->empty()) return;
  if constexpr (kWindows) {
    uint64_t slash_bits;
    path->resize(CanonicalizeWindowsPath(&(*path)[0], path->size(), &slash_bits));
  } else {
    path->resize(CanonicalizePath(&(*path)[0], path->size()));
  }
}

size_t CanonicalizeWindowsPath(char* path, size_t len, uint64_t* slash_bits) {
  *slash_bits = 0;
  if (len == 0) return 0;
  const char* in = path;
  const char* end = path + len;
  char* out = path;
  // A leading separator stays; two of them (a UNC path, \\server\share) too.
  if (IsPathSeparator(*in)) {
    size_t kept = len >= 2 && IsPathSeparator(in[1]) ? 2 : 1;
    for (size_t i = 0; i < kept; ++i) *out++ = *in++;
  }
  char* root_end = out;  // a trailing separator is stripped down to here
  // Leading ".." components are kept with their separators.
  while (end - in >= 3 && in[0] == '.' && in[1] == '.' && IsPathSeparator(in[2])) {
    for (int i = 0; i < 3; ++i) *out++ = *in++;
  }
  char* base = out;  // ".." never folds what is before here
  int components = 0;  // kept since `base`, each ending in its separator
  while (in < end) {
    const char* sep = in;
    while (sep != end && !IsPathSeparator(*sep)) ++sep;
    size_t n = sep - in;
    bool last = sep == end;
    bool is_dotdot = n == 2 && in[0] == '.' && in[1] == '.';
    if (n == 0 || (n == 1 && in[0] == '.')) {
      // Empty or ".": dropped.
    } else if (is_dotdot && components > 0) {
      // Back to the start of the last kept component.
      --components;
      while (--out > base && !IsPathSeparator(out[-1])) {
      }
    } else {
      // A component (or a ".." that cannot fold) with its own separator.
      if (!is_dotdot) ++components;
      size_t copy = last ? n : n + 1;
      memmove(out, in, copy);
      out += copy;
    }
    in = last ? end : sep + 1;
  }
  if (out > root_end && IsPathSeparator(out[-1])) --out;
  if (out == path) *out++ = '.';
  // Separators to '/', noting which were '\\' (the first 64).
  uint64_t bits = 0, mask = 1;
  for (char* c = path; c != out; ++c) {
    if (!IsPathSeparator(*c)) continue;
    if (*c == '\\') {
      bits |= mask;
      *c = '/';
    }
    mask <<= 1;
  }
  *slash_bits = bits;
  return out - path;
}

std::string Decanonicalize(std::string_view path, uint64_t slash_bits) {
  std::string result(path);
  uint64_t mask = 1;
  for (size_t i = 0; i < result.size() && slash_bits >= mask && mask != 0; ++i) {
    if (result[i] != '/') continue;
    if (slash_bits & mask) result[i] = '\\';
    mask <<= 1;
  }
  return result;
}

namespace {

// The characters a POSIX shell word may hold unquoted (ASCII letters and
// digits, `_+-./`), one table lookup a character: every path of every
// evaluated command goes through here.
struct ShellSafeTable {
  bool safe[256] = {};
  constexpr ShellSafeTable() {
    for (int c = 'a'; c <= 'z'; ++c) safe[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) safe[c] = true;
    for (int c = '0'; c <= '9'; ++c) safe[c] = true;
    for (char c : {'_', '+', '-', '.', '/'}) safe[static_cast<unsigned char>(c)] = true;
  }
};
constexpr ShellSafeTable kShellSafe;

}  // namespace

#if defined(__SSE2__)
// Whether all 16 bytes at `p` are shell-safe: a handful of compares for 16
// characters instead of a lookup each (a link command's $in is thousands
// of paths).
bool ShellSafe16(const char* p) {
  __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // Bytes >= 0x80 are negative here, so no range below takes them.
  __m128i folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20));  // 'A'-'Z' -> 'a'-'z'
  __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                 _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
  // '-', '.', '/' and the digits are one range: 0x2d-0x39.
  __m128i punct_digit = _mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8('-' - 1)),
                                      _mm_cmplt_epi8(bytes, _mm_set1_epi8('9' + 1)));
  __m128i other = _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('_')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('+')));
  __m128i safe = _mm_or_si128(_mm_or_si128(letter, punct_digit), other);
  return _mm_movemask_epi8(safe) == 0xFFFF;
}
#endif

bool IsShellSafe(std::string_view text) {
  const char* p = text.data();
  size_t left = text.size();
#if defined(__SSE2__)
  for (; left >= 16; p += 16, left -= 16)
    if (!ShellSafe16(p)) return false;
#endif
  for (; left > 0; ++p, --left)
    if (!kShellSafe.safe[static_cast<unsigned char>(*p)]) return false;
  return true;
}

void AppendShellEscaped(std::string_view text, std::string* out) {
  if (IsShellSafe(text)) {
    out->append(text);
    return;
  }
  // Single quotes protect everything but a single quote, which becomes '\''.
  out->push_back('\'');
  for (char c : text) {
    if (c == '\'')
      out->append("'\\''");
    else
      out->push_back(c);
  }
  out->push_back('\'');
}

std::string TextFileBytes(std::string text) {
  if constexpr (!kWindows) return text;
  size_t newlines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  if (newlines == 0) return text;
  std::string crlf;
  crlf.reserve(text.size() + newlines);
  for (char c : text) {
    if (c == '\n') crlf.push_back('\r');
    crlf.push_back(c);
  }
  return crlf;
}

void AppendWin32Escaped(std::string_view text, std::string* out) {
  if (text.find_first_of(" \"") == std::string_view::npos) {
    out->append(text);
    return;
  }
  // CommandLineToArgv's rules: backslashes are literal unless they come
  // before a '"', where each doubles and the quote is escaped by one more;
  // those before the closing quote double too.
  out->push_back('"');
  size_t backslashes = 0;
  for (char c : text) {
    if (c == '\\') {
      ++backslashes;
    } else if (c == '"') {
      out->append(backslashes + 1, '\\');
      backslashes = 0;
    } else {
      backslashes = 0;
    }
    out->push_back(c);
  }
  out->append(backslashes, '\\');
  out->push_back('"');
}

int EditDistance(std::string_view a, std::string_view b, int max_distance) {
  // Two-row dynamic programming over b; rows indexed by a.
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    int row_best = cur[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      int substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({substitute, prev[j] + 1, cur[j - 1] + 1});
      row_best = std::min(row_best, cur[j]);
    }
    if (max_distance > 0 && row_best > max_distance) return max_distance + 1;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string_view SpellcheckString(std::string_view text, const std::vector<std::string_view>& words) {
  const int kMaxValidEditDistance = 3;
  int best = kMaxValidEditDistance + 1;
  std::string_view result;
  for (std::string_view word : words) {
    int distance = EditDistance(word, text, kMaxValidEditDistance);
    if (distance < best) {
      best = distance;
      result = word;
    }
  }
  return result;
}

size_t AnsiEscapeLength(std::string_view text, size_t i) {
  if (text[i] != '\33' || i + 1 >= text.size() || text[i + 1] != '[') return 0;
  size_t j = i + 2;
  auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  while (j < text.size() && !is_letter(text[j])) ++j;
  return j < text.size() ? j - i + 1 : text.size() - i;
}

std::vector<std::string_view> WhitespaceFields(std::string_view text) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && !isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

std::string StripAnsiEscapeCodes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (size_t escape = AnsiEscapeLength(text, i)) {
      i += escape;
    } else if (text[i] == '\33') {
      ++i;  // only CSI sequences are removed whole; a lone ESC goes alone
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

std::string_view DirName(std::string_view path) {
  size_t slash = kWindows ? path.find_last_of("/\\") : path.find_last_of('/');
  if (slash == std::string_view::npos) return std::string_view();
  // Keep the root of absolute paths; drop runs of slashes.
  while (slash > 0 && (path[slash - 1] == '/' || (kWindows && path[slash - 1] == '\\'))) --slash;
  return path.substr(0, slash == 0 ? 1 : slash);
}

const char* FindLastByte(const char* data, char byte, size_t size) {
  for (size_t i = size; i > 0; --i)
    if (data[i - 1] == byte) return data + i - 1;
  return nullptr;
}

int64_t ReadUpTo(int fd, char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<int64_t>(done);
}

bool WriteFully(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;  // no progress: never loop forever
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void AppendJsonString(std::string_view text, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  // Which bytes need an escape: a table, as this runs over every path of
  // a trace.
  static const auto kNeedsEscape = [] {
    std::array<bool, 256> table{};
    for (int byte = 0; byte < 0x20; ++byte) table[byte] = true;
    table['\\'] = table['"'] = true;
    return table;
  }();
  size_t plain = 0;  // start of the run of bytes copied as they are
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char byte = static_cast<unsigned char>(text[i]);
    if (!kNeedsEscape[byte]) continue;
    out->append(text.data() + plain, i - plain);
    plain = i + 1;
    switch (byte) {
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\\': out->append("\\\\"); break;
      case '"': out->append("\\\""); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[byte >> 4]);
        out->push_back(kHex[byte & 0xf]);
    }
  }
  out->append(text.data() + plain, text.size() - plain);
}

bool ParseCount(std::string_view text, int64_t* value) {
  if (text.empty() || text.size() > 18) return false;
  int64_t result = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    result = result * 10 + (c - '0');
  }
  *value = result;
  return true;
}

int64_t ParseDecimal(const char* text) {
  // 19 digits fit a uint64_t (nanosecond mtimes have 19).
  uint64_t value = 0;
  const char* p = text;
  for (; p - text < 19 && *p >= '0' && *p <= '9'; ++p) value = value * 10 + static_cast<uint64_t>(*p - '0');
  if (p != text && *p == '\0' && value <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(value);
  return strtoll(text, nullptr, 10);
}

namespace {

// Hex digit values; 16 for anything else.
struct HexDigits {
  HexDigits() {
    for (int c = 0; c < 256; ++c) value[c] = 16;
    for (int c = 0; c < 10; ++c) value['0' + c] = static_cast<uint8_t>(c);
    for (int c = 0; c < 6; ++c) value['a' + c] = value['A' + c] = static_cast<uint8_t>(10 + c);
  }
  uint8_t value[256];
};
const HexDigits kHexDigits;

}  // namespace

uint64_t ParseHex(const char* text) {
  uint64_t value = 0;
  const char* p = text;
  for (; p - text < 16; ++p) {
    uint8_t digit = kHexDigits.value[static_cast<unsigned char>(*p)];
    if (digit == 16) break;
    value = value << 4 | digit;
  }
  if (p != text && *p == '\0') return value;
  return strtoull(text, nullptr, 16);
}

}  // namespace ronin
