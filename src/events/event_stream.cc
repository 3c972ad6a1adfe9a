// The stream's events, on every platform; opening and writing are
// event_stream_posix.cc's and event_stream_win.cc's.
#include "events/event_stream.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "base/util.h"
#include "base/version.h"
#include "events/json_text.h"
#include "graph/graph.h"

namespace ronin {
namespace {

void AppendKey(const char* key, std::string* out) {
  out->push_back(',');
  out->push_back('"');
  out->append(key);
  out->append("\":");
}

void AppendString(const char* key, std::string_view value, std::string* out) {
  AppendKey(key, out);
  AppendJsonText(value, out);
}

void AppendInt(const char* key, int64_t value, std::string* out) {
  AppendKey(key, out);
  out->append(std::to_string(value));
}

// A count that may be unknown (-1): null then.
void AppendOptionalInt(const char* key, int64_t value, std::string* out) {
  AppendKey(key, out);
  out->append(value < 0 ? "null" : std::to_string(value));
}

void AppendBool(const char* key, bool value, std::string* out) {
  AppendKey(key, out);
  out->append(value ? "true" : "false");
}

template <typename Strings>
void AppendStrings(const char* key, const Strings& values, std::string* out) {
  AppendKey(key, out);
  out->push_back('[');
  bool first = true;
  for (const auto& value : values) {
    if (!first) out->push_back(',');
    first = false;
    AppendJsonText(value, out);
  }
  out->push_back(']');
}

// "edge" (its id, the same in every event about it) and "outputs".
void AppendEdge(const Edge* edge, std::string* out) {
  AppendInt("edge", edge->id, out);
  AppendKey("outputs", out);
  out->push_back('[');
  for (size_t i = 0; i < edge->outputs.size(); ++i) {
    if (i) out->push_back(',');
    AppendJsonText(edge->outputs[i]->path, out);
  }
  out->push_back(']');
}

const char* VerbosityName(BuildConfig::Verbosity verbosity) {
  switch (verbosity) {
    case BuildConfig::Verbosity::kQuiet: return "quiet";
    case BuildConfig::Verbosity::kNoStatusUpdate: return "no_status";
    case BuildConfig::Verbosity::kNormal: return "normal";
    case BuildConfig::Verbosity::kVerbose: return "verbose";
  }
  return "normal";
}

int64_t UnixMillis() {
  timeval now;
  gettimeofday(&now, nullptr);
  return static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_usec / 1000;
}

}  // namespace

std::string& EventStream::Begin(const char* name) {
  line_.assign("{\"event\":");
  AppendJsonText(name, &line_);
  AppendInt("t", MonotonicMillis() - start_millis_, &line_);
  if (in_build_) AppendInt("build", build_, &line_);
  return line_;
}

void EventStream::End() {
  line_.append("}\n");
  if (fd_ < 0) return;
  if (!WriteLine()) {
    // The reader is gone: the build goes on without it.
    if (owned_) close(fd_);
    fd_ = -1;
  }
}

void EventStream::StreamStarted(const BuildConfig& config) {
  config_ = &config;
  start_millis_ = MonotonicMillis();
  std::string& line = Begin("stream_start");
  AppendString("schema", "ronin-events", &line);
  AppendInt("version", kEventsSchemaVersion, &line);
  AppendString("ninja_version", kNinjaVersion, &line);
  AppendInt("pid", getpid(), &line);
  AppendString("cwd", WorkingDirectory(), &line);
  AppendInt("unix_ms", UnixMillis(), &line);
  End();
}

int64_t EventStream::BuildMillis() const { return MonotonicMillis() - build_start_millis_; }

void EventStream::BuildStarted(const BuildStartEvent& event) {
  ++build_;
  in_build_ = true;
  build_start_millis_ = event.start_millis;
  counts_ = Counts();
  std::string& line = Begin("build_start");
  AppendStrings("targets", event.targets, &line);
  AppendString("trigger", event.trigger, &line);
  AppendStrings("changed", event.changed, &line);
  const BuildConfig& config = *config_;
  AppendInt("parallelism", config.parallelism, &line);
  AppendInt("failures_allowed", config.failures_allowed, &line);
  AppendKey("max_load", &line);
  line.append(config.max_load_average > 0 ? StringPrintf("%g", config.max_load_average) : "null");
  AppendBool("dry_run", config.dry_run, &line);
  AppendBool("explain", config.explain, &line);
  AppendString("verbosity", VerbosityName(config.verbosity), &line);
  AppendKey("options", &line);
  line.push_back('{');
  line.append("\"content_hash\":");
  line.append(config.ronin.content_hash ? "true" : "false");
  AppendKey("cache", &line);
  if (config.ronin.cache.empty())
    line.append("null");
  else
    AppendJsonText(config.ronin.cache, &line);
  AppendInt("keep_free_memory", config.ronin.keep_free_memory, &line);
  AppendInt("remote_jobs", config.ronin.remote_jobs, &line);
  AppendBool("jobserver_pool", config.ronin.jobserver_pool, &line);
  line.push_back('}');
  End();
  WriteSkipsBeforeBuild();
}

void EventStream::EdgeStarted(const Edge* edge, int64_t start_ms) {
  ++counts_.started;
  std::string& line = Begin("edge_start");
  AppendEdge(edge, &line);
  AppendString("command", edge->EvaluateCommand(), &line);
  AppendString("description", edge->GetBinding(Rule::kDescription), &line);
  AppendString("pool", edge->pool ? edge->pool->name : std::string_view(), &line);
  AppendInt("start_ms", start_ms, &line);
  End();
}

void EventStream::Explained(const Edge* edge, const std::vector<std::string>& reasons) {
  std::string& line = Begin("explain");
  AppendEdge(edge, &line);
  AppendStrings("reasons", reasons, &line);
  End();
}

void EventStream::EdgeSkipped(const Edge* edge, const char* reason) {
  ++counts_.skipped;
  std::string& line = Begin("edge_skipped");
  AppendEdge(edge, &line);
  AppendString("reason", reason, &line);
  End();
}

void EventStream::Skipped(const Edge* edge) {
  if (in_build_) return EdgeSkipped(edge, "content_unchanged");
  skips_before_build_.emplace_back();
  AppendEdge(edge, &skips_before_build_.back());
}

void EventStream::WriteSkipsBeforeBuild() {
  for (const std::string& edge_fields : skips_before_build_) {
    ++counts_.skipped;
    std::string& line = Begin("edge_skipped");
    line.append(edge_fields);
    AppendString("reason", "content_unchanged", &line);
    End();
  }
  skips_before_build_.clear();
}

void EventStream::EdgeFinished(const EdgeEndEvent& event) {
  bool success = !event.interrupted && event.exit_status == 0;
  if (success) ++counts_.succeeded;
  if (!success && !event.interrupted) ++counts_.failed;
  if (event.cached) ++counts_.cached;
  std::string& line = Begin("edge_end");
  AppendEdge(event.edge, &line);
  const char* result = event.interrupted ? "interrupted" : success ? "success" : "failure";
  AppendString("result", result, &line);
  AppendOptionalInt("exit_status", event.interrupted ? -1 : event.exit_status, &line);
  AppendInt("start_ms", event.start_ms, &line);
  AppendInt("end_ms", event.end_ms, &line);
  AppendOptionalInt("peak_rss_bytes", event.peak_rss_bytes, &line);
  AppendBool("cached", event.cached, &line);
  AppendOptionalInt("unchanged_outputs", event.unchanged_outputs, &line);
  AppendString("output", event.output, &line);
  AppendKey("log", &line);
  if (event.logged) {
    line.append("{\"mtime\":");
    line.append(std::to_string(event.log_mtime));
    line.append(StringPrintf(",\"command_hash\":\"%016" PRIx64 "\"}", event.command_hash));
  } else {
    line.append("null");
  }
  End();
}

void EventStream::BuildFinished(const BuildEndEvent& event) {
  const char* result = event.result;
  if (!result)
    result = event.exit_code == kExitSuccess ? "success" : event.exit_code == kExitInterrupted ? "interrupted" : "failure";
  std::string& line = Begin("build_end");
  AppendString("result", result, &line);
  AppendInt("exit_code", event.exit_code, &line);
  AppendString("error", event.error, &line);
  AppendKey("counts", &line);
  line.append(StringPrintf("{\"planned\":%d,\"started\":%d,\"succeeded\":%d,\"failed\":%d,\"cached\":%d,"
                           "\"skipped\":%d}",
                           event.planned, counts_.started, counts_.succeeded, counts_.failed, counts_.cached,
                           counts_.skipped));
  End();
  in_build_ = false;
}

void EventStream::ErrorOutsideBuild(const std::string& message) {
  std::string& line = Begin("error");
  AppendString("message", message, &line);
  End();
}

void EventStream::StreamEnded(int exit_code) {
  std::string& line = Begin("stream_end");
  AppendInt("exit_code", exit_code, &line);
  End();
}

}  // namespace ronin
