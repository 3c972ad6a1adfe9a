// `ninja -t trace [-a] [-e EVENTS] [-o FILE]`: the last build recorded in
// .ninja_log (or in an event stream, --events) as
// Chrome trace event JSON (what chrome://tracing and Perfetto load). One
// complete event per command, named for its first output, with its rule as
// category, laid out on job slots as thread ids. Where ronin's own state
// file recorded more about a run (log/edge_outcome.h), it goes in the event's
// args, and the edges that build skipped by content are instant events.
#include <stdio.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "base/util.h"
#include "driver/ninja_main.h"
#include "events/event_history.h"
#include "graph/graph.h"
#include "insight/build_history.h"
#include "insight/critical_path.h"
#include "insight/job_slots.h"
#include "log/edge_outcome.h"
#include "log/state_file.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

std::string_view RuleName(const Edge* edge) { return edge ? edge->rule->name() : "(not in manifest)"; }

// What .ronin_state says about the jobs: the outcome recorded by the very
// run a job's log line describes (same output, start and end), and the
// edges the newest of those builds skipped by content.
struct RecordedOutcomes {
  std::vector<const EdgeOutcome*> of_job;  // per job, or null
  std::vector<std::pair<std::string_view, EdgeOutcome>> skipped;  // (first output, outcome)
  std::vector<EdgeOutcome> storage;
};

RecordedOutcomes MatchOutcomes(const StateFile& file, const std::vector<LoggedJob>& jobs) {
  RecordedOutcomes result;
  result.of_job.assign(jobs.size(), nullptr);
  std::vector<size_t> matched(jobs.size(), SIZE_MAX);
  result.storage.reserve(jobs.size());
  int64_t newest_build = -1;
  for (size_t i = 0; i < jobs.size(); ++i) {
    EdgeOutcome outcome;
    if (!FindRunOutcome(file, jobs[i].outputs.front(), jobs[i].start_ms, jobs[i].end_ms, &outcome)) continue;
    newest_build = std::max(newest_build, outcome.build);
    matched[i] = result.storage.size();
    result.storage.push_back(outcome);
  }
  for (size_t i = 0; i < jobs.size(); ++i)
    if (matched[i] != SIZE_MAX) result.of_job[i] = &result.storage[matched[i]];
  if (newest_build < 0) return result;
  file.ForEach(StateFile::Kind::kEdgeSkip, [&](std::string_view output, std::string_view payload) {
    EdgeOutcome outcome;
    if (EdgeOutcome::Parse(payload, &outcome) && outcome.skipped_by_content_hash && outcome.build == newest_build)
      result.skipped.emplace_back(output, outcome);
  });
  return result;
}

// The args ronin recorded for one run (none: nothing appended).
void AppendOutcomeArgs(const EdgeOutcome& outcome, bool first, std::string* out) {
  auto separator = [&] {
    if (!first) *out += ',';
    first = false;
  };
  if (outcome.peak_rss >= 0) {
    separator();
    *out += "\"peak_rss_bytes\":" + std::to_string(outcome.peak_rss);
  }
  if (outcome.unchanged_outputs >= 0) {
    separator();
    *out += "\"unchanged_outputs\":" + std::to_string(outcome.unchanged_outputs);
  }
  if (outcome.skipped_by_content_hash) {
    separator();
    *out += "\"skipped\":\"content_hash\"";
  }
  if (outcome.cached) {
    separator();
    *out += "\"cached\":true";
  }
}

void AppendEvent(const LoggedJob& job, std::string_view rule, int slot, const EdgeOutcome* outcome,
                 std::string* out) {
  *out += "{\"name\":\"";
  AppendJsonString(job.outputs.front(), out);
  *out += "\",\"cat\":\"";
  AppendJsonString(rule, out);
  // Microseconds; the log has milliseconds.
  *out += "\",\"ph\":\"X\",\"ts\":" + std::to_string(int64_t{job.start_ms} * 1000) +
          ",\"dur\":" + std::to_string(int64_t{std::max(0, job.duration_ms())} * 1000) +
          ",\"pid\":1,\"tid\":" + std::to_string(slot) + ",\"args\":{";
  // Every output, when the command had more than the one it is named for.
  if (job.outputs.size() > 1) {
    *out += "\"outputs\":[";
    for (size_t i = 0; i < job.outputs.size(); ++i) {
      *out += i ? ",\"" : "\"";
      AppendJsonString(job.outputs[i], out);
      *out += '"';
    }
    *out += ']';
  }
  if (outcome) AppendOutcomeArgs(*outcome, job.outputs.size() <= 1, out);
  *out += "}}";
}

// An edge the build did not run because its inputs' content was unchanged:
// an instant event on the first slot, when the skip was settled (at the
// build's start if that is not known).
void AppendSkipEvent(std::string_view output, std::string_view rule, const EdgeOutcome& outcome,
                     std::string* out) {
  *out += "{\"name\":\"";
  AppendJsonString(output, out);
  *out += "\",\"cat\":\"";
  AppendJsonString(rule, out);
  *out += "\",\"ph\":\"i\",\"s\":\"t\",\"ts\":" + std::to_string(int64_t{std::max(0, outcome.start_ms)} * 1000) +
          ",\"pid\":1,\"tid\":0,\"args\":{";
  AppendOutcomeArgs(outcome, true, out);
  *out += "}}";
}

// The trace: metadata naming the process and each slot, then the commands
// by start time.
std::string TraceJson(const State& state, const std::vector<LoggedJob>& jobs, const std::vector<const Edge*>& edges,
                      const RecordedOutcomes& outcomes) {
  SlotLayout layout = AssignSlots(jobs);
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return jobs[a].start_ms < jobs[b].start_ms; });
  std::string out;
  out.reserve(jobs.size() * 200);
  out += "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"ninja build\"}}";
  for (int slot = 0; slot < layout.slot_count; ++slot) {
    out += ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(slot) +
           ",\"args\":{\"name\":\"slot " + std::to_string(slot) + "\"}}";
  }
  for (size_t job : order) {
    out += ",\n";
    AppendEvent(jobs[job], RuleName(edges[job]), layout.slot_of_job[job], outcomes.of_job[job], &out);
  }
  for (const auto& [output, outcome] : outcomes.skipped) {
    out += ",\n";
    const Node* node = state.LookupNode(output);
    AppendSkipEvent(output, RuleName(node ? node->in_edge : nullptr), outcome, &out);
  }
  out += "\n]}\n";
  return out;
}

int TraceUsage() {
  printf(
      "usage: ninja -t trace [options]\n"
      "\n"
      "Writes the last build recorded in .ninja_log as Chrome trace event JSON\n"
      "(chrome://tracing, https://ui.perfetto.dev).\n"
      "\n"
      "options:\n"
      "  -a       every output's latest entry, from whichever build, not only the last build\n"
      "  -e FILE  read the builds from an event stream (--events) instead of .ninja_log\n"
      "  -o FILE  write to FILE instead of stdout\n"
      "  -h       print this message\n");
  return 1;
}

}  // namespace

// What an event stream told of its last build's runs (with -a, of none:
// the runs come from several builds) and skips.
RecordedOutcomes OutcomesFromEvents(const EventHistory& events, size_t job_count, bool every_output) {
  RecordedOutcomes result;
  result.of_job.assign(job_count, nullptr);
  if (every_output) return result;
  result.storage = events.LastBuildOutcomes();
  for (size_t i = 0; i < job_count && i < result.storage.size(); ++i) result.of_job[i] = &result.storage[i];
  for (std::string_view output : events.LastBuildSkips()) {
    EdgeOutcome skip;
    skip.skipped_by_content_hash = true;
    result.skipped.emplace_back(output, skip);
  }
  return result;
}

int ToolTrace(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  bool every_output = false;
  std::string output_path, events_path;
  for (int opt; (opt = args.Next("ae:ho:")) != -1;) {
    if (opt == 'a') {
      every_output = true;
    } else if (opt == 'e') {
      events_path = optarg;
    } else if (opt == 'o') {
      output_path = optarg;
    } else {
      return TraceUsage();
    }
  }
  if (args.rest_count() > 0) return TraceUsage();
  // Whichever the jobs come from holds the text their paths point into.
  BuildHistory history;
  EventHistory events;
  StateFile state_file;  // ronin's own record of those runs, where there is one
  std::vector<LoggedJob> jobs;
  RecordedOutcomes outcomes;
  if (!events_path.empty()) {
    if (!LoadEventHistory(ninja, events_path, &events)) return 1;
    jobs = every_output ? events.LatestOfEveryOutput() : events.LastBuild();
    outcomes = OutcomesFromEvents(events, jobs.size(), every_output);
  } else {
    if (!LoadBuildHistory(ninja, &state_file, &history)) return 1;
    jobs = every_output ? history.LatestOfEveryOutput() : history.LastBuild();
    outcomes = MatchOutcomes(state_file, jobs);
  }
  std::string json = TraceJson(ninja->state_, jobs, EdgesOfJobs(ninja->state_, jobs), outcomes);
  return WriteToolOutput(output_path, json) ? 0 : 1;
}

}  // namespace ronin
