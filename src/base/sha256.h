// SHA-256 (FIPS 180-4), for the build cache: blobs are named and verified
// by their SHA-256, the digest Bazel's remote cache layout (/cas/<sha256>)
// and the servers that speak it use.
#ifndef RONIN_BASE_SHA256_H_
#define RONIN_BASE_SHA256_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ronin {

class Sha256 {
 public:
  Sha256();
  void Update(const void* data, size_t size);
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  // The digest's 32 bytes; the object is spent after it.
  void Digest(uint8_t digest[32]);
  // The digest as 64 lowercase hex digits; the object is spent after it.
  std::string HexDigest();

 private:
  uint32_t state_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes so far
};

// A digest's 32 bytes as 64 lowercase hex digits.
std::string Sha256DigestHex(const uint8_t digest[32]);

// SHA-256 of `data` as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);

// True if `text` is 64 lowercase hex digits (a well-formed digest name).
bool IsSha256Hex(std::string_view text);

}  // namespace ronin

#endif  // RONIN_BASE_SHA256_H_
