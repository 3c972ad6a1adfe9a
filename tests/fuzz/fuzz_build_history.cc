// Fuzz target: the trace and report tools' reader of .ninja_log
// (insight/build_history.h), and the job slots laid out from what it reads.
//
// Input: the log file's bytes, written to a scratch file.
// Checks: the reader accepts exactly the files the build log accepts, and
// sees the same outputs (each output's latest line is one of its jobs);
// every job has an output; earlier durations come one per job; no two jobs
// on one slot overlap.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_support.h"
#include "insight/build_history.h"
#include "insight/job_slots.h"
#include "log/build_log.h"

using namespace ronin;

namespace {

fuzz::ScratchInput scratch_input("build_history");

void CheckSlots(const std::vector<LoggedJob>& jobs) {
  SlotLayout layout = AssignSlots(jobs);
  FUZZ_CHECK(layout.slot_of_job.size() == jobs.size());
  std::map<int, std::vector<std::pair<int, int>>> by_slot;
  for (size_t i = 0; i < jobs.size(); ++i) {
    int slot = layout.slot_of_job[i];
    FUZZ_CHECK(slot >= 0 && slot < layout.slot_count);
    by_slot[slot].push_back({jobs[i].start_ms, std::max(jobs[i].start_ms, jobs[i].end_ms)});
  }
  for (auto& [slot, spans] : by_slot) {
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i) FUZZ_CHECK(spans[i - 1].second <= spans[i].first);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scratch_input.Write(data, size);
  BuildHistory history;
  std::string err;
  bool loaded = history.Load(path, &err);

  // The build log last: it deletes a log of a version it cannot read.
  BuildLog log;
  std::string log_err;
  bool log_loaded = log.Load(path, &log_err) == BuildLog::LoadStatus::kSuccess;
  FUZZ_CHECK(loaded == log_loaded);
  if (!loaded) return 0;

  std::vector<LoggedJob> latest = history.LatestOfEveryOutput();
  std::set<std::string_view> outputs;
  for (const LoggedJob& job : latest) {
    FUZZ_CHECK(!job.outputs.empty());
    outputs.insert(job.outputs.begin(), job.outputs.end());
  }
  // (The build log also reads a header line with four tabs as an entry.)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.substr(0, text.find('\n')).find('\t') == std::string_view::npos) {
    FUZZ_CHECK(outputs.size() == log.entry_count());
    for (std::string_view output : outputs) FUZZ_CHECK(log.Lookup(output) != nullptr);
  }

  std::vector<LoggedJob> last = history.LastBuild();
  size_t lines = 0;
  for (const LoggedJob& job : last) {
    FUZZ_CHECK(!job.outputs.empty());
    lines += job.outputs.size();
  }
  FUZZ_CHECK(lines <= history.line_count());
  FUZZ_CHECK(history.EarlierDurations(last).size() == last.size());
  CheckSlots(last);
  CheckSlots(latest);
  return 0;
}
