// Ninja's two logs as recorders of a build (build_recorder.h): each
// successful command's line in .ninja_log (build_log.h), and the
// dependencies it reported in .ninja_deps (deps_log.h), recorded with its
// outputs' mtimes as they are now. A failed command leaves neither.
#ifndef RONIN_LOG_LOG_RECORDERS_H_
#define RONIN_LOG_LOG_RECORDERS_H_

#include "log/build_recorder.h"

namespace ronin {

class BuildLog;
class DepsLog;
class DiskInterface;

class BuildLogRecorder : public BuildRecorder {
 public:
  explicit BuildLogRecorder(BuildLog* log) : log_(log) {}
  bool Record(const FinishedCommand& command, std::string* err) override;

 private:
  BuildLog* log_;
};

class DepsLogRecorder : public BuildRecorder {
 public:
  DepsLogRecorder(DepsLog* log, DiskInterface* disk) : log_(log), disk_(disk) {}
  bool Record(const FinishedCommand& command, std::string* err) override;

 private:
  DepsLog* log_;
  DiskInterface* disk_;
};

}  // namespace ronin

#endif  // RONIN_LOG_LOG_RECORDERS_H_
