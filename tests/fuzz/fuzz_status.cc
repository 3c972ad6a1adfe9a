// Fuzz target: NINJA_STATUS formatting (StatusPrinter::FormatProgressStatus)
// driven through a random sequence of build events, plus ElideMiddle.
//
// Input (FuzzedDataProvider): a format string, the previous durations of
// the edges, then the events of a build (edges added to the plan, removed,
// started and finished in a valid order on a monotonic clock, with exit
// codes and output), formatting the status after each one.
// An unknown placeholder is fatal by design (exit 1, like Ninja; covered by
// the death test in tests/unit/status_test.cc). So in 7 inputs out of 8
// every '%' of the fuzzed format is first made to name a known placeholder;
// the 8th keeps the format as it is, and the fatal error (which fuzz builds
// throw as FuzzFatalError, base/util.h) must then be that one. The printer writes
// to stdout, which is pointed at /dev/null.
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "fuzz_support.h"
#include "graph/graph.h"
#include "graph/manifest_parser.h"
#include "graph/state.h"
#include "status/line_printer.h"
#include "status/status.h"

using namespace ronin;

namespace {

const char kPlaceholders[] = "%stufrocpeEwWP";

// Every '%' followed by a known placeholder; a trailing '%' becomes "%%".
std::string KnownPlaceholdersOnly(std::string format) {
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 == format.size()) {
      format.push_back('%');
    } else if (!strchr(kPlaceholders, format[i + 1]) || format[i + 1] == '\0') {
      format[i + 1] = kPlaceholders[static_cast<unsigned char>(format[i + 1]) % (sizeof(kPlaceholders) - 1)];
    }
    ++i;
  }
  return format;
}

const int kEdges = 12;
State* g_state;
Edge* g_edges[kEdges];

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0) dup2(devnull, 1);
  unsetenv("TERM");
  g_state = new State;
  fuzz::MemoryDisk disk;
  ManifestParser parser(g_state, &disk);
  std::string manifest =
      "rule r\n  command = cc $in -o $out\n  description = CC $out\n"
      "rule q\n  command = touch $out\n"
      "build console.out: r c.in\n  pool = console\n"
      "build quiet.out: q\n";
  for (int i = 2; i < kEdges; ++i)
    manifest += "build o" + std::to_string(i) + ": r i" + std::to_string(i) + "\n";
  std::string err;
  FUZZ_CHECK(parser.ParseTest(manifest, &err));
  for (int i = 0; i < kEdges; ++i) g_edges[i] = g_state->edges()[i];
  return 0;
}

void RunBuild(FuzzedDataProvider* provider, const std::string& format);

// A build as the builder reports it: edges enter the plan (and may leave it
// before starting), start, and finish in order, on a monotonic clock.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider provider(data, size);
  std::string format = provider.ConsumeRandomLengthString(256);
  bool raw_format = provider.ConsumeIntegralInRange<int>(0, 7) == 0;
  if (!raw_format) format = KnownPlaceholdersOnly(format);
  setenv("NINJA_STATUS", format.c_str(), 1);
  try {
    RunBuild(&provider, format);
  } catch (const FuzzFatalError& e) {
    FUZZ_CHECK(raw_format);
    FUZZ_CHECK(e.message.rfind("unknown placeholder '%", 0) == 0);
  }
  return 0;
}

void RunBuild(FuzzedDataProvider* provider_pointer, const std::string& format) {
  FuzzedDataProvider& provider = *provider_pointer;

  BuildConfig config;
  config.parallelism = provider.ConsumeIntegralInRange<int>(1, 64);
  config.verbosity = static_cast<BuildConfig::Verbosity>(provider.ConsumeIntegralInRange<int>(0, 3));
  StatusPrinter status(config);

  // Previous durations come from .ninja_log lines (end - start): anything a
  // damaged log holds unless `sane`; -1 means "unknown".
  bool sane = provider.ConsumeBool();
  for (Edge* edge : g_edges) {
    if (provider.ConsumeBool())
      edge->prev_elapsed_time_millis = -1;
    else if (sane)
      edge->prev_elapsed_time_millis = provider.ConsumeIntegralInRange<int32_t>(0, 24 * 3600 * 1000);
    else
      edge->prev_elapsed_time_millis = provider.ConsumeIntegral<int32_t>();
  }
  enum class Phase { kOut, kPlanned, kRunning, kDone };
  Phase phases[kEdges] = {};
  int64_t started_at[kEdges] = {};
  int64_t now = 0;
  status.BuildStarted();
  for (int events = 0; provider.remaining_bytes() > 0 && events < 256; ++events) {
    int i = provider.ConsumeIntegralInRange<int>(0, kEdges - 1);
    Edge* edge = g_edges[i];
    now += provider.ConsumeIntegralInRange<int64_t>(0, 1 << 22);  // ms
    switch (phases[i]) {
      case Phase::kOut:
        status.EdgeAddedToPlan(edge);
        phases[i] = Phase::kPlanned;
        break;
      case Phase::kPlanned:
        if (provider.ConsumeIntegralInRange<int>(0, 3) == 0) {
          status.EdgeRemovedFromPlan(edge);  // e.g. pruned by restat
          phases[i] = Phase::kOut;
        } else {
          status.BuildEdgeStarted(edge, now);
          started_at[i] = now;
          phases[i] = Phase::kRunning;
        }
        break;
      case Phase::kRunning: {
        int exit_code = provider.ConsumeBool() ? 0 : provider.ConsumeIntegral<uint8_t>();
        std::string output = provider.ConsumeRandomLengthString(64);
        status.BuildEdgeFinished(edge, started_at[i], now, exit_code, output);
        phases[i] = Phase::kDone;
        break;
      }
      case Phase::kDone:
        break;
    }
    std::string line = status.FormatProgressStatus(format.c_str(), now);
    ElideMiddle(line, provider.ConsumeIntegralInRange<size_t>(0, 300));
  }
  status.BuildFinished();
  std::string rest = provider.ConsumeRemainingBytesAsString();
  ElideMiddle(rest, rest.size() % 97);
}
