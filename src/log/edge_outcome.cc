#include "log/edge_outcome.h"

#include <chrono>
#include <limits>

#include "base/util.h"
#include "graph/graph.h"
#include "log/state_file.h"

namespace ronin {

namespace {

void AppendField(const char* name, int64_t value, std::string* out) {
  if (!out->empty()) *out += ' ';
  *out += name;
  *out += '=';
  *out += std::to_string(value);
}

bool ParseInt(std::string_view text, int* value) {
  int64_t wide;
  if (!ParseCount(text, &wide) || wide > std::numeric_limits<int>::max()) return false;
  *value = static_cast<int>(wide);
  return true;
}

}  // namespace

std::string EdgeOutcome::Encode() const {
  std::string out;
  AppendField("build", build, &out);
  if (start_ms >= 0) {
    AppendField("start", start_ms, &out);
    AppendField("end", end_ms, &out);
  }
  if (peak_rss >= 0) AppendField("peak_rss", peak_rss, &out);
  if (unchanged_outputs >= 0) AppendField("unchanged_outputs", unchanged_outputs, &out);
  if (skipped_by_content_hash) out += " skipped=content_hash";
  if (cached) out += " cached=1";
  return out;
}

bool EdgeOutcome::Parse(std::string_view payload, EdgeOutcome* outcome) {
  *outcome = EdgeOutcome();
  while (!payload.empty()) {
    size_t end = payload.find(' ');
    std::string_view field = payload.substr(0, end);
    payload = end == std::string_view::npos ? std::string_view() : payload.substr(end + 1);
    size_t equals = field.find('=');
    if (equals == std::string_view::npos) continue;
    std::string_view name = field.substr(0, equals), value = field.substr(equals + 1);
    bool ok = true;
    if (name == "build") {
      ok = ParseCount(value, &outcome->build);
    } else if (name == "start") {
      ok = ParseInt(value, &outcome->start_ms);
    } else if (name == "end") {
      ok = ParseInt(value, &outcome->end_ms);
    } else if (name == "peak_rss") {
      ok = ParseCount(value, &outcome->peak_rss);
    } else if (name == "unchanged_outputs") {
      ok = ParseInt(value, &outcome->unchanged_outputs);
    } else if (name == "skipped") {
      outcome->skipped_by_content_hash = value == "content_hash";
    } else if (name == "cached") {
      outcome->cached = value == "1";
    }
    if (!ok) return false;
  }
  return outcome->build >= 0 && (outcome->start_ms >= 0) == (outcome->end_ms >= 0);
}

bool FindRunOutcome(const StateFile& file, std::string_view first_output, int start_ms, int end_ms,
                    EdgeOutcome* outcome) {
  std::optional<std::string_view> payload = file.Find(StateFile::Kind::kEdgeOutcome, first_output);
  return payload && EdgeOutcome::Parse(*payload, outcome) && outcome->start_ms == start_ms &&
         outcome->end_ms == end_ms;
}

bool IsSkipLine(const StateFile& file, std::string_view first_output, int start_ms, int end_ms) {
  std::optional<std::string_view> payload = file.Find(StateFile::Kind::kEdgeSkip, first_output);
  EdgeOutcome outcome;
  return payload && EdgeOutcome::Parse(*payload, &outcome) && outcome.skipped_by_content_hash &&
         outcome.start_ms == start_ms && outcome.end_ms == end_ms;
}

EdgeOutcomeRecorder::EdgeOutcomeRecorder(StateFile* file)
    : file_(file),
      build_(std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count()) {}

void EdgeOutcomeRecorder::Skipped(const Edge* edge, int at_ms) {
  EdgeOutcome outcome;
  outcome.start_ms = outcome.end_ms = at_ms;
  outcome.skipped_by_content_hash = true;
  Put(StateFile::Kind::kEdgeSkip, edge, outcome);
}

void EdgeOutcomeRecorder::Ran(const Edge* edge, EdgeOutcome outcome) {
  Put(StateFile::Kind::kEdgeOutcome, edge, outcome);
}

bool EdgeOutcomeRecorder::Record(const FinishedCommand& command, std::string*) {
  if (!command.success()) return true;
  EdgeOutcome outcome{-1, command.start_millis, command.end_millis, command.peak_rss_bytes};
  outcome.unchanged_outputs = command.unchanged_outputs;
  outcome.cached = command.cached;
  Ran(command.edge, outcome);
  return true;  // the trace's detail alone depends on it: a failed write was warned about
}

void EdgeOutcomeRecorder::Put(StateFile::Kind kind, const Edge* edge, const EdgeOutcome& outcome) {
  if (edge->outputs.empty()) return;
  EdgeOutcome tagged = outcome;
  tagged.build = build_;
  std::string err;
  // Only -t trace reads these back: appended, not held in memory.
  if (file_->Append(kind, edge->outputs[0]->path, tagged.Encode(), &err) || write_failed_)
    return;
  // Only the trace's extra detail depends on it: the build goes on.
  write_failed_ = true;
  Warning("writing %s: %s; the build goes on, but -t trace will lack its details", file_->path().c_str(),
          err.c_str());
}

}  // namespace ronin
