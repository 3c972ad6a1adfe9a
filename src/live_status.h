// --progress=live: Ninja's status line with, below it, one line per running
// job (elapsed seconds, description, the last line of output it printed),
// oldest first, redrawn ten times a second from a thread of its own. Every
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
#ifndef RONIN_LIVE_STATUS_H_
#define RONIN_LIVE_STATUS_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "status.h"
#include "status_forwarder.h"

namespace ronin {

// The status view this run uses: LiveStatus or the classic StatusPrinter.
std::unique_ptr<Status> NewStatus(const BuildConfig& config);

// Forwards to the classic StatusPrinter what it does not change (the plan
// counts, explanations), under the mutex it shares with its refresh thread.
class LiveStatus : public StatusForwarder {
 public:
  explicit LiveStatus(const BuildConfig& config);
  ~LiveStatus() override;

  void BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) override;
  void BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                         ExitStatus exit_code, const std::string& output) override;
  void BuildStarted() override;
  void BuildFinished() override;
  void SetCacheCounts(const CacheCounts* counts) override;
  bool WantsRunningOutput() const override { return true; }
  void BuildEdgeOutputSoFar(const Edge* edge, const std::string& output) override;

  // The block's lines for a terminal of `columns` x `rows` (at most rows - 1
  // lines, each narrower than the terminal), for jobs started at the given
  // monotonic times. Exposed for tests.
  struct Job {
    const Edge* edge;
    int64_t start_millis;  // MonotonicMillis() when it started
    std::string description;
    std::string last_line;
    size_t output_seen = 0;  // bytes of output looked at so far
    bool printable = false;  // description already without control characters
  };
  static std::vector<std::string> BlockLines(const std::vector<Job>& jobs, int64_t now_millis,
                                             int columns, int rows) {
    std::vector<std::string> lines;
    BlockLines(jobs, now_millis, columns, rows, &lines);
    return lines;
  }
  // The same into `lines`, whose strings' buffers are reused (every redraw).
  static void BlockLines(const std::vector<Job>& jobs, int64_t now_millis, int columns, int rows,
                         std::vector<std::string>* lines);
  // The build cache's row: "  build cache: H hits, M misses, B restored".
  static std::string CacheLine(int hits, int misses, int64_t bytes_restored);
  // The last non-blank line of `output`, without colours or control characters.
  static std::string LastLine(const std::string& output);

 private:
  void RefreshLoop();
  void Draw();   // the block below the status line (mutex held)
  void Erase();  // back to the status line alone (mutex held)
  void PrintFailureRecap();

  StatusPrinter classic_;
  std::condition_variable wake_;
  std::thread refresher_;
  bool stopping_ = false;
  std::vector<Job> jobs_;
  int block_lines_ = 0;   // lines drawn below the status line now
  int console_jobs_ = 0;  // a console job owns the terminal: no block
  int columns_ = 0, rows_ = 0;  // the terminal's size at the last draw
  std::vector<std::string> failures_;
  const CacheCounts* cache_counts_ = nullptr;
  std::vector<std::string> lines_;  // the last redraw's rows, kept for their buffers
  std::string frame_;               // the last redraw's bytes, kept for its buffer
};

}  // namespace ronin

#endif  // RONIN_LIVE_STATUS_H_
