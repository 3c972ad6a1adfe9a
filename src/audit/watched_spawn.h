// How the access monitor (audit/access_monitor.h) is told to start a
// command: what posix_spawn would be told. POSIX only: the monitor's
// interface names it without its fields, so that it builds where there are
// no signal masks (Windows, which has no monitor).
#ifndef RONIN_AUDIT_WATCHED_SPAWN_H_
#define RONIN_AUDIT_WATCHED_SPAWN_H_

#include <signal.h>

namespace ronin {

struct WatchedSpawn {
  const char* path = nullptr;   // the program (no PATH search)
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  int output_fd = -1;           // stdout and stderr, stdin from /dev/null; -1: ninja's own three
  bool own_process_group = false;
  sigset_t mask;                // the program starts with this signal mask
  sigset_t defaults;            // and these signals at their default action
};

}  // namespace ronin

#endif  // RONIN_AUDIT_WATCHED_SPAWN_H_
