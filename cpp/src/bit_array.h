// internal: helpers shared by the Bloom family (bit twiddling over 64-bit words, the probe
// sequence of the classic and counting Bloom filters).
#ifndef BLOOMCUCKOO_SRC_BIT_ARRAY_H_
#define BLOOMCUCKOO_SRC_BIT_ARRAY_H_

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/status.h"
#include "byte_io.h"
#include "checks.h"

namespace bloomcuckoo {
namespace internal {

inline uint32_t PopCount64(uint64_t x) { return static_cast<uint32_t>(__builtin_popcountll(x)); }
inline uint32_t PopCount32(uint32_t x) { return static_cast<uint32_t>(__builtin_popcount(x)); }

// Number of 64-bit words holding `bits` bits.
inline uint64_t WordsForBits(uint64_t bits) { return bits / 64 + (bits % 64 != 0 ? 1 : 0); }

// Sets bit i of `words`; returns true when it was clear before.
inline bool SetBit(uint64_t* words, uint64_t i) {
  uint64_t& w = words[static_cast<size_t>(i >> 6)];
  const uint64_t mask = uint64_t{1} << (i & 63);
  const bool was_clear = (w & mask) == 0;
  w |= mask;
  return was_clear;
}

inline bool TestBit(const uint64_t* words, uint64_t i) {
  return (words[static_cast<size_t>(i >> 6)] >> (i & 63)) & 1;
}

// Calls fn(index) for the k probe positions of `h` in a table of m slots (m >= 1, k >= 1),
// stopping early when fn returns false. Returns false if it stopped early.
// Enhanced double hashing (Dillinger & Manolios, "Bloom filters in probabilistic verification",
// 2004): g_i = h1 + i*h2 + (i^3 - i)/6 in wrapping 64-bit arithmetic, computed incrementally,
// then mapped onto [0, m) by Reduce64 (multiply-shift, no modulo).
// For m < 2^32 the reduction is done with two 32x32->64 multiplications (MulHi64By32, the same
// value as Reduce64), which matters in wasm, where Reduce64 is four of them (no 128-bit product).
template <typename Fn>
inline bool ForEachProbe(Hash128 h, uint64_t m, uint32_t k, Fn&& fn) {
  uint64_t a = h.h1;
  uint64_t b = h.h2;
  const bool small = (m >> 32) == 0;
  for (uint32_t i = 0; i < k; ++i) {
    if (!fn(small ? MulHi64By32(a, m) : Reduce64(a, m))) return false;
    a += b;
    b += static_cast<uint64_t>(i) + 1;
  }
  return true;
}

// For visualisation: out[c] = the fraction of occupied slots among the slots of slice c, the
// `slots` being cut into `cells` equal slices (with cells > slots a slot covers several cells).
// occupied(i) tells whether slot i is in use.
template <typename Occupied>
inline void FillMapOf(uint64_t slots, uint32_t cells, float* out, Occupied&& occupied) {
  for (uint32_t c = 0; c < cells; ++c) {
    const uint64_t begin =
        static_cast<uint64_t>(static_cast<double>(slots) * c / static_cast<double>(cells));
    uint64_t end =
        static_cast<uint64_t>(static_cast<double>(slots) * (c + 1.0) / static_cast<double>(cells));
    if (end <= begin) end = begin + 1;
    if (end > slots) end = slots;
    uint64_t used = 0;
    for (uint64_t i = begin; i < end; ++i) used += occupied(i) ? 1 : 0;
    out[c] = end > begin
                 ? static_cast<float>(static_cast<double>(used) / static_cast<double>(end - begin))
                 : 0.0f;
  }
}

// ---- what the Bloom filters share (one place, not one copy per class) ----

// Set bits of n words (uint64_t or uint32_t).
template <typename W>
uint64_t CountSetBits(const W* w, size_t n) {
  uint64_t x = 0;
  for (size_t i = 0; i < n; ++i)
    x += static_cast<uint64_t>(__builtin_popcountll(static_cast<uint64_t>(w[i])));
  return x;
}
// a |= b / a &= b over n words (union / intersection of same-shaped filters).
template <typename W>
void OrWords(W* a, const W* b, size_t n) {
  for (size_t i = 0; i < n; ++i) a[i] |= b[i];
}
template <typename W>
void AndWords(W* a, const W* b, size_t n) {
  for (size_t i = 0; i < n; ++i) a[i] &= b[i];
}
// The key counts of a union: the sum, saturated (they only inform).
inline uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  const uint64_t sum = a + b;
  return sum < a ? ~uint64_t{0} : sum;
}
// Union (intersect = false) or intersection of two filters of class F (BloomFilter or
// BlockedBloomFilter, which befriend it) of the same shape: the words OR-ed or AND-ed, the set
// bits recounted, the key count summed (saturated) or the smaller one kept. Another shape:
// F::CheckSameShape's kInvalidArgument, and nothing changes.
template <typename F>
Status MergeSameShape(F& self, const F& other, bool intersect) {
  BLOOMCUCKOO_RETURN_IF_ERROR(self.CheckSameShape(other));
  if (intersect) {
    AndWords(self.words_.data(), other.words_.data(), self.words_.size());
    self.size_ = self.size_ < other.size_ ? self.size_ : other.size_;
  } else {
    OrWords(self.words_.data(), other.words_.data(), self.words_.size());
    self.size_ = SaturatingAdd(self.size_, other.size_);
  }
  self.RecountSetBits();
  return Status::Ok();
}

// The sizing record a classic, blocked or counting Bloom body keeps after its shape:
//   u64 capacity | f64 error_rate | u64 size
// capacity and error_rate are what the filter was sized for, both 0 when it was built from its
// shape directly (bits and hashes, blocks, counters and hashes); size is its key count.
struct BloomSizing {
  uint64_t capacity = 0;
  double error_rate = 0;
  uint64_t size = 0;

  template <typename F>
  static void Write(ByteWriter& w, const F& f) {
    w.U64(f.capacity());
    w.F64(f.error_rate());
    w.U64(f.size());
  }
  void Read(ByteReader& r) {
    capacity = r.U64();
    error_rate = r.F64();
    size = r.U64();
  }
  // One of the two forms: sized (capacity >= 1, error rate in (0, 1)) or direct (both 0).
  bool Valid() const { return capacity != 0 ? ValidErrorRate(error_rate) : error_rate == 0.0; }
};

// Swamidass & Baldi's estimate of the keys in a Bloom filter of m slots and k probes with x set:
// -(m / k) ln(1 - x / m) (a full filter is taken as m - 1/2 set, to stay finite).
inline double EstimatedKeys(uint64_t m, double k, uint64_t x) {
  if (m == 0 || x == 0) return 0.0;
  const double md = static_cast<double>(m);
  const double xd = x >= m ? md - 0.5 : static_cast<double>(x);
  return -(md / k) * std::log1p(-xd / md);
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_BIT_ARRAY_H_
