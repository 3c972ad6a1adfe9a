// The builds an event stream (--events, doc/events.md) recorded, read back
// for `-t trace -e FILE` and `-t report -e FILE`: the same jobs .ninja_log
// gives them, with what .ninja_log cannot say (peak memory, cache hits,
// edges skipped by content, failed commands) from the stream itself.
#ifndef RONIN_EVENTS_EVENT_HISTORY_H_
#define RONIN_EVENTS_EVENT_HISTORY_H_

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "insight/build_history.h"
#include "log/edge_outcome.h"

namespace ronin {

class EventHistory {
 public:
  // Reads a whole stream. False with *err ("FILE:LINE: ...") on a line that
  // is not a JSON object or a stream of another schema or version; a last
  // line cut short (a ninja killed while writing) is ignored, as are
  // events this version does not know.
  bool Load(const std::string& path, std::string* err);
  // The same for a stream's text, named `name` in errors.
  bool Parse(std::string_view text, const std::string& name, std::string* err);

  EventHistory() = default;
  EventHistory(const EventHistory&) = delete;  // jobs point into strings_
  EventHistory& operator=(const EventHistory&) = delete;

  // The commands of the last build that ran any (edge_end events, failed
  // ones included, in stream order, i.e. by end time), and for each the
  // outcome the stream told (peak memory, unchanged outputs, cache hit).
  std::vector<LoggedJob> LastBuild() const;
  std::vector<EdgeOutcome> LastBuildOutcomes() const;
  // The first output of each edge that build skipped by content.
  std::vector<std::string_view> LastBuildSkips() const;
  // Every output's latest run, from whichever build (-t trace -a).
  std::vector<LoggedJob> LatestOfEveryOutput() const;
  // For each job of LastBuild(): the duration of the same first output's
  // latest run in an earlier build of the stream, or -1.
  std::vector<int> EarlierDurations(const std::vector<LoggedJob>& last_build) const;

  size_t build_count() const { return builds_.size(); }

 private:
  struct Run {
    LoggedJob job;
    EdgeOutcome outcome;
  };
  struct Build {
    std::vector<Run> runs;
    std::vector<std::string_view> skipped;
  };
  bool LoadLine(std::string_view line, std::string* problem);
  const Build* LastBuildWithRuns() const;
  // Interns `text`; the view lives as long as this history.
  std::string_view Keep(std::string text);

  std::vector<Build> builds_;
  std::deque<std::string> strings_;  // what the jobs' views point into
};

}  // namespace ronin

#endif  // RONIN_EVENTS_EVENT_HISTORY_H_
