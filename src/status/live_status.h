// --progress=live: Ninja's status line with, below it, one line per running
// job (elapsed seconds, description, the last line of output it printed),
// oldest first, redrawn ten times a second. It has no thread of its own: the
// builder's wait for commands ends when a redraw is due (RefreshDeadline),
// so the build pays nothing per command beyond keeping the list. Every
// line Ninja prints (finished commands' output, FAILED blocks) goes through
// the classic StatusPrinter, above the block, which is erased first; the
// block is erased when the build ends, so the final screen is the classic
// one, followed by a recap of the failed edges if any failed.
//
// With --cache, the block ends with a row of the build cache's counts so far
// (hits, misses, bytes restored), drawn while commands run.
//
// The view is chosen once at start-up (NewStatus): on anything but a smart
// terminal at normal verbosity the option changes nothing.
#ifndef RONIN_STATUS_LIVE_STATUS_H_
#define RONIN_STATUS_LIVE_STATUS_H_

#include <memory>
#include <string>
#include <vector>

#include "status/running_jobs.h"
#include "status/status.h"
#include "status/status_forwarder.h"

namespace ronin {

// The status view this run uses: LiveStatus or the classic StatusPrinter.
std::unique_ptr<Status> NewStatus(const BuildConfig& config);

// Forwards to the classic StatusPrinter what it does not change (the plan
// counts, explanations).
class LiveStatus : public StatusForwarder {
 public:
  explicit LiveStatus(const BuildConfig& config);

  void BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) override;
  void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                         ExitStatus exit_code, const std::string& output) override;
  void BuildStarted() override;
  void BuildFinished() override;
  void SetCacheCounts(const CacheCounts* counts) override;
  int64_t RefreshDeadline() const override;
  void BuildEdgeOutputSoFar(const Edge* edge, const std::string& output) override;
  void Refresh(int64_t time_millis) override;

  // The block's rows for a terminal of `columns` x `rows` (at most rows - 1
  // of them, each narrower than the terminal), at `now_millis` (the
  // builder's clock, as the jobs' start times). Every job's description
  // must be known. Exposed for tests.
  static std::vector<std::string> BlockLines(const RunningJobs& jobs, int64_t now_millis, int columns, int rows);
  // The same, each row appended to `frame` as the terminal gets it:
  // "\r\n" + row + "\x1B[K"; returns the number of rows.
  static int AppendBlock(const RunningJobs& jobs, int64_t now_millis, int columns, int rows, std::string* frame);
  // How many jobs a block of `rows` shows by name: all, or all but those
  // summed up in a last row, "... and N more".
  static size_t ShownJobs(size_t jobs, int rows);
  // The build cache's row: "  build cache: H hits, M misses, B restored".
  static std::string CacheLine(int hits, int misses, int64_t bytes_restored);
  // The last non-blank line of `output`, without colours or control characters.
  static std::string LastLine(const std::string& output);
  // The terminal's size; for one that reports 0x0, $COLUMNS and $LINES, else 80x24.
  static void ScreenSize(int* columns, int* rows);

 private:
  void Draw(int64_t now_millis);  // the block below the status line
  void Erase();                   // back to the status line alone
  // For the recap; out of line, off the path of commands that succeed.
  void RecordFailure(const Edge* edge, ExitStatus exit_code);
  void PrintFailureRecap();

  StatusPrinter classic_;
  RunningJobs jobs_;
  int64_t last_draw_millis_ = 0;  // or when jobs started running after none did
  int block_lines_ = 0;           // lines drawn below the status line now
  int console_jobs_ = 0;          // a console job owns the terminal: no block
  int columns_ = 0, rows_ = 0;    // the terminal's size at the last draw
  std::vector<std::string> failures_;
  const CacheCounts* cache_counts_ = nullptr;
  std::string frame_;  // the last redraw's bytes, kept for its buffer
};

}  // namespace ronin

#endif  // RONIN_STATUS_LIVE_STATUS_H_
