// Behaviour verified against ninja 1.13.2 (`deps = msvc`, then `-t deps` and
// the printed command output); see scan/msvc_deps.h for the rules.
#include "scan/msvc_deps.h"

#include <algorithm>

namespace ronin {
namespace {

char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string Lowercase(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(), AsciiLower);
  return r;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

// The include path of a /showIncludes line, or "" if `line` is not one.
// Only spaces are skipped after the prefix: ninja keeps a leading tab.
std::string_view IncludePath(std::string_view line, std::string_view prefix) {
  if (line.substr(0, prefix.size()) != prefix) return {};
  line.remove_prefix(prefix.size());
  size_t first = line.find_first_not_of(' ');
  return first == std::string_view::npos ? std::string_view() : line.substr(first);
}

// Headers under the compiler/SDK install directories are never out of date
// in practice, and recording them only bloats the deps log.
bool IsSystemInclude(std::string_view path) {
  std::string lower = Lowercase(path);
  return lower.find("program files") != std::string::npos ||
         lower.find("microsoft visual studio") != std::string::npos;
}

// cl.exe echoes the name of the source file it compiles; that is noise.
bool IsSourceFileEcho(std::string_view line) {
  std::string lower = Lowercase(line);
  for (std::string_view ext : {".c", ".cc", ".cxx", ".cpp", ".c++"}) {
    if (EndsWith(lower, ext)) return true;
  }
  return false;
}

// Returns the line starting at *pos and advances *pos past its terminator
// (LF, CRLF or lone CR).
std::string_view NextLine(std::string_view text, size_t* pos) {
  size_t start = *pos;
  size_t end = text.find_first_of("\r\n", start);
  if (end == std::string_view::npos) end = text.size();
  size_t next = end;
  if (next < text.size() && text[next] == '\r') ++next;
  if (next < text.size() && text[next] == '\n') ++next;
  *pos = next;
  return text.substr(start, end - start);
}

}  // namespace

namespace {

// FilterShowIncludes with `normalize(path, err)` for each include path.
template <typename Normalize>
bool Filter(std::string_view output, std::string_view prefix, std::vector<std::string>* includes,
            const Normalize& normalize, std::string* filtered) {
  if (prefix.empty()) prefix = kDefaultShowIncludesPrefix;
  filtered->clear();
  std::vector<std::string> found;
  bool seen_include = false;
  size_t pos = 0;
  while (pos < output.size()) {
    std::string_view line = NextLine(output, &pos);
    std::string_view include = IncludePath(line, prefix);
    if (!include.empty()) {
      seen_include = true;
      std::string path(include);
      if (!normalize(&path)) return false;
      if (!IsSystemInclude(path)) found.push_back(std::move(path));
    } else if (!seen_include && IsSourceFileEcho(line)) {
      // Dropped.
    } else {
      filtered->append(line);
      filtered->push_back('\n');
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  *includes = std::move(found);
  return true;
}

}  // namespace

std::string FilterShowIncludes(std::string_view output, std::string_view prefix,
                               std::vector<std::string>* includes,
                               PathCanonicalizer canonicalize) {
  std::string filtered;
  Filter(output, prefix, includes,
         [canonicalize](std::string* path) {
           if (canonicalize) canonicalize(path);
           return true;
         },
         &filtered);
  return filtered;
}

bool FilterShowIncludes(std::string_view output, std::string_view prefix, std::vector<std::string>* includes,
                        IncludeNormalizer normalize, std::string* filtered, std::string* err) {
  return Filter(output, prefix, includes, [normalize, err](std::string* path) { return normalize(path, err); },
                filtered);
}

std::string RelativeIncludePath(std::string_view path, std::string_view base) {
  auto split = [](std::string_view text) {
    std::vector<std::string_view> parts;
    for (size_t start = 0;;) {
      size_t slash = text.find('/', start);
      parts.push_back(text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
      if (slash == std::string_view::npos) return parts;
      start = slash + 1;
    }
  };
  std::vector<std::string_view> to = split(path), from = split(base);
  size_t shared = 0;
  while (shared < to.size() && shared < from.size() && Lowercase(to[shared]) == Lowercase(from[shared])) ++shared;
  std::vector<std::string_view> parts(from.size() - shared, "..");
  parts.insert(parts.end(), to.begin() + shared, to.end());
  if (parts.empty()) return ".";
  std::string relative(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) relative.append("/").append(parts[i]);
  return relative;
}

}  // namespace ronin
