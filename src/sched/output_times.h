// The file system's times around a command, as Ninja uses them. Before a
// command starts, the build directory's .ninja_lock is rewritten and its
// mtime taken: the command's start stamp. After it succeeded, its outputs
// are stat'ed (those of a restat or generator rule, or all of them when
// there is no start stamp): .ninja_log records the newest of their mtimes
// and the start stamp, or just the start stamp when a restat rule left an
// output untouched; such outputs are handed back, so that the plan cleans
// what depends on them. Under -n nothing ran: nothing is written or
// stat'ed and 0 is recorded (DryRunOutputTimes).
#ifndef RONIN_SCHED_OUTPUT_TIMES_H_
#define RONIN_SCHED_OUTPUT_TIMES_H_

#include <string>
#include <vector>

#include "base/util.h"

namespace ronin {

class DiskInterface;
class State;
struct Edge;
struct Node;

// $builddir/.ninja_lock (.ninja_lock without a builddir). It exists only
// while commands run: the builder removes it when the build ends.
std::string LockFilePath(const State& state);

class OutputTimes {
 public:
  virtual ~OutputTimes() = default;
  // Before the command of an edge with outputs starts: its start stamp
  // (0: unknown).
  virtual TimeStamp StartStamp() = 0;
  // After the command for `edge`, started at `start_stamp`, succeeded:
  // *record_mtime for .ninja_log, and the outputs a restat rule left
  // untouched appended to *untouched. False with *err if an output cannot
  // be stat'ed.
  virtual bool Check(Edge* edge, TimeStamp start_stamp, std::vector<Node*>* untouched, TimeStamp* record_mtime,
                     std::string* err) = 0;
};

class DiskOutputTimes : public OutputTimes {
 public:
  DiskOutputTimes(DiskInterface* disk, std::string lock_file_path)
      : disk_(disk), lock_file_path_(std::move(lock_file_path)) {}

  TimeStamp StartStamp() override;
  bool Check(Edge* edge, TimeStamp start_stamp, std::vector<Node*>* untouched, TimeStamp* record_mtime,
             std::string* err) override;

 private:
  DiskInterface* disk_;
  std::string lock_file_path_;
};

class DryRunOutputTimes : public OutputTimes {
 public:
  TimeStamp StartStamp() override { return 0; }
  bool Check(Edge*, TimeStamp, std::vector<Node*>*, TimeStamp* record_mtime, std::string*) override {
    *record_mtime = 0;
    return true;
  }
};

}  // namespace ronin

#endif  // RONIN_SCHED_OUTPUT_TIMES_H_
