// .ninja_log and .ninja_deps records of finished commands (log_recorders.h).
#include "log/log_recorders.h"

#include <errno.h>
#include <string.h>

#include "base/disk.h"
#include "graph/graph.h"
#include "log/build_log.h"
#include "log/deps_log.h"

namespace ronin {

bool BuildLogRecorder::Record(const FinishedCommand& command, std::string* err) {
  if (!command.success()) return true;
  if (!log_->RecordCommand(command.edge, command.start_millis, command.end_millis, command.record_mtime)) {
    *err = std::string("Error writing to build log: ") + strerror(errno);
    return false;
  }
  return true;
}

bool DepsLogRecorder::Record(const FinishedCommand& command, std::string* err) {
  if (!command.success() || !command.deps) return true;
  for (Node* output : command.edge->outputs) {
    TimeStamp deps_mtime = disk_->Stat(std::string(output->path), err);
    if (deps_mtime == -1) return false;
    if (!log_->RecordDeps(output, deps_mtime, *command.deps)) {
      *err = std::string("Error writing to deps log: ") + strerror(errno);
      return false;
    }
  }
  return true;
}

}  // namespace ronin
