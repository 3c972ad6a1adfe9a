// Paths and command lines for Windows' wide-character APIs (issue 27 item
// 3). ronin keeps every path as UTF-8 bytes, as the manifest spells it; the
// *_win.cc files hand them to the W functions (CreateFileW,
// FindFirstFileExW, CreateProcessW ...) through these, so that neither the
// active code page nor MAX_PATH limits them.
// Windows only: the POSIX files never convert.
#ifndef RONIN_BASE_WIDE_PATH_H_
#define RONIN_BASE_WIDE_PATH_H_

#include <string>

namespace ronin {

// UTF-8 to UTF-16 and back; invalid sequences become U+FFFD, as
// MultiByteToWideChar makes them.
std::wstring WideText(const std::string& utf8);
std::string Utf8Text(const wchar_t* wide, size_t size);
inline std::string Utf8Text(const std::wstring& wide) { return Utf8Text(wide.data(), wide.size()); }

// `path` as a W function takes it. A path whose absolute form is too long
// for MAX_PATH becomes that absolute form with the "\\?\" prefix ("\\?\UNC\"
// for a share), which has no such limit whatever the system's long-path
// setting; a shorter one stays as it is, so that device names (NUL) and
// Windows' usual parsing still apply to it.
std::wstring WidePath(const std::string& path);

// `command` as CreateProcessW's command line. False, with GetLastError()
// ERROR_INVALID_PARAMETER, for one of 32,767 characters or more (with its
// terminating null, more than a UNICODE_STRING holds):
// CreateProcessA (ninja.exe's) refuses such a line so, its UTF-16 copy
// having to fit one, while CreateProcessW's own check differs
// (wine's has none), and ninja.exe's failure and hint are kept.
bool WideCommandLine(const std::string& command, std::wstring* line);

}  // namespace ronin

#endif  // RONIN_BASE_WIDE_PATH_H_
