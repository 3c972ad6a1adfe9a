// subprocess.h on Windows, behaving as ninja.exe 1.13.2 does:
// * CreateProcess runs the command line as it is (no `cmd /c`, which would
//   cut command lines at 8191 characters), inheriting handles.
// * A non-console job gets a process group of its own (so a console's
//   Ctrl-C reaches ninja, which forwards it as Ctrl-Break), NUL as stdin,
//   and one pipe for stdout and stderr. A console job keeps ninja's
//   console; it still inherits the pipe's write end (not as an output), so
//   that its end, and its children's, shows as the pipe closing.
// * A program that cannot be found is the job's failure, with ninja.exe's
//   words as its output; any other failure to start is fatal, with a hint
//   for the usual causes of ERROR_INVALID_PARAMETER.
// * The job's output is read with overlapped I/O on one completion port;
//   the console's Ctrl-C and Ctrl-Break handler posts to the same port.
//   A completion names its job by a number, never reused: one that comes
//   for a job already gone (its pipe closed) is dropped. (ninja.exe names
//   it by its address, and a program that cannot be found leaves a stale
//   completion behind that later stops the build with "ReadFile: Invalid
//   handle.", or crashes it.)
#include "exec/subprocess.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include <algorithm>
#include <atomic>
#include <unordered_map>
#include <vector>

#include "audit/access_monitor.h"
#include "base/util.h"
#include "base/win32.h"

#include <psapi.h>

namespace ronin {

namespace {

// The port DoWork waits on, for the console control handler (a thread of
// its own, started by the system).
std::atomic<HANDLE> g_interrupt_port{nullptr};

BOOL WINAPI NotifyInterrupted(DWORD event) {
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT) return FALSE;
  HANDLE port = g_interrupt_port.load();
  // A completion with no job (key 0, no overlapped) means "interrupted".
  if (port) PostQueuedCompletionStatus(port, 0, 0, nullptr);
  return TRUE;
}

// A unique name for a job's pipe.
std::string PipeName() {
  static std::atomic<unsigned> counter{0};
  char name[96];
  snprintf(name, sizeof name, "\\\\.\\pipe\\ronin_pid%lu_job%u", static_cast<unsigned long>(GetCurrentProcessId()),
           counter++);
  return name;
}

}  // namespace

struct Subprocess::Platform {
  // Creates the job's pipe on `port`, its completions marked `key`;
  // returns the write end, inheritable, for the child (the read end stays
  // in `pipe`).
  HANDLE SetUpPipe(ULONG_PTR key, HANDLE port);
  // A completion on the pipe: the connection, or a read. Starts the next
  // read; at the pipe's end closes it, which makes the job done.
  void OnPipeReady(Subprocess* job);
  void ClosePipe();

  ULONG_PTR key = 0;
  HANDLE process = nullptr;
  HANDLE pipe = nullptr;
  OVERLAPPED overlapped = {};
  char buffer[4 << 10];
  bool reading = false;  // a read (not the connection) is under way
};

struct SubprocessSet::Platform {
  HANDLE port = nullptr;
  // The running jobs by their completions' key.
  std::unordered_map<ULONG_PTR, Subprocess*> jobs;
  ULONG_PTR next_key = 1;  // 0 is the interrupt's
};

HANDLE Subprocess::Platform::SetUpPipe(ULONG_PTR job_key, HANDLE port) {
  key = job_key;
  std::string name = PipeName();
  pipe = CreateNamedPipeA(name.c_str(), PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE,
                          PIPE_UNLIMITED_INSTANCES, 0, 0, INFINITE, nullptr);
  if (pipe == INVALID_HANDLE_VALUE) {
    pipe = nullptr;
    Fatal("CreateNamedPipe: %s", LastErrorText().c_str());
  }
  if (!CreateIoCompletionPort(pipe, port, key, 0))
    Fatal("CreateIoCompletionPort: %s", LastErrorText().c_str());
  // The connection completes on the port once the child's end is open.
  if (!ConnectNamedPipe(pipe, &overlapped) && GetLastError() != ERROR_IO_PENDING)
    Fatal("ConnectNamedPipe: %s", LastErrorText().c_str());
  SECURITY_ATTRIBUTES inherited = {sizeof inherited, nullptr, TRUE};
  HANDLE write_end = CreateFileA(name.c_str(), GENERIC_WRITE, 0, &inherited, OPEN_EXISTING, 0, nullptr);
  if (write_end == INVALID_HANDLE_VALUE) Fatal("CreateFile(%s): %s", name.c_str(), LastErrorText().c_str());
  return write_end;
}

void Subprocess::Platform::ClosePipe() {
  CloseHandle(pipe);
  pipe = nullptr;
}

void Subprocess::Platform::OnPipeReady(Subprocess* job) {
  DWORD bytes = 0;
  if (!GetOverlappedResult(pipe, &overlapped, &bytes, TRUE)) {
    if (GetLastError() == ERROR_BROKEN_PIPE) return ClosePipe();
    Fatal("GetOverlappedResult: %s", LastErrorText().c_str());
  }
  if (reading && bytes) job->output_.append(buffer, bytes);
  // The next read; its completion (even an immediate one) comes through
  // the port as well.
  overlapped = OVERLAPPED();
  reading = true;
  if (!ReadFile(pipe, buffer, sizeof buffer, &bytes, &overlapped)) {
    DWORD error = GetLastError();
    if (error == ERROR_BROKEN_PIPE) return ClosePipe();
    if (error != ERROR_IO_PENDING) Fatal("ReadFile: %s", LastErrorText().c_str());
  }
}

Subprocess::Subprocess(bool use_console) : use_console_(use_console), platform_(new Platform) {}

Subprocess::~Subprocess() {
  if (platform_->pipe) platform_->ClosePipe();
  // Never leave a job behind unaccounted.
  if (platform_->process) Finish();
}

bool Subprocess::Start(SubprocessSet* set, const std::string& command, const JobFiles*) {
  HANDLE child_pipe = platform_->SetUpPipe(set->platform_->next_key++, set->platform_->port);
  SECURITY_ATTRIBUTES inherited = {sizeof inherited, nullptr, TRUE};
  HANDLE nul = CreateFileA("NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherited,
                           OPEN_EXISTING, 0, nullptr);
  if (nul == INVALID_HANDLE_VALUE) Fatal("couldn't open nul");

  STARTUPINFOA startup = {};
  startup.cb = sizeof startup;
  if (!use_console_) {
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = nul;
    startup.hStdOutput = child_pipe;
    startup.hStdError = child_pipe;
  }
  PROCESS_INFORMATION process = {};
  DWORD flags = use_console_ ? 0 : CREATE_NEW_PROCESS_GROUP;
  std::vector<char> line(command.begin(), command.end());
  line.push_back('\0');
  bool started = CreateProcessA(nullptr, line.data(), nullptr, nullptr, /*inherit handles=*/TRUE, flags, nullptr,
                                nullptr, &startup, &process);
  DWORD error = started ? 0 : GetLastError();
  CloseHandle(child_pipe);
  CloseHandle(nul);
  if (!started) {
    if (error == ERROR_FILE_NOT_FOUND) {
      // Not a reason to stop the build: the job fails, saying why.
      platform_->ClosePipe();
      output_ = "CreateProcess failed: The system cannot find the file specified.\n";
      return true;
    }
    fprintf(stderr, "\nCreateProcess failed. Command attempted:\n\"%s\"\n", command.c_str());
    std::string text = ErrorText(error);
    if (error == ERROR_INVALID_PARAMETER) {
      bool leading_blank = !command.empty() && (command[0] == ' ' || command[0] == '\t');
      Fatal("CreateProcess: %s (%s)", text.c_str(),
            leading_blank ? "command contains leading whitespace" : "is the command line too long?");
    }
    Fatal("CreateProcess: %s", text.c_str());
  }
  CloseHandle(process.hThread);
  platform_->process = process.hProcess;
  pid_ = static_cast<pid_t>(process.dwProcessId);
  set->platform_->jobs[platform_->key] = this;
  return true;
}

bool Subprocess::Done() const { return platform_->pipe == nullptr; }

ExitStatus Subprocess::Finish() {
  if (!platform_->process) return kExitFailure;  // never started (not found)
  WaitForSingleObject(platform_->process, INFINITE);
  DWORD code = 0;
  GetExitCodeProcess(platform_->process, &code);
  PROCESS_MEMORY_COUNTERS memory;
  if (GetProcessMemoryInfo(platform_->process, &memory, sizeof memory))
    peak_rss_kib_ = static_cast<int64_t>(memory.PeakWorkingSetSize / 1024);
  CloseHandle(platform_->process);
  platform_->process = nullptr;
  exited_ = true;
  return code == CONTROL_C_EXIT ? kExitInterrupted : static_cast<ExitStatus>(code);
}

// No reaper on Windows (exec/job_reaper_win.cc): no job's files are
// gathered for one.
SubprocessSet::SubprocessSet(bool, bool watch_commands)
    : reap_jobs_(false), watch_commands_(watch_commands), platform_(new Platform) {
  platform_->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
  if (!platform_->port) Fatal("CreateIoCompletionPort: %s", LastErrorText().c_str());
  g_interrupt_port = platform_->port;
  if (!SetConsoleCtrlHandler(NotifyInterrupted, TRUE)) Fatal("SetConsoleCtrlHandler: %s", LastErrorText().c_str());
}

bool SubprocessSet::StartWatching() {
  // No access monitor here (--audit is refused before a build starts).
  return AccessMonitorAvailable(&monitor_error_);
}

SubprocessSet::~SubprocessSet() {
  Clear();
  SetConsoleCtrlHandler(NotifyInterrupted, FALSE);
  g_interrupt_port = nullptr;
  CloseHandle(platform_->port);
}

bool SubprocessSet::DoWork(int, bool*, int64_t timeout_millis) {
  // (No descriptor to wake on here: the jobserver's semaphore is not
  // waited for, as in ninja.exe 1.13.)
  DWORD bytes;
  ULONG_PTR key = 0;
  OVERLAPPED* overlapped = nullptr;
  DWORD timeout = timeout_millis < 0 ? INFINITE : static_cast<DWORD>(std::min<int64_t>(timeout_millis, INFINITE - 1));
  if (!GetQueuedCompletionStatus(platform_->port, &bytes, &key, &overlapped, timeout)) {
    if (!overlapped) {
      if (GetLastError() == WAIT_TIMEOUT) return false;
      Fatal("GetQueuedCompletionStatus: %s", LastErrorText().c_str());
    }
    // A failed read (the pipe broke): OnPipeReady sees it.
  }
  if (key == 0) {
    interrupted_ = SIGINT;
    return true;
  }
  auto known = platform_->jobs.find(key);
  if (known == platform_->jobs.end()) return false;  // for a job that is over
  Subprocess* job = known->second;
  job->platform_->OnPipeReady(job);
  if (job->Done()) {
    platform_->jobs.erase(known);
    auto running = std::find(running_.begin(), running_.end(), job);
    if (running != running_.end()) {
      running_.erase(running);
      finished_.push_back(job);
    }
  }
  return false;
}

void SubprocessSet::Clear() {
  // A console job shares ninja's console: a Ctrl-C reached it already.
  for (Subprocess* job : running_) {
    if (!job->platform_->process || job->use_console_) continue;
    // Without a console to send it through, the job is ended outright:
    // waiting for it below must not wait forever.
    if (!GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, GetProcessId(job->platform_->process)))
      TerminateProcess(job->platform_->process, CONTROL_C_EXIT);
  }
  for (Subprocess* job : running_) delete job;
  running_.clear();
  platform_->jobs.clear();
  for (Subprocess* job : finished_) delete job;
  finished_.clear();
}

}  // namespace ronin
