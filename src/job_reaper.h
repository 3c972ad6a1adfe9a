// Commands die with ninja, however ninja dies. Each command runs in its own
// process group, so a SIGKILL or an OOM kill of ninja would leave them
// running, writing outputs behind the next build's back. A small reaper
// process, forked before the first command, holds one end of a socket whose
// other end only ninja holds; ninja tells it each process group it starts
// and each one it reaps. When the socket reaches end of file (ninja exited,
// by any means), the reaper SIGKILLs every group still registered and exits.
// A normal exit has no group registered, so it changes nothing there.
#ifndef RONIN_JOB_REAPER_H_
#define RONIN_JOB_REAPER_H_

#include <sys/types.h>

#include <cstdint>

namespace ronin {

class JobReaper {
 public:
  // Starts the reaper on first use; false if it could not be started (the
  // build goes on without it, as Ninja would).
  static JobReaper* Get();
  // `pgid` (or, for a console job sharing ninja's group, the single pid
  // when `whole_group` is false) is to be killed if ninja dies.
  void Started(pid_t pid, bool whole_group);
  // Reaped: no longer to be killed (its id may be reused).
  void Reaped(pid_t pid, bool whole_group);

 private:
  explicit JobReaper(int fd) : fd_(fd) {}
  void Send(int32_t id, int32_t kind);
  int fd_;
};

}  // namespace ronin

#endif  // RONIN_JOB_REAPER_H_
