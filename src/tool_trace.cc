// `ninja -t trace [-a] [-o FILE]`: the last build recorded in .ninja_log as
// Chrome trace event JSON (what chrome://tracing and Perfetto load). One
// complete event per command, named for its first output, with its rule as
// category, laid out on job slots as thread ids.
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "build_history.h"
#include "critical_path.h"
#include "graph.h"
#include "job_slots.h"
#include "ninja_main.h"
#include "state_file.h"
#include "tool_common.h"
#include "util.h"

namespace ronin {

namespace {

std::string_view RuleName(const Edge* edge) { return edge ? edge->rule->name() : "(not in manifest)"; }

void AppendEvent(const LoggedJob& job, std::string_view rule, int slot, bool cached, std::string* out) {
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
  // Restored from the build cache (--cache) instead of run.
  if (cached) *out += job.outputs.size() > 1 ? ",\"cached\":true" : "\"cached\":true";
  *out += "}}";
}

// The trace: metadata naming the process and each slot, then the commands
// by start time.
std::string TraceJson(const std::vector<LoggedJob>& jobs, const std::vector<const Edge*>& edges,
                      const StateFile* state) {
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
    const std::string* cached = state ? state->Find(StateFile::Kind::kEdgeCached, jobs[job].outputs.front()) : nullptr;
    AppendEvent(jobs[job], RuleName(edges[job]), layout.slot_of_job[job], cached && *cached == "1", &out);
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
      "  -o FILE  write to FILE instead of stdout\n"
      "  -h       print this message\n");
  return 1;
}

}  // namespace

int ToolTrace(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  bool every_output = false;
  std::string output_path;
  for (int opt; (opt = args.Next("aho:")) != -1;) {
    if (opt == 'a') {
      every_output = true;
    } else if (opt == 'o') {
      output_path = optarg;
    } else {
      return TraceUsage();
    }
  }
  if (args.rest_count() > 0) return TraceUsage();
  BuildHistory history;
  if (!LoadBuildHistory(ninja, &history)) return 1;
  std::vector<LoggedJob> jobs = every_output ? history.LatestOfEveryOutput() : history.LastBuild();
  // The build cache's marks, when a build with --cache left them.
  StateFile state;
  std::string state_err;
  bool have_state = access(ninja->StateFilePath().c_str(), F_OK) == 0 && state.Load(ninja->StateFilePath(), &state_err);
  std::string json = TraceJson(jobs, EdgesOfJobs(ninja->state_, jobs), have_state ? &state : nullptr);
  return WriteToolOutput(output_path, json) ? 0 : 1;
}

}  // namespace ronin
