// The builds recorded in .ninja_log, line by line in file order. The build
// log proper (log/build_log.h) keeps only each output's latest line; the
// trace and report tools need every line, to tell one build from the one
// before it.
#ifndef RONIN_INSIGHT_BUILD_HISTORY_H_
#define RONIN_INSIGHT_BUILD_HISTORY_H_

#include <stdint.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ronin {

// One command that ran: every output of one edge (the log writes one line
// per output, all with the same times and command hash).
struct LoggedJob {
  std::vector<std::string_view> outputs;  // views into the history's text
  int start_ms = 0;  // since its build started, 0 to 2^30
  int end_ms = 0;    // (a damaged log's other values are clamped)
  uint64_t command_hash = 0;
  int duration_ms() const { return end_ms - start_ms; }
};

class BuildHistory {
 public:
  // Reads the whole log. False with *err on an unreadable file or a header
  // of a version the build log cannot read (the same words as its own
  // messages). Lines with missing fields and a cut-off last line are
  // skipped, as the build log skips them.
  bool Load(const std::string& path, std::string* err);
  // Forgets the jobs whose line for one output `not_a_run` names (a skip
  // settled by --content-hash writes lines but runs nothing), with all
  // their outputs' lines. Builds are told apart before: a build left with
  // no job is no build, and the one before it is the last.
  void DropJobs(const std::function<bool(std::string_view output, int start_ms, int end_ms)>& not_a_run);

  // The last build, as ninjatracing defines it: a build ends where a line
  // ends earlier than the line before it (times restart at each ninja run),
  // so the last build is the lines after the last such drop. Jobs in log
  // order, i.e. by end time.
  std::vector<LoggedJob> LastBuild() const;
  // Every output's latest line, whichever build wrote it (-t trace -a).
  std::vector<LoggedJob> LatestOfEveryOutput() const;
  // For each job of LastBuild(): how long the same first output took the
  // last time an earlier build in the log ran it, or -1 if none did.
  std::vector<int> EarlierDurations(const std::vector<LoggedJob>& last_build) const;

  size_t line_count() const { return lines_.size(); }

 private:
  struct Line {
    std::string_view output;
    int start_ms;
    int end_ms;
    uint64_t command_hash;
    size_t build;  // lines of one build share it; it grows down the log
  };
  // Groups lines into jobs: lines of one build with the same times and
  // command hash are one edge's outputs.
  static std::vector<LoggedJob> GroupIntoJobs(const std::vector<const Line*>& lines);
  void ParseLines(std::string_view text);

  std::string text_;
  std::vector<Line> lines_;
  size_t last_build_begin_ = 0;  // index of the last build's first line
};

}  // namespace ronin

#endif  // RONIN_INSIGHT_BUILD_HISTORY_H_
