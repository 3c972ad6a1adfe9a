// Helpers that only the Windows files of the platform pairs (*_win.cc)
// use: Windows' error texts and times in the forms Ninja prints and
// records them.
#ifndef RONIN_BASE_WIN32_H_
#define RONIN_BASE_WIN32_H_

#include <windows.h>

#include <map>
#include <string>
#include <vector>

#include "base/util.h"

namespace ronin {

// FormatMessage's text for GetLastError() (or `error`), in English, as
// Ninja prints it: Windows' own line ending ("\r\n") included.
std::string LastErrorText();
std::string ErrorText(DWORD error);

// The errno value closest to a Windows error code (ENOENT for a missing
// file or directory, EACCES, EEXIST, ENOSPC ...; EIO for the rest).
int ErrnoFromWindowsError(DWORD error);
// Sets errno from GetLastError(); returns false, for `return Fail();`.
bool SetErrnoFromLastError();

// Every process's parent, by process id (a snapshot; ids may be reused, so
// a walk up these must be bounded). Empty if the system will not say.
std::map<DWORD, DWORD> ParentProcessIds();

// A file time as Ninja records it in .ninja_log and compares it: 100 ns
// units since 1601, less 400 years (so since 2001).
TimeStamp TimeStampFromFileTime(const FILETIME& time);
// And back: the FILETIME a TimeStamp stands for.
FILETIME FileTimeFromTimeStamp(TimeStamp time);

// Windows has no load average: ninja.exe derives one from the system's
// busy and idle time between two calls (GetSystemTimes), smoothed, times
// the CPU count. One sample at a time: the load to report, which is the
// previous one (-0.0 at first) until time has passed.
class LoadEstimate {
 public:
  double Sample(uint64_t idle_ticks, uint64_t total_ticks);

 private:
  uint64_t idle_ticks_ = 0;
  uint64_t total_ticks_ = 0;
  double load_ = -0.0;
};

// CreateProcess's extended start-up information naming the only handles
// the child inherits (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), instead of every
// inheritable handle of the process: a command then cannot hold another
// command's pipe open, nor the build log, whatever other thread creates
// inheritable handles meanwhile. Each handle must be inheritable.
class InheritOnly {
 public:
  explicit InheritOnly(std::vector<HANDLE> handles);
  ~InheritOnly();
  InheritOnly(const InheritOnly&) = delete;
  InheritOnly& operator=(const InheritOnly&) = delete;

  // Puts the list into `startup`; returns the creation flag that says so
  // (EXTENDED_STARTUPINFO_PRESENT), or 0 where the system has no handle
  // list (the child then inherits every inheritable handle).
  DWORD Attach(STARTUPINFOEXW* startup);

 private:
  std::vector<HANDLE> handles_;
  std::vector<char> attributes_;
  bool initialized_ = false;
};

}  // namespace ronin

#endif  // RONIN_BASE_WIN32_H_
