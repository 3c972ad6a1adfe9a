#include "insight/build_history.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "base/file_io.h"
#include "log/build_log.h"

namespace ronin {

namespace {

// Times the tools work with: 0 to 2^30 ms (12 days), so that every
// difference and sum of two of them fits an int. A log holds nothing
// outside that range unless it is damaged.
constexpr int64_t kMaxTimeMs = int64_t{1} << 30;

// A time field as a number of milliseconds (digits, an optional '-';
// reading stops at the first other byte), clamped to 0..kMaxTimeMs. Not
// strtol: a 50,000-line log has 200,000 of them.
int ParseTime(std::string_view field) {
  bool negative = !field.empty() && field[0] == '-';
  int64_t value = 0;
  for (size_t i = negative ? 1 : 0; i < field.size() && field[i] >= '0' && field[i] <= '9'; ++i)
    value = std::min(kMaxTimeMs, value * 10 + (field[i] - '0'));
  return negative ? 0 : static_cast<int>(value);
}

uint64_t ParseHex(std::string_view field) {
  uint64_t value = 0;
  for (char c : field) {
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (digit < 0) break;
    value = value << 4 | static_cast<uint64_t>(digit);
  }
  return value;
}

// Lines of one build with the same times and command hash, hashed for grouping.
struct JobKey {
  int start_ms, end_ms;
  uint64_t command_hash;
  size_t build;
  bool operator==(const JobKey& other) const {
    return start_ms == other.start_ms && end_ms == other.end_ms && command_hash == other.command_hash &&
           build == other.build;
  }
};
struct JobKeyHash {
  size_t operator()(const JobKey& key) const {
    return key.command_hash ^ key.build ^
           (uint64_t(uint32_t(key.start_ms)) << 32 | uint32_t(key.end_ms)) * 0x9e3779b97f4a7c15ULL;
  }
};

// The key of a BuildHistory line (a template: the line's type is private).
template <typename Line>
JobKey KeyOf(const Line& line) {
  return {line.start_ms, line.end_ms, line.command_hash, line.build};
}

}  // namespace

// The log's bytes, opened and read as BuildLog::Load does, so that a log the
// tools cannot read is worded as the build words it (the C runtime's words
// on Windows too, not the system's).
static bool ReadLog(const std::string& path, std::string* text, std::string* err) {
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) {
    *err = strerror(errno);
    return false;
  }
  text->clear();
  char chunk[64 << 10];
  ssize_t n;
  while ((n = read(fd, chunk, sizeof chunk)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = strerror(errno);
      break;
    }
    text->append(chunk, static_cast<size_t>(n));
  }
  close(fd);
  return n == 0;
}

bool BuildHistory::Load(const std::string& path, std::string* err) {
  if (!ReadLog(path, &text_, err)) return false;
  lines_.clear();
  last_build_begin_ = 0;
  if (text_.empty()) return true;  // an empty log: no build yet
  std::string_view text = text_;
  size_t header_end = text.find('\n');
  std::string_view header = text.substr(0, header_end);
  if (const char* problem = BuildLog::VersionProblem(BuildLog::ParseVersionLine(header))) {
    *err = problem;
    return false;
  }
  if (header_end == std::string_view::npos) return true;
  ParseLines(text.substr(header_end + 1));
  return true;
}

void BuildHistory::ParseLines(std::string_view text) {
  // Each line: start \t end \t mtime \t path \t hash; a last line without
  // '\n' was cut short and is ignored.
  int last_end = 0;
  size_t pos = 0;
  for (size_t newline; (newline = text.find('\n', pos)) != std::string_view::npos; pos = newline + 1) {
    std::string_view fields[5];
    std::string_view rest = text.substr(pos, newline - pos);
    int count = 0;
    for (; count < 4; ++count) {
      size_t tab = rest.find('\t');
      if (tab == std::string_view::npos) break;
      fields[count] = rest.substr(0, tab);
      rest.remove_prefix(tab + 1);
    }
    if (count < 4) continue;
    fields[4] = rest;
    Line line{fields[3], ParseTime(fields[0]), ParseTime(fields[1]), ParseHex(fields[4]), 0};
    if (line.end_ms < last_end) last_build_begin_ = lines_.size();
    line.build = lines_.empty() ? 0 : lines_.back().build + (line.end_ms < last_end);
    last_end = line.end_ms;
    lines_.push_back(line);
  }
}

void BuildHistory::DropJobs(const std::function<bool(std::string_view, int, int)>& not_a_run) {
  std::unordered_set<JobKey, JobKeyHash> dropped;
  for (const Line& line : lines_) {
    if (not_a_run(line.output, line.start_ms, line.end_ms)) dropped.insert(KeyOf(line));
  }
  if (dropped.empty()) return;
  std::vector<Line> kept;
  last_build_begin_ = 0;
  for (const Line& line : lines_) {
    if (dropped.count(KeyOf(line))) continue;
    if (!kept.empty() && line.build != kept.back().build) last_build_begin_ = kept.size();
    kept.push_back(line);
  }
  lines_.swap(kept);
}

std::vector<LoggedJob> BuildHistory::GroupIntoJobs(const std::vector<const Line*>& lines) {
  std::vector<LoggedJob> jobs;
  // Keyed by times and hash rather than by adjacency: a recompacted log
  // need not keep an edge's lines together.
  std::unordered_map<JobKey, size_t, JobKeyHash> job_of;
  job_of.reserve(lines.size());
  for (const Line* line : lines) {
    auto found = job_of.emplace(KeyOf(*line), jobs.size());
    if (found.second) {
      jobs.emplace_back();
      jobs.back().start_ms = line->start_ms;
      jobs.back().end_ms = line->end_ms;
      jobs.back().command_hash = line->command_hash;
    }
    jobs[found.first->second].outputs.push_back(line->output);
  }
  return jobs;
}

std::vector<LoggedJob> BuildHistory::LastBuild() const {
  std::vector<const Line*> lines;
  for (size_t i = last_build_begin_; i < lines_.size(); ++i) lines.push_back(&lines_[i]);
  return GroupIntoJobs(lines);
}

std::vector<LoggedJob> BuildHistory::LatestOfEveryOutput() const {
  std::unordered_map<std::string_view, size_t> latest;
  for (size_t i = 0; i < lines_.size(); ++i) latest[lines_[i].output] = i;
  std::vector<const Line*> lines;
  for (size_t i = 0; i < lines_.size(); ++i)
    if (latest[lines_[i].output] == i) lines.push_back(&lines_[i]);
  return GroupIntoJobs(lines);
}

std::vector<int> BuildHistory::EarlierDurations(const std::vector<LoggedJob>& last_build) const {
  std::unordered_map<std::string_view, int> earlier;
  for (size_t i = 0; i < last_build_begin_; ++i)
    earlier[lines_[i].output] = lines_[i].end_ms - lines_[i].start_ms;
  std::vector<int> durations;
  durations.reserve(last_build.size());
  for (const LoggedJob& job : last_build) {
    auto found = earlier.find(job.outputs.front());
    durations.push_back(found == earlier.end() ? -1 : found->second);
  }
  return durations;
}

}  // namespace ronin
