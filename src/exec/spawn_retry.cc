#include "exec/spawn_retry.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"
#include "graph/graph.h"

namespace ronin {

namespace {
// Linux takes at most 32 pages in one argument (MAX_ARG_STRLEN), and
// /bin/sh -c gets the whole command as one.
constexpr size_t kMaxArgumentLength = 32 * 4096;
}  // namespace

bool IsTransientSpawnError(int error) {
  return error == EAGAIN || error == EMFILE || error == ENFILE || error == ENOMEM;
}

std::string DescribeSpawnFailure(const Edge* edge, const std::string& command, int error, bool transient) {
  std::string message = "cannot start the command for '" + std::string(edge->outputs[0]->path) + "': ";
  if (error == E2BIG) {
    int64_t arg_max = CommandLineLimit();
    return message + "it is " + std::to_string(command.size()) +
           " bytes long, more than the system takes for one command (ARG_MAX " + std::to_string(arg_max) +
           ", at most " + std::to_string(kMaxArgumentLength) +
           " bytes in one argument); pass long argument lists in an rspfile";
  }
  message += strerror(error);
  if (transient) message += ", and no running job to wait for";
  return message;
}

void SpawnThrottle::Lower(size_t running, int error) {
  size_t limit = running > 0 ? running : 1;
  if (limit < limit_) limit_ = limit;
  if (warned_) return;
  warned_ = true;
  Warning("cannot start more commands (%s); running at most %zu at a time", strerror(error), limit_);
}

}  // namespace ronin
