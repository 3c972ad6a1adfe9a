// Fuzz target: the scheduler's small parsers and the live view's layout.
//
// Input (FuzzedDataProvider): a .ronin_state kEdgeResources payload for
// ResourceHistory::ParsePeakRss; a job's output for LiveStatus::LastLine;
// then a few jobs (start times, descriptions, last lines) and a terminal
// size for LiveStatus::BlockLines, whose lines must fit the terminal.
#include <stddef.h>
#include <stdint.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <string>
#include <vector>

#include "fuzz_support.h"
#include "sched/resource_history.h"
#include "status/live_status.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider provider(data, size);
  std::string payload = provider.ConsumeRandomLengthString(256);
  int64_t peak = ResourceHistory::ParsePeakRss(payload);
  FUZZ_CHECK(peak >= -1);

  std::string output = provider.ConsumeRandomLengthString(1024);
  std::string last = LiveStatus::LastLine(output);
  for (char c : last) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
  FUZZ_CHECK(last.size() <= output.size());

  // Descriptions as the view draws them: printable, like a last line.
  RunningJobs jobs;
  int count = provider.ConsumeIntegralInRange<int>(0, 40);
  for (int i = 0; i < count; ++i) {
    RunningJob& job = jobs.Add(nullptr, provider.ConsumeIntegral<int32_t>());
    job.description = LiveStatus::LastLine(provider.ConsumeRandomLengthString(64));
    job.described = true;
    job.last_line = LiveStatus::LastLine(provider.ConsumeRandomLengthString(64));
  }
  int columns = provider.ConsumeIntegralInRange<int>(0, 400);
  int rows = provider.ConsumeIntegralInRange<int>(0, 100);
  int64_t now = provider.ConsumeIntegral<int32_t>();
  std::vector<std::string> lines = LiveStatus::BlockLines(jobs, now, columns, rows);
  FUZZ_CHECK(lines.size() <= jobs.size());
  FUZZ_CHECK(lines.size() + 1 <= static_cast<size_t>(rows < 1 ? 1 : rows));  // the status line keeps a row
  for (const std::string& line : lines) FUZZ_CHECK(line.size() < static_cast<size_t>(columns));
  return 0;
}
