// `ninja -t report [-e EVENTS] [-o FILE]`: an HTML report of the last build
// recorded in .ninja_log, or in an event stream (insight/report_html.cc
// renders it). Needs the manifest for each
// command's rule and for the dependencies the critical path follows.
#include <stdio.h>

#include <string>
#include <vector>

#include "base/util.h"
#include "driver/ninja_main.h"
#include "events/event_history.h"
#include "graph/graph.h"
#include "insight/build_history.h"
#include "insight/critical_path.h"
#include "insight/job_slots.h"
#include "insight/report_html.h"
#include "insight/rule_kind.h"
#include "log/edge_outcome.h"
#include "log/state_file.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

int ReportUsage() {
  printf(
      "usage: ninja -t report [options]\n"
      "\n"
      "Writes an HTML report of where the last build recorded in .ninja_log spent\n"
      "its time: timeline, critical path, parallelism, slowest commands, time per\n"
      "rule, and changes since earlier builds.\n"
      "\n"
      "options:\n"
      "  -e FILE  read the build from an event stream (--events) instead of .ninja_log\n"
      "  -o FILE  write to FILE (default: ninja_report.html beside .ninja_log)\n"
      "  -h       print this message\n");
  return 1;
}

// The last build's jobs, how long each took in an earlier build, and which
// the build cache restored: from .ninja_log and ronin's own record of those
// very runs (a damaged or missing .ronin_state: none marked cached).
void JobsFromLogs(const BuildHistory& history, const StateFile& state_file, BuildReport* report) {
  report->jobs = history.LastBuild();
  report->earlier_ms = history.EarlierDurations(report->jobs);
  for (const LoggedJob& job : report->jobs) {
    EdgeOutcome outcome;
    report->cached.push_back(FindRunOutcome(state_file, job.outputs.front(), job.start_ms, job.end_ms, &outcome) &&
                             outcome.cached);
  }
}

// The same from an event stream, which tells it all itself.
void JobsFromEvents(const EventHistory& events, BuildReport* report) {
  report->jobs = events.LastBuild();
  report->earlier_ms = events.EarlierDurations(report->jobs);
  for (const EdgeOutcome& outcome : events.LastBuildOutcomes()) report->cached.push_back(outcome.cached);
}

// Everything but the jobs, which JobsFrom* filled in.
void GatherReport(NinjaMain* ninja, BuildReport* report_pointer) {
  BuildReport& report = *report_pointer;
  report.title = WorkingDirectory();
  if (!ninja->build_dir_.empty() && ninja->build_dir_ != ".") report.title += "/" + ninja->build_dir_;
  LoadAllDyndepsQuietly(ninja);  // dyndep files can add dependencies
  std::vector<const Edge*> edges = EdgesOfJobs(ninja->state_, report.jobs);
  for (const Edge* edge : edges) {
    report.rules.push_back(edge ? edge->rule->name() : std::string_view("(not in manifest)"));
    report.kinds.push_back(RuleKindOf(edge));
  }
  report.slots = AssignSlots(report.jobs);
  report.critical_path = FindCriticalPath(ninja->state_, report.jobs, edges);
  Summarise(&report);
}

}  // namespace

int ToolReport(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  std::string output_path, events_path;
  for (int opt; (opt = args.Next("e:ho:")) != -1;) {
    if (opt == 'o')
      output_path = optarg;
    else if (opt == 'e')
      events_path = optarg;
    else
      return ReportUsage();
  }
  if (args.rest_count() > 0) return ReportUsage();
  // Whichever the jobs come from holds the text their paths point into.
  BuildHistory history;
  EventHistory events;
  StateFile state_file;
  BuildReport report;
  if (!events_path.empty()) {
    if (!LoadEventHistory(ninja, events_path, &events)) return 1;
    JobsFromEvents(events, &report);
  } else {
    if (!LoadBuildHistory(ninja, &state_file, &history)) return 1;
    JobsFromLogs(history, state_file, &report);
  }
  GatherReport(ninja, &report);
  if (output_path.empty())
    output_path = ninja->build_dir_.empty() ? "ninja_report.html" : ninja->build_dir_ + "/ninja_report.html";
  if (!WriteToolOutput(output_path, RenderReportHtml(report))) return 1;
  printf("%s\n", output_path.c_str());
  return 0;
}

}  // namespace ronin
