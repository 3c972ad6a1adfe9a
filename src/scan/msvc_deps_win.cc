// msvc_deps.h's NormalizeIncludePath on Windows, as ninja.exe normalises
// /showIncludes paths: canonical, made absolute (by GetFullPathName unless
// it is a plain "X:/..." path already), and relative to the working
// directory when the two are on the same drive.
#include "scan/msvc_deps.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

namespace {

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsSeparator(char c) { return c == '/' || c == '\\'; }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// "X:/..." (either separator) with no "." or ".." component: absolute as
// it is, without asking Windows (which is slow).
bool IsPlainAbsolute(std::string_view path) {
  if (path.size() < 3 || !IsLetter(path[0]) || path[1] != ':' || !IsSeparator(path[2])) return false;
  for (size_t i = 2; i < path.size(); ++i) {
    if (!IsSeparator(path[i])) continue;
    size_t next = i + 1;
    if (next < path.size() && path[next] == '.' && (next + 1 >= path.size() || IsSeparator(path[next + 1])))
      return false;
    if (next + 1 < path.size() && path[next] == '.' && path[next + 1] == '.' &&
        (next + 2 >= path.size() || IsSeparator(path[next + 2])))
      return false;
  }
  return true;
}

// GetFullPathNameW, which has no MAX_PATH limit (ninja.exe's
// GetFullPathNameA has).
bool FullPathName(const std::string& path, std::string* full, std::string* err) {
  std::wstring wide = WideText(path);
  DWORD size = GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  std::wstring buffer(size, L'\0');
  if (size) size = GetFullPathNameW(wide.c_str(), size, &buffer[0], nullptr);
  if (size == 0 || size >= buffer.size()) {
    *err = "GetFullPathNameA(" + path + "): " + LastErrorText();  // (ninja.exe's words)
    return false;
  }
  *full = Utf8Text(buffer.data(), size);
  return true;
}

// The absolute path, with '/' separators.
bool Absolute(const std::string& path, std::string* absolute, std::string* err) {
  if (IsPlainAbsolute(path))
    *absolute = path;
  else if (!FullPathName(path, absolute, err))
    return false;
  for (char& c : *absolute)
    if (c == '\\') c = '/';
  return true;
}

// Whether the two absolute paths are on the same drive (false too when
// that cannot be told).
bool SameDrive(const std::string& a, const std::string& b, std::string* err) {
  if (a.size() >= 3 && b.size() >= 3 && IsLetter(a[0]) && IsLetter(b[0]) && Lower(a[0]) == Lower(b[0]) &&
      a[1] == ':' && b[1] == ':' && IsSeparator(a[2]) && IsSeparator(b[2]))
    return true;
  std::string full_a, full_b;
  if (!FullPathName(a, &full_a, err) || !FullPathName(b, &full_b, err)) return false;
  char drive_a[_MAX_DRIVE], drive_b[_MAX_DRIVE];
  _splitpath(full_a.c_str(), drive_a, nullptr, nullptr, nullptr);
  _splitpath(full_b.c_str(), drive_b, nullptr, nullptr, nullptr);
  return _stricmp(drive_a, drive_b) == 0;
}

}  // namespace

// (ninja.exe 1.13.2 refuses a path longer than MAX_PATH here, "path too
// long"; with the wide functions ronin has no such limit.)
bool NormalizeIncludePath(std::string* path, std::string* err) {
  uint64_t slash_bits;
  CanonicalizePath(path, &slash_bits);
  std::string absolute, working_directory;
  if (!Absolute(*path, &absolute, err)) return false;
  if (!Absolute(".", &working_directory, err)) Fatal("Initializing IncludesNormalize(): %s", err->c_str());
  if (!SameDrive(absolute, working_directory, err)) return err->empty();
  *path = RelativeIncludePath(absolute, working_directory);
  return true;
}

}  // namespace ronin
