// MurmurHash64A (Austin Appleby's MurmurHash2, 64-bit version for 64-bit platforms; public
// domain), the hash RedisBloom's BF and CF filters use. Only the RedisBloom-compatible classes
// hash with it; every other filter uses MurmurHash3 (murmur3.h).
#ifndef BLOOMCUCKOO_MURMUR2_H_
#define BLOOMCUCKOO_MURMUR2_H_

#include <cstddef>
#include <cstdint>

namespace bloomcuckoo {

// 64-bit hash of `len` bytes at `key`, as the reference MurmurHash64A on a little-endian host
// (8-byte blocks read little-endian, so the result is the same on every host).
uint64_t MurmurHash64A(const void* key, size_t len, uint64_t seed);

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_MURMUR2_H_
