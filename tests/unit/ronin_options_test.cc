#include "driver/ronin_options.h"

#include <gtest/gtest.h>

#include "base/platform.h"

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

// Applies the ronin option `name` with `value` (null: none); "ok" or the error.
std::string Apply(const std::string& name, const char* value, BuildConfig* config) {
  for (const RoninOptionSpec& spec : RoninOptionTable()) {
    if (name != spec.name) continue;
    std::string err;
    return spec.apply(value, config, &err) ? "ok" : err;
  }
  return "no such option";
}

TEST(RoninOptionsTest, Audit) {
  BuildConfig config;
  EXPECT_EQ(RoninOptions::Audit::kOff, config.ronin.audit);
#ifdef __linux__
  EXPECT_EQ("ok", Apply("audit", nullptr, &config));
  EXPECT_EQ(RoninOptions::Audit::kReport, config.ronin.audit);
  EXPECT_EQ("ok", Apply("audit", "strict", &config));
  EXPECT_EQ(RoninOptions::Audit::kStrict, config.ronin.audit);
#else
  EXPECT_NE(std::string::npos, Apply("audit", nullptr, &config).find("only implemented on Linux"));
#endif
  EXPECT_EQ("expected strict, or no value", Apply("audit", "loud", &config));
  EXPECT_EQ("ok", Apply("audit-root", "../src", &config));
  EXPECT_EQ("ok", Apply("audit-root", "/opt/sdk", &config));
  EXPECT_EQ((std::vector<std::string>{"../src", "/opt/sdk"}), config.ronin.audit_roots);
  EXPECT_EQ("expected a directory", Apply("audit-root", "", &config));
}

TEST(RoninOptionsTest, JobReaper) {
  // Both platforms have a reaper (exec/job_reaper.h): a forked process, or
  // on Windows a job object and ninja.exe started again.
  BuildConfig config;
  EXPECT_EQ("ok", Apply("job-reaper", "off", &config));
  EXPECT_FALSE(config.ronin.job_reaper);
  EXPECT_EQ("ok", Apply("job-reaper", "on", &config));
  EXPECT_TRUE(config.ronin.job_reaper);
  EXPECT_EQ("expected on or off", Apply("job-reaper", "sometimes", &config));
}

TEST(RoninOptionsTest, Watch) {
  BuildConfig config;
  EXPECT_EQ("ok", Apply("watch", nullptr, &config));
  EXPECT_TRUE(config.ronin.watch);
}

TEST(RoninOptionsTest, Shuffle) {
  BuildConfig config;
  EXPECT_EQ(-1, config.ronin.shuffle_seed);
  EXPECT_EQ("ok", Apply("shuffle", "4294967295", &config));
  EXPECT_EQ(4294967295, config.ronin.shuffle_seed);
  EXPECT_EQ("ok", Apply("shuffle", "0", &config));
  EXPECT_EQ(0, config.ronin.shuffle_seed);
  EXPECT_EQ("ok", Apply("shuffle", nullptr, &config));  // a seed of its own
  EXPECT_GE(config.ronin.shuffle_seed, 0);
  EXPECT_LE(config.ronin.shuffle_seed, 4294967295);
  for (const char* bad : {"4294967296", "-1", "x", ""})
    EXPECT_EQ(std::string("invalid seed '") + bad + "' (a number from 0 to 4294967295)",
              Apply("shuffle", bad, &config));
}

}  // namespace
}  // namespace ronin
