// The edges' part of the event stream (--events, event_stream.h), wired
// for a build by driver/build_setup.cc like any feature: a work-chain
// stage that holds nothing back and hears each command start (its
// `explain` reasons, then `edge_start`), and a recorder told how each
// ended (`edge_end`, with what .ninja_log recorded). The commands a stop
// leaves running (Ctrl-C, a failure without -k) end as `interrupted` when
// the chain is aborted, so that every edge_start has its edge_end.
#ifndef RONIN_EVENTS_EDGE_EVENTS_H_
#define RONIN_EVENTS_EDGE_EVENTS_H_

#include <string>
#include <unordered_map>

#include "log/build_recorder.h"
#include "sched/work_chain.h"

namespace ronin {

class BuildLog;
class EventStream;
class Explanations;

class EdgeEvents : public WorkStage, public BuildRecorder {
 public:
  // `build_log`: where a successful command's entry is looked up (null:
  // nothing is recorded, -n).
  EdgeEvents(EventStream* stream, const Explanations* explanations, BuildLog* build_log)
      : stream_(stream), explanations_(explanations), build_log_(build_log) {}

  // WorkStage:
  void Started(const Work& work, const CommandRunner& runner) override;
  void Abort() override;
  // BuildRecorder (wired after the logs' recorders):
  bool Record(const FinishedCommand& command, std::string* err) override;

 private:
  EventStream* stream_;
  const Explanations* explanations_;
  BuildLog* build_log_;
  std::unordered_map<const Edge*, int64_t> running_;  // -> its start, ms since the build started
};

}  // namespace ronin

#endif  // RONIN_EVENTS_EDGE_EVENTS_H_
