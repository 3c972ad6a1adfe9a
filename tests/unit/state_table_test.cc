// Tests for the in-memory table of .ronin_state records (log/state_table.h):
// lookups by kind and key, payloads changed in place or moved when they
// outgrow their room, growth of the index, iteration in key order.
#include "log/state_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ronin {
namespace {

TEST(StateTableTest, KindsAndKeysAreSeparate) {
  StateTable table;
  EXPECT_FALSE(table.Find(1, "a").has_value());
  EXPECT_TRUE(table.Set(1, "a", "one"));
  EXPECT_TRUE(table.Set(2, "a", "two"));
  EXPECT_TRUE(table.Set(1, "", ""));
  EXPECT_EQ("one", *table.Find(1, "a"));
  EXPECT_EQ("two", *table.Find(2, "a"));
  EXPECT_EQ("", *table.Find(1, ""));
  EXPECT_FALSE(table.Find(3, "a").has_value());
  EXPECT_FALSE(table.Find(1, "b").has_value());
  EXPECT_EQ(3u, table.size());
}

TEST(StateTableTest, SetReportsWhetherThePayloadChanged) {
  StateTable table;
  EXPECT_TRUE(table.Set(1, "k", "abc"));
  EXPECT_FALSE(table.Set(1, "k", "abc"));
  EXPECT_TRUE(table.Set(1, "k", "ab"));        // shorter: in place
  EXPECT_EQ("ab", *table.Find(1, "k"));
  EXPECT_TRUE(table.Set(1, "k", "abcdefgh"));  // fits the room of 8
  EXPECT_EQ("abcdefgh", *table.Find(1, "k"));
  std::string long_payload(1000, 'x');
  EXPECT_TRUE(table.Set(1, "k", long_payload));  // moved
  EXPECT_EQ(long_payload, *table.Find(1, "k"));
  EXPECT_TRUE(table.Set(1, "k", ""));
  EXPECT_EQ("", *table.Find(1, "k"));
  EXPECT_EQ(1u, table.size());
}

TEST(StateTableTest, ManyRecordsSurviveGrowth) {
  StateTable table;
  for (int i = 0; i < 20000; ++i) table.Set(static_cast<uint8_t>(1 + i % 3), "key" + std::to_string(i), std::to_string(i * 7));
  EXPECT_EQ(20000u, table.size());
  for (int i = 0; i < 20000; ++i) {
    auto payload = table.Find(static_cast<uint8_t>(1 + i % 3), "key" + std::to_string(i));
    ASSERT_TRUE(payload.has_value()) << i;
    EXPECT_EQ(std::to_string(i * 7), *payload);
    EXPECT_FALSE(table.Find(static_cast<uint8_t>(1 + (i + 1) % 3), "key" + std::to_string(i)).has_value());
  }
}

TEST(StateTableTest, IterationIsInKeyOrder) {
  StateTable table;
  table.Set(2, "b", "2b");
  table.Set(1, "c", "1c");
  table.Set(1, "a", "1a");
  table.Set(2, "a", "2a");
  table.Set(1, "b", "1b");
  std::vector<std::string> seen;
  table.ForEach(1, [&](std::string_view key, std::string_view payload) {
    seen.push_back(std::string(key) + "=" + std::string(payload));
  });
  EXPECT_EQ((std::vector<std::string>{"a=1a", "b=1b", "c=1c"}), seen);
  seen.clear();
  table.ForEachRecord([&](uint8_t kind, std::string_view key, std::string_view payload) {
    seen.push_back(std::to_string(kind) + std::string(key) + "=" + std::string(payload));
  });
  EXPECT_EQ((std::vector<std::string>{"1a=1a", "1b=1b", "1c=1c", "2a=2a", "2b=2b"}), seen);
}

}  // namespace
}  // namespace ronin
