// SHA-256, written from FIPS 180-4 (base/sha256.h): padding and buffering; the
// compression function is in base/sha256_blocks.cc.
#include "base/sha256.h"

#include <string.h>

#include "base/sha256_blocks.h"

namespace ronin {

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::Update(const void* data, size_t size) {
  if (size == 0) return;  // `data` may be null
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  length_ += size;
  if (buffered_ > 0) {
    size_t take = 64 - buffered_ < size ? 64 - buffered_ : size;
    memcpy(buffer_ + buffered_, bytes, take);
    buffered_ += take;
    bytes += take;
    size -= take;
    if (buffered_ < 64) return;
    Sha256Blocks(state_, buffer_, 1);
    buffered_ = 0;
  }
  // Whole blocks straight from the caller's bytes, in one call.
  Sha256Blocks(state_, bytes, size / 64);
  bytes += size / 64 * 64;
  size %= 64;
  memcpy(buffer_, bytes, size);
  buffered_ = size;
}

void Sha256::Digest(uint8_t digest[32]) {
  uint64_t bits = length_ * 8;
  uint8_t pad[72] = {0x80};
  size_t pad_size = (buffered_ < 56 ? 56 : 120) - buffered_;
  for (int i = 0; i < 8; ++i) pad[pad_size + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  Update(pad, pad_size + 8);
  for (int i = 0; i < 32; ++i) digest[i] = static_cast<uint8_t>(state_[i / 4] >> (24 - 8 * (i % 4)));
}

std::string Sha256::HexDigest() {
  uint8_t digest[32];
  Digest(digest);
  return Sha256DigestHex(digest);
}

std::string Sha256DigestHex(const uint8_t digest[32]) {
  static const char kHex[] = "0123456789abcdef";
  std::string hex(64, '\0');
  for (int i = 0; i < 32; ++i) {
    hex[2 * i] = kHex[digest[i] >> 4];
    hex[2 * i + 1] = kHex[digest[i] & 15];
  }
  return hex;
}

std::string Sha256Hex(std::string_view data) {
  Sha256 sha;
  sha.Update(data);
  return sha.HexDigest();
}

bool IsSha256Hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace ronin
