// Command hashes recorded in .ninja_log, and the hash under content digests.
#ifndef RONIN_BASE_HASH_H_
#define RONIN_BASE_HASH_H_

#include <cstddef>
#include <cstdint>

namespace ronin {

// rapidhash V1 with its default seed: the command hash of build log v7
// (ninja >= 1.13). Reads are little-endian on every host, so the value is
// portable.
uint64_t RapidHash(const void* data, size_t len);
// The same with a caller's seed (rapidhash V1's "withSeed" form): content
// digests (scan/content_digest.h) chain it over blocks and run it with two seeds.
uint64_t RapidHashSeeded(const void* data, size_t len, uint64_t seed);

// 64-bit MurmurHash2 (variant 64A) with seed 0xDECAFBADDECAFBAD: the command
// hash of build logs v5/v6 (ninja <= 1.12). Only needed to interoperate with
// such logs; 8-byte blocks are read little-endian.
uint64_t MurmurHash64A(const void* data, size_t len);

}  // namespace ronin

#endif  // RONIN_BASE_HASH_H_
