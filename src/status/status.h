// The build's progress report: "[f/t] description" lines formatted by
// NINJA_STATUS, each command's output printed whole after its line, the
// FAILED block, and the time prediction behind %E, %W and %P.
#ifndef RONIN_STATUS_STATUS_H_
#define RONIN_STATUS_STATUS_H_

#include <cstdint>
#include <functional>
#include <queue>
#include <string>

#include "base/build_config.h"
#include "base/exit_status.h"
#include "status/line_printer.h"
#include "status/status_format.h"

namespace ronin {

class Explanations;
struct CacheCounts;
struct Edge;


class Status {
 public:
  virtual ~Status() = default;
  virtual void EdgeAddedToPlan(const Edge* edge) = 0;
  virtual void EdgeRemovedFromPlan(const Edge* edge) = 0;
  virtual void BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) = 0;
  virtual void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                                 ExitStatus exit_code, const std::string& output) = 0;
  virtual void BuildStarted() = 0;
  virtual void BuildFinished() = 0;
  // Where -d explain's reasons are found (none by default).
  virtual void SetExplanations(const Explanations*) {}
  // With --cache: the build cache's live counts (null when the build has
  // none open, e.g. -n), for %C and the live view.
  virtual void SetCacheCounts(const CacheCounts*) {}
  // A view that redraws while commands run (the live view) has no thread
  // of its own: it names the time by which it wants Refresh (the builder's
  // clock, as start_time_millis; -1: never), and the builder's wait for
  // commands ends by then. Before each Refresh it hears what every running
  // job has printed so far.
  virtual int64_t RefreshDeadline() const { return -1; }
  virtual void BuildEdgeOutputSoFar(const Edge*, const std::string& /*output*/) {}
  virtual void Refresh(int64_t /*time_millis*/) {}
};

class StatusPrinter : public Status {
 public:
  explicit StatusPrinter(const BuildConfig& config);

  void EdgeAddedToPlan(const Edge* edge) override;
  void EdgeRemovedFromPlan(const Edge* edge) override;
  void BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) override;
  void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                         ExitStatus exit_code, const std::string& output) override;
  void BuildStarted() override;
  void BuildFinished() override;
  void SetExplanations(const Explanations* explanations) override { explanations_ = explanations; }
  void SetCacheCounts(const CacheCounts* counts) override { cache_counts_ = counts; }

  // Expands NINJA_STATUS placeholders (%s %t %p ...); fatal on unknown ones
  // (%C, the build cache's hits/lookups, is known only with --cache).
  std::string FormatProgressStatus(const char* format, int64_t time_millis) const;
  // Expands a --status format for `edge` ($description is its description,
  // or its command); fatal on an unknown variable.
  std::string FormatStatusVariables(const EvalString& format, const Edge* edge) const;

  // For a view drawn below the status line (status/live_status.h): `hook` runs
  // before anything scrolls the status line up; PrintOnNewLine prints
  // text as command output is printed.
  void SetBeforeNewLine(std::function<void()> hook) { printer_.SetBeforeNewLine(std::move(hook)); }
  void PrintOnNewLine(const std::string& text) { printer_.PrintOnNewLine(text); }
  // Prints the status line on screen again (after the terminal was resized
  // and the line cleared), elided to the new width.
  void RepaintStatusLine();
  // Prints the last status line again below output printed after it (the
  // live view: the line would stay blank until the next command starts or ends).
  void RestoreStatusLine();
  bool is_smart_terminal() const { return printer_.is_smart_terminal(); }

 private:
  void PrintStatus(const Edge* edge, int64_t time_millis);
  void PrintStatusLine(const Edge* edge, int64_t time_millis);
  void PrintExplanations(const Edge* edge);
  void RecalculateProgressPrediction();
  // Appends what `field` shows now (not kDescription).
  void AppendField(StatusField field, std::string* out) const;
  // The text a status line shows for `edge`: its description, or its
  // command when it has none or with -v.
  std::string DescriptionOf(const Edge* edge) const;
  class VariableEnv;

  // Finish rate over the last N (= -j) completions, for %c.
  class SlidingRate {
   public:
    explicit SlidingRate(int n) : n_(n) {}
    double rate() const { return rate_; }
    void Update(int hint, int64_t time_millis);

   private:
    double rate_ = -1;
    size_t n_;
    int last_hint_ = -1;
    std::queue<int64_t> times_;
  };

  const BuildConfig& config_;
  const Explanations* explanations_ = nullptr;
  const CacheCounts* cache_counts_ = nullptr;
  LinePrinter printer_;
  const char* status_format_;  // NINJA_STATUS, unless --status was given
  bool has_variable_format_ = false;
  StatusFormat variable_format_;  // --status
  int started_edges_ = 0, finished_edges_ = 0, total_edges_ = 0, running_edges_ = 0;
  int64_t time_millis_ = 0;
  // For the time prediction: edges with and without a previous duration.
  int predictable_edges_total_ = 0, predictable_edges_remaining_ = 0;
  int64_t predictable_millis_total_ = 0, predictable_millis_remaining_ = 0;
  int unpredictable_edges_remaining_ = 0;
  int64_t cpu_time_millis_ = 0;
  double time_predicted_fraction_ = 0.0;
  mutable SlidingRate current_rate_;
  // The last status line's edge and time, for RepaintStatusLine.
  const Edge* status_edge_ = nullptr;
  int64_t status_time_millis_ = 0;
};

}  // namespace ronin

#endif  // RONIN_STATUS_STATUS_H_
