// Tests for reading an event stream back (events/event_history.h) and the
// JSON reader under it (events/json_value.h).
#include "events/event_history.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/platform.h"
#include "events/json_text.h"
#include "events/json_value.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ScopedTempDir;
using test::WriteRealFile;

JsonValue Parse(const std::string& text) {
  JsonValue value;
  std::string err;
  EXPECT_TRUE(ParseJson(text, &value, &err)) << text << ": " << err;
  return value;
}

std::string ParseError(const std::string& text) {
  JsonValue value;
  std::string err;
  EXPECT_FALSE(ParseJson(text, &value, &err)) << text;
  return err;
}

TEST(JsonValueTest, ScalarsArraysAndObjects) {
  JsonValue value = Parse(" {\"a\": [1, -2, 3.5, 1e3, true, false, null, \"x\"], \"b\": {}, \"c\": []} ");
  ASSERT_EQ(JsonValue::Type::kObject, value.type);
  const JsonValue* a = value.Find("a");
  ASSERT_TRUE(a);
  ASSERT_EQ(8u, a->items.size());
  EXPECT_TRUE(a->items[0].is_integer());
  EXPECT_EQ(1, a->items[0].integer);
  EXPECT_EQ(-2, a->items[1].integer);
  EXPECT_EQ(JsonValue::Type::kNumber, a->items[2].type);
  EXPECT_EQ(3.5, a->items[2].number);
  EXPECT_EQ(JsonValue::Type::kNumber, a->items[3].type);
  EXPECT_EQ(1000, a->items[3].number);
  EXPECT_TRUE(a->items[4].boolean);
  EXPECT_EQ(JsonValue::Type::kBool, a->items[5].type);
  EXPECT_FALSE(a->items[5].boolean);
  EXPECT_EQ(JsonValue::Type::kNull, a->items[6].type);
  EXPECT_EQ("x", a->items[7].string);
  EXPECT_EQ(JsonValue::Type::kObject, value.Find("b")->type);
  EXPECT_EQ(nullptr, value.Find("d"));
}

TEST(JsonValueTest, LargeIntegersStayExact) {
  EXPECT_EQ(1767225600012345678, Parse("1767225600012345678").integer);
  EXPECT_EQ(INT64_MIN, Parse("-9223372036854775808").integer);
  JsonValue too_big = Parse("9223372036854775808");
  EXPECT_EQ(JsonValue::Type::kNumber, too_big.type);  // no longer an integer, still a number
}

TEST(JsonValueTest, StringsReadBackWhatTheWriterWrote) {
  for (std::string text : {std::string("plain"), std::string("q\"b\\s/\n\r\t\b\f\x01"),
                           std::string("caf\xC3\xA9 \xF0\x9F\x98\x80"), std::string("\0nul", 4)}) {
    std::string json;
    AppendJsonText(text, &json);
    EXPECT_EQ(text, Parse(json).string) << json;
  }
  EXPECT_EQ("\xC3\xA9\xF0\x9F\x98\x80/", Parse("\"\\u00e9\\ud83d\\ude00\\/\"").string);
  EXPECT_EQ("\xEF\xBF\xBD" "a", Parse("\"\\ud83da\"").string);  // a lone surrogate
}

TEST(JsonValueTest, ErrorsSayWhereAndWhat) {
  EXPECT_EQ("offset 0: unexpected end", ParseError(""));
  EXPECT_EQ("offset 1: expected a member name", ParseError("{x:1}"));
  EXPECT_EQ("offset 6: expected ',' or '}'", ParseError("{\"a\":1"));
  EXPECT_EQ("offset 2: text after the value", ParseError("1 2"));
  EXPECT_EQ("offset 2: leading zero", ParseError("01"));
  EXPECT_EQ("offset 4: unterminated string", ParseError("\"abc"));
  EXPECT_EQ("offset 3: control character in a string", ParseError("\"a\nb\""));
  EXPECT_EQ("offset 3: bad escape in a string", ParseError("\"\\x\""));
  EXPECT_EQ("offset 0: not a JSON value", ParseError("nul"));
  EXPECT_EQ("offset 2: no digits after '.'", ParseError("1.e5"));
}

TEST(JsonValueTest, NestingIsBounded) {
  std::string deep(kMaxJsonDepth + 1, '['), close(kMaxJsonDepth + 1, ']');
  Parse(deep + close);
  EXPECT_EQ("offset 33: nested too deep", ParseError(deep + "[" + "]" + close));
  EXPECT_NE("", ParseError(std::string(100000, '[')));  // no stack to spare needed
}

class EventHistoryTest : public testing::Test {
 protected:
  bool Load(const std::string& text, std::string* err) {
    WriteRealFile(tmp_.File("events"), text);
    return history_.Load(tmp_.File("events"), err);
  }
  void Load(const std::string& text) {
    std::string err;
    ASSERT_TRUE(Load(text, &err)) << err;
  }
  std::string Start() {
    return "{\"event\":\"stream_start\",\"t\":0,\"schema\":\"ronin-events\",\"version\":1}\n";
  }
  std::string End(const std::string& output, int start, int end, const std::string& extra = "") {
    return "{\"event\":\"edge_end\",\"t\":1,\"build\":1,\"edge\":0,\"outputs\":[\"" + output +
           "\",\"" + output + ".d\"],\"result\":\"success\",\"start_ms\":" + std::to_string(start) +
           ",\"end_ms\":" + std::to_string(end) + extra + "}\n";
  }
  const std::string kBuild = "{\"event\":\"build_start\",\"t\":1,\"build\":1}\n";

  ScopedTempDir tmp_;
  EventHistory history_;
};

TEST_F(EventHistoryTest, TheLastBuildThatRanAnything) {
  Load(Start() + kBuild + End("a.o", 0, 10) + End("b.o", 5, 40, ",\"peak_rss_bytes\":1024,\"cached\":true") +
       "{\"event\":\"build_end\"}\n" + kBuild + End("a.o", 2, 32, ",\"log\":{\"command_hash\":\"00000000000000ff\"}") +
       "{\"event\":\"edge_skipped\",\"outputs\":[\"c.o\"]}\n" + kBuild +  // a build that ran nothing
       "{\"event\":\"build_end\"}\n{\"event\":\"stream_end\"}\n");
  EXPECT_EQ(3u, history_.build_count());
  std::vector<LoggedJob> jobs = history_.LastBuild();
  ASSERT_EQ(1u, jobs.size());
  EXPECT_EQ((std::vector<std::string_view>{"a.o", "a.o.d"}), jobs[0].outputs);
  EXPECT_EQ(2, jobs[0].start_ms);
  EXPECT_EQ(32, jobs[0].end_ms);
  EXPECT_EQ(0xffu, jobs[0].command_hash);
  EXPECT_EQ(std::vector<int>{10}, history_.EarlierDurations(jobs));
  EXPECT_EQ(std::vector<std::string_view>{"c.o"}, history_.LastBuildSkips());
  std::vector<LoggedJob> latest = history_.LatestOfEveryOutput();
  ASSERT_EQ(2u, latest.size());
  EXPECT_EQ("a.o", latest[0].outputs[0]);
  EXPECT_EQ(2, latest[0].start_ms);
  EXPECT_EQ("b.o", latest[1].outputs[0]);
}

TEST_F(EventHistoryTest, OutcomesAsTheStreamToldThem) {
  Load(Start() + kBuild + End("a.o", 0, 10, ",\"peak_rss_bytes\":1024,\"cached\":true,\"unchanged_outputs\":1") +
       End("b.o", 0, 5, ",\"peak_rss_bytes\":null,\"unchanged_outputs\":null"));
  std::vector<EdgeOutcome> outcomes = history_.LastBuildOutcomes();
  ASSERT_EQ(2u, outcomes.size());
  EXPECT_EQ(1024, outcomes[0].peak_rss);
  EXPECT_TRUE(outcomes[0].cached);
  EXPECT_EQ(1, outcomes[0].unchanged_outputs);
  EXPECT_EQ(-1, outcomes[1].peak_rss);
  EXPECT_FALSE(outcomes[1].cached);
  EXPECT_EQ(-1, outcomes[1].unchanged_outputs);
}

TEST_F(EventHistoryTest, InterruptedRunsHaveNoJobAndACutLastLineIsIgnored) {
  Load(Start() + kBuild + End("a.o", 0, 10) +
       "{\"event\":\"edge_end\",\"outputs\":[\"b.o\"],\"result\":\"interrupted\",\"start_ms\":1,\"end_ms\":2}\n" +
       "{\"event\":\"edge_end\",\"outputs\":[\"c.o\"],\"res");
  EXPECT_EQ(1u, history_.LastBuild().size());
}

TEST_F(EventHistoryTest, OtherStreamsAndDamagedLinesAreRefused) {
  std::string err;
  EXPECT_FALSE(Load("{\"event\":\"stream_start\",\"schema\":\"ronin-events\",\"version\":2}\n", &err));
  EXPECT_EQ(tmp_.File("events") + ":1: not an event stream of version 1", err);
  EXPECT_FALSE(Load(Start() + kBuild + "{\"event\":\"edge_end\",\n", &err));
  EXPECT_EQ(tmp_.File("events") + ":3: offset 20: expected a member name", err);
  EXPECT_FALSE(Load(Start() + "[1]\n", &err));
  EXPECT_EQ(tmp_.File("events") + ":2: not an event", err);
  EXPECT_FALSE(history_.Load(tmp_.File("missing"), &err));
  // The reason is the system's words: ninja.exe's are Windows' ("File not found.").
  const std::string kReason = kWindows ? "File not found.\r\n" : "No such file or directory";
  EXPECT_EQ("loading " + tmp_.File("missing") + ": " + kReason, err);
}

}  // namespace
}  // namespace ronin
