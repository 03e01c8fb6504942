// BloomFilter: the classic Bloom filter, m bits and k probes per key (enhanced double hashing of
// one MurmurHash3_x64_128 per key), sized from (capacity, error_rate) or given (bits, hashes).
#ifndef BLOOMCUCKOO_BLOOM_FILTER_H_
#define BLOOMCUCKOO_BLOOM_FILTER_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/internal/filter_base.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

namespace internal {
template <typename F>
Status MergeSameShape(F& self, const F& other, bool intersect);

// BloomFilter's data (filter_base.h: moves reset it to these defaults).
struct BloomFields {
  Buffer<uint64_t> words_;
  uint64_t bits_ = 0;
  uint32_t hashes_ = 0;
  uint32_t seed_ = kDefaultSeed;
  uint64_t capacity_ = 0;
  double error_rate_ = 0;
  uint64_t size_ = 0;
  uint64_t set_bits_ = 0;
};
}  // namespace internal

class ScalableBloomFilter;

// Give exactly one of the two forms: (capacity, error_rate) or (bits, hashes).
struct BloomOptions {
  uint64_t capacity = 0;  // keys the filter is sized for (>= 1)
  double error_rate = 0;  // target false-positive rate at `capacity` keys, in (0, 1)
  uint64_t bits = 0;      // direct form: number of bits m (>= 1)
  uint32_t hashes = 0;    // direct form: probes per key k (1..64)
  uint32_t seed = kDefaultSeed;
};

class BloomFilter : public internal::FilterBase<BloomFilter, internal::BloomFields> {
 public:
  // The most probes a key may use.
  static constexpr uint32_t kMaxHashes = 64;

  // A default-constructed filter is un-initialised: Contains() is false, size() is 0, Add() does
  // nothing. Moves leave the source so; copies are deleted (filter_base.h).

  // The optimal shape for `capacity` keys at `error_rate`:
  //   bits = ceil(-capacity * ln(error_rate) / ln(2)^2), hashes = max(1, round(bits/capacity*ln
  //   2)).
  // kInvalidArgument for a bad capacity/error_rate (or an error_rate so small that more than
  // 64 hashes would be needed); kOutOfMemory when the bit count cannot be allocated.
  static Status OptimalShape(uint64_t capacity, double error_rate, uint64_t* bits,
                             uint32_t* hashes);

  // Validates `options` and allocates an empty filter. On failure *this is unchanged; the
  // message names the bad option. kOutOfMemory when the filter is too large to allocate.
  Status Init(const BloomOptions& options);

  // Inserts the key hashed as `h` (HashOf(key, len)). Returns true when at least
  // one bit changed, i.e. the key was certainly not in the filter before.
  bool Add(Hash128 h);
  // Hashes and inserts every key of `keys`; returns how many were certainly new.
  size_t AddBatch(const KeyBatch& keys);
  // True when the key may be present; false when it certainly is not.
  bool Contains(Hash128 h) const;
  // out[i] = 1 when key i may be present, 0 when it certainly is not. `out` holds keys.count.
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;

  // ORs `other` into this filter (the union of both key sets). Both must have the same bits,
  // hashes and seed, else kInvalidArgument and nothing changes. size() becomes the sum.
  Status Union(const BloomFilter& other);
  // ANDs `other` into this filter. The result contains every key in both sets (and may answer
  // true for some keys only in one). Same shape rules as Union. size() becomes the smaller size.
  Status Intersect(const BloomFilter& other);

  // Empties the filter, keeping its shape and seed.
  void Clear();

  // For visualisation: writes the key's hashes() bit indices, in probe order, to `out`.
  void Positions(Hash128 h, uint64_t* out) const;
  // For visualisation: out[c] = fraction of set bits in slice c of `cells` equal slices.
  void FillMap(uint32_t cells, float* out) const;

  // Estimated number of distinct keys from the fill (Swamidass & Baldi 2007):
  // -(m/k) * ln(1 - X/m), X = set bits. When every bit is set the estimate is unbounded; it is
  // then clamped to the value for X = m - 1/2, i.e. (m/k) * ln(2m), which is finite.
  double EstimatedSize() const;
  // False-positive rate at the current fill: (X/m)^k.
  double EstimatedErrorRate() const;

  uint64_t bits() const { return bits_; }
  uint32_t hashes() const { return hashes_; }
  // Number of bits that are 1.
  uint64_t set_bits() const { return set_bits_; }
  // X/m, in [0, 1].
  double fill_ratio() const;
  // The capacity it was sized for; 0 when built from (bits, hashes).
  uint64_t capacity() const { return capacity_; }
  // The target error rate it was sized for; 0 when built from (bits, hashes).
  double error_rate() const { return error_rate_; }
  // Number of Add calls (every key added, new or not) since Init/Clear.
  uint64_t size() const { return size_; }
  // Bytes of filter storage (whole 64-bit words).
  size_t byte_length() const { return words_.bytes(); }
  uint32_t seed() const { return seed_; }
  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kBloom;
  using KeyHashing = Murmur3Hashing;
  bool initialized() const { return bits_ != 0; }

 private:
  friend class ScalableBloomFilter;

  Status Allocate(uint64_t bits, uint32_t hashes, uint32_t seed, const char* too_large,
                  bool zeroed = true);
  template <typename F>
  friend Status internal::MergeSameShape(F& self, const F& other, bool intersect);
  Status CheckSameShape(const BloomFilter& other) const;
  void RecountSetBits();
  // The body without the frame (filter_base.h; ScalableBloomFilter stores its layers so).
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
  Status ReadBody(internal::ByteReader& r, uint32_t seed);
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BLOOM_FILTER_H_
