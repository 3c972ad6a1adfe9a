#include "insight/report_html.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "base/html_text.h"
#include "base/util.h"
#include "insight/report_svg.h"

namespace ronin {

namespace {

constexpr size_t kSlowestShown = 20;
constexpr size_t kChangesShown = 20;
constexpr size_t kCriticalShown = 100;
constexpr size_t kRulesShown = 40;

const char kStyle[] = R"(<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1f2933; background: #fff; }
h1 { font-size: 1.5em; margin: 0 0 .3em; }
h2 { font-size: 1.15em; margin: 1.6em 0 .4em; border-bottom: 1px solid #d9e2ec; }
.note { color: #616e7c; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: .1em 1.2em; }
dl.summary dt { color: #616e7c; } dl.summary dd { margin: 0; font-weight: 600; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: .15em .7em; vertical-align: top; }
th { background: #f0f4f8; } tr:nth-child(even) td { background: #f8fafc; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.path { font-family: ui-monospace, monospace; word-break: break-all; }
.bar { display: inline-block; height: .8em; background: #4c78a8; }
.legend span { display: inline-block; margin-right: 1em; }
.legend i { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -.1em; }
.scroll { overflow-x: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #52606d; }
svg .axis line { stroke: #9aa5b1; }
svg rect.job { stroke: #fff; stroke-width: .6; } svg rect.job:hover { stroke: #000; stroke-width: 1; }
svg rect.folded { fill: #b8c2cc; }
svg rect.critical { fill: #d62728; stroke: #7f1d1d; stroke-width: .5; }
svg path.critical-wait { stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 4 3; fill: none; }
svg path.parallelism { fill: #4c78a8; fill-opacity: .75; }
.cached { font-size: .8em; color: #087443; border: 1px solid #087443; border-radius: 3px; padding: 0 .3em; margin-left: .5em; }
.slower { color: #b42318; } .faster { color: #087443; }
</style>
)";

std::string Td(const std::string& text, const char* css_class = nullptr) {
  return css_class ? "<td class=\"" + std::string(css_class) + "\">" + text + "</td>"
                   : "<td>" + text + "</td>";
}

bool IsCached(const BuildReport& report, size_t job) { return job < report.cached.size() && report.cached[job]; }

// A job's output, marked when the build cache restored it rather than ran it.
std::string JobPathCell(const BuildReport& report, size_t job) {
  std::string text = HtmlEscape(report.jobs[job].outputs.front());
  if (IsCached(report, job)) text += "<span class=\"cached\" title=\"restored from the build cache\">cached</span>";
  return Td(text, "path");
}

int64_t TotalCommandTime(const BuildReport& report) {
  int64_t total = 0;
  for (const LoggedJob& job : report.jobs) total += std::max(0, job.duration_ms());
  return total;
}

void AppendSummary(const BuildReport& report, std::string* html) {
  int64_t wall = report.end_ms() - report.start_ms();
  int64_t busy = TotalCommandTime(report);
  auto item = [&](const char* name, const std::string& value) {
    *html += "<dt>" + std::string(name) + "</dt><dd>" + value + "</dd>\n";
  };
  *html += "<dl class=\"summary\" id=\"summary\">\n";
  item("Wall time", FormatDuration(wall));
  item("Commands", std::to_string(report.jobs.size()));
  item("Time in commands", FormatDuration(busy));
  item("Average parallelism", wall > 0 ? StringPrintf("%.2f", double(busy) / wall) : "-");
  item("Peak parallelism", std::to_string(report.slots.slot_count));
  size_t cached = std::count(report.cached.begin(), report.cached.end(), true);
  if (cached > 0) item("Restored from the build cache", Counted(static_cast<int64_t>(cached), "command", "commands"));
  item("Critical path", FormatDuration(report.critical_path.total_ms) + " in " +
                            Counted(static_cast<int64_t>(report.critical_path.jobs.size()), "command", "commands"));
  *html += "</dl>\n";
}

void AppendLegend(const BuildReport& report, std::string* html) {
  *html += "<p class=\"legend\">";
  for (size_t rank = 0; rank < report.rule_totals.size() && rank < 9; ++rank) {
    bool others = rank == 8;
    *html += "<span><i style=\"background:" + std::string(RuleColour(static_cast<int>(rank))) +
             "\"></i>" + (others ? "other rules" : HtmlEscape(report.rule_totals[rank].name)) +
             "</span>";
  }
  *html += "<span><i style=\"background:#b8c2cc\"></i>short commands, folded</span>"
           "<span><i style=\"background:#d62728\"></i>critical path</span></p>\n";
}

// One row per job: output, rule, start, duration, with optional cells
// before and after.
std::string JobRow(const BuildReport& report, size_t job, const std::string& extra = "",
                   const std::string& leading = "") {
  const LoggedJob& entry = report.jobs[job];
  return "<tr>" + leading + JobPathCell(report, job) + Td(HtmlEscape(report.rules[job])) +
         Td(FormatDuration(entry.start_ms - report.start_ms()), "n") +
         Td(FormatDuration(entry.duration_ms()), "n") + extra + "</tr>\n";
}

const char kJobHeader[] = "<th>Output</th><th>Rule</th><th class=\"n\">Started</th><th class=\"n\">Took</th>";

void AppendCriticalPathTable(const BuildReport& report, std::string* html) {
  const std::vector<size_t>& path = report.critical_path.jobs;
  *html += "<h2>Critical path</h2>\n<p class=\"note\">The longest chain of commands through the "
           "build's dependencies, by measured duration: " +
           FormatDuration(report.critical_path.total_ms) + " in " +
           Counted(static_cast<int64_t>(path.size()), "command", "commands") + ", drawn in red on the timeline.</p>\n";
  *html += "<table id=\"critical-path\"><tr><th class=\"n\">#</th>" + std::string(kJobHeader) + "</tr>\n";
  for (size_t i = 0; i < path.size() && i < kCriticalShown; ++i)
    *html += JobRow(report, path[i], "", Td(std::to_string(i + 1), "n"));
  *html += "</table>\n";
  if (path.size() > kCriticalShown)
    *html += "<p class=\"note\">... and " +
             Counted(static_cast<int64_t>(path.size() - kCriticalShown), "more command", "more commands") + ".</p>\n";
}

void AppendSlowest(const BuildReport& report, std::string* html) {
  std::vector<size_t> order(report.jobs.size());
  std::iota(order.begin(), order.end(), 0);
  size_t shown = std::min(kSlowestShown, order.size());
  std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](size_t a, size_t b) {
    return report.jobs[a].duration_ms() > report.jobs[b].duration_ms();
  });
  *html += "<h2>Slowest commands</h2>\n<table id=\"slowest\"><tr>" + std::string(kJobHeader) + "</tr>\n";
  for (size_t i = 0; i < shown; ++i) *html += JobRow(report, order[i]);
  *html += "</table>\n";
}

// A table of totals (per rule, per kind), longest first.
void AppendTotalsTable(const BuildReport& report, const std::vector<RuleTotal>& totals, const char* title,
                       const char* id, const char* first_column, std::string* html) {
  int64_t busy = std::max<int64_t>(1, TotalCommandTime(report));
  *html += "<h2>" + std::string(title) + "</h2>\n<table id=\"" + id + "\"><tr><th>" + first_column +
           "</th><th class=\"n\">Commands</th><th class=\"n\">Total</th><th class=\"n\">Average</th>"
           "<th>Share of command time</th></tr>\n";
  for (size_t i = 0; i < totals.size() && i < kRulesShown; ++i) {
    const RuleTotal& rule = totals[i];
    double share = 100.0 * rule.total_ms / busy;
    *html += "<tr>" + Td(HtmlEscape(rule.name)) + Td(std::to_string(rule.commands), "n") +
             Td(FormatDuration(rule.total_ms), "n") +
             Td(FormatDuration(rule.total_ms / static_cast<int64_t>(rule.commands)), "n") +
             Td(StringPrintf("<span class=\"bar\" style=\"width:%.1fpx\"></span> %.1f%%",
                             share * 3, share)) +
             "</tr>\n";
  }
  *html += "</table>\n";
}

void AppendChangeTable(const BuildReport& report, const std::vector<size_t>& jobs, const char* id,
                       const char* title, std::string* html) {
  if (jobs.empty()) return;
  *html += "<h3>" + std::string(title) + "</h3>\n<table id=\"" + id + "\"><tr>" + kJobHeader +
           "<th class=\"n\">Before</th><th class=\"n\">Change</th></tr>\n";
  for (size_t job : jobs) {
    int64_t before = report.earlier_ms[job];
    int64_t change = report.jobs[job].duration_ms() - before;
    std::string sign = change > 0 ? "+" : "-";
    *html += JobRow(report, job,
                    Td(FormatDuration(before), "n") +
                        Td(sign + FormatDuration(change < 0 ? -change : change),
                           change > 0 ? "n slower" : "n faster"));
  }
  *html += "</table>\n";
}

void AppendChanges(const BuildReport& report, std::string* html) {
  *html += "<h2>Compared with earlier builds</h2>\n";
  std::vector<size_t> compared;
  int64_t before = 0, now = 0;
  for (size_t job = 0; job < report.jobs.size(); ++job) {
    if (report.earlier_ms[job] < 0) continue;
    compared.push_back(job);
    before += report.earlier_ms[job];
    now += report.jobs[job].duration_ms();
  }
  if (compared.empty()) {
    *html += "<p class=\"note\" id=\"changes-none\">The log holds no earlier build of these "
             "outputs.</p>\n";
    return;
  }
  *html += "<p id=\"changes\">" + Counted(static_cast<int64_t>(compared.size()), "command", "commands") +
           " of this build also ran in an earlier build in the log: " +
           FormatDuration(before) + " then, " + FormatDuration(now) + " now.</p>\n";
  auto change = [&](size_t job) { return report.jobs[job].duration_ms() - report.earlier_ms[job]; };
  std::stable_sort(compared.begin(), compared.end(),
                   [&](size_t a, size_t b) { return change(a) > change(b); });
  std::vector<size_t> slower, faster;
  for (size_t i = 0; i < compared.size() && slower.size() < kChangesShown && change(compared[i]) > 0; ++i)
    slower.push_back(compared[i]);
  for (size_t i = compared.size(); i-- > 0 && faster.size() < kChangesShown && change(compared[i]) < 0;)
    faster.push_back(compared[i]);
  AppendChangeTable(report, slower, "slower", "Slower", html);
  AppendChangeTable(report, faster, "faster", "Faster", html);
  if (slower.empty() && faster.empty())
    *html += "<p class=\"note\">Every command took as long as before.</p>\n";
}

// Commands and time per name (`names` parallel to `jobs`), longest first.
std::vector<RuleTotal> TotalsByName(const std::vector<LoggedJob>& jobs, const std::vector<std::string_view>& names) {
  std::vector<RuleTotal> totals;
  std::unordered_map<std::string_view, size_t> index;
  for (size_t job = 0; job < names.size() && job < jobs.size(); ++job) {
    auto found = index.emplace(names[job], totals.size());
    if (found.second) totals.push_back({names[job], 0, 0});
    RuleTotal& total = totals[found.first->second];
    ++total.commands;
    total.total_ms += std::max(0, jobs[job].duration_ms());
  }
  std::stable_sort(totals.begin(), totals.end(),
                   [](const RuleTotal& a, const RuleTotal& b) { return a.total_ms > b.total_ms; });
  return totals;
}

}  // namespace

std::string FormatDuration(int64_t ms) {
  if (ms < 1000) return std::to_string(ms) + " ms";
  if (ms < 10000) return StringPrintf("%.2f s", ms / 1000.0);
  if (ms < 60000) return StringPrintf("%.1f s", ms / 1000.0);
  int64_t seconds = ms / 1000;
  if (seconds < 3600) return StringPrintf("%d min %02d s", int(seconds / 60), int(seconds % 60));
  return StringPrintf("%d h %02d min", int(seconds / 3600), int(seconds / 60 % 60));
}

const char* RuleColour(int rank) {
  static const char* const kColours[] = {"#4c78a8", "#f58518", "#54a24b", "#b279a2",
                                         "#e4b43c", "#72b7b2", "#ff9da6", "#9d755d"};
  return rank >= 0 && rank < 8 ? kColours[rank] : "#7b8794";
}

void Summarise(BuildReport* report) {
  if (!report->jobs.empty()) {
    report->first_start_ms = report->jobs.front().start_ms;
    report->last_end_ms = report->jobs.front().end_ms;
  }
  for (const LoggedJob& job : report->jobs) {
    report->first_start_ms = std::min(report->first_start_ms, job.start_ms);
    report->last_end_ms = std::max(report->last_end_ms, job.end_ms);
  }
  report->rule_totals = TotalsByName(report->jobs, report->rules);
  report->kind_totals = TotalsByName(report->jobs, report->kinds);
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < report->rule_totals.size(); ++i) index[report->rule_totals[i].name] = i;
  report->rule_rank.clear();
  for (std::string_view rule : report->rules) report->rule_rank.push_back(static_cast<int>(index[rule]));
}

std::string RenderReportHtml(const BuildReport& report) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>Build report: " + HtmlEscape(report.title) + "</title>\n" + kStyle +
      "</head>\n<body>\n<h1>Build report</h1>\n<p class=\"note\">The last build recorded in <code>" +
      HtmlEscape(report.title) + "</code>, from its <code>.ninja_log</code>.</p>\n";
  if (report.jobs.empty()) {
    html += "<p id=\"empty\">The log holds no build yet.</p>\n</body>\n</html>\n";
    return html;
  }
  AppendSummary(report, &html);
  html += "<h2>Timeline</h2>\n<p class=\"note\">Each row is a job slot; hover over a bar for its "
          "output, rule and duration.</p>\n";
  AppendLegend(report, &html);
  html += "<div class=\"scroll\" id=\"timeline\">\n";
  AppendTimelineSvg(report, &html);
  html += "</div>\n<h2>Parallelism over time</h2>\n<div class=\"scroll\" id=\"parallelism\">\n";
  AppendParallelismSvg(report, &html);
  html += "</div>\n";
  AppendCriticalPathTable(report, &html);
  AppendSlowest(report, &html);
  if (!report.kind_totals.empty())
    AppendTotalsTable(report, report.kind_totals, "Time per kind of command", "kinds", "Kind", &html);
  AppendTotalsTable(report, report.rule_totals, "Time per rule", "rules", "Rule", &html);
  AppendChanges(report, &html);
  html += "</body>\n</html>\n";
  return html;
}

}  // namespace ronin
