#include "status/status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "graph/graph.h"
#include "scan/explain.h"
#include "status/cache_counts.h"
#include "status/terminal.h"

namespace ronin {

StatusPrinter::StatusPrinter(const BuildConfig& config)
    : config_(config), current_rate_(config.parallelism) {
  // Only the normal mode rewrites one line; -v and --quiet print plainly.
  if (config_.verbosity != BuildConfig::Verbosity::kNormal) printer_.set_smart_terminal(false);
  status_format_ = getenv("NINJA_STATUS");
  if (!status_format_) status_format_ = "[%f/%t] ";
  if (config_.has_status_format) {
    std::string err;
    if (!variable_format_.Parse(config_.status_format, &err)) Fatal("%s", err.c_str());
    has_variable_format_ = true;
  }
}

void StatusPrinter::EdgeAddedToPlan(const Edge* edge) {
  ++total_edges_;
  if (edge->prev_elapsed_time_millis != -1) {
    ++predictable_edges_total_;
    ++predictable_edges_remaining_;
    predictable_millis_total_ += edge->prev_elapsed_time_millis;
    predictable_millis_remaining_ += edge->prev_elapsed_time_millis;
  } else {
    ++unpredictable_edges_remaining_;
  }
}

void StatusPrinter::EdgeRemovedFromPlan(const Edge* edge) {
  --total_edges_;
  if (edge->prev_elapsed_time_millis != -1) {
    --predictable_edges_total_;
    --predictable_edges_remaining_;
    predictable_millis_total_ -= edge->prev_elapsed_time_millis;
    predictable_millis_remaining_ -= edge->prev_elapsed_time_millis;
  } else {
    --unpredictable_edges_remaining_;
  }
}

void StatusPrinter::BuildStarted() {
  started_edges_ = 0;
  finished_edges_ = 0;
  running_edges_ = 0;
}

void StatusPrinter::BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) {
  ++started_edges_;
  ++running_edges_;
  time_millis_ = start_time_millis;
  if (edge->use_console() || printer_.is_smart_terminal()) PrintStatus(edge, start_time_millis);
  if (edge->use_console()) printer_.SetConsoleLocked(true);
}

void StatusPrinter::BuildEdgeFinished(const Edge* edge, int64_t start_time_millis,
                                      int64_t end_time_millis, ExitStatus exit_code,
                                      const std::string& output) {
  time_millis_ = end_time_millis;
  ++finished_edges_;
  cpu_time_millis_ += end_time_millis - start_time_millis;
  if (edge->prev_elapsed_time_millis != -1) {
    --predictable_edges_remaining_;
    predictable_millis_remaining_ -= edge->prev_elapsed_time_millis;
  } else {
    --unpredictable_edges_remaining_;
  }

  if (edge->use_console()) printer_.SetConsoleLocked(false);
  if (config_.verbosity == BuildConfig::Verbosity::kQuiet) return;
  if (!edge->use_console()) PrintStatus(edge, end_time_millis);
  --running_edges_;

  if (exit_code != kExitSuccess) {
    // Name the outputs and show the command before its output.
    std::string outputs;
    for (const Node* output_node : edge->outputs) {
      outputs.append(output_node->path);
      outputs.push_back(' ');
    }
    std::string failed = "FAILED: [code=" + ExitCodeText(exit_code) + "] ";
    if (printer_.supports_color())
      printer_.PrintOnNewLine("\x1B[31m" + failed + "\x1B[0m" + outputs + "\n");
    else
      printer_.PrintOnNewLine(failed + outputs + "\n");
    printer_.PrintOnNewLine(edge->EvaluateCommand() + "\n");
  }
  if (!output.empty()) {
    // The command's own line ends, not Windows' text-mode "\r\n" for each "\n".
    StdoutBytesAsIs bytes_as_is;
    // Commands write to a pipe; colours are kept only for a terminal that
    // shows them (or when forced).
    printer_.PrintOnNewLine(printer_.supports_color() ? output : StripAnsiEscapeCodes(output));
  }
}

void StatusPrinter::BuildFinished() {
  printer_.SetConsoleLocked(false);
  printer_.PrintOnNewLine("");
}

// Each status line for an edge is preceded by its -d explain reasons, on a
// line of their own (so twice on a smart terminal: at start and finish).
void StatusPrinter::PrintExplanations(const Edge* edge) {
  const std::vector<std::string>* reasons = explanations_ ? explanations_->Lookup(edge) : nullptr;
  if (!reasons || reasons->empty()) return;
  printer_.PrintOnNewLine("");
  for (const std::string& reason : *reasons) PrintExplanation("%s", reason.c_str());
}

void StatusPrinter::PrintStatus(const Edge* edge, int64_t time_millis) {
  PrintExplanations(edge);
  PrintStatusLine(edge, time_millis);
}

void StatusPrinter::RepaintStatusLine() {
  // Formatted again: nothing it shows has changed since it was printed.
  if (status_edge_ && printer_.status_line_shown()) PrintStatusLine(status_edge_, status_time_millis_);
}

void StatusPrinter::RestoreStatusLine() {
  if (status_edge_ && printer_.is_smart_terminal() && !printer_.status_line_shown())
    PrintStatusLine(status_edge_, status_time_millis_);
}

void StatusPrinter::PrintStatusLine(const Edge* edge, int64_t time_millis) {
  if (config_.verbosity == BuildConfig::Verbosity::kQuiet ||
      config_.verbosity == BuildConfig::Verbosity::kNoStatusUpdate)
    return;
  RecalculateProgressPrediction();
  bool full_command = config_.verbosity == BuildConfig::Verbosity::kVerbose;
  // NINJA_STATUS is a prefix of the description; --status places it.
  std::string line = has_variable_format_ ? FormatStatusVariables(variable_format_.eval(), edge)
                                          : FormatProgressStatus(status_format_, time_millis) + DescriptionOf(edge);
  status_edge_ = edge;
  status_time_millis_ = time_millis;
  printer_.Print(std::move(line), full_command ? LinePrinter::FULL : LinePrinter::ELIDE);
}

std::string StatusPrinter::DescriptionOf(const Edge* edge) const {
  std::string text = edge->GetBinding(Rule::kDescription);
  if (text.empty() || config_.verbosity == BuildConfig::Verbosity::kVerbose)
    text = edge->GetBinding(Rule::kCommand);
  return text;
}

void StatusPrinter::RecalculateProgressPrediction() {
  time_predicted_fraction_ = 0.0;
  // Average duration of an edge: from the previous build's log, unless
  // this build is clearly different (e.g. the last one was cached).
  double previous_average = predictable_edges_total_
                                ? static_cast<double>(predictable_millis_total_) / predictable_edges_total_
                                : 0.0;
  double actual_average = finished_edges_ ? static_cast<double>(cpu_time_millis_) / finished_edges_ : 0.0;
  bool use_history = predictable_edges_total_ > 0;
  if (use_history && time_millis_ >= 15000 && total_edges_ > 0 && finished_edges_ * 20 >= total_edges_ &&
      previous_average > 0 && actual_average > 0) {
    double ratio = previous_average > actual_average ? previous_average / actual_average
                                                     : actual_average / previous_average;
    if (ratio >= 10) use_history = false;
  }
  double unknown_edge_estimate = use_history ? previous_average : actual_average;
  if (unknown_edge_estimate <= 0) return;
  double remaining = unpredictable_edges_remaining_ * unknown_edge_estimate;
  if (use_history)
    remaining += predictable_millis_remaining_;
  else
    remaining += predictable_edges_remaining_ * unknown_edge_estimate;
  double total = cpu_time_millis_ + remaining;
  if (total > 0) time_predicted_fraction_ = cpu_time_millis_ / total;
  // Damaged log lines (negative durations) must not push it out of range.
  if (!(time_predicted_fraction_ >= 0.0)) time_predicted_fraction_ = 0.0;
  if (time_predicted_fraction_ > 1.0) time_predicted_fraction_ = 1.0;
}

void StatusPrinter::SlidingRate::Update(int hint, int64_t time_millis) {
  if (hint == last_hint_) return;
  last_hint_ = hint;
  if (times_.size() == n_) times_.pop();
  times_.push(time_millis);
  if (times_.back() != times_.front())
    rate_ = static_cast<double>(times_.size()) / ((times_.back() - times_.front()) / 1e3);
}

namespace {

std::string FormatRate(double rate) {
  if (rate == -1) return "?";
  return StringPrintf("%.1f", rate);
}

std::string FormatDuration(bool in_seconds, double seconds, bool with_hours) {
  if (seconds < 0) return "?";
  if (in_seconds) return StringPrintf("%.3f", seconds);
  int64_t t = static_cast<int64_t>(seconds);
  if (with_hours)
    return StringPrintf("%" PRId64 ":%02" PRId64 ":%02" PRId64, t / 3600, (t % 3600) / 60, t % 60);
  return StringPrintf("%02" PRId64 ":%02" PRId64, t / 60, t % 60);
}

}  // namespace

void StatusPrinter::AppendField(StatusField field, std::string* out) const {
  switch (field) {
    case StatusField::kStarted:
      *out += std::to_string(started_edges_);
      break;
    case StatusField::kTotal:
      *out += std::to_string(total_edges_);
      break;
    case StatusField::kRunning:
      *out += std::to_string(running_edges_);
      break;
    case StatusField::kRemaining:
      *out += std::to_string(total_edges_ - started_edges_);
      break;
    case StatusField::kFinished:
      *out += std::to_string(finished_edges_);
      break;
    case StatusField::kRate:
      *out += FormatRate(finished_edges_ / (time_millis_ / 1e3));
      break;
    case StatusField::kCurrentRate:
      current_rate_.Update(finished_edges_, time_millis_);
      *out += FormatRate(current_rate_.rate());
      break;
    case StatusField::kProgress: {
      int percent = 0;
      if (finished_edges_ != 0 && total_edges_ != 0) percent = (100 * finished_edges_) / total_edges_;
      *out += StringPrintf("%3i%%", percent);
      break;
    }
    case StatusField::kElapsedSeconds:
    case StatusField::kEtaSeconds:
    case StatusField::kElapsed:
    case StatusField::kEta: {
      double elapsed = time_millis_ / 1e3;
      double eta = -1;
      if (time_predicted_fraction_ != 0.0) {
        double total_wall = time_millis_ / time_predicted_fraction_;
        eta = (total_wall - time_millis_) / 1e3;
      }
      bool with_hours = elapsed >= 3600 || eta >= 3600;
      bool is_eta = field == StatusField::kEtaSeconds || field == StatusField::kEta;
      bool in_seconds = field == StatusField::kElapsedSeconds || field == StatusField::kEtaSeconds;
      *out += FormatDuration(in_seconds, is_eta ? eta : elapsed, with_hours);
      break;
    }
    case StatusField::kPredictedProgress:
      *out += StringPrintf("%3i%%", static_cast<int>(100. * time_predicted_fraction_));
      break;
    case StatusField::kCacheHits:
      *out += cache_counts_ ? cache_counts_->HitsOfLookups() : "0/0";
      break;
    case StatusField::kDescription:
      break;  // not a counter: FormatStatusVariables knows the edge
  }
}

std::string StatusPrinter::FormatProgressStatus(const char* format, int64_t time_millis) const {
  (void)time_millis;
  std::string out;
  for (const char* s = format; *s != '\0'; ++s) {
    if (*s != '%') {
      out.push_back(*s);
      continue;
    }
    ++s;
    StatusField field;
    if (*s == '%') {
      out.push_back('%');
    } else if (PercentField(*s, &field) && (field != StatusField::kCacheHits || !config_.ronin.cache.empty())) {
      // (Without --cache, %C is an unknown placeholder as in Ninja.)
      AppendField(field, &out);
    } else {
      Fatal("unknown placeholder '%%%c' in $NINJA_STATUS", *s);
    }
    if (*s == '\0') break;
  }
  return out;
}

// The variables of a --status format, as an Env the format evaluates in.
class StatusPrinter::VariableEnv : public Env {
 public:
  VariableEnv(const StatusPrinter& printer, const Edge* edge) : printer_(printer), edge_(edge) {}
  void AppendVariable(std::string_view name, std::string* out) const override {
    StatusField field;
    if (!VariableField(name, &field)) Fatal("unknown variable '%s' in --status format", std::string(name).c_str());
    if (field == StatusField::kDescription)
      out->append(printer_.DescriptionOf(edge_));
    else
      printer_.AppendField(field, out);
  }

 private:
  const StatusPrinter& printer_;
  const Edge* edge_;
};

std::string StatusPrinter::FormatStatusVariables(const EvalString& format, const Edge* edge) const {
  return format.Evaluate(VariableEnv(*this, edge));
}

}  // namespace ronin
