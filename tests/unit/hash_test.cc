#include "base/hash.h"

#include <gtest/gtest.h>

#include <string>

namespace ronin {
namespace {

uint64_t Rapid(const std::string& s) { return RapidHash(s.data(), s.size()); }
uint64_t Murmur(const std::string& s) {
  return MurmurHash64A(s.data(), s.size());
}

// First `len` bytes of "0123456789abcdef" repeated.
std::string Pattern(size_t len) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < len; ++i) s += kHex[i % 16];
  return s;
}

// "#" followed by Pattern(len - 1): shell no-op commands of exact length,
// whose hashes were read from logs written by real ninja binaries.
std::string HashCommand(size_t len) { return "#" + Pattern(len - 1); }

// Every vector listed in the spec (section 3.1).
TEST(RapidHashTest, SpecVectors) {
  EXPECT_EQ(0x5a6ef77074ebc84bull, Rapid(""));
  EXPECT_EQ(0xc11328477bc0f5d1ull, Rapid("a"));
  EXPECT_EQ(0xe3dc3bc232e8843aull, Rapid("echo a > a"));
  EXPECT_EQ(0xdef20147dba11621ull, Rapid("echo b > b"));
  EXPECT_EQ(0xa4e9afbeb13d95ecull, Rapid("gcc -MD -MF a.o.d -c a.c -o a.o"));
  EXPECT_EQ(0xc0e3ae94005e6f0dull, Rapid(Pattern(3)));
  EXPECT_EQ(0xa558dc93d085ce36ull, Rapid(Pattern(4)));
  EXPECT_EQ(0xd76d2b531eee3341ull, Rapid(Pattern(8)));
  EXPECT_EQ(0xfcc8fa4e2771d2efull, Rapid(Pattern(16)));
  EXPECT_EQ(0xc4e6c07ce8d909f3ull, Rapid(Pattern(17)));
  EXPECT_EQ(0x51defeab0abd9656ull, Rapid(Pattern(32)));
  EXPECT_EQ(0x5ad6a821e5baa639ull, Rapid(Pattern(33)));
  EXPECT_EQ(0x0fbf74f083d4e589ull, Rapid(Pattern(48)));
  EXPECT_EQ(0x53891744573ecfd7ull, Rapid(Pattern(49)));
  EXPECT_EQ(0x8fbfb349570845f8ull, Rapid(Pattern(95)));
  EXPECT_EQ(0xa6f7394a929a4119ull, Rapid(Pattern(96)));
  EXPECT_EQ(0xa2ada58b0ee1f084ull, Rapid(Pattern(97)));
  EXPECT_EQ(0x4876198d493ad5c5ull, Rapid(Pattern(112)));
  EXPECT_EQ(0xe345543a55f08e53ull, Rapid(Pattern(144)));
  EXPECT_EQ(0x8279d2e0a99de6f0ull, Rapid(Pattern(200)));
}

// Recorded by ninja 1.13.2 in a v7 log, one command per length, covering
// every short-input branch and the 48-byte loop boundaries.
TEST(RapidHashTest, ReferenceLogVectors) {
  struct Case {
    size_t len;
    uint64_t hash;
  };
  const Case kCases[] = {
      {1, 0x9910af3bb2e811f4ull},   {2, 0x2a6f470e11a64f95ull},
      {3, 0x6b01c846194c8077ull},   {4, 0xc1545115b10fd917ull},
      {5, 0xca8822cb685905edull},   {6, 0x1462202ae3d1ffe8ull},
      {7, 0xb82dcbce3c0759d4ull},   {8, 0x78cc704bc75e16c9ull},
      {9, 0xd6ee9b5b8c9f36aaull},   {10, 0x56ea6869d6651ae0ull},
      {11, 0x0649db874080bcebull},  {12, 0xab1bba5e5af8d086ull},
      {13, 0x74738fc66a4038a6ull},  {14, 0x8abb8c8eeefb617aull},
      {15, 0xdbb672b70363914bull},  {16, 0x4bc9ff15abb14682ull},
      {17, 0xf0bcc77d720c8011ull},  {18, 0x37edfb50ff7a1376ull},
      {19, 0x401fdb119b162fe9ull},  {20, 0xef4c9c69cbff2d0bull},
      {24, 0x418ad2044f7fc0d8ull},  {31, 0x9eb56bb06bb4a921ull},
      {32, 0xca898414a950ad88ull},  {33, 0xea3bdd9577245188ull},
      {40, 0xf41826d78c2318d7ull},  {63, 0x3b617a4d1f3d557eull},
      {64, 0xc9fe17ce3424ee46ull},  {65, 0xbdfd40a9c88f3150ull},
      {100, 0xb472955ef863dd6full}, {127, 0x6567dffc822c38e9ull},
      {128, 0x3d65944427ed4567ull}, {129, 0xbaae528ecbb5dcadull},
      {200, 0x848fa15d3196f68full},
  };
  for (const Case& c : kCases)
    EXPECT_EQ(c.hash, Rapid(HashCommand(c.len))) << "len " << c.len;
}

// The hash must only read `len` bytes: bytes beyond it must not matter.
TEST(RapidHashTest, IgnoresBytesPastLength) {
  std::string a = Pattern(40);
  std::string b = Pattern(40);
  b[39] = 'X';
  EXPECT_EQ(RapidHash(a.data(), 39), RapidHash(b.data(), 39));
  EXPECT_NE(Rapid(a), Rapid(b));
}

// Recorded by ninja 1.11.1 in a v5 log (command -> hash).
TEST(MurmurHash64ATest, ReferenceLogVectors) {
  EXPECT_EQ(0x87c2bc0beaf1d91dull, Murmur(""));
  EXPECT_EQ(0x996719a0746035a3ull, Murmur("echo a > a"));
  EXPECT_EQ(0xe811912674fc45ceull, Murmur("echo b > b"));
  struct Case {
    size_t len;
    uint64_t hash;
  };
  const Case kCases[] = {
      {1, 0x290e3db0f0ccb826ull},   {2, 0xa7296226c45257cbull},
      {3, 0x6c7a35a24e90f777ull},   {4, 0xccd689b56863f7c7ull},
      {5, 0x7e8f6e7fb0388973ull},   {6, 0xfa234a121fd0d064ull},
      {7, 0x6e11b35546062023ull},   {8, 0xdc057087c2534fd5ull},
      {9, 0x7ad627beb4bd1fb2ull},   {10, 0x85039101fb92b4a1ull},
      {11, 0xa24fc4658e3d3526ull},  {12, 0x37f8ab2f7cb2dad4ull},
      {13, 0xc7aff7515a814826ull},  {14, 0x11da6ce982da49bfull},
      {15, 0x24f169f00975fb42ull},  {16, 0xba286eab2ebc3212ull},
      {17, 0x48ba9468b414cf2cull},  {18, 0x967ba3c96b6d2bf8ull},
      {19, 0x55d8fd38b1085b2aull},  {20, 0xea22619c4be2b266ull},
      {24, 0x600ac4cef999cd16ull},  {25, 0x803d93e4a0d4c536ull},
      {32, 0xc04810e9faa26336ull},  {33, 0xd377c88f1264390full},
      {40, 0x0e7c2a3050963fd7ull},  {63, 0x3bea02c813ed02baull},
      {64, 0xa24e2ac41cdd8a68ull},  {65, 0x7c98b563204bc8e0ull},
      {100, 0x8c8231e0c20c2a75ull}, {127, 0x87ec37a0077748fdull},
      {128, 0x53515d07c02803baull}, {129, 0x489169d0fb6c0ffcull},
      {200, 0x378930a7e997c961ull},
  };
  for (const Case& c : kCases)
    EXPECT_EQ(c.hash, Murmur(HashCommand(c.len))) << "len " << c.len;
}

TEST(MurmurHash64ATest, IgnoresBytesPastLength) {
  std::string a = Pattern(20);
  std::string b = Pattern(20);
  b[19] = 'X';
  EXPECT_EQ(MurmurHash64A(a.data(), 19), MurmurHash64A(b.data(), 19));
  EXPECT_NE(Murmur(a), Murmur(b));
}

}  // namespace
}  // namespace ronin
