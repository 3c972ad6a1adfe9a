#include "base/wide_path.h"

#include <windows.h>

namespace ronin {

namespace {

// The longest absolute path every W function takes without "\\?\":
// CreateDirectoryW leaves room for an 8.3 name in MAX_PATH.
const size_t kShortPathLimit = MAX_PATH - 12;

bool StartsWith(const std::wstring& text, const wchar_t* prefix) {
  return text.compare(0, wcslen(prefix), prefix) == 0;
}

// GetFullPathNameW's answer for `path` (separators made '\', "." and ".."
// resolved, which a "\\?\" path would take literally); empty if it fails.
std::wstring FullPath(const std::wstring& path) {
  wchar_t buffer[MAX_PATH];
  DWORD size = GetFullPathNameW(path.c_str(), MAX_PATH, buffer, nullptr);
  if (size == 0) return std::wstring();
  if (size < MAX_PATH) return std::wstring(buffer, size);
  std::wstring full(size, L'\0');
  size = GetFullPathNameW(path.c_str(), size, &full[0], nullptr);
  full.resize(size);
  return full;
}

}  // namespace

std::wstring WideText(const std::string& utf8) {
  if (utf8.empty()) return std::wstring();
  int size = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
  std::wstring wide(size, L'\0');
  MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), &wide[0], size);
  return wide;
}

std::string Utf8Text(const wchar_t* wide, size_t size) {
  if (size == 0) return std::string();
  int length = static_cast<int>(size);
  int bytes = WideCharToMultiByte(CP_UTF8, 0, wide, length, nullptr, 0, nullptr, nullptr);
  std::string utf8(bytes, '\0');
  WideCharToMultiByte(CP_UTF8, 0, wide, length, &utf8[0], bytes, nullptr, nullptr);
  return utf8;
}

std::wstring WidePath(const std::string& path) {
  std::wstring wide = WideText(path);
  if (StartsWith(wide, L"\\\\?\\") || StartsWith(wide, L"\\\\.\\")) return wide;
  std::wstring full = FullPath(wide);
  if (full.size() < kShortPathLimit || StartsWith(full, L"\\\\?\\") || StartsWith(full, L"\\\\.\\"))
    return wide;
  if (StartsWith(full, L"\\\\")) return L"\\\\?\\UNC\\" + full.substr(2);
  return L"\\\\?\\" + full;
}

bool WideCommandLine(const std::string& command, std::wstring* line) {
  *line = WideText(command);
  if (line->size() < 32767) return true;  // with its terminating null
  SetLastError(ERROR_INVALID_PARAMETER);
  return false;
}

}  // namespace ronin
