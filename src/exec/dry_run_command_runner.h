// -n: a runner that runs nothing and reports every command a success at
// once, in the order they were started.
#ifndef RONIN_EXEC_DRY_RUN_COMMAND_RUNNER_H_
#define RONIN_EXEC_DRY_RUN_COMMAND_RUNNER_H_

#include <deque>

#include "exec/command_runner.h"

namespace ronin {

class DryRunCommandRunner : public CommandRunner {
 public:
  bool StartCommand(Edge* edge) override {
    finished_.push_back(edge);
    return true;
  }
  bool WaitForCommand(Result* result, int64_t, int64_t, int) override {
    if (finished_.empty()) return false;
    result->status = kExitSuccess;
    result->edge = finished_.front();
    finished_.pop_front();
    return true;
  }

 private:
  // A queue: -n starts every ready edge at once (tens of thousands), and
  // erasing from a vector's front moved all the others each time.
  std::deque<Edge*> finished_;
};

}  // namespace ronin

#endif  // RONIN_EXEC_DRY_RUN_COMMAND_RUNNER_H_
