// SHA-256's compression function (FIPS 180-4, 6.2.2) over whole 64-byte
// blocks, in two forms: portable C++, and the x86 SHA extensions (SHA-NI:
// AMD since Zen, Intel since Ice Lake and Goldmont), several times faster
// and chosen at run time when the CPU has them. Sha256 (base/sha256.h) calls
// Sha256Blocks; the build cache hashes a key, an entry's checksum and
// every blob it stores or restores.
#ifndef RONIN_BASE_SHA256_BLOCKS_H_
#define RONIN_BASE_SHA256_BLOCKS_H_

#include <cstddef>
#include <cstdint>

namespace ronin {

using Sha256BlocksFunction = void (*)(uint32_t state[8], const uint8_t* data, size_t blocks);

void Sha256BlocksPortable(uint32_t state[8], const uint8_t* data, size_t blocks);

// The SHA-NI form, or null when this CPU (or this build's target) has none.
Sha256BlocksFunction Sha256BlocksShaNi();

// The fastest form this CPU runs.
void Sha256Blocks(uint32_t state[8], const uint8_t* data, size_t blocks);

}  // namespace ronin

#endif  // RONIN_BASE_SHA256_BLOCKS_H_
