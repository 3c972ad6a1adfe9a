// Tests for exec/subprocess.h (SubprocessSet, Subprocess), with the direct
// exec (exec/direct_exec.h) and the job reaper (exec/job_reaper.h) it uses.
//
// Two groups. SubprocessTest covers the interface every platform's
// implementation keeps: exit codes, output captured whole, many jobs, the
// console pool's output, waiting, peak memory. It runs commands made by
// the few functions of the "Commands" block, the one place of that group
// that spells POSIX shell; a Windows port supplies its own. SubprocessPosixTest
// covers what is POSIX itself: signals (a killed command, an interrupted
// ninja), process groups, standard input, descriptors, /bin/sh and the
// commands started without it.
//
// Nothing here asserts a duration: every wait has a generous guard that
// only turns a hang into a failure.
#include "exec/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "exec/direct_exec.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;

constexpr std::chrono::seconds kHangGuard(300);

// ------------------------------------------------------------ Commands
// POSIX spellings of the commands the interface tests run.

std::string ExitWith(int code) { return "exit " + std::to_string(code); }

// Prints `bytes` exactly (any byte, no newline added).
std::string PrintBytes(const std::string& bytes) {
  std::string command = "printf '";
  char octal[8];
  for (unsigned char c : bytes) {
    snprintf(octal, sizeof(octal), "\\%03o", c);
    command += octal;
  }
  return command + "'";
}

// Prints `out` on standard output, then `err` on standard error, then `out2`
// on standard output again.
std::string PrintOutErrOut(const std::string& out, const std::string& err, const std::string& out2) {
  return PrintBytes(out) + "; " + PrintBytes(err) + " >&2; " + PrintBytes(out2);
}

// Prints `count` lines of "0123456789".
std::string PrintLines(int count) { return "yes 0123456789 | head -n " + std::to_string(count); }

// A program name found nowhere.
std::string MissingProgram() { return "ronin-subprocess-test-no-such-program"; }

// Starts a process that touches `mib` MiB of memory (dd reads into one
// buffer of that size) and waits for it.
std::string UseMemoryInAChild(int mib) {
  return "dd if=/dev/zero of=/dev/null bs=" + std::to_string(mib) + "M count=1 2>/dev/null; exit 0";
}

// A command that runs until the test opens the gate: a reader of a named
// pipe, which ends at end of file.
class Gate {
 public:
  Gate() : path_(dir_.File("gate")) { EXPECT_EQ(0, mkfifo(path_.c_str(), 0600)) << strerror(errno); }
  // Lets a command still waiting go (a killed one is not waited for).
  ~Gate() { OpenOnce(); }
  std::string command() const { return "cat " + path_; }
  // Lets the command end, once it has opened its end.
  void Open() {
    auto deadline = std::chrono::steady_clock::now() + kHangGuard;
    while (!OpenOnce()) {
      if (errno != ENXIO || std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "open " << path_ << ": " << strerror(errno);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

 private:
  // False (ENXIO) while no reader has the pipe open.
  bool OpenOnce() {
    int fd = open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    close(fd);
    return true;
  }

  ScopedTempDir dir_;
  std::string path_;
};

// ------------------------------------------------------------ Helpers

// Calls DoWork until `done()`; false if interrupted or past the guard.
template <typename Done>
bool WorkUntil(SubprocessSet* set, Done done) {
  auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "hang guard: still waiting after " << kHangGuard.count() << " s";
      return false;
    }
    if (set->DoWork(-1, nullptr, 1000)) return false;
  }
  return true;
}

bool WorkUntilAllFinished(SubprocessSet* set) {
  return WorkUntil(set, [set] { return set->running_count() == 0; });
}

// Calls DoWork until it reports an interrupt; false past the guard.
bool WorkUntilInterrupted(SubprocessSet* set) {
  auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (!set->DoWork(-1, nullptr, 1000)) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "hang guard: no interrupt after " << kHangGuard.count() << " s";
      return false;
    }
  }
  return true;
}

struct Result {
  ExitStatus status = -1;
  std::string output;
  int64_t peak_rss_bytes = -1;
};

// Runs one command to its end.
Result RunToEnd(const std::string& command, bool use_console = false) {
  SubprocessSet set(/*reap_jobs=*/false);
  Result result;
  Subprocess* job = set.Add(command, use_console);
  EXPECT_NE(nullptr, job) << command;
  if (!job) return result;
  EXPECT_TRUE(WorkUntilAllFinished(&set)) << command;
  std::unique_ptr<Subprocess> finished = set.NextFinished();
  EXPECT_EQ(job, finished.get());
  if (!finished) return result;
  result.status = finished->Finish();
  result.output = finished->output();
  result.peak_rss_bytes = finished->peak_rss_bytes();
  return result;
}

// ------------------------------------------------------------ The interface

TEST(SubprocessTest, ExitCodesArePassedOn) {
  for (int code : {0, 1, 2, 3, 42, 255}) {
    Result result = RunToEnd(ExitWith(code));
    EXPECT_EQ(code, result.status) << code;
    EXPECT_EQ("", result.output) << code;
  }
}

TEST(SubprocessTest, AMissingProgramIs127) {
  Result result = RunToEnd(MissingProgram());
  EXPECT_EQ(127, result.status);
  EXPECT_NE(std::string::npos, result.output.find(MissingProgram())) << result.output;
  EXPECT_NE(std::string::npos, result.output.find("not found")) << result.output;
}

TEST(SubprocessTest, AFileWithoutExecutePermissionIs126) {
  ScopedTempDir dir;
  std::string path = dir.File("not-executable");
  test::WriteRealFile(path, "#!/bin/sh\necho ran\n");
  ASSERT_EQ(0, chmod(path.c_str(), 0644));
  Result result = RunToEnd(path);
  EXPECT_EQ(126, result.status);
  EXPECT_NE(std::string::npos, result.output.find("Permission denied")) << result.output;
}

TEST(SubprocessTest, StandardOutputAndErrorShareOnePipeInOrder) {
  Result result = RunToEnd(PrintOutErrOut("out\n", "err\n", "more out"));
  EXPECT_EQ(0, result.status);
  EXPECT_EQ("out\nerr\nmore out", result.output);
}

TEST(SubprocessTest, OutputLargerThanAPipeIsKeptWhole) {
  const int lines = 200000;  // 2.2 MB, many times a pipe's buffer
  Result result = RunToEnd(PrintLines(lines));
  EXPECT_EQ(0, result.status);
  ASSERT_EQ(static_cast<size_t>(lines) * 11, result.output.size());
  std::string expected;
  for (int i = 0; i < lines; ++i) expected += "0123456789\n";
  EXPECT_TRUE(result.output == expected) << "the output differs from " << lines << " equal lines";
}

TEST(SubprocessTest, OutputWithoutTrailingNewlineOrWithAnyByteIsKept) {
  EXPECT_EQ("no newline", RunToEnd(PrintBytes("no newline")).output);
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte.push_back(static_cast<char>(c));
  Result result = RunToEnd(PrintBytes(every_byte));
  EXPECT_EQ(0, result.status);
  EXPECT_EQ(every_byte, result.output);
  EXPECT_EQ("", RunToEnd(ExitWith(0)).output);
}

TEST(SubprocessTest, ManyJobsAtOnceFinishInTheirOwnOrder) {
  SubprocessSet set(/*reap_jobs=*/false);
  Gate gate;
  Subprocess* last = set.Add(gate.command());
  ASSERT_NE(nullptr, last);
  std::map<const Subprocess*, std::string> expected;
  for (int i = 0; i < 40; ++i) {
    std::string text = "job " + std::to_string(i) + "\n";
    Subprocess* job = set.Add(i % 2 ? PrintBytes(text) : PrintOutErrOut("job ", "", text.substr(4)));
    ASSERT_NE(nullptr, job);
    expected[job] = text;
  }
  EXPECT_EQ(41u, set.running_count());
  // Every job but the first one started ends while it still runs.
  ASSERT_TRUE(WorkUntil(&set, [&] { return set.finished_count() == expected.size(); }));
  EXPECT_EQ(1u, set.running_count());
  std::set<const Subprocess*> seen;
  while (std::unique_ptr<Subprocess> job = set.NextFinished()) {
    ASSERT_EQ(1u, expected.count(job.get()));
    EXPECT_EQ(0, job->Finish());
    EXPECT_EQ(expected[job.get()], job->output());
    EXPECT_TRUE(seen.insert(job.get()).second);
  }
  EXPECT_EQ(expected.size(), seen.size());
  gate.Open();
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::unique_ptr<Subprocess> job = set.NextFinished();
  EXPECT_EQ(last, job.get());
  EXPECT_EQ(0, job->Finish());
  EXPECT_EQ(nullptr, set.NextFinished());
}

TEST(SubprocessTest, ConsoleJobsOutputNothingThroughTheSet) {
  // Their output goes to the terminal (SubprocessPosixTest checks where).
  Result result = RunToEnd(ExitWith(3), /*use_console=*/true);
  EXPECT_EQ(3, result.status);
  EXPECT_EQ("", result.output);
}

TEST(SubprocessTest, PeakMemoryIsReportedOnceWaitedFor) {
  SubprocessSet set(/*reap_jobs=*/false);
  Gate gate;
  Subprocess* job = set.Add(gate.command());
  ASSERT_NE(nullptr, job);
  EXPECT_EQ(-1, job->peak_rss_bytes());
  gate.Open();
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::unique_ptr<Subprocess> finished = set.NextFinished();
  EXPECT_EQ(0, finished->Finish());
  EXPECT_GT(finished->peak_rss_bytes(), 0);

  // The command's whole tree counts: the shell waits for dd, and dd's
  // buffer is what makes the peak. On Linux a command's peak starts at the
  // resident size of the process it was spawned from (the kernel keeps
  // the larger of the old and the new image's at exec), so dd's buffer is
  // made larger than this process has ever been.
  const int64_t kMiB = 1 << 20;
  rusage own;
  ASSERT_EQ(0, getrusage(RUSAGE_SELF, &own));
  int buffer_mib = static_cast<int>(own.ru_maxrss * 1024 / kMiB) + 64;
  Result large = RunToEnd(UseMemoryInAChild(buffer_mib));
  EXPECT_EQ(0, large.status);
  EXPECT_GE(large.peak_rss_bytes, buffer_mib * kMiB);
  Result small = RunToEnd(ExitWith(0));
  EXPECT_GT(small.peak_rss_bytes, 0);
  EXPECT_LT(small.peak_rss_bytes, large.peak_rss_bytes);
}

TEST(SubprocessTest, DoWorkReturnsForTheWakeDescriptorAndTheTimeout) {
  SubprocessSet set(/*reap_jobs=*/false);
  Gate gate;
  ASSERT_NE(nullptr, set.Add(gate.command()));
  // A timeout alone: back with nothing finished and no interrupt.
  EXPECT_FALSE(set.DoWork(-1, nullptr, 10));
  EXPECT_EQ(1u, set.running_count());
  EXPECT_EQ(0u, set.finished_count());
  // A readable wake descriptor (a jobserver token) ends the wait.
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  ASSERT_EQ(1, write(fds[1], "+", 1));
  bool ready = false;
  EXPECT_FALSE(set.DoWork(fds[0], &ready));
  EXPECT_TRUE(ready);
  EXPECT_EQ(1u, set.running_count());
  close(fds[0]);
  close(fds[1]);
  gate.Open();
  EXPECT_TRUE(WorkUntilAllFinished(&set));
}

TEST(SubprocessTest, WaitForRoomReapsAFinishedJobAndKeepsItsResult) {
  SubprocessSet set(/*reap_jobs=*/false);
  Gate gate;
  ASSERT_NE(nullptr, set.Add(gate.command()));
  Subprocess* quick = set.Add(ExitWith(4));
  ASSERT_NE(nullptr, quick);
  EXPECT_TRUE(set.WaitForRoom());
  EXPECT_EQ(1u, set.finished_count());
  EXPECT_EQ(1u, set.running_count());
  std::unique_ptr<Subprocess> finished = set.NextFinished();
  EXPECT_EQ(quick, finished.get());
  EXPECT_GT(finished->peak_rss_bytes(), 0);  // already waited for
  EXPECT_EQ(4, finished->Finish());
  gate.Open();
  EXPECT_TRUE(WorkUntilAllFinished(&set));
}

TEST(SubprocessTest, TheJobReaperChangesNoResult) {
  SubprocessSet set(/*reap_jobs=*/true);
  EXPECT_TRUE(set.reaps_jobs());
  JobFiles files;  // nothing to remove: the job is not killed
  Subprocess* job = set.Add(PrintOutErrOut("a", "b", "c"), false, &files);
  Subprocess* console = set.Add(ExitWith(5), true, &files);
  ASSERT_NE(nullptr, job);
  ASSERT_NE(nullptr, console);
  ASSERT_TRUE(WorkUntilAllFinished(&set));
  std::map<const Subprocess*, ExitStatus> statuses;
  while (std::unique_ptr<Subprocess> finished = set.NextFinished()) {
    statuses[finished.get()] = finished->Finish();
    if (finished.get() == job) {
      EXPECT_EQ("abc", finished->output());
    }
  }
  EXPECT_EQ(0, statuses[job]);
  EXPECT_EQ(5, statuses[console]);
}

// ------------------------------------------------------------ POSIX

// Replaces descriptor `fd` for the scope.
class ScopedRedirect {
 public:
  ScopedRedirect(int fd, int replacement) : fd_(fd), saved_(dup(fd)) {
    EXPECT_GE(saved_, 0);
    EXPECT_EQ(fd, dup2(replacement, fd));
  }
  ~ScopedRedirect() {
    dup2(saved_, fd_);
    close(saved_);
  }

 private:
  int fd_;
  int saved_;
};

// Whether `pid` has ended: gone, or a zombie no one has reaped yet (an
// orphan waits for init, which in a container may never reap it).
bool Ended(pid_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  std::string stat;
  FILE* file = fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (!file) return false;
  char buffer[512];
  size_t n = fread(buffer, 1, sizeof(buffer), file);
  fclose(file);
  stat.assign(buffer, n);
  size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

bool EndsWithinGuard(pid_t pid) {
  auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (!Ended(pid)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// Waits (within the guard) for `path` to hold a pid written by a job.
pid_t PidFrom(const std::string& path) {
  auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string text;
    if (test::RealFileExists(path)) text = test::ReadRealFile(path);
    if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "no pid in " << path;
  return -1;
}

// Takes any SIGINT, SIGTERM or SIGHUP still pending. A signal that arrives
// after a wait ended is reported by the next one from the pending set
// without being taken; the set's destructor unblocks the signals with their
// default actions back, and the test would die of it.
void TakePendingInterrupts() {
  sigset_t interrupts;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  sigaddset(&interrupts, SIGHUP);
  timespec now = {0, 0};
  while (sigtimedwait(&interrupts, nullptr, &now) > 0) {
  }
}

std::string Kill(int signum, pid_t pid) {
  return "kill -" + std::to_string(signum) + " " + std::to_string(pid);
}

TEST(SubprocessPosixTest, AShellKilledByASignalIsAnInterruptOrItsStatusPlus128) {
  // Ninja's mapping (base/exit_status.h): SIGINT, SIGTERM and SIGHUP are
  // an interrupt; other signals give the raw wait status + 128.
  EXPECT_EQ(kExitInterrupted, RunToEnd("kill -INT $$; sleep 100").status);
  EXPECT_EQ(kExitInterrupted, RunToEnd("kill -TERM $$; sleep 100").status);
  EXPECT_EQ(kExitInterrupted, RunToEnd("kill -HUP $$; sleep 100").status);
  EXPECT_EQ(SIGKILL + 128, RunToEnd("kill -KILL $$; sleep 100").status);
  EXPECT_EQ(SIGUSR1 + 128, RunToEnd("kill -USR1 $$; sleep 100").status);
}

TEST(SubprocessPosixTest, AProgramStartedWithoutTheShellIsReportedAsTheShellWould) {
  if (!DirectExecEnabled()) GTEST_SKIP() << "RONIN_SKIP_SHELL=0";
  // `cat FIFO` has no shell syntax: it is the process itself. Killed by a
  // signal, it is reported as a shell reports a command it ran: 128 + the
  // signal, and the signal's name except for SIGINT.
  for (int signum : {SIGKILL, SIGTERM, SIGINT, SIGHUP}) {
    SubprocessSet set(/*reap_jobs=*/false);
    Gate gate;
    Subprocess* job = set.Add(gate.command());
    ASSERT_NE(nullptr, job);
    ASSERT_EQ(0, kill(job->pid(), signum));
    ASSERT_TRUE(WorkUntilAllFinished(&set));
    std::unique_ptr<Subprocess> finished = set.NextFinished();
    EXPECT_EQ(128 + signum, finished->Finish()) << signum;
    std::string name = signum == SIGINT ? "" : std::string(strsignal(signum)) + "\n";
    EXPECT_EQ(name, finished->output()) << signum;
  }
}

TEST(SubprocessPosixTest, DirectExecGivesTheShellsResults) {
  ScopedTempDir dir;
  std::string data = dir.File("data");
  test::WriteRealFile(data, "some\ndata");
  std::string plain = dir.File("plain");
  test::WriteRealFile(plain, "echo ran\n");
  ASSERT_EQ(0, chmod(plain.c_str(), 0644));
  std::string script = dir.File("script-without-interpreter-line");
  test::WriteRealFile(script, "echo \"ran as a script with $# arguments: $*\"\nexit 7\n");
  ASSERT_EQ(0, chmod(script.c_str(), 0755));
  std::vector<std::string> argv;
  for (const std::string& command : {"cat " + data, "head -c 4 " + data, "ls " + dir.File("missing"),
                                     MissingProgram() + " a b", plain, script + " x y"}) {
    ASSERT_TRUE(SplitSimpleCommand(command, &argv)) << command;  // started without the shell
    // The same command through the shell: a ';' makes it shell syntax.
    Result direct = RunToEnd(command);
    Result shell = RunToEnd(command + " ;");
    EXPECT_EQ(shell.status, direct.status) << command;
    EXPECT_EQ(shell.output, direct.output) << command;
  }
  EXPECT_EQ("some\ndata", RunToEnd("cat " + data).output);
  EXPECT_EQ(7, RunToEnd(script + " x y").status);
}

TEST(SubprocessPosixTest, EachJobHasItsOwnProcessGroupButConsoleJobsShareNinjas) {
  for (bool use_console : {false, true}) {
    SubprocessSet set(/*reap_jobs=*/false);
    Gate gate;
    Subprocess* job = set.Add(gate.command(), use_console);
    ASSERT_NE(nullptr, job);
    pid_t group = getpgid(job->pid());
    if (use_console)
      EXPECT_EQ(getpgrp(), group);
    else
      EXPECT_EQ(job->pid(), group);
    gate.Open();
    ASSERT_TRUE(WorkUntilAllFinished(&set));
    EXPECT_EQ(0, set.NextFinished()->Finish());
  }
}

TEST(SubprocessPosixTest, StandardInputIsDevNullButConsoleJobsKeepTheTerminal) {
  // Ninja's own standard input holds data and stays open: a job reading it
  // would print the data and then wait for more.
  int input[2];
  ASSERT_EQ(0, pipe(input));
  ASSERT_EQ(6, write(input[1], "typed\n", 6));
  ScopedTempDir dir;
  std::string screen = dir.File("screen");
  int screen_fd = open(screen.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(screen_fd, 0);
  Result job, console;
  {
    ScopedRedirect in(0, input[0]);
    ScopedRedirect out(1, screen_fd);
    job = RunToEnd("cat");
    close(input[1]);  // the console job reads to the end
    console = RunToEnd("cat", /*use_console=*/true);
  }
  close(input[0]);
  close(screen_fd);
  EXPECT_EQ(0, job.status);
  EXPECT_EQ("", job.output);  // read /dev/null
  EXPECT_EQ(0, console.status);
  EXPECT_EQ("", console.output);
  EXPECT_EQ("typed\n", test::ReadRealFile(screen));  // read and wrote the terminal's
}

TEST(SubprocessPosixTest, JobsInheritOnlyDescriptorsLeftOpenAcrossExec) {
  // Every descriptor the set opens is close-on-exec, so no job holds
  // another job's pipe (its end of file would wait for that job). A
  // descriptor ninja was given without close-on-exec is passed on, as by
  // Ninja: GNU make's jobserver pipe reaches sub-makes that way.
  SubprocessSet set(/*reap_jobs=*/false);
  Gate gate;
  ASSERT_NE(nullptr, set.Add(gate.command()));  // its pipe is open here now
  ScopedTempDir dir;
  int kept = open(dir.File("kept").c_str(), O_WRONLY | O_CREAT, 0644);
  int closed = open(dir.File("closed").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(kept, 0);
  ASSERT_GE(closed, 0);
  std::string expected;
  std::string probe = "for fd in";
  int highest = std::max(kept, closed) + 8;  // and the new job's pipe
  for (int fd = 3; fd <= highest; ++fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) expected += std::to_string(fd) + "\n";
    probe += " " + std::to_string(fd);
  }
  probe += "; do [ -e /dev/fd/$fd ] && echo $fd; done; true";
  Subprocess* job = set.Add(probe);
  ASSERT_NE(nullptr, job);
  ASSERT_TRUE(WorkUntil(&set, [&] { return set.finished_count() == 1; }));
  std::unique_ptr<Subprocess> finished = set.NextFinished();
  EXPECT_EQ(0, finished->Finish());
  EXPECT_EQ(expected, finished->output());
  EXPECT_NE(std::string::npos, ("\n" + finished->output()).find("\n" + std::to_string(kept) + "\n"));
  close(kept);
  close(closed);
  gate.Open();
  EXPECT_TRUE(WorkUntilAllFinished(&set));
}

TEST(SubprocessPosixTest, AnInterruptWhileWaitingIsReported) {
  for (int signum : {SIGINT, SIGTERM, SIGHUP}) {
    SubprocessSet set(/*reap_jobs=*/false);
    Gate gate;
    ASSERT_NE(nullptr, set.Add(gate.command()));
    ASSERT_NE(nullptr, set.Add(Kill(signum, getpid())));
    EXPECT_TRUE(WorkUntilInterrupted(&set)) << signum;
    EXPECT_EQ(signum, set.interrupted());
    set.Clear();  // the gate's job with it
    EXPECT_EQ(0u, set.running_count());
    EXPECT_EQ(0u, set.finished_count());
    TakePendingInterrupts();
  }
}

TEST(SubprocessPosixTest, AnInterruptBetweenWaitsWaitsForTheNextOne) {
  // Outside DoWork the signals are blocked: ninja is not killed, and the
  // next wait reports the interrupt, whatever is running.
  SubprocessSet set(/*reap_jobs=*/false);
  Gate gate;
  ASSERT_NE(nullptr, set.Add(gate.command()));
  ASSERT_EQ(0, kill(getpid(), SIGTERM));
  EXPECT_TRUE(WorkUntilInterrupted(&set));
  EXPECT_EQ(SIGTERM, set.interrupted());
}

// The sleeps of the jobs below, as long as the hang guard: if no signal
// came, they would end by themselves, and the test would fail then.
const std::string kSleep = "sleep " + std::to_string(kHangGuard.count());

TEST(SubprocessPosixTest, ClearAfterAnInterruptKillsTheJobsAndTheirChildren) {
  // The interrupt goes to each job's whole process group: the shell, the
  // program it waits for, and what it started in the background (which a
  // shell starts with SIGINT ignored, so SIGTERM is the one to reach it).
  ScopedTempDir dir;
  std::string foreground = dir.File("foreground");
  std::string background = dir.File("background");
  std::string reached = dir.File("reached");
  SubprocessSet set(/*reap_jobs=*/true);
  Subprocess* waiting =
      set.Add("/bin/sh -c 'echo $$ > " + foreground + "; exec " + kSleep + "'; echo > " + reached);
  Subprocess* detached = set.Add(kSleep + " & echo $! > " + background + "; wait; echo > " + reached);
  ASSERT_NE(nullptr, waiting);
  ASSERT_NE(nullptr, detached);
  pid_t shells[] = {waiting->pid(), detached->pid()};
  pid_t children[] = {PidFrom(foreground), PidFrom(background)};
  ASSERT_GT(children[0], 0);
  ASSERT_GT(children[1], 0);
  ASSERT_EQ(0, kill(getpid(), SIGTERM));
  EXPECT_TRUE(WorkUntilInterrupted(&set));
  set.Clear();
  for (pid_t shell : shells) EXPECT_TRUE(Ended(shell)) << shell;  // waited for by Clear
  for (pid_t child : children) EXPECT_TRUE(EndsWithinGuard(child)) << child;
  EXPECT_FALSE(test::RealFileExists(reached));  // no shell went on
}

TEST(SubprocessPosixTest, AnInterruptReachesAForegroundChildWithSigint) {
  ScopedTempDir dir;
  std::string pid_file = dir.File("pid");
  std::string reached = dir.File("reached");
  SubprocessSet set(/*reap_jobs=*/false);
  ASSERT_NE(nullptr,
            set.Add("/bin/sh -c 'echo $$ > " + pid_file + "; exec " + kSleep + "'; echo > " + reached));
  pid_t child = PidFrom(pid_file);
  ASSERT_GT(child, 0);
  ASSERT_EQ(0, kill(getpid(), SIGINT));
  EXPECT_TRUE(WorkUntilInterrupted(&set));
  EXPECT_EQ(SIGINT, set.interrupted());
  set.Clear();
  EXPECT_TRUE(EndsWithinGuard(child)) << child;
  EXPECT_FALSE(test::RealFileExists(reached));
}

}  // namespace
}  // namespace ronin
