// MurmurHash3 x86_32 (x64_128 is inline in murmur3.h), written from the published algorithm
// (SMHasher, Austin Appleby, public domain). Blocks are read little-endian byte by byte, so the
// result is the reference's on every host, and unaligned keys are fine.
#include "bloomcuckoo/murmur3.h"

#include "bloomcuckoo/hashing.h"

namespace bloomcuckoo {
namespace {

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// The mix of a 32-bit word of key (a block's, or the tail's) before it is xored into h1.
inline uint32_t MixK1(uint32_t k1) { return Rotl32(k1 * 0xcc9e2d51u, 15) * 0x1b873593u; }

}  // namespace

uint32_t MurmurHash3_x86_32(const void* key, size_t len, uint32_t seed) {
  const uint8_t* data = static_cast<const uint8_t*>(key);
  const size_t nblocks = len / 4;
  uint32_t h1 = seed;

  for (size_t i = 0; i < nblocks; ++i) {
    h1 ^= MixK1(static_cast<uint32_t>(murmur3_internal::Load32(data + 4 * i)));
    h1 = Rotl32(h1, 13) * 5 + 0xe6546b64u;
  }

  const uint8_t* tail = data + 4 * nblocks;
  uint32_t k1 = 0;
  switch (len & 3) {
    case 3:
      k1 ^= static_cast<uint32_t>(tail[2]) << 16;
      [[fallthrough]];
    case 2:
      k1 ^= static_cast<uint32_t>(tail[1]) << 8;
      [[fallthrough]];
    case 1:
      k1 ^= tail[0];
      h1 ^= MixK1(k1);
  }

  // The reference mixes in the length as a 32-bit int, then finalizes with fmix32.
  h1 ^= static_cast<uint32_t>(len);
  return murmur3_internal::XorShiftMultiply<uint32_t>(h1, 16, 0x85ebca6bu, 13, 0xc2b2ae35u, 16);
}

void HashKeys(const KeyBatch& batch, size_t first, size_t n, uint32_t seed, Hash128* out) {
  const uint8_t* data = batch.data;
  const uint32_t* offsets = batch.offsets + first;
  for (size_t j = 0; j < n; ++j) {
    out[j] = murmur3_internal::X64_128(data + offsets[j], offsets[j + 1] - offsets[j], seed);
  }
}

void MurmurHash3_x64_128_Bytes(const void* key, size_t len, uint32_t seed, uint8_t out[16]) {
  const Hash128 h = MurmurHash3_x64_128(key, len, seed);
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(h.h1 >> (8 * i));
    out[8 + i] = static_cast<uint8_t>(h.h2 >> (8 * i));
  }
}

}  // namespace bloomcuckoo
