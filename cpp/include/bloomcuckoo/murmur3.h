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
Hash128 MurmurHash3_x64_128(const void* key, size_t len, uint32_t seed);

// Writes the 16 bytes the reference writes to `out` (h1 LE, then h2 LE).
void MurmurHash3_x64_128_Bytes(const void* key, size_t len, uint32_t seed, uint8_t out[16]);

// MurmurHash3's 64-bit finalizer (fmix64): a bijection that mixes every input bit into every
// output bit. Used by x64_128 and, as a remixer of 64-bit hashes, by the binary fuse filter.
inline uint64_t MurmurHash3Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_MURMUR3_H_
