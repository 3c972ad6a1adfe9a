// SHA-256 against the FIPS 180-4 example vectors, split updates, and the
// SHA-NI compression function against the portable one.
#include "base/sha256.h"

#include <cstring>
#include <random>

#include "base/sha256_blocks.h"

#include <gtest/gtest.h>

namespace ronin {
namespace {

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Sha256Hex(""));
  EXPECT_EQ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Sha256Hex("abc"));
  EXPECT_EQ("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"));
  EXPECT_EQ("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            Sha256Hex(std::string(1000000, 'a')));
}

TEST(Sha256Test, SplitUpdatesAgreeAtEveryLength) {
  std::string data;
  for (int i = 0; i < 300; ++i) data += static_cast<char>(i * 7 + 3);
  for (size_t length = 0; length <= data.size(); length += 13) {
    std::string whole = Sha256Hex(data.substr(0, length));
    for (size_t cut : {size_t{0}, size_t{1}, size_t{55}, size_t{56}, size_t{63}, size_t{64}, length / 2}) {
      if (cut > length) continue;
      Sha256 sha;
      sha.Update(data.substr(0, cut));
      sha.Update(data.substr(cut, length - cut));
      EXPECT_EQ(whole, sha.HexDigest()) << length << " cut at " << cut;
    }
  }
}

TEST(Sha256Test, ShaNiAgreesWithThePortableForm) {
  Sha256BlocksFunction sha_ni = Sha256BlocksShaNi();
  if (!sha_ni) GTEST_SKIP() << "this CPU has no SHA extensions";
  std::mt19937 random(15);
  std::vector<uint8_t> data(64 * 40);
  for (uint8_t& byte : data) byte = static_cast<uint8_t>(random());
  for (size_t blocks = 0; blocks <= 40; ++blocks) {
    for (int start = 0; start < 3; ++start) {
      uint32_t portable[8], fast[8];
      for (int i = 0; i < 8; ++i) portable[i] = fast[i] = static_cast<uint32_t>(random());
      // Unaligned data too: the caller's bytes are hashed in place.
      size_t offset = start == 2 ? 1 : 0;
      size_t count = blocks - (offset && blocks ? 1 : 0);
      Sha256BlocksPortable(portable, data.data() + offset, count);
      sha_ni(fast, data.data() + offset, count);
      EXPECT_EQ(0, memcmp(portable, fast, sizeof portable)) << blocks << " blocks, start " << start;
    }
  }
}

TEST(Sha256Test, IsSha256Hex) {
  EXPECT_TRUE(IsSha256Hex(Sha256Hex("x")));
  EXPECT_FALSE(IsSha256Hex(""));
  EXPECT_FALSE(IsSha256Hex(std::string(63, 'a')));
  EXPECT_FALSE(IsSha256Hex(std::string(64, 'A')));
  EXPECT_FALSE(IsSha256Hex(std::string(63, 'a') + "g"));
  EXPECT_FALSE(IsSha256Hex("../" + std::string(61, 'a')));
}

}  // namespace
}  // namespace ronin
