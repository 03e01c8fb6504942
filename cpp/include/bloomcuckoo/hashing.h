// Key hashing in one place: every filter takes a Hash128 made here, one MurmurHash3_x64_128
// per key, and derives what it needs from those 128 bits.
#ifndef BLOOMCUCKOO_HASHING_H_
#define BLOOMCUCKOO_HASHING_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/murmur3.h"

namespace bloomcuckoo {

// The seed every filter uses unless told otherwise (stored in serialized bytes).
inline constexpr uint32_t kDefaultSeed = 0x9747b28cu;

// Hash function ids as stored in serialized bytes.
inline constexpr uint8_t kHashMurmur3x64_128 = 1;
// Hash id of the RedisBloom-compatible kinds: RedisBloom's MurmurHash64A scheme.
inline constexpr uint8_t kHashMurmur64A = 2;

// The key hash of our own filters (hash id kHashMurmur3x64_128): MurmurHash3_x64_128 of the key's
// bytes with the filter's seed.
inline Hash128 Murmur3KeyHash(const void* key, size_t len, uint32_t seed) {
  return MurmurHash3_x64_128(key, len, seed);
}

// A hash policy says how a class's keys become the hash its structure takes, and the id its
// serialized bytes carry. Every class names its own (`using KeyHashing = ...`) and offers
// `HashOf(key, len)`, so the bindings, the fuzz target and the tests hash a key through the class
// and never need to know which function it uses. The RedisBloom-compatible classes have theirs
// in their headers.
struct Murmur3Hashing {
  using Hash = Hash128;
  static constexpr uint8_t kId = kHashMurmur3x64_128;
  static Hash Of(const void* key, size_t len, uint32_t seed) {
    return Murmur3KeyHash(key, len, seed);
  }
};

// Many keys packed back to back: key i is data[offsets[i], offsets[i + 1]).
// `offsets` has count + 1 entries, non-decreasing. This is how keys cross the JS→wasm boundary.
struct KeyBatch {
  const uint8_t* data;
  const uint32_t* offsets;
  size_t count;

  const uint8_t* key(size_t i) const { return data + offsets[i]; }
  size_t length(size_t i) const { return offsets[i + 1] - offsets[i]; }
  // True when the count + 1 offsets never decrease and the last is at most `data_size`: every key
  // then lies inside the `data_size` bytes at `data`. One pass over the offsets.
  bool OffsetsWithin(size_t data_size) const {
    uint32_t prev = offsets[0];
    for (size_t i = 1; i <= count; ++i) {
      if (offsets[i] < prev) return false;
      prev = offsets[i];
    }
    return prev <= data_size;
  }
};

// out[j] = Murmur3KeyHash of key first + j of `batch` with `seed`, for j < n. Out of line: one
// copy serves every batch loop, with MurmurHash3 inlined into it (murmur3.cc), so a key's hash
// costs no call and no struct returned through memory (batches of 12-character keys measured
// 4-8% faster in wasm than with a call per key).
void HashKeys(const KeyBatch& batch, size_t first, size_t n, uint32_t seed, Hash128* out);

// Hashes every key of `batch` with `seed` and calls fn(i, hash) in order. Keys are hashed a
// group at a time before fn sees any of them: the hashing loop then has no memory access into
// the filter, and the group's probes are independent loads the CPU can overlap.
template <typename Fn>
inline void ForEachHash(const KeyBatch& batch, uint32_t seed, Fn&& fn) {
  constexpr size_t kGroup = 64;
  Hash128 hashes[kGroup];
  for (size_t base = 0; base < batch.count; base += kGroup) {
    const size_t n = batch.count - base < kGroup ? batch.count - base : kGroup;
    HashKeys(batch, base, n, seed, hashes);
    for (size_t j = 0; j < n; ++j) fn(base + j, hashes[j]);
  }
}

// Multiply-shift reduction of a 32-bit hash onto [0, n) without division (Lemire).
inline uint32_t Reduce32(uint32_t hash, uint32_t n) {
  return static_cast<uint32_t>((static_cast<uint64_t>(hash) * n) >> 32);
}
// The high 64 bits of the 128-bit product a * b, exactly. wasm32 has no 64x64->128 multiply
// (unsigned __int128 becomes a call to __multi3), so there it is built from 32-bit halves.
inline uint64_t MulHi64(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#else
  const uint64_t a_lo = a & 0xffffffffu;
  const uint64_t a_hi = a >> 32;
  const uint64_t b_lo = b & 0xffffffffu;
  const uint64_t b_hi = b >> 32;
  const uint64_t hi_lo = a_hi * b_lo;
  // (a_lo*b_lo >> 32) + low half of hi_lo + a_lo*b_hi <= 2^64 - 1: no overflow.
  const uint64_t cross = ((a_lo * b_lo) >> 32) + (hi_lo & 0xffffffffu) + a_lo * b_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}
// The same for b < 2^32, with two 32x32->64 multiplications.
inline uint64_t MulHi64By32(uint64_t a, uint64_t b) {
  return ((a >> 32) * b + (((a & 0xffffffffu) * b) >> 32)) >> 32;
}

// 64-bit variant: maps a 64-bit hash onto [0, n), as floor(hash * n / 2^64).
inline uint64_t Reduce64(uint64_t hash, uint64_t n) { return MulHi64(hash, n); }

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_HASHING_H_
