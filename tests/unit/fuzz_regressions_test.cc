// Regression tests for the findings of the fuzz targets in tests/fuzz (see
// the "Fuzzing" section of doc/reliability.md). Each test names its finding
// and the reproducer kept in tests/fuzz/regressions/<target>/.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "graph/manifest_parser.h"
#include "graph/state.h"
#include "status/status.h"
#include "test_support.h"

namespace ronin {
namespace {

// Finding 1 (fuzz_manifest; tests/fuzz/regressions/manifest/
// phonycycle-order-only-counts): with -w phonycycle=warn the parser drops a
// phony edge's output from its own inputs, wherever it appears, but leaves
// order_only_deps as written. "build a: phony || a" ends with no inputs and
// one order-only input, so inputs.end() - order_only_deps points before the
// first input; adding deps there (a `depfile` binding on the phony edge, a
// dyndep file) then writes out of bounds (ninja 1.13.2 crashes the same way).
TEST(FuzzRegressions, PhonyCycleKeepsInputCountsConsistent) {
  for (const char* manifest : {"build a: phony || a\n", "build a: phony b || a\n",
                               "build a: phony a || a a\n", "build a: phony a | b || a c\n"}) {
    State state;
    ManifestParserOptions options;
    options.quiet = true;
    ASSERT_TRUE(test::ParseManifest(&state, manifest, options)) << manifest;
    ASSERT_EQ(1u, state.edges().size()) << manifest;
    const Edge* edge = state.edges()[0];
    EXPECT_LE(static_cast<size_t>(edge->implicit_deps) + edge->order_only_deps, edge->inputs.size())
        << manifest;
  }
}

// Which inputs stay explicit, implicit or order-only after the self-reference
// is dropped is what Ninja 1.13.2 shows (it keeps the counts and classifies
// from the end): found by the randomised differential test, where
// "build b: phony || c b" made Ninja report the missing `c` as needed by b.
TEST(FuzzRegressions, PhonyCycleClassifiesInputsLikeNinja) {
  struct Case {
    const char* manifest;
    int implicit, order_only;
  } cases[] = {
      {"build b: phony || c b\n", 0, 0},        // 1 input, 2 order-only: all explicit
      {"build b: phony x || y b\n", 0, 2},      // x turns order-only
      {"build b: phony x | b y || z\n", 2, 1},  // x turns implicit
      {"build b: phony x | y || b\n", 1, 1},    // x turns implicit, y order-only
      {"build b: phony b x | y || z\n", 1, 1},  // nothing moves
  };
  for (const Case& c : cases) {
    State state;
    ManifestParserOptions options;
    options.quiet = true;
    ASSERT_TRUE(test::ParseManifest(&state, c.manifest, options)) << c.manifest;
    const Edge* edge = state.edges()[0];
    EXPECT_EQ(c.implicit, edge->implicit_deps) << c.manifest;
    EXPECT_EQ(c.order_only, edge->order_only_deps) << c.manifest;
  }
}

// Finding 2 (fuzz_status; tests/fuzz/regressions/status/): the %P prediction
// divides the CPU time spent by an estimated total that .ninja_log durations
// feed. A damaged log line (end before start, so a negative duration) can
// make that total a tiny positive number, and 100 * fraction then overflows
// the int cast in FormatProgressStatus (undefined behaviour; on x86 it prints
// "-2147483648%"). Ninja 1.13.2 has the same arithmetic.
TEST(FuzzRegressions, PredictedPercentageStaysInRange) {
  unsetenv("NINJA_STATUS");
  State state;
  std::string manifest = "rule r\n  command = run $out\n";
  const int kEdges = 1501;
  for (int i = 0; i < kEdges; ++i) manifest += "build o" + std::to_string(i) + ": r\n";
  ASSERT_TRUE(test::ParseManifest(&state, manifest));
  // Logged durations: o0 15000 ms, o1 -14999 ms (damaged), o2... 0 ms; the
  // last edge has no log entry.
  for (int i = 0; i < kEdges; ++i) {
    Edge* edge = state.edges()[i];
    edge->prev_elapsed_time_millis = i == 0 ? 15000 : i == 1 ? -14999 : i == kEdges - 1 ? -1 : 0;
  }
  BuildConfig config;
  config.verbosity = BuildConfig::Verbosity::kNormal;
  StatusPrinter status(config);
  for (Edge* edge : state.edges()) status.EdgeAddedToPlan(edge);
  status.BuildStarted();
  testing::internal::CaptureStdout();
  status.BuildEdgeStarted(state.edges()[0], 0);
  status.BuildEdgeFinished(state.edges()[0], 0, 14999, 0, "");
  testing::internal::GetCapturedStdout();

  std::string percent = status.FormatProgressStatus("%P", 14999);
  ASSERT_FALSE(percent.empty());
  ASSERT_EQ('%', percent.back()) << percent;
  int value = atoi(percent.c_str());
  EXPECT_GE(value, 0) << percent;
  EXPECT_LE(value, 100) << percent;
}

// Finding 3 (fuzz_manifest; tests/fuzz/regressions/manifest/include-cycle-*):
// a manifest that includes itself, directly or through other files
// (include or subninja), made the parser recurse until the stack overflowed
// (SIGSEGV). Ninja 1.13.2 crashes the same way (ninja-build/ninja#2679); a
// cycle is a parse error instead. Run in a child process so that a crash
// fails this test only.
TEST(FuzzRegressions, IncludeCycleIsAnError) {
  struct Case {
    const char* name;
    std::vector<std::pair<std::string, std::string>> files;
  };
  const Case cases[] = {
      {"include itself", {{"build.ninja", "include build.ninja\n"}}},
      {"subninja cycle", {{"build.ninja", "subninja a.ninja\n"}, {"a.ninja", "subninja build.ninja\n"}}},
      {"include cycle", {{"build.ninja", "x = 1\ninclude a.ninja\n"},
                         {"a.ninja", "y = 2\ninclude b.ninja\n"},
                         {"b.ninja", "include a.ninja\n"}}},
  };
  for (const Case& c : cases) {
    EXPECT_EXIT(
        {
          test::VirtualDisk disk;
          for (const auto& file : c.files) disk.Create(file.first, file.second);
          State state;
          ManifestParserOptions options;
          options.quiet = true;
          ManifestParser parser(&state, &disk, options);
          std::string err;
          bool loaded = parser.Load("build.ninja", &err);
          _exit(!loaded && !err.empty() ? 0 : 2);
        },
        testing::ExitedWithCode(0), "")
        << c.name;
  }
}

}  // namespace
}  // namespace ronin
