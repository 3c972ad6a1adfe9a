// Tests for StatusPrinter (status/status.h) and ElideMiddle (status/line_printer.h).
// Status lines are checked on a non-terminal stdout (captured), where each
// line is printed once, when its edge finishes. Expected texts come from
// ninja 1.13.2 runs with the same NINJA_STATUS, timings and terminal width.
#include "status/status.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <memory>
#include <string>

#include "graph/graph.h"
#include "graph/state.h"
#include "status/cache_counts.h"
#include "status/line_printer.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;

class StatusTest : public testing::Test {
 protected:
  void SetUp() override {
    // The environment must not change what is printed.
    unsetenv("NINJA_STATUS");
    unsetenv("CLICOLOR_FORCE");
    ASSERT_TRUE(ParseManifest(&state_,
                              "rule r\n"
                              "  command = run $out\n"
                              "  description = RUN $out\n"
                              "rule nodesc\n"
                              "  command = plain $out\n"
                              "build a: r\n"
                              "build b: r\n"
                              "build c: r\n"
                              "build d: nodesc\n"));
  }
  void TearDown() override { unsetenv("NINJA_STATUS"); }

  Edge* E(const char* output) { return state_.LookupNode(output)->in_edge; }

  // Builds a printer; stdout is captured from here on (so it is no tty).
  StatusPrinter* Printer(BuildConfig::Verbosity verbosity, int parallelism = 1) {
    testing::internal::CaptureStdout();
    capturing_ = true;
    config_.verbosity = verbosity;
    config_.parallelism = parallelism;
    printer_.reset(new StatusPrinter(config_));
    return printer_.get();
  }
  std::string Output() {
    capturing_ = false;
    return testing::internal::GetCapturedStdout();
  }
  ~StatusTest() override {
    if (capturing_) testing::internal::GetCapturedStdout();
  }

  State state_;
  BuildConfig config_;
  std::unique_ptr<StatusPrinter> printer_;
  bool capturing_ = false;
};

TEST_F(StatusTest, CountersBeforeAnythingRuns) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  for (const char* out : {"a", "b", "c"}) status->EdgeAddedToPlan(E(out));
  status->BuildStarted();
  EXPECT_EQ("[0/3] s=0 r=0 u=3 p=  0% %", status->FormatProgressStatus("[%f/%t] s=%s r=%r u=%u p=%p %%", 0));
  EXPECT_EQ("", Output());
}

TEST_F(StatusTest, CountersWhileRunning) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  for (const char* out : {"a", "b", "c"}) status->EdgeAddedToPlan(E(out));
  status->BuildStarted();
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeStarted(E("b"), 10);
  EXPECT_EQ("s=2 t=3 r=2 u=1 f=0 p=  0%", status->FormatProgressStatus("s=%s t=%t r=%r u=%u f=%f p=%p", 10));
  status->BuildEdgeFinished(E("a"), 0, 100, kExitSuccess, "");
  EXPECT_EQ("s=2 t=3 r=1 u=1 f=1 p= 33%", status->FormatProgressStatus("s=%s t=%t r=%r u=%u f=%f p=%p", 100));
  status->BuildEdgeStarted(E("c"), 100);
  status->BuildEdgeFinished(E("b"), 10, 200, kExitSuccess, "");
  status->BuildEdgeFinished(E("c"), 100, 300, kExitSuccess, "");
  EXPECT_EQ("s=3 t=3 r=0 u=0 f=3 p=100%", status->FormatProgressStatus("s=%s t=%t r=%r u=%u f=%f p=%p", 300));
  EXPECT_EQ("", Output());
}

TEST_F(StatusTest, RemovedEdgesLeaveTheTotal) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  for (const char* out : {"a", "b", "c"}) status->EdgeAddedToPlan(E(out));
  status->EdgeRemovedFromPlan(E("b"));
  EXPECT_EQ("2 2", status->FormatProgressStatus("%t %u", 0));
}

TEST_F(StatusTest, PlainTextAndEmptyFormat) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  EXPECT_EQ("", status->FormatProgressStatus("", 0));
  EXPECT_EQ("no placeholders here ", status->FormatProgressStatus("no placeholders here ", 0));
  EXPECT_EQ("100%%", status->FormatProgressStatus("100%%%%", 0));
  // Colours in the format are kept (1.13).
  EXPECT_EQ("\33[32m[0]\33[0m ", status->FormatProgressStatus("\33[32m[%f]\33[0m ", 0));
}

TEST_F(StatusTest, ElapsedTime) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  status->EdgeAddedToPlan(E("a"));
  status->BuildEdgeStarted(E("a"), 1234);
  EXPECT_EQ("1.234 00:01", status->FormatProgressStatus("%e %w", 1234));
  status->BuildEdgeFinished(E("a"), 1234, 125000, kExitSuccess, "");
  EXPECT_EQ("125.000 02:05", status->FormatProgressStatus("%e %w", 125000));
}

TEST_F(StatusTest, ElapsedTimeWithHours) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  status->EdgeAddedToPlan(E("a"));
  status->BuildEdgeStarted(E("a"), 3725000);
  EXPECT_EQ("3725.000 1:02:05", status->FormatProgressStatus("%e %w", 3725000));
}

TEST_F(StatusTest, UnknownEtaAndRates) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  status->EdgeAddedToPlan(E("a"));
  EXPECT_EQ("? ?   0% ?", status->FormatProgressStatus("%E %W %P %c", 0));
}

TEST_F(StatusTest, OverallRate) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  for (const char* out : {"a", "b"}) status->EdgeAddedToPlan(E(out));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 1000, kExitSuccess, "");
  status->BuildEdgeStarted(E("b"), 1000);
  status->BuildEdgeFinished(E("b"), 1000, 4000, kExitSuccess, "");
  EXPECT_EQ("0.5", status->FormatProgressStatus("%o", 4000));
}

TEST_F(StatusTest, CurrentRateOverTheLastJobs) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate, /*parallelism=*/2);
  for (const char* out : {"a", "b", "c"}) status->EdgeAddedToPlan(E(out));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeStarted(E("b"), 0);
  status->BuildEdgeFinished(E("a"), 0, 1000, kExitSuccess, "");
  EXPECT_EQ("?", status->FormatProgressStatus("%c", 1000));  // one sample
  status->BuildEdgeFinished(E("b"), 0, 2000, kExitSuccess, "");
  EXPECT_EQ("2.0", status->FormatProgressStatus("%c", 2000));
  EXPECT_EQ("2.0", status->FormatProgressStatus("%c", 2000));  // same hint: unchanged
  status->BuildEdgeStarted(E("c"), 2000);
  status->BuildEdgeFinished(E("c"), 2000, 6000, kExitSuccess, "");
  EXPECT_EQ("0.5", status->FormatProgressStatus("%c", 6000));  // window of 2: 2000..6000
}

TEST_F(StatusTest, CurrentRateWithOneJobIsUnknown) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate, /*parallelism=*/1);
  for (const char* out : {"a", "b"}) status->EdgeAddedToPlan(E(out));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 1000, kExitSuccess, "");
  EXPECT_EQ("?", status->FormatProgressStatus("%c", 1000));
  status->BuildEdgeStarted(E("b"), 1000);
  status->BuildEdgeFinished(E("b"), 1000, 2000, kExitSuccess, "");
  EXPECT_EQ("?", status->FormatProgressStatus("%c", 2000));
}

// ninja 1.13.2, -j1, two edges whose .ninja_log durations are 2 hours each,
// actually taking 211 ms and 204 ms, NINJA_STATUS="[%w|%W|%E|%P|%e|%p|%o|%c] ":
//   [0:00:00|2:00:00|7200.000|  0%|0.211| 50%|4.7|?] RUN a
//   [00:00|00:00|0.000|100%|0.415|100%|4.8|?] RUN b
TEST_F(StatusTest, PredictionFromPreviousDurations) {
  setenv("NINJA_STATUS", "[%w|%W|%E|%P|%e|%p|%o|%c] ", 1);
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  E("a")->prev_elapsed_time_millis = 7200000;
  E("b")->prev_elapsed_time_millis = 7200000;
  status->EdgeAddedToPlan(E("a"));
  status->EdgeAddedToPlan(E("b"));
  status->BuildStarted();
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 211, kExitSuccess, "");
  status->BuildEdgeStarted(E("b"), 211);
  status->BuildEdgeFinished(E("b"), 211, 415, kExitSuccess, "");
  status->BuildFinished();
  EXPECT_EQ(
      "[0:00:00|2:00:00|7200.000|  0%|0.211| 50%|4.7|?] RUN a\n"
      "[00:00|00:00|0.000|100%|0.415|100%|4.8|?] RUN b\n",
      Output());
}

TEST_F(StatusTest, PredictionWithoutHistoryUsesTheAverageSoFar) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  for (const char* out : {"a", "b", "c", "d"}) status->EdgeAddedToPlan(E(out));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 1000, kExitSuccess, "");
  // One of four done after 1 s at 1 s each: 3 s to go, 25 % by time.
  EXPECT_EQ("3.000 00:03  25%", status->FormatProgressStatus("%E %W %P", 1000));
  Output();
}

TEST_F(StatusTest, DefaultFormatAndDescriptions) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  for (const char* out : {"a", "d"}) status->EdgeAddedToPlan(E(out));
  status->BuildStarted();
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 5, kExitSuccess, "");
  status->BuildEdgeStarted(E("d"), 5);
  status->BuildEdgeFinished(E("d"), 5, 9, kExitSuccess, "");
  status->BuildFinished();
  // A non-terminal gets one line per edge, at its end; no description: the command.
  EXPECT_EQ("[1/2] RUN a\n[2/2] plain d\n", Output());
}

TEST_F(StatusTest, VerboseShowsCommands) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kVerbose);
  status->EdgeAddedToPlan(E("a"));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 5, kExitSuccess, "");
  EXPECT_EQ("[1/1] run a\n", Output());
}

TEST_F(StatusTest, EmptyNinjaStatusMeansNoPrefix) {
  setenv("NINJA_STATUS", "", 1);
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  status->EdgeAddedToPlan(E("a"));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 5, kExitSuccess, "");
  EXPECT_EQ("RUN a\n", Output());
}

TEST_F(StatusTest, CommandOutputFollowsItsLineWithoutColours) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  status->EdgeAddedToPlan(E("a"));
  status->BuildStarted();
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 5, kExitSuccess, "\33[1mwarning\33[0m: x\n");
  status->BuildFinished();
  EXPECT_EQ("[1/1] RUN a\nwarning: x\n", Output());
}

// ninja 1.13.2 for `build a b: r` whose command prints "x\e[31my\e[0m" and
// fails, with NINJA_STATUS="[%s/%t %r %u %f %%] ", on a pipe.
TEST_F(StatusTest, FailureBlock) {
  ASSERT_TRUE(ParseManifest(&state_, "rule f\n  command = printf x; false\nbuild x y: f\n"));
  setenv("NINJA_STATUS", "[%s/%t %r %u %f %%] ", 1);
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  status->EdgeAddedToPlan(E("x"));
  status->BuildStarted();
  status->BuildEdgeStarted(E("x"), 0);
  status->BuildEdgeFinished(E("x"), 0, 5, 1, "x\33[31my\33[0m");
  status->BuildFinished();
  EXPECT_EQ(
      "[1/1 1 0 1 %] printf x; false\n"
      "FAILED: [code=1] x y \n"
      "printf x; false\n"
      "xy\n",
      Output());
}

TEST_F(StatusTest, QuietFailureBlockStillPrinted) {
  // --quiet (no status updates) still shows failures and output.
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  status->EdgeAddedToPlan(E("a"));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 5, 2, "hi\n");
  status->BuildFinished();
  EXPECT_EQ("FAILED: [code=2] a \nrun a\nhi\n", Output());
}

TEST(StatusDeathTest, UnknownPlaceholderIsFatal) {
  BuildConfig config;
  EXPECT_EXIT(
      {
        StatusPrinter status(config);
        status.FormatProgressStatus("[%X] ", 0);
      },
      testing::ExitedWithCode(1), "ninja: fatal: unknown placeholder '%X' in \\$NINJA_STATUS");
}

TEST_F(StatusTest, CachePlaceholderCountsHitsOfLookups) {
  config_.ronin.cache = "/tmp/cache";
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  EXPECT_EQ("[0/0]", status->FormatProgressStatus("[%C]", 0));  // no cache open (-n)
  CacheCounts counts;
  counts.hits = 3;
  counts.misses = 2;
  status->SetCacheCounts(&counts);
  EXPECT_EQ("[3/5] 3/5", status->FormatProgressStatus("[%C] %C", 0));
}

TEST(StatusDeathTest, CachePlaceholderWithoutCacheIsUnknown) {
  BuildConfig config;  // no --cache: as Ninja, which has no %C
  EXPECT_EXIT(
      {
        StatusPrinter status(config);
        status.FormatProgressStatus("[%C] ", 0);
      },
      testing::ExitedWithCode(1), "ninja: fatal: unknown placeholder '%C' in \\$NINJA_STATUS");
}

// ------------------------------------------------------------- --status FMT

// A printer with --status `format` (parsed at construction, as in main.cc).
TEST_F(StatusTest, VariableFormatPlacesTheDescription) {
  config_.has_status_format = true;
  config_.status_format = "<$description> [$finished/$total]";
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  for (const char* out : {"a", "d"}) status->EdgeAddedToPlan(E(out));
  status->BuildStarted();
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 10, kExitSuccess, "");
  status->BuildEdgeStarted(E("d"), 10);
  status->BuildEdgeFinished(E("d"), 10, 20, kExitSuccess, "");
  status->BuildFinished();
  // No description appended: it is where the format puts it (the command without one).
  EXPECT_EQ("<RUN a> [1/2]\n<plain d> [2/2]\n", Output());
}

TEST_F(StatusTest, VariableFormatBeatsNinjaStatusAndNamesEveryCounter) {
  setenv("NINJA_STATUS", "%f%% ", 1);
  config_.has_status_format = true;
  config_.status_format = "s=$started t=$total p=$progress r=$running u=$remaining f=${finished} $$";
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNormal);
  for (const char* out : {"a", "b", "c"}) status->EdgeAddedToPlan(E(out));
  status->BuildStarted();
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeStarted(E("b"), 0);
  status->BuildEdgeFinished(E("a"), 0, 10, kExitSuccess, "");
  // (A finishing edge still counts as running on its line, as with %r.)
  EXPECT_EQ("s=2 t=3 p= 33% r=2 u=1 f=1 $\n", Output());
}

TEST_F(StatusTest, VariableFormatTimesAsTheirPlaceholders) {
  StatusPrinter* status = Printer(BuildConfig::Verbosity::kNoStatusUpdate);
  status->EdgeAddedToPlan(E("a"));
  status->BuildEdgeStarted(E("a"), 0);
  status->BuildEdgeFinished(E("a"), 0, 2500, kExitSuccess, "");
  StatusFormat format;
  std::string err;
  ASSERT_TRUE(format.Parse("$elapsed_seconds|$elapsed|$rate|$eta_seconds|$eta|$predicted_progress|$current_rate", &err));
  EXPECT_EQ(status->FormatProgressStatus("%e|%w|%o|%E|%W|%P|%c", 2500),
            status->FormatStatusVariables(format.eval(), E("a")));
  EXPECT_EQ("2.500|00:02|0.4|", status->FormatStatusVariables(format.eval(), E("a")).substr(0, 16));
}

TEST(StatusFormatTest, LexingErrorsAreNinja114s) {
  StatusFormat format;
  std::string err;
  EXPECT_FALSE(format.Parse("a $! b", &err));
  EXPECT_EQ("invalid --status: --status:1: bad $-escape (literal $ must be written as $$)\na $! b\n  ^ near here",
            err);
  EXPECT_FALSE(format.Parse("trail $", &err));
  EXPECT_EQ("invalid --status: --status:2: unexpected EOF\n", err);
  EXPECT_FALSE(format.Parse("nl $^", &err));
  EXPECT_EQ("invalid --status: --status:1: using $^ escape requires specifying 'ninja_required_version' with "
            "version greater or equal 1.14\n",
            err);
  // A format ends at its first newline, as a manifest value does.
  ASSERT_TRUE(format.Parse("[$finished]\n$bogus $!", &err)) << err;
  EXPECT_EQ("[${finished}]", format.eval().Unparse());
}

TEST(StatusFormatTest, EveryVariableAndPlaceholderNamesAField) {
  StatusField field;
  for (const char* name : {"started", "total", "progress", "running", "remaining", "finished", "rate",
                           "current_rate", "elapsed_seconds", "eta_seconds", "elapsed", "eta",
                           "predicted_progress", "description"})
    EXPECT_TRUE(VariableField(name, &field)) << name;
  EXPECT_FALSE(VariableField("out", &field));
  EXPECT_FALSE(VariableField("Finished", &field));
  for (char letter : std::string("stprufocEewWPC")) EXPECT_TRUE(PercentField(letter, &field)) << letter;
  EXPECT_FALSE(PercentField('x', &field));
  EXPECT_FALSE(PercentField('\0', &field));
}

TEST(StatusDeathTest, UnknownVariableIsFatalWhenFormatted) {
  BuildConfig config;
  config.has_status_format = true;
  config.status_format = "x $bogus";
  EXPECT_EXIT(
      {
        State state;
        ASSERT_TRUE(ParseManifest(&state, "rule r\n  command = c\nbuild a: r\n"));
        StatusPrinter status(config);  // parsing finds nothing wrong
        StatusFormat format;
        std::string err;
        (void)format.Parse(config.status_format, &err);
        status.FormatStatusVariables(format.eval(), state.LookupNode("a")->in_edge);
      },
      testing::ExitedWithCode(1), "ninja: fatal: unknown variable 'bogus' in --status format");
}

TEST(StatusDeathTest, BadFormatIsFatalAtStart) {
  BuildConfig config;
  config.has_status_format = true;
  config.status_format = "${finished";
  EXPECT_EXIT({ StatusPrinter status(config); }, testing::ExitedWithCode(1),
              "ninja: fatal: invalid --status: --status:1: bad \\$-escape");
}

// --------------------------------------------------------------- ElideMiddle

TEST(ElideMiddleTest, ShortTextIsUnchanged) {
  EXPECT_EQ("Nothing to elide in this short string.",
            ElideMiddle("Nothing to elide in this short string.", 80));
  EXPECT_EQ("0123456789", ElideMiddle("0123456789", 10));
  EXPECT_EQ("", ElideMiddle("", 0));
}

TEST(ElideMiddleTest, KeepsBothEnds) {
  // ninja 1.13.2 on a 10-column terminal: "012...wxyz".
  EXPECT_EQ("012...wxyz", ElideMiddle("0123456789abcdefghijklmnopqrstuvwxyz", 10));
  EXPECT_EQ("012...789", ElideMiddle("0123456789abcdef6789", 9));
  EXPECT_EQ("0...9", ElideMiddle("0123456789", 5));
  EXPECT_EQ("...9", ElideMiddle("0123456789", 4));
}

TEST(ElideMiddleTest, TinyWidths) {
  EXPECT_EQ("...", ElideMiddle("0123456789", 3));
  EXPECT_EQ("..", ElideMiddle("0123456789", 2));
  EXPECT_EQ(".", ElideMiddle("0123456789", 1));
  EXPECT_EQ("", ElideMiddle("0123456789", 0));
}

TEST(ElideMiddleTest, EscapeSequencesTakeNoWidth) {
  // Visible width 10: nothing to elide.
  EXPECT_EQ("\33[1m0123456789", ElideMiddle("\33[1m0123456789", 10));
  EXPECT_EQ("0123456789\33[1m", ElideMiddle("0123456789\33[1m", 10));
}

TEST(ElideMiddleTest, EscapesFromTheDroppedMiddleAreKept) {
  // ninja 1.13.2, 10 columns.
  EXPECT_EQ("01\33[32m2...\33[0mwxyz",
            ElideMiddle("01\33[32m23456789abcdefghijklmnopqrst\33[0muvwxyz", 10));
  EXPECT_EQ("012...\33[31m\33[0mwxyz",
            ElideMiddle("0123456789\33[31mabcdefghijklmnopq\33[0mrstuvwxyz", 10));
  EXPECT_EQ("012...\33[32mw\33[0mxyz",
            ElideMiddle("0123\33[32m456789abcdefghijklmnopqrstuvw\33[0mxyz", 10));
}

TEST(ElideMiddleTest, EscapeAtTheEndOfTheKeptPrefixGoesAfterTheDots) {
  // ninja 1.13.2, 10 columns: "012...\e[32m\e[1mwxyz\e[0m".
  EXPECT_EQ("012...\33[32m\33[1mwxyz\33[0m",
            ElideMiddle("012\33[32m3456789abcdefghijklmnopqrstuv\33[1mwxyz\33[0m", 10));
}

}  // namespace
}  // namespace ronin
