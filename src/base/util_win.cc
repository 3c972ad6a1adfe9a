// util.h's facts about the machine on Windows, as ninja.exe finds them:
// the logical CPUs of every processor group (a job object's CPU rate cap
// applied), a load average emulated from the system's busy time, the tick
// count, the C library's working directory.
#include "base/util.h"

#include <direct.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

int GetProcessorCount() {
  DWORD count = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  JOBOBJECT_CPU_RATE_CONTROL_INFORMATION rate;
  if (QueryInformationJobObject(nullptr, JobObjectCpuRateControlInformation, &rate, sizeof rate, nullptr) &&
      (rate.ControlFlags & (JOB_OBJECT_CPU_RATE_CONTROL_ENABLE | JOB_OBJECT_CPU_RATE_CONTROL_HARD_CAP))) {
    // CpuRate is in 1/100 of a percent of the machine.
    return static_cast<int>(count * rate.CpuRate / 10000);
  }
  return static_cast<int>(count);
}

double LoadEstimate::Sample(uint64_t idle_ticks, uint64_t total_ticks) {
  uint64_t idle = idle_ticks - idle_ticks_;
  uint64_t total = total_ticks - total_ticks_;
  if (total_ticks_ != 0 && total != 0) {
    double busy = 1.0 - static_cast<double>(idle) / static_cast<double>(total);
    load_ = load_ > 0 ? 0.9 * load_ + 0.1 * busy : busy;
  }
  idle_ticks_ = idle_ticks;
  total_ticks_ = total_ticks;
  return load_;
}

namespace {

uint64_t Ticks(const FILETIME& time) {
  return (static_cast<uint64_t>(time.dwHighDateTime) << 32) | time.dwLowDateTime;
}

}  // namespace

double GetLoadAverage() {
  static LoadEstimate estimate;
  FILETIME idle, kernel, user;
  if (!GetSystemTimes(&idle, &kernel, &user)) return -0.0;
  // Kernel time includes the idle time.
  return estimate.Sample(Ticks(idle), Ticks(kernel) + Ticks(user)) * GetProcessorCount();
}

int64_t MonotonicMillis() {
  // The performance counter: GetTickCount64 moves in steps of ~16 ms.
  static const int64_t frequency = [] {
    LARGE_INTEGER value;
    QueryPerformanceFrequency(&value);
    return value.QuadPart;
  }();
  LARGE_INTEGER now;
  QueryPerformanceCounter(&now);
  return now.QuadPart / frequency * 1000 + now.QuadPart % frequency * 1000 / frequency;
}

int64_t CommandLineLimit() { return 32767; }  // CreateProcess's, in characters

bool ActiveCodePageIsUtf8() { return GetACP() == CP_UTF8; }

std::string LastSystemError() { return LastErrorText(); }

std::string RawCommandLine() {
  const wchar_t* line = GetCommandLineW();
  return Utf8Text(line, wcslen(line));
}

void PutEnvironmentEntry(const std::string& entry) { _putenv(entry.c_str()); }

void UseOneMallocArena() {}

// UTF-8 whatever the code page, as every path ronin holds.
std::string WorkingDirectory() {
  std::vector<wchar_t> buffer(1024);
  while (!_wgetcwd(buffer.data(), static_cast<int>(buffer.size()))) {
    if (errno != ERANGE) Fatal("cannot determine working directory: %s", strerror(errno));
    buffer.resize(buffer.size() * 2);
  }
  return Utf8Text(buffer.data(), wcslen(buffer.data()));
}

}  // namespace ronin
