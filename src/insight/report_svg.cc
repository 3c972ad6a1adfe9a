#include "insight/report_svg.h"

#include <math.h>

#include <algorithm>
#include <numeric>

#include "base/html_text.h"
#include "base/util.h"
#include "insight/report_html.h"

namespace ronin {

namespace {

constexpr int kLabelWidth = 64;   // left margin for row labels
constexpr int kPlotWidth = 1100;  // pixels for the whole build
constexpr int kAxisHeight = 22;
constexpr double kMinBarPixels = 1.0;

// Maps build time to x pixels.
class TimeScale {
 public:
  explicit TimeScale(const BuildReport& report)
      : start_(report.start_ms()), span_(std::max(1, report.end_ms() - report.start_ms())) {}
  double X(int ms) const { return kLabelWidth + Plot(ms); }
  // Pixels from the plot's left edge.
  double Plot(int ms) const { return (ms - start_) * double{kPlotWidth} / span_; }
  double ms_per_pixel() const { return double(span_) / kPlotWidth; }
  int span() const { return span_; }

 private:
  int start_;
  int span_;
};

std::string Num(double value) { return StringPrintf("%.1f", value); }

// A picture that shrinks to the page's width (never grows past its own).
std::string SvgOpen(const char* id, double height) {
  int width = kLabelWidth + kPlotWidth + 10;
  return "<svg id=\"" + std::string(id) + "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " +
         std::to_string(width) + " " + Num(height) + "\" style=\"width:100%;max-width:" +
         std::to_string(width) + "px\">\n";
}

// A tick step that reads well (1, 2, 5 times a power of ten below a
// second, whole seconds, minutes or hours above), about ten of them.
int64_t TickStep(int span_ms) {
  static const int64_t kSteps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
                                   15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000,
                                   3600000, 7200000, 18000000, 36000000, 86400000};
  for (int64_t step : kSteps)
    if (span_ms / step <= 10) return step;
  return kSteps[sizeof(kSteps) / sizeof(kSteps[0]) - 1] * (span_ms / 864000000 + 1);
}

void AppendTimeAxis(const TimeScale& scale, int start_ms, double y, std::string* svg) {
  *svg += "<g class=\"axis\">";
  *svg += "<line x1=\"" + Num(kLabelWidth) + "\" y1=\"" + Num(y) + "\" x2=\"" +
          Num(kLabelWidth + kPlotWidth) + "\" y2=\"" + Num(y) + "\"/>";
  int64_t step = TickStep(scale.span());
  for (int64_t t = 0; t <= scale.span(); t += step) {
    double x = scale.X(static_cast<int>(start_ms + t));
    *svg += "<line x1=\"" + Num(x) + "\" y1=\"" + Num(y) + "\" x2=\"" + Num(x) + "\" y2=\"" +
            Num(y + 4) + "\"/><text x=\"" + Num(x) + "\" y=\"" + Num(y + 16) +
            "\" text-anchor=\"middle\">" + FormatDuration(t) + "</text>";
  }
  *svg += "</g>\n";
}

// The commands that get a bar of their own: the longest ones, as many as
// fit, if they are wide enough to see.
std::vector<bool> ChooseDrawnBars(const BuildReport& report, const TimeScale& scale) {
  const std::vector<LoggedJob>& jobs = report.jobs;
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return jobs[a].duration_ms() > jobs[b].duration_ms();
  });
  std::vector<bool> drawn(jobs.size(), false);
  for (size_t i = 0; i < order.size() && i < kMaxDrawnBars; ++i) {
    if (jobs[order[i]].duration_ms() / scale.ms_per_pixel() < kMinBarPixels) break;
    drawn[order[i]] = true;
  }
  return drawn;
}

struct Rows {
  double height;  // per slot
  double top;
  double y(int slot) const { return top + slot * height; }
};

void AppendBar(const BuildReport& report, size_t job, const TimeScale& scale, const Rows& rows,
               std::string* svg) {
  const LoggedJob& entry = report.jobs[job];
  double x = scale.X(entry.start_ms);
  double width = std::max(kMinBarPixels, scale.Plot(entry.end_ms) - scale.Plot(entry.start_ms));
  double gap = rows.height >= 6 ? 1 : 0;
  *svg += "<rect class=\"job\" x=\"" + Num(x) + "\" y=\"" +
          Num(rows.y(report.slots.slot_of_job[job]) + gap / 2) + "\" width=\"" + Num(width) +
          "\" height=\"" + Num(rows.height - gap) + "\" fill=\"" +
          RuleColour(report.rule_rank[job]) + "\"><title>" + HtmlEscape(entry.outputs.front()) +
          "\nrule " + HtmlEscape(report.rules[job]) + "\n" + FormatDuration(entry.duration_ms()) +
          " (from " + FormatDuration(entry.start_ms - report.start_ms()) + ")</title></rect>\n";
}

// Short commands of one row, folded per pixel column into grey runs.
void AppendFoldedRow(const BuildReport& report, const std::vector<size_t>& jobs,
                     const TimeScale& scale, double y, double height, std::string* svg) {
  std::vector<int> count(kPlotWidth, 0);
  std::vector<int64_t> busy(kPlotWidth, 0);
  for (size_t job : jobs) {
    int column = std::clamp(static_cast<int>(scale.Plot(report.jobs[job].start_ms)), 0,
                            kPlotWidth - 1);
    ++count[column];
    busy[column] += std::max(0, report.jobs[job].duration_ms());
  }
  for (int column = 0; column < kPlotWidth;) {
    if (!count[column]) {
      ++column;
      continue;
    }
    int first = column, commands = 0;
    int64_t total = 0;
    for (; column < kPlotWidth && count[column]; ++column) {
      commands += count[column];
      total += busy[column];
    }
    *svg += "<rect class=\"folded\" x=\"" + Num(kLabelWidth + first) + "\" y=\"" + Num(y) +
            "\" width=\"" + Num(column - first) + "\" height=\"" + Num(height) + "\"><title>" +
            Counted(commands, "short command", "short commands") + ", " + FormatDuration(total) +
            " in all</title></rect>\n";
  }
}

void AppendRowLabels(const BuildReport& report, const Rows& rows, std::string* svg) {
  int slots = report.slots.slot_count;
  // Every row when there is room for the text, else the first and last.
  for (int slot = 0; slot < slots; ++slot) {
    if (rows.height < 11 && slot != 0 && slot != slots - 1) continue;
    *svg += "<text class=\"label\" x=\"" + Num(kLabelWidth - 6) + "\" y=\"" +
            Num(rows.y(slot) + std::min(rows.height, 11.0) - 1) + "\" text-anchor=\"end\">slot " +
            std::to_string(slot) + "</text>";
  }
  *svg += "\n";
}

void AppendCriticalPath(const BuildReport& report, const TimeScale& scale, const Rows& rows,
                        std::string* svg) {
  const std::vector<size_t>& path = report.critical_path.jobs;
  if (path.empty()) return;
  // Each command of the path in red over its bar (at least a few pixels
  // wide, to be seen in a long build), a dashed line for each wait between
  // them.
  std::string over, waits;
  double last_x = 0, last_y = 0;
  for (size_t i = 0; i < path.size(); ++i) {
    const LoggedJob& job = report.jobs[path[i]];
    double middle = rows.y(report.slots.slot_of_job[path[i]]) + rows.height / 2;
    double start = scale.X(job.start_ms);
    double end = std::max(scale.X(job.end_ms), start + kMinBarPixels);
    if (i) waits += "M" + Num(last_x) + " " + Num(last_y) + " L" + Num(start) + " " + Num(middle) + " ";
    // A band through the middle of the bar, so the rule's colour shows
    // above and below it.
    double band = std::max(2.0, rows.height * 0.4);
    over += "<rect class=\"critical\" x=\"" + Num(start) + "\" y=\"" + Num(middle - band / 2) +
            "\" width=\"" + Num(std::max(end - start, 4.0)) + "\" height=\"" + Num(band) + "\">" +
            "<title>critical path, step " + std::to_string(i + 1) + ": " + HtmlEscape(job.outputs.front()) +
            " (" + FormatDuration(job.duration_ms()) + ")</title></rect>\n";
    last_x = end;
    last_y = middle;
  }
  std::string title = "<title>critical path: " + std::to_string(path.size()) + " commands, " +
                      FormatDuration(report.critical_path.total_ms) + "</title>";
  if (!waits.empty()) *svg += "<path class=\"critical-wait\" d=\"" + waits + "\">" + title + "</path>\n";
  *svg += over;
}

}  // namespace

void AppendTimelineSvg(const BuildReport& report, std::string* html) {
  TimeScale scale(report);
  int slots = std::max(1, report.slots.slot_count);
  Rows rows{std::clamp(600.0 / slots, 2.0, 18.0), 4};
  double height = rows.y(slots) + kAxisHeight + 4;
  std::string& svg = *html;
  svg += SvgOpen("timeline-svg", height);
  AppendRowLabels(report, rows, &svg);
  std::vector<bool> drawn = ChooseDrawnBars(report, scale);
  std::vector<std::vector<size_t>> folded(slots);
  for (size_t job = 0; job < report.jobs.size(); ++job) {
    if (drawn[job])
      AppendBar(report, job, scale, rows, &svg);
    else
      folded[report.slots.slot_of_job[job]].push_back(job);
  }
  for (int slot = 0; slot < slots; ++slot) {
    if (!folded[slot].empty())
      AppendFoldedRow(report, folded[slot], scale, rows.y(slot), rows.height, &svg);
  }
  AppendCriticalPath(report, scale, rows, &svg);
  AppendTimeAxis(scale, report.start_ms(), rows.y(slots) + 2, &svg);
  svg += "</svg>\n";
}

namespace {

// How many commands ran, on average, during each pixel column.
std::vector<double> ParallelismByColumn(const BuildReport& report, const TimeScale& scale) {
  std::vector<double> partial(kPlotWidth + 1, 0), starts(kPlotWidth + 2, 0);
  for (const LoggedJob& job : report.jobs) {
    double a = scale.Plot(job.start_ms), b = std::max(a, scale.Plot(job.end_ms));
    int first = std::min(static_cast<int>(a), kPlotWidth), last = std::min(static_cast<int>(b), kPlotWidth);
    if (first == last) {
      partial[first] += b - a;
      continue;
    }
    partial[first] += first + 1 - a;
    partial[last] += b - last;
    starts[first + 1] += 1;  // whole columns first+1 .. last-1
    starts[last] -= 1;
  }
  std::vector<double> value(kPlotWidth);
  double running = 0;
  for (int column = 0; column < kPlotWidth; ++column) {
    running += starts[column];
    value[column] = running + partial[column];
  }
  return value;
}

}  // namespace

void AppendParallelismSvg(const BuildReport& report, std::string* html) {
  TimeScale scale(report);
  const double kHeight = 120, kTop = 6;
  std::vector<double> value = ParallelismByColumn(report, scale);
  double peak = std::max(1.0, *std::max_element(value.begin(), value.end()));
  auto y = [&](double v) { return kTop + kHeight - v * kHeight / peak; };
  std::string& svg = *html;
  svg += SvgOpen("parallelism-svg", kTop + kHeight + kAxisHeight + 4);
  svg += "<text class=\"label\" x=\"" + Num(kLabelWidth - 6) + "\" y=\"" + Num(kTop + 10) +
         "\" text-anchor=\"end\">" + StringPrintf("%.1f", peak) + "</text><text class=\"label\" x=\"" +
         Num(kLabelWidth - 6) + "\" y=\"" + Num(kTop + kHeight) + "\" text-anchor=\"end\">0</text>\n";
  std::string area = "M" + Num(kLabelWidth) + " " + Num(y(0));
  // A step per change of (rounded) height, not per column.
  std::string last_y = Num(y(0));
  for (int column = 0; column < kPlotWidth; ++column) {
    std::string column_y = Num(y(value[column]));
    if (column_y == last_y) continue;
    area += " L" + Num(kLabelWidth + column) + " " + last_y + " L" + Num(kLabelWidth + column) +
            " " + column_y;
    last_y = column_y;
  }
  area += " L" + Num(kLabelWidth + kPlotWidth) + " " + last_y;
  area += " L" + Num(kLabelWidth + kPlotWidth) + " " + Num(y(0)) + " Z";
  svg += "<path class=\"parallelism\" d=\"" + area + "\"><title>commands running at once</title></path>\n";
  AppendTimeAxis(scale, report.start_ms(), kTop + kHeight, &svg);
  svg += "</svg>\n";
}

}  // namespace ronin
