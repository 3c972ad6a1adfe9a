// The file-access monitor (--audit): starts commands so that every path
// system call of the command and of every process it starts, static
// binaries and raw system calls included, is seen before it runs, and
// hands back what each command did to files (log/file_accesses.h).
//
// Linux (access_monitor_linux.cc): a seccomp filter with a user-space
// listener (seccomp_unotify(2)), installed in the child between its clone
// and its exec, traps the path calls (path_syscalls_linux.h). One monitor
// thread answers every trap: it reads the path from the caller's memory,
// notes it, and lets the call go on unchanged (the kernel then runs it as
// if it had never stopped; the caller could change the path in between,
// which matters for security, not for auditing). Unprivileged: the child
// sets no_new_privs first, so a setuid program run by a command does not
// gain its privileges. Elsewhere (access_monitor_other.cc) Start refuses.
//
// Nothing is left stuck: a command killed while trapped leaves the call
// (the kernel withdraws it); if ninja dies, the listeners close with it
// and every trapped or later call of the commands fails with ENOSYS
// instead of waiting.
#ifndef RONIN_AUDIT_ACCESS_MONITOR_H_
#define RONIN_AUDIT_ACCESS_MONITOR_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "log/file_accesses.h"

namespace ronin {

// Whether this platform has a monitor at all (no check of the kernel,
// which Start makes); false with *err saying so.
bool AccessMonitorAvailable(std::string* err);

// How to start a command (POSIX: audit/watched_spawn.h).
struct WatchedSpawn;

// One command being watched (opaque).
class CommandWatch;

class AccessMonitor {
 public:
  // Starts the monitor and checks that it sees a command's calls; null
  // with *err saying why when this system cannot watch commands.
  static std::unique_ptr<AccessMonitor> Start(std::string* err);
  // Every watch must have been finished.
  ~AccessMonitor();
  AccessMonitor(const AccessMonitor&) = delete;
  AccessMonitor& operator=(const AccessMonitor&) = delete;

  // Starts a watched process, from one thread at a time: 0 with *pid and
  // *watch set, or an errno value (e.g. the exec's ENOENT).
  int Spawn(const WatchedSpawn& spawn, pid_t* pid, CommandWatch** watch);
  // What the command did, once its process has exited and been reaped;
  // ends the watch (processes it left running go on unwatched).
  FileAccesses Finish(CommandWatch* watch);

  struct Impl;

 private:
  explicit AccessMonitor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ronin

#endif  // RONIN_AUDIT_ACCESS_MONITOR_H_
