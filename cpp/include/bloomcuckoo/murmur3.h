// MurmurHash3 (Austin Appleby, public domain), bit-exact with the SMHasher reference.
#ifndef BLOOMCUCKOO_MURMUR3_H_
#define BLOOMCUCKOO_MURMUR3_H_

#include <cstddef>
#include <cstdint>

namespace bloomcuckoo {

// 32-bit hash of `len` bytes at `key`, as the reference MurmurHash3_x86_32.
uint32_t MurmurHash3_x86_32(const void* key, size_t len, uint32_t seed);

// 128-bit hash as the reference MurmurHash3_x64_128. The reference writes h1 then h2 as
// little-endian 64-bit words to its 16-byte `out`; here they are returned as values.
struct Hash128 {
  uint64_t h1;
  uint64_t h2;
};

// Writes the 16 bytes the reference writes to `out` (h1 LE, then h2 LE).
void MurmurHash3_x64_128_Bytes(const void* key, size_t len, uint32_t seed, uint8_t out[16]);

namespace murmur3_internal {

// The shape of MurmurHash3's finalizers (fmix32, fmix64): xor-shift by s1, multiply by m1,
// xor-shift by s2, multiply by m2, xor-shift by s3; a bijection on T.
template <typename T>
inline T XorShiftMultiply(T h, int s1, T m1, int s2, T m2, int s3) {
  h ^= h >> s1;
  h *= m1;
  h ^= h >> s2;
  h *= m2;
  return h ^ (h >> s3);
}

}  // namespace murmur3_internal

// MurmurHash3's 64-bit finalizer (fmix64): a bijection that mixes every input bit into every
// output bit. Used by x64_128 and, as a remixer of 64-bit hashes, by the binary fuse filter.
inline uint64_t MurmurHash3Fmix64(uint64_t k) {
  return murmur3_internal::XorShiftMultiply<uint64_t>(k, 33, 0xff51afd7ed558ccdull, 33,
                                                      0xc4ceb9fe1a85ec53ull, 33);
}

namespace murmur3_internal {

// Little-endian loads of exactly the bytes named (never past them), whatever the host's order.
inline uint64_t Load32(const uint8_t* p) {
  return static_cast<uint64_t>(p[0]) | (static_cast<uint64_t>(p[1]) << 8) |
         (static_cast<uint64_t>(p[2]) << 16) | (static_cast<uint64_t>(p[3]) << 24);
}
inline uint64_t Load64(const uint8_t* p) { return Load32(p) | (Load32(p + 4) << 32); }
// The n (0..8) bytes at p as a little-endian integer: at most two loads (overlapping when
// 4 < n < 8; the overlapping bytes land on the same bits) instead of a byte-by-byte switch.
inline uint64_t LoadTail(const uint8_t* p, size_t n) {
  if (n >= 4) return Load32(p) | (Load32(p + n - 4) << (8 * (n - 4)));
  if (n == 0) return 0;
  return static_cast<uint64_t>(p[0]) | (static_cast<uint64_t>(p[n >> 1]) << (8 * (n >> 1))) |
         (static_cast<uint64_t>(p[n - 1]) << (8 * (n - 1)));
}
inline uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline constexpr uint64_t kC1 = 0x87c37b91114253d5ull;
inline constexpr uint64_t kC2 = 0x4cf5ad432745937full;
// The mix of a 64-bit word of key into lane 1 (k1, xored into h1) and lane 2 (k2, into h2): the
// same for a block's words and the tail's.
inline uint64_t MixK1(uint64_t k1) { return Rotl64(k1 * kC1, 31) * kC2; }
inline uint64_t MixK2(uint64_t k2) { return Rotl64(k2 * kC2, 33) * kC1; }

// MurmurHash3_x64_128's body, inlined wherever it is called: into MurmurHash3_x64_128 and into
// HashKeys' loop (hashing.h), the one copy every batch runs.
__attribute__((always_inline)) inline Hash128 X64_128(const void* key, size_t len, uint32_t seed) {
  const uint8_t* data = static_cast<const uint8_t*>(key);
  const size_t nblocks = len / 16;
  uint64_t h1 = seed;
  uint64_t h2 = seed;
  for (size_t i = 0; i < nblocks; ++i) {
    h1 ^= MixK1(Load64(data + 16 * i));
    h1 = (Rotl64(h1, 27) + h2) * 5 + 0x52dce729u;
    h2 ^= MixK2(Load64(data + 16 * i + 8));
    h2 = (Rotl64(h2, 31) + h1) * 5 + 0x38495ab5u;
  }
  // The tail (len % 16 bytes): bytes 0..7 little-endian into k1, bytes 8..14 into k2; each is
  // mixed in when it holds at least one byte, as the reference's fall-through switch does.
  const uint8_t* tail = data + 16 * nblocks;
  const size_t rest = len & 15;
  if (rest > 8) h2 ^= MixK2(LoadTail(tail + 8, rest - 8));
  if (rest > 0) h1 ^= MixK1(rest >= 8 ? Load64(tail) : LoadTail(tail, rest));
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

}  // namespace murmur3_internal

// 128-bit hash as the reference MurmurHash3_x64_128. The reference writes h1 then h2 as
// little-endian 64-bit words to its 16-byte `out`; here they are returned as values. Inline:
// a call returning a struct through memory costs a measurable share of a short key's hash in wasm.
inline Hash128 MurmurHash3_x64_128(const void* key, size_t len, uint32_t seed) {
  return murmur3_internal::X64_128(key, len, seed);
}

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_MURMUR3_H_
