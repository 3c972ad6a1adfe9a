// `--events=PATH|fd:N`: the build as a stream of JSON lines, one object per
// event, for IDEs, CI dashboards and scripts (Ninja issues #1600, #746).
// The schema is doc/events.md (versioned: kEventsSchemaVersion); this class
// only writes it. Each event is one write() of one whole line, so a reader
// following the file never sees half a line, and the stream stays complete
// up to the last event whatever happens next.
#ifndef RONIN_EVENTS_EVENT_STREAM_H_
#define RONIN_EVENTS_EVENT_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/build_config.h"
#include "log/build_recorder.h"

namespace ronin {

struct Edge;

// The schema's version (doc/events.md): a reader refuses streams of a
// version it does not know. Fields may be added without a new version.
constexpr int kEventsSchemaVersion = 1;

// A build about to start (build_start).
struct BuildStartEvent {
  std::vector<std::string> targets;  // as requested (empty: the defaults)
  // Why it starts: "command_line", "manifest" (regenerating the manifest
  // before the requested build), "watch" (a change under --watch).
  const char* trigger = "command_line";
  std::vector<std::string> changed;  // under --watch: what changed
  // The build's clock: MonotonicMillis() when it started (what the
  // start_ms and end_ms of .ninja_log count from).
  int64_t start_millis = 0;
};

// How an edge's command ended (edge_end).
struct EdgeEndEvent {
  const Edge* edge = nullptr;
  int exit_status = 0;
  bool interrupted = false;    // stopped by ninja (Ctrl-C): no status of its own
  int64_t start_ms = 0;        // since the build started, as .ninja_log has them
  int64_t end_ms = 0;
  int64_t peak_rss_bytes = -1;  // -1: unknown
  std::string output;          // what it printed (stdout and stderr)
  bool cached = false;         // restored from the build cache, not run
  int unchanged_outputs = -1;  // --content-hash: outputs rewritten identical (-1: not checked)
  // What .ninja_log recorded for each output (a successful real run only).
  bool logged = false;
  int64_t log_mtime = 0;
  uint64_t command_hash = 0;
};

// How a build ended (build_end). The stream counts the edges it was told
// of itself.
struct BuildEndEvent {
  // "success", "no_work", "failure", "interrupted" or "error"; null: from
  // the exit code (0 success, 130 interrupted, else failure).
  const char* result = nullptr;
  int exit_code = 0;
  std::string error;  // why it stopped (empty on success)
  int planned = 0;    // commands in the plan when the build started
};

class EventStream : public SkipRecorder {
 public:
  // Opens PATH (created or truncated) or "fd:N" (an open descriptor, left
  // open; POSIX only: Windows passes handles, not descriptors, to the
  // programs it starts). Null with *err when it cannot.
  static std::unique_ptr<EventStream> Open(const std::string& where, std::string* err);
  ~EventStream();

  // stream_start: once, first.
  void StreamStarted(const BuildConfig& config);
  void BuildStarted(const BuildStartEvent& event);
  void EdgeStarted(const Edge* edge, int64_t start_ms);
  // explain: why the edge will run (-d explain's reasons).
  void Explained(const Edge* edge, const std::vector<std::string>& reasons);
  // edge_skipped: not run although its mtimes said so (--content-hash).
  void EdgeSkipped(const Edge* edge, const char* reason);
  // SkipRecorder: the scan's skips. The manifest's own scan comes before
  // any build_start (its build has one only if it has work): a skip found
  // there is held until the next build starts, and goes in it.
  void Skipped(const Edge* edge) override;
  void EdgeFinished(const EdgeEndEvent& event);
  void BuildFinished(const BuildEndEvent& event);
  // error: a problem outside any build (the manifest does not load, ...).
  void ErrorOutsideBuild(const std::string& message);
  // stream_end: once, last.
  void StreamEnded(int exit_code);

  // False once a write failed (the reader went away): nothing more is written.
  bool ok() const { return fd_ >= 0; }
  // Milliseconds since the current build started, on its clock.
  int64_t BuildMillis() const;

 private:
  EventStream(int fd, bool owned);
  // Starts a line: {"event":"NAME","t":MS (since the stream started),
  // and, within a build, "build":N.
  std::string& Begin(const char* name);
  // Ends the line and writes it.
  void End();
  // Writes line_ whole (per platform: event_stream_posix.cc, _win.cc);
  // false when it cannot (the reader went away).
  bool WriteLine();
  // edge_skipped for each skip held since the last build (Skipped).
  void WriteSkipsBeforeBuild();

  int fd_;
  bool owned_;
  bool may_raise_sigpipe_ = false;  // POSIX: a pipe or socket, whose reader may go away
  const BuildConfig* config_ = nullptr;  // from StreamStarted
  int64_t start_millis_ = 0;
  int build_ = 0;       // builds started so far
  bool in_build_ = false;
  int64_t build_start_millis_ = 0;
  // The current build's edges so far, for its build_end.
  struct Counts {
    int started = 0, succeeded = 0, failed = 0, cached = 0, skipped = 0;
  } counts_;
  std::string line_;    // the line being made (kept: its capacity is reused)
  // Skips found outside a build, as their edge's fields (AppendEdge): the
  // edge may be gone when they are written (a reload).
  std::vector<std::string> skips_before_build_;
};

}  // namespace ronin

#endif  // RONIN_EVENTS_EVENT_STREAM_H_
