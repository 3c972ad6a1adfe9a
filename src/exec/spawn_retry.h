// When a command cannot be started. Some failures pass once a running job
// ends (too many processes or open files, no memory for a new process):
// the runner then waits for one job, tries again, and runs fewer jobs at a
// time from then on, with one warning. Other failures (and transient ones
// with nothing running to wait for) fail the edge, as a command that
// failed, with a message naming it; the build goes on as -k says.
#ifndef RONIN_EXEC_SPAWN_RETRY_H_
#define RONIN_EXEC_SPAWN_RETRY_H_

#include <cstddef>
#include <string>

namespace ronin {

struct Edge;

// EAGAIN, EMFILE, ENFILE, ENOMEM: worth another try once a job ends.
bool IsTransientSpawnError(int error);

// "cannot start the command for 'OUT': ..." for a failure that fails the
// edge; E2BIG (a command too long for the system) suggests an rspfile.
std::string DescribeSpawnFailure(const Edge* edge, const std::string& command, int error, bool transient);

// The parallelism the machine turned out to allow.
class SpawnThrottle {
 public:
  // A start failed transiently with `running` jobs running: no more than
  // that many from now on (at least one). Warns the first time.
  void Lower(size_t running, int error);
  size_t Limit(size_t parallelism) const { return parallelism < limit_ ? parallelism : limit_; }

 private:
  size_t limit_ = static_cast<size_t>(-1);
  bool warned_ = false;
};

}  // namespace ronin

#endif  // RONIN_EXEC_SPAWN_RETRY_H_
