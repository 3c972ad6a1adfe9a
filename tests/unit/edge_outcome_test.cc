// Tests for the per-edge outcome records behind -t trace's args
// (log/edge_outcome.h): round trips, unknown fields ignored, bad ones refused.
#include "log/edge_outcome.h"

#include <gtest/gtest.h>

namespace ronin {
namespace {

bool Same(const EdgeOutcome& a, const EdgeOutcome& b) {
  return a.build == b.build && a.start_ms == b.start_ms && a.end_ms == b.end_ms && a.peak_rss == b.peak_rss &&
         a.unchanged_outputs == b.unchanged_outputs && a.skipped_by_content_hash == b.skipped_by_content_hash &&
         a.cached == b.cached;
}

TEST(EdgeOutcomeTest, RoundTrips) {
  EdgeOutcome run{1764800000123, 10, 250, 1 << 20, 1};
  run.cached = true;
  EXPECT_EQ("build=1764800000123 start=10 end=250 peak_rss=1048576 unchanged_outputs=1 cached=1", run.Encode());
  EdgeOutcome skip;
  skip.build = 7;
  skip.skipped_by_content_hash = true;
  EXPECT_EQ("build=7 skipped=content_hash", skip.Encode());
  for (const EdgeOutcome& outcome : {run, skip}) {
    EdgeOutcome parsed;
    ASSERT_TRUE(EdgeOutcome::Parse(outcome.Encode(), &parsed));
    EXPECT_TRUE(Same(outcome, parsed)) << outcome.Encode();
  }
}

TEST(EdgeOutcomeTest, UnknownFieldsAreIgnored) {
  EdgeOutcome parsed;
  ASSERT_TRUE(EdgeOutcome::Parse("future=x build=3  start=1 end=2 noequals", &parsed));
  EXPECT_EQ(3, parsed.build);
  EXPECT_EQ(1, parsed.start_ms);
  EXPECT_EQ(-1, parsed.peak_rss);
}

TEST(EdgeOutcomeTest, BadRecordsAreRefused) {
  EdgeOutcome parsed;
  for (const char* payload : {"", "start=1 end=2", "build=-1", "build=1 start=1", "build=1 peak_rss=12x",
                              "build=1 start=1 end=99999999999", "build=1234567890123456789"})
    EXPECT_FALSE(EdgeOutcome::Parse(payload, &parsed)) << payload;
}

}  // namespace
}  // namespace ronin
