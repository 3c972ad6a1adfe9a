// The build report (`ninja -t report`): one self-contained HTML page (inline
// CSS and SVG, no scripts, nothing fetched) about where one build spent its
// time. This module only renders; tools/tool_report.cc gathers the facts.
#ifndef RONIN_INSIGHT_REPORT_HTML_H_
#define RONIN_INSIGHT_REPORT_HTML_H_

#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

#include "insight/build_history.h"
#include "insight/critical_path.h"
#include "insight/job_slots.h"

namespace ronin {

struct RuleTotal {
  std::string_view name;
  size_t commands = 0;
  int64_t total_ms = 0;
};

// What the report shows; the vectors indexed by job are parallel to `jobs`.
struct BuildReport {
  std::string title;                     // e.g. the build directory
  std::vector<LoggedJob> jobs;           // the build's commands
  std::vector<std::string_view> rules;   // each job's rule
  std::vector<std::string_view> kinds;   // each job's kind (rule_kind.h; may be empty)
  std::vector<int> earlier_ms;           // each job's earlier duration, -1 if none
  std::vector<bool> cached;              // each job restored from the build cache (may be empty)
  SlotLayout slots;
  CriticalPath critical_path;
  std::vector<RuleTotal> rule_totals;    // by total time, longest first
  std::vector<RuleTotal> kind_totals;    // the same per kind
  std::vector<int> rule_rank;            // each job's index in rule_totals

  int start_ms() const { return first_start_ms; }
  int end_ms() const { return last_end_ms; }

  // Filled by Summarise():
  int first_start_ms = 0;  // the first command's start
  int last_end_ms = 0;     // the last one's end
};

// Fills the span, rule_totals, kind_totals and rule_rank from jobs, rules and kinds.
void Summarise(BuildReport* report);

// The whole page.
std::string RenderReportHtml(const BuildReport& report);

// "850 ms", "12.3 s", "4 min 05 s".
std::string FormatDuration(int64_t ms);

// The fill colour for a rule's rank (the eight busiest rules get colours of
// their own, the rest share grey).
const char* RuleColour(int rank);

}  // namespace ronin

#endif  // RONIN_INSIGHT_REPORT_HTML_H_
