// Fuzz target: status formatting, NINJA_STATUS's %-placeholders
// (StatusPrinter::FormatProgressStatus) and --status's $variables
// (StatusFormat, FormatStatusVariables), driven through a random sequence of
// build events, plus ElideMiddle.
//
// Input (FuzzedDataProvider): a format string, which kind it is, the
// previous durations of the edges, then the events of a build (edges added
// to the plan, removed, started and finished in a valid order on a
// monotonic clock, with exit codes and output), formatting the status after
// each one.
// An unknown placeholder or variable, and a --status that does not lex, are
// fatal by design (exit 1, like Ninja; covered by the death tests in
// tests/unit/status_test.cc). So in 7 inputs out of 8 the fuzzed format is
// first made to name known ones only (each '%' a known placeholder; for
// --status, each byte picks a known variable, escape or literal piece); the
// 8th keeps the format as it is, and the fatal error (which fuzz builds
// throw as FuzzFatalError, base/util.h) must then be one of those. The printer
// writes to stdout, which is pointed at /dev/null.
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
#include "status/status_format.h"

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

// A --status format made of known pieces, one per byte of `text`. No literal
// piece starts with a name character: after a bare `$rate` it would lengthen
// the name (`$ratex`) into an unknown variable.
std::string KnownVariablesOnly(const std::string& text) {
  static const char* const kPieces[] = {
      "$started", "${total}", "$progress", "$running", "$remaining", "$finished", "$rate", "$current_rate",
      "$elapsed_seconds", "$eta_seconds", "$elapsed", "$eta", "$predicted_progress", "$description",
      "${description}", "$$", "$ ", "$:", "[", "] ", "/", " ", "$\n   ", "\x1b[32m", "(x.y)", "%"};
  std::string format;
  for (unsigned char byte : text) format += kPieces[byte % (sizeof(kPieces) / sizeof(kPieces[0]))];
  return format;
}

bool StartsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

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

void RunBuild(FuzzedDataProvider* provider, const std::string& format, bool variables);

// A build as the builder reports it: edges enter the plan (and may leave it
// before starting), start, and finish in order, on a monotonic clock.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider provider(data, size);
  std::string format = provider.ConsumeRandomLengthString(256);
  int kind = provider.ConsumeIntegralInRange<int>(0, 15);
  bool variables = kind >= 8;  // a --status format, else NINJA_STATUS
  bool raw_format = kind % 8 == 0;
  if (!raw_format) format = variables ? KnownVariablesOnly(format) : KnownPlaceholdersOnly(format);
  setenv("NINJA_STATUS", variables ? "%f%%" : format.c_str(), 1);
  try {
    RunBuild(&provider, format, variables);
  } catch (const FuzzFatalError& e) {
    FUZZ_CHECK(raw_format);
    if (variables)
      FUZZ_CHECK(StartsWith(e.message, "invalid --status: --status:") || StartsWith(e.message, "unknown variable '"));
    else
      FUZZ_CHECK(StartsWith(e.message, "unknown placeholder '%"));
  }
  return 0;
}

void RunBuild(FuzzedDataProvider* provider_pointer, const std::string& format, bool variables) {
  FuzzedDataProvider& provider = *provider_pointer;

  BuildConfig config;
  config.has_status_format = variables;
  config.status_format = format;
  config.parallelism = provider.ConsumeIntegralInRange<int>(1, 64);
  config.verbosity = static_cast<BuildConfig::Verbosity>(provider.ConsumeIntegralInRange<int>(0, 3));
  StatusPrinter status(config);  // parses a --status format (fatal if it does not lex)
  StatusFormat variable_format;
  std::string err;
  FUZZ_CHECK(!variables || variable_format.Parse(format, &err));

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
    std::string line = variables ? status.FormatStatusVariables(variable_format.eval(), edge)
                                 : status.FormatProgressStatus(format.c_str(), now);
    ElideMiddle(line, provider.ConsumeIntegralInRange<size_t>(0, 300));
  }
  status.BuildFinished();
  std::string rest = provider.ConsumeRemainingBytesAsString();
  ElideMiddle(rest, rest.size() % 97);
}
