#include "live_status.h"

#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "background_thread.h"
#include "cache_counts.h"
#include "graph.h"
#include "line_printer.h"
#include "util.h"

namespace ronin {

std::unique_ptr<Status> NewStatus(const BuildConfig& config) {
  bool live = config.ronin.progress == RoninOptions::Progress::kLive &&
              config.verbosity == BuildConfig::Verbosity::kNormal && LinePrinter().is_smart_terminal();
  if (live) return std::unique_ptr<Status>(new LiveStatus(config));
  return std::unique_ptr<Status>(new StatusPrinter(config));
}

namespace {

// Ten redraws a second: elapsed times move by a tenth of a second.
constexpr std::chrono::milliseconds kRefreshInterval(100);

bool IsControl(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// Text for one row of the block: no colours, no control characters.
std::string Printable(std::string_view text) {
  std::string printable = StripAnsiEscapeCodes(text);
  for (char& c : printable) {
    if (IsControl(c)) c = ' ';
  }
  return printable;
}

// Printable(*text) in place; most descriptions have nothing to clean (an
// escape code starts with a control character), so they are only scanned.
void MakePrintable(std::string* text) {
  if (std::any_of(text->begin(), text->end(), IsControl)) *text = Printable(*text);
}

// "%6.1fs " of the seconds since a job started, without printf's floating
// point (this runs for every row of every redraw); halves round up.
void AppendElapsed(int64_t millis, std::string* out) {
  uint64_t tenths = (static_cast<uint64_t>(std::max<int64_t>(0, millis)) + 50) / 100;
  char text[32];
  char* end = text + sizeof(text);
  char* begin = end;
  *--begin = ' ';
  *--begin = 's';
  *--begin = static_cast<char>('0' + tenths % 10);
  *--begin = '.';
  uint64_t seconds = tenths / 10;
  do {
    *--begin = static_cast<char>('0' + seconds % 10);
    seconds /= 10;
  } while (seconds);
  while (end - begin < 8) *--begin = ' ';  // right-aligned in 6, then "s "
  out->append(begin, end);
}

// A row no wider than `width` columns. The rows have no escape codes, so
// one that has no more bytes than that needs no eliding.
void FitWidth(std::string* line, size_t width) {
  if (line->size() > width) *line = ElideMiddle(*line, width);
}

// The block in one write(): on a terminal stdout is line buffered, so
// stdio would flush (and copy byte by byte) at each of its newlines.
void WriteToTerminal(const std::string& text) {
  fflush(stdout);  // what the status line printed goes first
  for (size_t done = 0; done < text.size();) {
    ssize_t written = write(STDOUT_FILENO, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // the terminal went away: nothing to show
    done += static_cast<size_t>(written);
  }
}

bool IsBlank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

}  // namespace

LiveStatus::LiveStatus(const BuildConfig& config) : StatusForwarder(&classic_), classic_(config) {
  // Anything printed above the block (command output, FAILED, explanations)
  // first takes the block away; it is drawn again afterwards.
  classic_.SetBeforeNewLine([this] { Erase(); });
}

LiveStatus::~LiveStatus() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (refresher_.joinable()) refresher_.join();
}

void LiveStatus::BuildStarted() {
  std::lock_guard<std::mutex> lock(mutex_);
  classic_.BuildStarted();
  if (refresher_.joinable()) return;
  stopping_ = false;
  refresher_ = StartBackgroundThread(&LiveStatus::RefreshLoop, this);
}

void LiveStatus::BuildFinished() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (refresher_.joinable()) refresher_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  Erase();
  jobs_.clear();
  console_jobs_ = 0;
  PrintFailureRecap();
  classic_.BuildFinished();
}

void LiveStatus::BuildEdgeStarted(const Edge* edge, int64_t start_time_millis) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (edge->use_console()) {
    // The command owns the terminal until it ends.
    Erase();
    ++console_jobs_;
  }
  classic_.BuildEdgeStarted(edge, start_time_millis);
  // The text the status line just showed; made printable only if drawn.
  jobs_.emplace_back();
  Job& job = jobs_.back();
  job.edge = edge;
  job.start_millis = MonotonicMillis();
  job.description = classic_.TakeDescription(edge);
}

void LiveStatus::BuildEdgeFinished(const Edge* edge, int64_t start_time_millis, int64_t end_time_millis,
                                   ExitStatus exit_code, const std::string& output) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto job = std::find_if(jobs_.begin(), jobs_.end(), [edge](const Job& job) { return job.edge == edge; });
  if (job != jobs_.end()) jobs_.erase(job);
  if (edge->use_console()) --console_jobs_;
  bool had_block = block_lines_ > 0;
  classic_.BuildEdgeFinished(edge, start_time_millis, end_time_millis, exit_code, output);
  if (exit_code != kExitSuccess) {
    std::string failure = "  [code=" + std::to_string(exit_code) + "]";
    for (const Node* node : edge->outputs) failure += " " + std::string(node->path);
    failures_.push_back(failure);
  }
  if (had_block && block_lines_ == 0) Draw();  // printed above it: back at once
}

void LiveStatus::SetCacheCounts(const CacheCounts* counts) {
  std::lock_guard<std::mutex> lock(mutex_);
  cache_counts_ = counts;
  classic_.SetCacheCounts(counts);
}

void LiveStatus::BuildEdgeOutputSoFar(const Edge* edge, const std::string& output) {
  // Called for every running job after every wait, mostly with nothing new.
  // This (the builder's) thread is the only one that adds or removes jobs
  // or writes output_seen, so it may read them without the lock; only a
  // change is made under it. Output only grows: none yet, nothing to do.
  if (output.empty()) return;
  auto job = std::find_if(jobs_.begin(), jobs_.end(), [edge](const Job& job) { return job.edge == edge; });
  if (job == jobs_.end() || job->output_seen == output.size()) return;
  std::string last_line = LastLine(output);
  std::lock_guard<std::mutex> lock(mutex_);
  job->output_seen = output.size();
  job->last_line = std::move(last_line);
}

void LiveStatus::RefreshLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, kRefreshInterval);
    if (!stopping_) Draw();
  }
}

void LiveStatus::Draw() {
  // The terminal's size is read at every draw, so a resize (SIGWINCH)
  // shows at the next one.
  winsize size;
  if (console_jobs_ > 0 || jobs_.empty() || ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) {
    Erase();
    return;
  }
  if (size.ws_col != columns_ || size.ws_row != rows_) {
    // Resized (SIGWINCH): the terminal may have rewrapped the status line
    // and the block anywhere around the cursor. Start again from the
    // status line's row.
    if (columns_ != 0) {
      fputs("\r\x1B[J", stdout);
      block_lines_ = 0;
      classic_.RepaintStatusLine();
    }
    columns_ = size.ws_col;
    rows_ = size.ws_row;
  }
  // Most jobs end before the next redraw: their text is cleaned up only here.
  for (Job& job : jobs_) {
    if (job.printable) continue;
    MakePrintable(&job.description);
    job.printable = true;
  }
  int rows = cache_counts_ ? size.ws_row - 1 : size.ws_row;  // a row kept for the cache's
  BlockLines(jobs_, MonotonicMillis(), size.ws_col, rows, &lines_);
  if (cache_counts_ && !lines_.empty()) {
    std::string line = CacheLine(cache_counts_->hits, cache_counts_->misses, cache_counts_->bytes_restored);
    FitWidth(&line, static_cast<size_t>(size.ws_col) - 1);
    lines_.push_back(std::move(line));
  }
  if (lines_.empty()) {
    Erase();
    return;
  }
  // Each line on a row of its own below the status line (scrolling the
  // screen if needed), then back up: relative moves survive the scroll.
  frame_.clear();
  for (const std::string& line : lines_) {
    frame_ += "\r\n";
    frame_ += line;
    frame_ += "\x1B[K";
  }
  frame_ += "\x1B[J\x1B[";
  frame_ += std::to_string(lines_.size());
  frame_ += "A\r";
  WriteToTerminal(frame_);
  block_lines_ = static_cast<int>(lines_.size());
}

void LiveStatus::Erase() {
  if (block_lines_ == 0) return;
  // From the start of the row below the status line to the end of the screen.
  fputs("\r\x1B[B\x1B[J\x1B[A", stdout);
  fflush(stdout);
  block_lines_ = 0;
}

void LiveStatus::PrintFailureRecap() {
  if (failures_.empty()) return;
  std::string recap = "ninja: " + std::to_string(failures_.size()) +
                      (failures_.size() == 1 ? " command" : " commands") + " failed:\n";
  for (const std::string& failure : failures_) recap += failure + "\n";
  classic_.PrintOnNewLine(recap);
  failures_.clear();
}

void LiveStatus::BlockLines(const std::vector<Job>& jobs, int64_t now_millis, int columns, int rows,
                            std::vector<std::string>* lines) {
  int max_lines = rows - 1;  // the status line keeps its row
  if (max_lines < 1 || columns < 2) {
    lines->clear();
    return;
  }
  size_t width = static_cast<size_t>(columns) - 1;  // never the last column: no wrapping
  size_t shown = jobs.size() <= static_cast<size_t>(max_lines) ? jobs.size() : max_lines - 1;
  lines->resize(shown < jobs.size() ? shown + 1 : shown);
  for (size_t i = 0; i < shown; ++i) {
    const Job& job = jobs[i];
    std::string& line = (*lines)[i];
    line.clear();
    AppendElapsed(now_millis - job.start_millis, &line);
    line += job.description;
    if (!job.last_line.empty()) {
      line += " | ";
      line += job.last_line;
    }
    FitWidth(&line, width);
  }
  if (shown < jobs.size()) {
    std::string& more = lines->back();
    more = "  ... and " + std::to_string(jobs.size() - shown) + " more";
    FitWidth(&more, width);
  }
}

std::string LiveStatus::CacheLine(int hits, int misses, int64_t bytes_restored) {
  std::string line = "  build cache: " + std::to_string(hits) + (hits == 1 ? " hit, " : " hits, ") +
                     std::to_string(misses) + (misses == 1 ? " miss" : " misses");
  if (bytes_restored >= 10 << 20)
    line += StringPrintf(", %.1f MiB restored", bytes_restored / 1048576.0);
  else if (bytes_restored > 0)
    line += StringPrintf(", %.1f KiB restored", bytes_restored / 1024.0);
  return line;
}

std::string LiveStatus::LastLine(const std::string& output) {
  size_t end = output.size();
  while (end > 0) {
    size_t begin = output.rfind('\n', end - 1);
    begin = begin == std::string::npos ? 0 : begin + 1;
    std::string_view line(output.data() + begin, end - begin);
    end = begin == 0 ? 0 : begin - 1;
    if (IsBlank(line)) continue;
    // What a terminal would show of "50%\r75%\r": the last non-blank part.
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t carriage = line.rfind('\r');
    if (carriage != std::string_view::npos) line.remove_prefix(carriage + 1);
    return Printable(line);
  }
  return std::string();
}

}  // namespace ronin
