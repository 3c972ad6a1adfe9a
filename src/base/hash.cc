// Implementations written from the algorithm descriptions in the ronin spec
// (section 3.1); the expected values in tests/unit/hash_test.cc come from logs
// written by real ninja binaries.
#include "base/hash.h"

#include <string.h>

namespace ronin {
namespace {

// __extension__ keeps -Wpedantic builds quiet about the GCC/Clang builtin type.
__extension__ typedef unsigned __int128 u128;

// Little-endian loads at any alignment: a plain (unaligned) load on
// little-endian hosts, byte-wise assembly elsewhere.
uint64_t Read64(const unsigned char* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
#else
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
#endif
}

uint64_t Read32(const unsigned char* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
#else
  return static_cast<uint64_t>(p[0]) | static_cast<uint64_t>(p[1]) << 8 |
         static_cast<uint64_t>(p[2]) << 16 | static_cast<uint64_t>(p[3]) << 24;
#endif
}

// --- rapidhash --------------------------------------------------------------

constexpr uint64_t kRapidSeed = 0xbdd89aa982704029ull;
constexpr uint64_t kSecret0 = 0x2d358dccaa6c78a5ull;
constexpr uint64_t kSecret1 = 0x8bb84b93962eacc9ull;
constexpr uint64_t kSecret2 = 0x4b33a62ed433d4a3ull;

// Full 64x64->128 multiply, returning the halves in place.
void Mum(uint64_t* a, uint64_t* b) {
  u128 r = static_cast<u128>(*a) * *b;
  *a = static_cast<uint64_t>(r);
  *b = static_cast<uint64_t>(r >> 64);
}

uint64_t Mix(uint64_t a, uint64_t b) {
  Mum(&a, &b);
  return a ^ b;
}

// Folds inputs longer than 16 bytes into `seed`; sets the final two words.
void RapidLong(const unsigned char* p, size_t n, uint64_t* seed, uint64_t* a,
               uint64_t* b) {
  size_t i = n;
  if (i > 48) {
    uint64_t s1 = *seed;
    uint64_t s2 = *seed;
    while (i >= 48) {
      *seed = Mix(Read64(p) ^ kSecret0, Read64(p + 8) ^ *seed);
      s1 = Mix(Read64(p + 16) ^ kSecret1, Read64(p + 24) ^ s1);
      s2 = Mix(Read64(p + 32) ^ kSecret2, Read64(p + 40) ^ s2);
      p += 48;
      i -= 48;
    }
    *seed ^= s1 ^ s2;
  }
  if (i > 16) {
    *seed = Mix(Read64(p) ^ kSecret2, Read64(p + 8) ^ *seed ^ kSecret1);
    if (i > 32) *seed = Mix(Read64(p + 16) ^ kSecret2, Read64(p + 24) ^ *seed);
  }
  // The last 16 bytes of the input; may overlap bytes already mixed in (the
  // caller guarantees n > 16, so p + i - 16 is never before the buffer).
  *a = Read64(p + i - 16);
  *b = Read64(p + i - 8);
}

}  // namespace

uint64_t RapidHash(const void* data, size_t len) { return RapidHashSeeded(data, len, kRapidSeed); }

uint64_t RapidHashSeeded(const void* data, size_t len, uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  seed ^= Mix(seed ^ kSecret0, kSecret1) ^ len;
  uint64_t a = 0;
  uint64_t b = 0;
  if (len <= 16) {
    if (len >= 4) {
      // Two (possibly overlapping) pairs of 32-bit words cover all 4..16 bytes.
      size_t d = (len & 24) >> (len >> 3);
      a = (Read32(p) << 32) | Read32(p + len - 4);
      b = (Read32(p + d) << 32) | Read32(p + len - 4 - d);
    } else if (len > 0) {
      a = (static_cast<uint64_t>(p[0]) << 56) |
          (static_cast<uint64_t>(p[len >> 1]) << 32) | p[len - 1];
    }
  } else {
    RapidLong(p, len, &seed, &a, &b);
  }
  a ^= kSecret1;
  b ^= seed;
  Mum(&a, &b);
  return Mix(a ^ kSecret0 ^ len, b ^ kSecret1);
}

// --- MurmurHash64A ----------------------------------------------------------

uint64_t MurmurHash64A(const void* data, size_t len) {
  constexpr uint64_t kSeed = 0xDECAFBADDECAFBADull;
  constexpr uint64_t kM = 0xc6a4a7935bd1e995ull;
  constexpr int kR = 47;
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = kSeed ^ (len * kM);
  size_t blocks = len / 8;
  for (size_t i = 0; i < blocks; ++i, p += 8) {
    uint64_t k = Read64(p);
    k *= kM;
    k ^= k >> kR;
    k *= kM;
    h ^= k;
    h *= kM;
  }
  // The 0..7 trailing bytes are xored in little-endian order, then one
  // multiply (skipped when there is no tail at all).
  size_t tail = len & 7;
  if (tail != 0) {
    for (size_t i = tail; i > 0; --i)
      h ^= static_cast<uint64_t>(p[i - 1]) << (8 * (i - 1));
    h *= kM;
  }
  h ^= h >> kR;
  h *= kM;
  h ^= h >> kR;
  return h;
}

}  // namespace ronin
