// Fuzz target: reading an event stream back (events/event_history.h) and
// the JSON under it (events/json_value.h, events/json_text.h).
//
// Input: the stream's bytes.
// Checks: the reader never fails but with a "NAME:LINE: ..." message;
// whatever it reads makes whole jobs (an output each, times in range), one
// outcome per job of the last build and one earlier duration per job; and
// any bytes written as a JSON string by the event stream's writer parse
// back to a string the writer writes the same way (so a reader of the
// stream reads back what was meant, U+FFFD for what was not UTF-8).
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

#include "events/event_history.h"
#include "events/json_text.h"
#include "events/json_value.h"
#include "fuzz_support.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  EventHistory history;
  std::string err;
  if (!history.Parse(text, "events", &err)) {
    FUZZ_CHECK(err.rfind("events:", 0) == 0);
  } else {
    std::vector<LoggedJob> jobs = history.LastBuild();
    FUZZ_CHECK(history.LastBuildOutcomes().size() == jobs.size());
    FUZZ_CHECK(history.EarlierDurations(jobs).size() == jobs.size());
    for (const LoggedJob& job : jobs) {
      FUZZ_CHECK(!job.outputs.empty());
      FUZZ_CHECK(job.start_ms >= 0 && job.end_ms >= 0 && job.start_ms <= (1 << 30) && job.end_ms <= (1 << 30));
    }
    for (const LoggedJob& job : history.LatestOfEveryOutput()) FUZZ_CHECK(!job.outputs.empty());
    history.LastBuildSkips();
  }

  JsonValue value;
  ParseJson(text, &value, &err);

  std::string json;
  AppendJsonText(text, &json);
  FUZZ_CHECK(ParseJson(json, &value, &err));
  FUZZ_CHECK(value.is_string());
  std::string again;
  AppendJsonText(value.string, &again);
  FUZZ_CHECK(again == json);
  return 0;
}
