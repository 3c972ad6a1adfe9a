// subprocess.h on Windows, behaving as ninja.exe 1.13.2 does:
// * CreateProcess runs the command line as it is (no `cmd /c`, which would
//   cut command lines at 8191 characters). A non-console job inherits only
//   its pipe end and NUL (a handle list; ninja.exe lets it inherit every
//   inheritable handle, the build log's among them).
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
// * With the job reaper (exec/job_reaper.h), each command starts suspended
//   and runs once it is in the reaper's job, so that no child it starts is
//   born outside it.
// * Once kStartsInline jobs run, the next ones start on spawner threads (a
//   TaskPool): CreateProcess takes milliseconds, and ninja.exe's loop,
//   starting each in turn, caps near a hundred starts a second. A spawner
//   posts a completion for the job to the port when its CreateProcess
//   returned, before it lets go of the pipe's write end, so the loop learns
//   of the process before it can see the pipe close. Up to kStartsInline
//   (every -j1 build) jobs start in the loop itself, in the order asked.
// * A job's peak memory is the larger of what Windows reports for its
//   process once ended and what the set's WorkingSetSampler saw of its
//   tree while it ran (wine reports 0 for an ended process).
#include "exec/subprocess.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "audit/access_monitor.h"
#include "base/task_pool.h"
#include "base/util.h"
#include "base/wide_path.h"
#include "base/win32.h"
#include "exec/working_set_sampler.h"

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

// Jobs running before the next starts on a spawner thread, and how many
// spawners there are.
constexpr size_t kStartsInline = 4;
constexpr size_t kSpawners = 4;
// Tries of a start that failed with ERROR_INTERNAL_ERROR.
constexpr int kStartAttempts = 3;

// While a command's inheritable handles exist they are held shared; a
// console job, which inherits every inheritable handle as with ninja.exe
// (its standard handles are ninja's own), starts holding it exclusively,
// so that it cannot take another job's pipe end with it.
std::shared_mutex g_inheritable_handles;

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
  // Creates the job's pipe on `port`, its completions marked `key`, and
  // waits on it for the child's end to open (Launch opens it).
  void SetUpPipe(ULONG_PTR key, HANDLE port);
  // What CreateProcess needs; a copy goes to the spawner.
  struct Order {
    std::string command;
    bool use_console;
    JobReaper* reaper;
    WorkingSetSampler* sampler;  // told of the process once it runs
    JobFiles files;
    const std::atomic<bool>* cancelled;  // the set is clearing: start nothing
  };
  // Opens the pipe's write end and NUL and starts the command (on the loop
  // or a spawner); with `port`, posts the launch's completion there. Only
  // the fields of the launch's result are written.
  void Launch(const Order& order, HANDLE port);
  // The launch's result, in the loop, once it is over (`launched`): the
  // process, or a job that failed to start.
  void TakeLaunch(Subprocess* job);
  // A completion on the pipe: the connection, or a read. Starts the next
  // read; at the pipe's end closes it, which makes the job done.
  void OnPipeReady(Subprocess* job);
  void ClosePipe();
  // Waits for the process to end, keeps its exit code and peak, and closes it.
  void Reap(Subprocess* job);

  ULONG_PTR key = 0;
  std::string pipe_name;
  HANDLE process = nullptr;
  HANDLE pipe = nullptr;
  OVERLAPPED overlapped = {};
  char buffer[4 << 10];
  bool reading = false;  // a read (not the connection) is under way
  JobReaper* reaper = nullptr;  // told of the start and of the end
  std::shared_ptr<WorkingSetSampler> sampler;  // the set's: it may end first
  TaskPool* spawners = nullptr;  // when it starts on one
  bool taken = false;  // TakeLaunch ran

  // The launch's result, written by whoever launches before `launched`.
  OVERLAPPED launched_marker = {};  // its completion's, never read into
  std::atomic<bool> launched{false};
  HANDLE launched_process = nullptr;
  DWORD launched_pid = 0;
  bool not_found = false;
  // Kept by Reap (which sets the job's exited_): Finish may be asked again
  // (SubprocessSet::WaitForRoom reaps a finished job early) and answers
  // the same.
  DWORD exit_code = 0;
};

struct SubprocessSet::Platform {
  HANDLE port = nullptr;
  // The running jobs by their completions' key.
  std::unordered_map<ULONG_PTR, Subprocess*> jobs;
  ULONG_PTR next_key = 1;  // 0 is the interrupt's
  std::atomic<bool> cancelled{false};
  // Before the spawners, which tell it of the jobs they start.
  std::shared_ptr<WorkingSetSampler> sampler = std::make_shared<WorkingSetSampler>();
  TaskPool spawners{kSpawners};
};

void Subprocess::Platform::SetUpPipe(ULONG_PTR job_key, HANDLE port) {
  key = job_key;
  pipe_name = PipeName();
  pipe = CreateNamedPipeA(pipe_name.c_str(), PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE,
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
}

namespace {

// ninja.exe's words for a start that stops the build.
[[noreturn]] void StopForStartFailure(const std::string& command, DWORD error) {
  fprintf(stderr, "\nCreateProcess failed. Command attempted:\n\"%s\"\n", command.c_str());
  std::string text = ErrorText(error);
  if (error == ERROR_INVALID_PARAMETER) {
    bool leading_blank = !command.empty() && (command[0] == ' ' || command[0] == '\t');
    Fatal("CreateProcess: %s (%s)", text.c_str(),
          leading_blank ? "command contains leading whitespace" : "is the command line too long?");
  }
  Fatal("CreateProcess: %s", text.c_str());
}

// CreateProcess of `command`; 0 or the error. ERROR_INTERNAL_ERROR is
// tried again: wine reported it once in ~1,000 starts at -j64 under load,
// where ninja.exe would have stopped the build.
// The line goes as UTF-16, so that a command's UTF-8 reaches it whatever the
// code page (WideCommandLine keeps ninja.exe's length limit).
DWORD CreateProcessRetrying(const std::string& command, DWORD flags, STARTUPINFOEXW* startup,
                            PROCESS_INFORMATION* process) {
  std::wstring line;
  if (!WideCommandLine(command, &line)) return GetLastError();
  for (int attempt = 1;; ++attempt) {
    if (CreateProcessW(nullptr, &line[0], nullptr, nullptr, /*inherit handles=*/TRUE, flags, nullptr, nullptr,
                       &startup->StartupInfo, process))
      return 0;
    DWORD error = GetLastError();
    if (error != ERROR_INTERNAL_ERROR || attempt == kStartAttempts) return error;
    Sleep(10 * attempt);
  }
}

}  // namespace

void Subprocess::Platform::Launch(const Order& order, HANDLE port) {
  std::shared_lock<std::shared_mutex> shared(g_inheritable_handles, std::defer_lock);
  std::unique_lock<std::shared_mutex> exclusive(g_inheritable_handles, std::defer_lock);
  if (order.use_console)
    exclusive.lock();
  else
    shared.lock();
  SECURITY_ATTRIBUTES inheritable = {sizeof inheritable, nullptr, TRUE};
  HANDLE child_pipe = CreateFileA(pipe_name.c_str(), GENERIC_WRITE, 0, &inheritable, OPEN_EXISTING, 0, nullptr);
  if (child_pipe == INVALID_HANDLE_VALUE) Fatal("CreateFile(%s): %s", pipe_name.c_str(), LastErrorText().c_str());
  HANDLE nul = CreateFileA("NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inheritable,
                           OPEN_EXISTING, 0, nullptr);
  if (nul == INVALID_HANDLE_VALUE) Fatal("couldn't open nul");

  STARTUPINFOEXW startup = {};
  startup.StartupInfo.cb = sizeof startup.StartupInfo;
  InheritOnly inherited({child_pipe, nul});
  DWORD flags = (order.use_console ? 0 : CREATE_NEW_PROCESS_GROUP) | (order.reaper ? CREATE_SUSPENDED : 0);
  if (!order.use_console) {
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = nul;
    startup.StartupInfo.hStdOutput = child_pipe;
    startup.StartupInfo.hStdError = child_pipe;
    flags |= inherited.Attach(&startup);
  }
  // A cancelled job is one never started, as one not found.
  PROCESS_INFORMATION process = {};
  DWORD error = order.cancelled->load() ? ERROR_CANCELLED
                                        : CreateProcessRetrying(order.command, flags, &startup, &process);
  if (error && error != ERROR_CANCELLED && error != ERROR_FILE_NOT_FOUND) StopForStartFailure(order.command, error);
  if (!error) {
    if (order.reaper) {
      order.reaper->Started(static_cast<pid_t>(process.dwProcessId), !order.use_console, order.files);
      ResumeThread(process.hThread);
    }
    CloseHandle(process.hThread);
    order.sampler->Watch(process.hProcess);
  }
  launched_process = process.hProcess;
  launched_pid = process.dwProcessId;
  not_found = error != 0;
  launched.store(true, std::memory_order_release);
  // Before the write end closes: the pipe's end comes after this.
  if (port && !PostQueuedCompletionStatus(port, 0, key, &launched_marker))
    Fatal("PostQueuedCompletionStatus: %s", LastErrorText().c_str());
  CloseHandle(child_pipe);
  CloseHandle(nul);
}

void Subprocess::Platform::TakeLaunch(Subprocess* job) {
  if (taken) return;
  if (!launched.load(std::memory_order_acquire)) spawners->Drain();
  taken = true;
  if (not_found) {
    // Not a reason to stop the build: the job fails, saying why.
    job->output_ = "CreateProcess failed: The system cannot find the file specified.\n";
    return;
  }
  process = launched_process;
  job->pid_ = static_cast<pid_t>(launched_pid);
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
  platform_->TakeLaunch(this);
  if (platform_->pipe) platform_->ClosePipe();
  // Never leave a job behind unaccounted.
  if (platform_->process) Finish();
}

bool Subprocess::Start(SubprocessSet* set, const std::string& command, const JobFiles* files) {
  SubprocessSet::Platform* jobs = set->platform_.get();
  // Started before any inheritable handle of a job exists.
  JobReaper* reaper = set->reaps_jobs() ? JobReaper::Get() : nullptr;
  platform_->reaper = reaper;
  platform_->sampler = jobs->sampler;
  platform_->SetUpPipe(jobs->next_key++, jobs->port);
  jobs->jobs[platform_->key] = this;
  Platform::Order order{command, use_console_, reaper, jobs->sampler.get(), files ? *files : JobFiles(),
                        &jobs->cancelled};
  if (use_console_ || set->running_count() < kStartsInline) {
    platform_->Launch(order, nullptr);
    platform_->TakeLaunch(this);
    if (platform_->not_found) {
      // Done at once. Its pipe's connection may have completed already: a
      // completion still to come for its key must find no job (the job
      // may be gone by then).
      platform_->ClosePipe();
      jobs->jobs.erase(platform_->key);
    }
    return true;
  }
  Platform* platform = platform_.get();
  platform->spawners = &jobs->spawners;
  HANDLE port = jobs->port;
  jobs->spawners.Post([platform, order, port] { platform->Launch(order, port); });
  return true;
}

bool Subprocess::Done() const { return platform_->pipe == nullptr; }

ExitStatus Subprocess::Finish() {
  platform_->TakeLaunch(this);
  if (platform_->process) platform_->Reap(this);
  if (!exited_) return kExitFailure;  // never started (not found)
  DWORD code = platform_->exit_code;
  return code == CONTROL_C_EXIT ? kExitInterrupted : static_cast<ExitStatus>(code);
}

void Subprocess::Platform::Reap(Subprocess* job) {
  WaitForSingleObject(process, INFINITE);
  // While its handle is open, its id cannot name another process.
  if (reaper) reaper->Reaped(job->pid_, !job->use_console_);
  GetExitCodeProcess(process, &exit_code);
  job->peak_rss_kib_ = sampler->Forget(process) / 1024;
  CloseHandle(process);
  process = nullptr;
  job->exited_ = true;
}

SubprocessSet::SubprocessSet(bool reap_jobs, bool watch_commands)
    : reap_jobs_(reap_jobs), watch_commands_(watch_commands), platform_(new Platform) {
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
  if (overlapped == &job->platform_->launched_marker)
    job->platform_->TakeLaunch(job);  // the job's output keeps coming through its pipe
  else
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
  // What is still to start never starts; what is starting is waited for.
  platform_->cancelled = true;
  platform_->spawners.Drain();
  platform_->cancelled = false;
  // A console job shares ninja's console: a Ctrl-C reached it already.
  for (Subprocess* job : running_) {
    job->platform_->TakeLaunch(job);
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
