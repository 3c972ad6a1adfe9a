#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
  _exit(1);
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

bool IsCanonicalPath(std::string_view path) {
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
  path->resize(CanonicalizePath(&(*path)[0], path->size()));
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

namespace {

// First line of a small file ("" if unreadable). Plain stdio: iostreams
// would cost start-up time and memory in every run.
std::string ReadFirstLine(const std::string& path) {
  FILE* file = fopen(path.c_str(), "re");
  if (!file) return std::string();
  char buffer[4096];
  std::string line;
  if (fgets(buffer, sizeof(buffer), file)) line = buffer;
  fclose(file);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

// CPU quota from a cgroup v2 "cpu.max" or v1 "cpu.cfs_{quota,period}_us".
int CgroupCpuLimit() {
  FILE* cgroups = fopen("/proc/self/cgroup", "re");
  if (!cgroups) return -1;
  std::string v2_path, v1_path;
  char buffer[4096];
  while (fgets(buffer, sizeof(buffer), cgroups)) {
    std::string line(buffer);
    while (!line.empty() && line.back() == '\n') line.pop_back();
    // "ID:CONTROLLERS:PATH"
    size_t first = line.find(':');
    size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers.empty()) v2_path = path;
    size_t start = 0;
    while (start <= controllers.size()) {
      size_t comma = controllers.find(',', start);
      if (comma == std::string::npos) comma = controllers.size();
      if (controllers.compare(start, comma - start, "cpu") == 0) v1_path = path;
      start = comma + 1;
    }
  }
  fclose(cgroups);
  if (!v2_path.empty() || v1_path.empty()) {
    std::string max = ReadFirstLine("/sys/fs/cgroup" + v2_path + "/cpu.max");
    long long quota = 0, period = 0;
    if (sscanf(max.c_str(), "%lld %lld", &quota, &period) == 2 && period > 0)
      return static_cast<int>(quota / period);
  }
  if (!v1_path.empty()) {
    for (const char* mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
      std::string quota = ReadFirstLine(std::string(mount) + v1_path + "/cpu.cfs_quota_us");
      std::string period = ReadFirstLine(std::string(mount) + v1_path + "/cpu.cfs_period_us");
      if (quota.empty() || period.empty()) continue;
      long long q = atoll(quota.c_str()), p = atoll(period.c_str());
      if (q > 0 && p > 0) return static_cast<int>(q / p);
    }
  }
  return -1;
}

}  // namespace

int GetProcessorCount() {
  int count = -1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) count = CPU_COUNT(&set);
  int quota = CgroupCpuLimit();
  if (quota >= 0 && (count < 0 || quota < count)) count = quota;
  if (count < 0) count = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  return count;
}

double GetLoadAverage() {
  double load[3];
  if (getloadavg(load, 3) < 0) return -0.0;
  return load[0];
}

std::string_view DirName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return std::string_view();
  // Keep the root of absolute paths; drop runs of slashes.
  while (slash > 0 && path[slash - 1] == '/') --slash;
  return path.substr(0, slash == 0 ? 1 : slash);
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

int64_t MonotonicMillis() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
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

std::string WorkingDirectory() {
  std::vector<char> buffer(1024);
  while (!getcwd(buffer.data(), buffer.size())) {
    if (errno != ERANGE) Fatal("cannot determine working directory: %s", strerror(errno));
    buffer.resize(buffer.size() * 2);
  }
  return buffer.data();
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
