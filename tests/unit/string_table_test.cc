// Tests for StringTable (base/string_table.h): lookups, room reserved up front,
// and the one-probe insert that refuses a key already present.
#include "base/string_table.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>

namespace ronin {
namespace {

struct Named {
  std::string_view name;
};
using Table = StringTable<Named, &Named::name>;

class StringTableTest : public testing::Test {
 protected:
  Named* Make(const std::string& name) {
    texts_.push_back(name);
    values_.push_back(Named{texts_.back()});
    return &values_.back();
  }
  std::deque<std::string> texts_;
  std::deque<Named> values_;
};

TEST_F(StringTableTest, ReservedRoomTakesThatManyWithoutGrowing) {
  Table table;
  table.Insert(Make("before"));
  table.Reserve(5000);
  size_t buckets = table.bucket_count();
  EXPECT_GE(buckets, 2 * 5001u);
  for (int i = 0; i < 4999; ++i) table.Insert(Make("v" + std::to_string(i)));
  EXPECT_EQ(buckets, table.bucket_count());
  EXPECT_EQ(5000u, table.size());
  // What was there before the reserve is still found after its rehash.
  ASSERT_NE(nullptr, table.Find("before"));
  EXPECT_EQ("before", table.Find("before")->name);
  EXPECT_EQ("v4998", table.Find("v4998")->name);
  EXPECT_EQ(nullptr, table.Find("v4999"));
}

TEST_F(StringTableTest, ReserveNeverShrinks) {
  Table table;
  table.Reserve(10000);
  size_t buckets = table.bucket_count();
  table.Reserve(10);
  EXPECT_EQ(buckets, table.bucket_count());
}

TEST_F(StringTableTest, ReservingNothingLeavesAnEmptyTableUsable) {
  Table table;
  table.Reserve(0);
  EXPECT_EQ(nullptr, table.Find("x"));
  table.Insert(Make("x"));
  EXPECT_NE(nullptr, table.Find("x"));
}

TEST_F(StringTableTest, InsertIfAbsentRefusesAKeyThatIsThere) {
  Table table;
  Named* first = Make("same");
  EXPECT_TRUE(table.InsertIfAbsent(first, HashString("same")));
  EXPECT_FALSE(table.InsertIfAbsent(Make("same"), HashString("same")));
  EXPECT_EQ(1u, table.size());
  EXPECT_EQ(first, table.Find("same"));
}

TEST_F(StringTableTest, InsertIfAbsentGrowsLikeInsert) {
  Table table;
  for (int i = 0; i < 3000; ++i) {
    std::string name = "n" + std::to_string(i);
    ASSERT_TRUE(table.InsertIfAbsent(Make(name), HashString(name)));
  }
  EXPECT_EQ(3000u, table.size());
  for (int i = 0; i < 3000; i += 7) EXPECT_NE(nullptr, table.Find("n" + std::to_string(i)));
  EXPECT_FALSE(table.InsertIfAbsent(Make("n2999"), HashString("n2999")));
}

}  // namespace
}  // namespace ronin
