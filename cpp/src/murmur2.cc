// MurmurHash64A, written from the published algorithm (SMHasher, Austin Appleby, public domain).
#include "bloomcuckoo/murmur2.h"

namespace bloomcuckoo {

uint64_t MurmurHash64A(const void* key, size_t len, uint64_t seed) {
  constexpr uint64_t m = 0xc6a4a7935bd1e995ull;
  constexpr int r = 47;
  const uint8_t* data = static_cast<const uint8_t*>(key);
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * m);

  const size_t nblocks = len / 8;
  for (size_t i = 0; i < nblocks; ++i, data += 8) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; --b) k = (k << 8) | data[b];
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  const size_t tail = len & 7;
  if (tail != 0) {
    for (size_t b = tail; b-- > 0;) h ^= static_cast<uint64_t>(data[b]) << (8 * b);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

}  // namespace bloomcuckoo
