#include "driver/ronin_options.h"

#include <gtest/gtest.h>

namespace ronin {
namespace {

TEST(ParseSizeTest, PlainAndSuffixed) {
  int64_t bytes = -1;
  EXPECT_TRUE(ParseSize("0", &bytes));
  EXPECT_EQ(bytes, 0);
  EXPECT_TRUE(ParseSize("512", &bytes));
  EXPECT_EQ(bytes, 512);
  EXPECT_TRUE(ParseSize("4K", &bytes));
  EXPECT_EQ(bytes, 4096);
  EXPECT_TRUE(ParseSize("3m", &bytes));
  EXPECT_EQ(bytes, 3 << 20);
  EXPECT_TRUE(ParseSize("2G", &bytes));
  EXPECT_EQ(bytes, int64_t{2} << 30);
  EXPECT_TRUE(ParseSize("2GB", &bytes));
  EXPECT_EQ(bytes, int64_t{2} << 30);
}

TEST(ParseSizeTest, Rejects) {
  int64_t bytes = 7;
  for (const char* bad : {"", "lots", "-1", "+1", "5X", "4GG", "4Gx", " 4", "4 ", "99999999999999999999",
                          "9999999999999G"}) {
    EXPECT_FALSE(ParseSize(bad, &bytes)) << bad;
  }
  EXPECT_EQ(bytes, 7);
}

TEST(SplitFlagWordsTest, WhiteSpace) {
  EXPECT_EQ(SplitFlagWords(""), std::vector<std::string>{});
  EXPECT_EQ(SplitFlagWords(" \t\n"), std::vector<std::string>{});
  EXPECT_EQ(SplitFlagWords("  --a  -j 4\t--b=c\n"),
            (std::vector<std::string>{"--a", "-j", "4", "--b=c"}));
}

TEST(RoninOptionsUsageTest, ListsEveryOption) {
  std::string usage = RoninOptionsUsage();
  for (const RoninOptionSpec& spec : RoninOptionTable())
    EXPECT_NE(usage.find(std::string("  --") + spec.name), std::string::npos) << spec.name;
}

}  // namespace
}  // namespace ronin
