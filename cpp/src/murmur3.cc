// MurmurHash3 x86_32 and x64_128, written from the published algorithm (SMHasher,
// Austin Appleby, public domain). Blocks are read little-endian byte by byte, so the result is
// the reference's on every host, and unaligned keys are fine.
#include "bloomcuckoo/murmur3.h"

namespace bloomcuckoo {
namespace {

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
inline uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint32_t Load32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
inline uint64_t Load64(const uint8_t* p) {
  return static_cast<uint64_t>(Load32(p)) | (static_cast<uint64_t>(Load32(p + 4)) << 32);
}

inline uint32_t Fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

}  // namespace

uint32_t MurmurHash3_x86_32(const void* key, size_t len, uint32_t seed) {
  const uint8_t* data = static_cast<const uint8_t*>(key);
  const size_t nblocks = len / 4;
  constexpr uint32_t c1 = 0xcc9e2d51u;
  constexpr uint32_t c2 = 0x1b873593u;
  uint32_t h1 = seed;

  for (size_t i = 0; i < nblocks; ++i) {
    uint32_t k1 = Load32(data + 4 * i);
    k1 *= c1;
    k1 = Rotl32(k1, 15);
    k1 *= c2;
    h1 ^= k1;
    h1 = Rotl32(h1, 13);
    h1 = h1 * 5 + 0xe6546b64u;
  }

  const uint8_t* tail = data + 4 * nblocks;
  uint32_t k1 = 0;
  switch (len & 3) {
    case 3: k1 ^= static_cast<uint32_t>(tail[2]) << 16; [[fallthrough]];
    case 2: k1 ^= static_cast<uint32_t>(tail[1]) << 8; [[fallthrough]];
    case 1:
      k1 ^= tail[0];
      k1 *= c1;
      k1 = Rotl32(k1, 15);
      k1 *= c2;
      h1 ^= k1;
  }

  // The reference mixes in the length as a 32-bit int.
  h1 ^= static_cast<uint32_t>(len);
  return Fmix32(h1);
}

Hash128 MurmurHash3_x64_128(const void* key, size_t len, uint32_t seed) {
  const uint8_t* data = static_cast<const uint8_t*>(key);
  const size_t nblocks = len / 16;
  uint64_t h1 = seed;
  uint64_t h2 = seed;
  constexpr uint64_t c1 = 0x87c37b91114253d5ull;
  constexpr uint64_t c2 = 0x4cf5ad432745937full;

  for (size_t i = 0; i < nblocks; ++i) {
    uint64_t k1 = Load64(data + 16 * i);
    uint64_t k2 = Load64(data + 16 * i + 8);
    k1 *= c1; k1 = Rotl64(k1, 31); k1 *= c2; h1 ^= k1;
    h1 = Rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729u;
    k2 *= c2; k2 = Rotl64(k2, 33); k2 *= c1; h2 ^= k2;
    h2 = Rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5u;
  }

  const uint8_t* tail = data + 16 * nblocks;
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  switch (len & 15) {
    case 15: k2 ^= static_cast<uint64_t>(tail[14]) << 48; [[fallthrough]];
    case 14: k2 ^= static_cast<uint64_t>(tail[13]) << 40; [[fallthrough]];
    case 13: k2 ^= static_cast<uint64_t>(tail[12]) << 32; [[fallthrough]];
    case 12: k2 ^= static_cast<uint64_t>(tail[11]) << 24; [[fallthrough]];
    case 11: k2 ^= static_cast<uint64_t>(tail[10]) << 16; [[fallthrough]];
    case 10: k2 ^= static_cast<uint64_t>(tail[9]) << 8; [[fallthrough]];
    case 9:
      k2 ^= static_cast<uint64_t>(tail[8]);
      k2 *= c2; k2 = Rotl64(k2, 33); k2 *= c1; h2 ^= k2;
      [[fallthrough]];
    case 8: k1 ^= static_cast<uint64_t>(tail[7]) << 56; [[fallthrough]];
    case 7: k1 ^= static_cast<uint64_t>(tail[6]) << 48; [[fallthrough]];
    case 6: k1 ^= static_cast<uint64_t>(tail[5]) << 40; [[fallthrough]];
    case 5: k1 ^= static_cast<uint64_t>(tail[4]) << 32; [[fallthrough]];
    case 4: k1 ^= static_cast<uint64_t>(tail[3]) << 24; [[fallthrough]];
    case 3: k1 ^= static_cast<uint64_t>(tail[2]) << 16; [[fallthrough]];
    case 2: k1 ^= static_cast<uint64_t>(tail[1]) << 8; [[fallthrough]];
    case 1:
      k1 ^= static_cast<uint64_t>(tail[0]);
      k1 *= c1; k1 = Rotl64(k1, 31); k1 *= c2; h1 ^= k1;
  }

  // The reference mixes in the length as a 32-bit int, widened to 64 bits.
  const uint64_t length = static_cast<uint32_t>(len);
  h1 ^= length;
  h2 ^= length;
  h1 += h2;
  h2 += h1;
  h1 = MurmurHash3Fmix64(h1);
  h2 = MurmurHash3Fmix64(h2);
  h1 += h2;
  h2 += h1;
  return Hash128{h1, h2};
}

void MurmurHash3_x64_128_Bytes(const void* key, size_t len, uint32_t seed, uint8_t out[16]) {
  const Hash128 h = MurmurHash3_x64_128(key, len, seed);
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(h.h1 >> (8 * i));
    out[8 + i] = static_cast<uint8_t>(h.h2 >> (8 * i));
  }
}

}  // namespace bloomcuckoo
