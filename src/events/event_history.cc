#include "events/event_history.h"

#include <stdlib.h>

#include <algorithm>
#include <unordered_map>

#include "base/disk.h"
#include "events/event_stream.h"
#include "events/json_value.h"

namespace ronin {
namespace {

// An integer member of `event`, or `fallback` when it is absent or null.
int64_t IntegerOr(const JsonValue& event, std::string_view key, int64_t fallback) {
  const JsonValue* value = event.Find(key);
  return value && value->is_integer() ? value->integer : fallback;
}

// Times are clamped as the build log's are (0 to 2^30 ms).
int ClampMillis(int64_t millis) { return static_cast<int>(std::min<int64_t>(std::max<int64_t>(millis, 0), 1 << 30)); }

}  // namespace

std::string_view EventHistory::Keep(std::string text) {
  strings_.push_back(std::move(text));
  return strings_.back();
}

bool EventHistory::Load(const std::string& path, std::string* err) {
  std::string text;
  RealDiskInterface disk;
  if (disk.ReadFile(path, &text, err) != FileReader::Status::kOkay) {
    *err = "loading " + path + ": " + *err;
    return false;
  }
  return Parse(text, path, err);
}

bool EventHistory::Parse(std::string_view text, const std::string& name, std::string* err) {
  builds_.clear();
  strings_.clear();
  size_t line_start = 0;
  for (int number = 1; line_start < text.size(); ++number) {
    size_t end = text.find('\n', line_start);
    if (end == std::string::npos) break;  // cut short: ignored
    std::string problem;
    if (!LoadLine(text.substr(line_start, end - line_start), &problem)) {
      *err = name + ":" + std::to_string(number) + ": " + problem;
      return false;
    }
    line_start = end + 1;
  }
  return true;
}

bool EventHistory::LoadLine(std::string_view line, std::string* problem) {
  JsonValue event;
  if (!ParseJson(line, &event, problem)) return false;
  const JsonValue* kind = event.Find("event");
  if (event.type != JsonValue::Type::kObject || !kind || !kind->is_string()) {
    *problem = "not an event";
    return false;
  }
  if (kind->string == "stream_start") {
    const JsonValue* schema = event.Find("schema");
    int64_t version = IntegerOr(event, "version", -1);
    if (!schema || !schema->is_string() || schema->string != "ronin-events" || version != kEventsSchemaVersion) {
      *problem = "not an event stream of version " + std::to_string(kEventsSchemaVersion);
      return false;
    }
  } else if (kind->string == "build_start") {
    builds_.emplace_back();
  } else if (builds_.empty()) {
    return true;  // nothing before the first build is kept
  } else if (kind->string == "edge_end") {
    const JsonValue* outputs = event.Find("outputs");
    const JsonValue* result = event.Find("result");
    if (!outputs || outputs->items.empty() || (result && result->is_string() && result->string == "interrupted"))
      return true;  // no times worth showing
    Run run;
    for (const JsonValue& output : outputs->items)
      if (output.is_string()) run.job.outputs.push_back(Keep(output.string));
    if (run.job.outputs.empty()) return true;
    run.job.start_ms = ClampMillis(IntegerOr(event, "start_ms", 0));
    run.job.end_ms = ClampMillis(IntegerOr(event, "end_ms", 0));
    if (const JsonValue* log = event.Find("log")) {
      const JsonValue* hash = log->Find("command_hash");
      if (hash && hash->is_string()) run.job.command_hash = strtoull(hash->string.c_str(), nullptr, 16);
    }
    run.outcome.start_ms = run.job.start_ms;
    run.outcome.end_ms = run.job.end_ms;
    run.outcome.peak_rss = IntegerOr(event, "peak_rss_bytes", -1);
    run.outcome.unchanged_outputs = static_cast<int>(IntegerOr(event, "unchanged_outputs", -1));
    const JsonValue* cached = event.Find("cached");
    run.outcome.cached = cached && cached->type == JsonValue::Type::kBool && cached->boolean;
    builds_.back().runs.push_back(std::move(run));
  } else if (kind->string == "edge_skipped") {
    const JsonValue* outputs = event.Find("outputs");
    if (outputs && !outputs->items.empty() && outputs->items[0].is_string())
      builds_.back().skipped.push_back(Keep(outputs->items[0].string));
  }
  return true;
}

const EventHistory::Build* EventHistory::LastBuildWithRuns() const {
  for (auto it = builds_.rbegin(); it != builds_.rend(); ++it)
    if (!it->runs.empty()) return &*it;
  return nullptr;
}

std::vector<LoggedJob> EventHistory::LastBuild() const {
  std::vector<LoggedJob> jobs;
  if (const Build* build = LastBuildWithRuns())
    for (const Run& run : build->runs) jobs.push_back(run.job);
  return jobs;
}

std::vector<EdgeOutcome> EventHistory::LastBuildOutcomes() const {
  std::vector<EdgeOutcome> outcomes;
  if (const Build* build = LastBuildWithRuns())
    for (const Run& run : build->runs) outcomes.push_back(run.outcome);
  return outcomes;
}

std::vector<std::string_view> EventHistory::LastBuildSkips() const {
  const Build* build = LastBuildWithRuns();
  return build ? build->skipped : std::vector<std::string_view>();
}

std::vector<LoggedJob> EventHistory::LatestOfEveryOutput() const {
  std::unordered_map<std::string_view, size_t> latest;  // first output -> index in jobs
  std::vector<LoggedJob> jobs;
  for (const Build& build : builds_) {
    for (const Run& run : build.runs) {
      auto found = latest.find(run.job.outputs.front());
      if (found == latest.end()) {
        latest.emplace(run.job.outputs.front(), jobs.size());
        jobs.push_back(run.job);
      } else {
        jobs[found->second] = run.job;
      }
    }
  }
  return jobs;
}

std::vector<int> EventHistory::EarlierDurations(const std::vector<LoggedJob>& last_build) const {
  std::unordered_map<std::string_view, int> earlier;  // first output -> duration of its latest earlier run
  const Build* last = LastBuildWithRuns();
  for (const Build& build : builds_) {
    if (&build == last) break;
    for (const Run& run : build.runs) earlier[run.job.outputs.front()] = run.job.duration_ms();
  }
  std::vector<int> durations;
  for (const LoggedJob& job : last_build) {
    auto found = earlier.find(job.outputs.front());
    durations.push_back(found == earlier.end() ? -1 : found->second);
  }
  return durations;
}

}  // namespace ronin
