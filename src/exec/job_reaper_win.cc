// job_reaper.h on Windows: one job object for every command, and ninja.exe
// started again as the reaper (RunIfAsked). The reaper inherits exactly
// three handles (a handle list): the read end of the events' pipe, the
// write end of its answers' pipe, and the job. Commands never inherit the
// job (else one of them would keep it open), and the job lets a program
// that asks to leave it (CREATE_BREAKAWAY_FROM_JOB) go.
#include "exec/job_reaper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/disk.h"
#include "base/file_io.h"
#include "base/wide_path.h"
#include "base/win32.h"
#include "exec/job_reaper_protocol.h"
#include "log/build_lock.h"

namespace ronin {

using namespace reaper_protocol;

namespace {

// argv[1] of ninja.exe started as a reaper; no user's flag looks like it.
constexpr char kReaperFlag[] = "--ronin-internal-job-reaper";
constexpr DWORD kDeathWaitMillis = 2000;     // a process stuck in the kernel is not waited for longer
constexpr DWORD kHandoverWaitMillis = 30000;  // a previous reaper that hangs does not stop this one

bool ReadFull(HANDLE pipe, void* buffer, size_t bytes) {
  char* at = static_cast<char*>(buffer);
  while (bytes > 0) {
    DWORD n = 0;
    if (!ReadFile(pipe, at, static_cast<DWORD>(std::min<size_t>(bytes, 1 << 20)), &n, nullptr) || n == 0)
      return false;
    at += n;
    bytes -= n;
  }
  return true;
}

bool WriteFull(HANDLE pipe, const char* data, size_t bytes) {
  while (bytes > 0) {
    DWORD n = 0;
    if (!WriteFile(pipe, data, static_cast<DWORD>(std::min<size_t>(bytes, 1 << 20)), &n, nullptr)) return false;
    data += n;
    bytes -= n;
  }
  return true;
}

// ---- the reaper ----------------------------------------------------------

// The file records of each job still running, by its id and kind.
using Tracked = std::map<std::pair<int32_t, int32_t>, std::string>;

// Reads events until ninja's end of the pipe closes. False if ninja let go
// of the lock first (an orderly exit: nothing is to be killed).
bool Serve(HANDLE events, HANDLE answers, std::vector<HANDLE>* handovers, Tracked* jobs) {
  Header header;
  while (ReadFull(events, &header, sizeof header)) {
    std::pair<int32_t, int32_t> key(header.id, header.kind & kLonePid);
    if (header.kind & kAdd) {
      std::string records(header.payload, '\0');
      if (!ReadFull(events, &records[0], records.size())) break;
      (*jobs)[key] = std::move(records);
    } else if (header.kind & kLetGoOfLock) {
      for (HANDLE handover : *handovers) ReleaseMutex(handover);
      handovers->clear();
      char done = 1;
      WriteFull(answers, &done, 1);
      return false;
    } else {
      jobs->erase(key);
    }
  }
  return true;
}

// A file is removed only once nothing of the job can write it any more.
void WaitForDeaths(HANDLE job) {
  for (DWORD waited = 0; waited < kDeathWaitMillis; waited += 5) {
    JOBOBJECT_BASIC_ACCOUNTING_INFORMATION info;
    if (!QueryInformationJobObject(job, JobObjectBasicAccountingInformation, &info, sizeof info, nullptr) ||
        info.ActiveProcesses == 0)
      return;
    Sleep(5);
  }
}

// job_reaper_posix.cc's rule: a file goes if its job wrote it (its mtime
// moved) or always (an edge with a depfile).
void RemoveFiles(const std::string& records) {
  RealDiskInterface disk;
  size_t at = 0;
  while (records.size() - at >= kFileRecordHead) {
    int64_t mtime;
    uint32_t length;
    memcpy(&mtime, &records[at], 8);
    memcpy(&length, &records[at + 8], 4);
    at += kFileRecordHead;
    bool always = length & kAlways;
    length &= ~kAlways;
    if (length > records.size() - at) return;
    std::string path = records.substr(at, length);
    std::string err;
    if (always || disk.Stat(path, &err) != mtime) disk.RemoveFile(path);
    at += length;
  }
}

HANDLE HandleFromText(const char* text) {
  return reinterpret_cast<HANDLE>(static_cast<uintptr_t>(_strtoui64(text, nullptr, 10)));
}

// Takes each handover named, so that the next ninja waits for this reaper.
std::vector<HANDLE> TakeHandovers(char** names, int count) {
  std::vector<HANDLE> taken;
  for (int i = 0; i < count; ++i) {
    HANDLE handover = CreateMutexA(nullptr, FALSE, names[i]);
    if (!handover) continue;
    DWORD result = WaitForSingleObject(handover, kHandoverWaitMillis);
    if (result == WAIT_OBJECT_0 || result == WAIT_ABANDONED)
      taken.push_back(handover);
    else
      CloseHandle(handover);
  }
  return taken;
}

// ---- ninja's side --------------------------------------------------------

std::string HandleText(HANDLE handle) { return std::to_string(reinterpret_cast<uintptr_t>(handle)); }

HANDLE CreateKillingJob() {
  HANDLE job = CreateJobObjectA(nullptr, nullptr);
  if (!job) return nullptr;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK;
  if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits)) {
    CloseHandle(job);
    return nullptr;
  }
  return job;
}

void SetInherited(HANDLE handle, bool inherited) {
  SetHandleInformation(handle, HANDLE_FLAG_INHERIT, inherited ? HANDLE_FLAG_INHERIT : 0);
}

// Starts this program as the reaper, inheriting `handles` only (all of
// them, where the system has no handle list: they are the only inheritable
// ones besides what ninja.exe inherited itself).
bool StartReaperProcess(const std::vector<HANDLE>& handles) {
  std::string module = ExecutablePath();  // UTF-8, whatever the code page
  if (module.empty()) return false;
  std::string line = "\"" + module + "\" " + kReaperFlag;
  for (HANDLE handle : handles) line += " " + HandleText(handle);
  for (const std::string& name : BuildLockHandoverNames()) line += " " + name;

  STARTUPINFOEXW startup = {};
  startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;  // none: it prints nothing
  InheritOnly inherited(handles);
  DWORD flags = DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP | inherited.Attach(&startup);
  std::wstring application = WideText(module), command = WideText(line);
  PROCESS_INFORMATION process = {};
  bool started = CreateProcessW(application.c_str(), &command[0], nullptr, nullptr, TRUE, flags, nullptr, nullptr,
                                &startup.StartupInfo, &process);
  if (!started) return false;
  CloseHandle(process.hThread);
  CloseHandle(process.hProcess);  // not ours to wait for: it ends after us
  return true;
}

}  // namespace

struct JobReaper::Platform {
  HANDLE events;   // ninja writes
  HANDLE answers;  // ninja reads
  HANDLE job;
  // Commands start on spawner threads too (exec/subprocess_win.cc): one
  // event at a time goes into the pipe, whole.
  std::mutex sending;
};

static JobReaper* g_reaper = nullptr;  // once started
// Whether this program's main asks RunIfAsked, so that starting it again
// makes a reaper. Another program using the library (the unit tests) would
// start a copy of itself that does something else entirely: it has none.
static bool g_serves = false;

bool JobReaper::RunIfAsked(int argc, char** argv, int* exit_code) {
  g_serves = true;
  if (argc < 5 || strcmp(argv[1], kReaperFlag) != 0) return false;
  HANDLE events = HandleFromText(argv[2]);
  HANDLE answers = HandleFromText(argv[3]);
  HANDLE job = HandleFromText(argv[4]);
  std::vector<HANDLE> handovers = TakeHandovers(argv + 5, argc - 5);
  char ready = 1;
  Tracked jobs;
  if (WriteFull(answers, &ready, 1) && Serve(events, answers, &handovers, &jobs)) {
    // ninja.exe ended without letting go: whatever it started dies.
    TerminateJobObject(job, 1);
    WaitForDeaths(job);
    for (const auto& tracked : jobs) RemoveFiles(tracked.second);
  }
  *exit_code = 0;  // the handovers are released as the process ends
  return true;
}

JobReaper* JobReaper::Get() {
  static JobReaper* reaper = g_reaper = []() -> JobReaper* {
    if (!g_serves) return nullptr;
    HANDLE job = CreateKillingJob();
    if (!job) return nullptr;
    SECURITY_ATTRIBUTES inheritable = {sizeof inheritable, nullptr, TRUE};
    HANDLE events_read, events_write, answers_read, answers_write;
    if (!CreatePipe(&events_read, &events_write, &inheritable, 0)) {
      CloseHandle(job);
      return nullptr;
    }
    if (!CreatePipe(&answers_read, &answers_write, &inheritable, 0)) {
      CloseHandle(events_read);
      CloseHandle(events_write);
      CloseHandle(job);
      return nullptr;
    }
    // ninja's ends are never inherited (a command holding the events' end
    // would hide ninja's death); the job only by the reaper.
    SetInherited(events_write, false);
    SetInherited(answers_read, false);
    SetInherited(job, true);
    bool started = StartReaperProcess({events_read, answers_write, job});
    SetInherited(job, false);
    CloseHandle(events_read);
    CloseHandle(answers_write);
    char ready = 0;
    // A reaper that could not start, or died before its handovers were
    // taken, leaves the build without one, as Ninja's would be.
    if (!started || !ReadFull(answers_read, &ready, 1)) {
      CloseHandle(events_write);
      CloseHandle(answers_read);
      CloseHandle(job);
      return nullptr;
    }
    return new JobReaper(new Platform{events_write, answers_read, job, {}});
  }();
  return reaper;
}

void JobReaper::Started(pid_t pid, bool whole_group, const JobFiles& files) {
  // The command is still suspended: its children will be born in the job.
  // Outside it (a system without nested jobs, and ninja.exe in a job of its
  // own), it runs as with Ninja.
  HANDLE process = OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, FALSE, static_cast<DWORD>(pid));
  if (process) {
    AssignProcessToJobObject(platform_->job, process);
    CloseHandle(process);
  }
  Send(AddEvent(pid, whole_group, files));
}

void JobReaper::Reaped(pid_t pid, bool whole_group) { Send(RemoveEvent(pid, whole_group)); }

void JobReaper::LetGoOfLock() {
  if (!g_reaper || !g_reaper->platform_->events) return;
  // What commands left running on purpose lives on past an orderly exit.
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_BREAKAWAY_OK;
  SetInformationJobObject(g_reaper->platform_->job, JobObjectExtendedLimitInformation, &limits, sizeof limits);
  g_reaper->Send(LetGoOfLockEvent());
  char done;
  if (g_reaper->platform_->events) ReadFull(g_reaper->platform_->answers, &done, 1);
}

void JobReaper::Send(const std::string& message) {
  std::lock_guard<std::mutex> lock(platform_->sending);
  if (platform_->events && !WriteFull(platform_->events, message.data(), message.size())) {
    CloseHandle(platform_->events);  // the reaper is gone: go on as Ninja would
    platform_->events = nullptr;
  }
}

}  // namespace ronin
