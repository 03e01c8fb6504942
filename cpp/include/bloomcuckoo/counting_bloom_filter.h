// CountingBloomFilter: a Bloom filter of 4-bit saturating counters (two per byte), so keys can
// be removed. Sized like BloomFilter (m counters, k probes, the same probe sequence).
#ifndef BLOOMCUCKOO_COUNTING_BLOOM_FILTER_H_
#define BLOOMCUCKOO_COUNTING_BLOOM_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/internal/filter_base.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

// Give exactly one of the two forms: (capacity, error_rate) or (counters, hashes).
struct CountingBloomOptions {
  uint64_t capacity = 0;  // keys the filter is sized for (>= 1)
  double error_rate = 0;  // target false-positive rate at `capacity` keys, in (0, 1)
  uint64_t counters = 0;  // direct form: number of 4-bit counters m (>= 1)
  uint32_t hashes = 0;    // direct form: probes per key k (1..64)
  uint32_t seed = kDefaultSeed;
  // The options by their JS names, in the order the JS class passes them (internal/declared.h).
  static constexpr auto Fields() {
    using O = CountingBloomOptions;
    return std::make_tuple(std::pair{"capacity", &O::capacity},
                           std::pair{"errorRate", &O::error_rate},
                           std::pair{"counters", &O::counters}, std::pair{"hashes", &O::hashes},
                           std::pair{"seed", &O::seed});
  }
};

namespace internal {
// CountingBloomFilter's data (filter_base.h: moves reset it to these defaults).
struct CountingBloomFields {
  Buffer<uint8_t> table_;  // counter i: byte i/2, low nibble when i is even
  uint64_t counters_ = 0;
  uint32_t hashes_ = 0;
  uint32_t seed_ = kDefaultSeed;
  uint64_t capacity_ = 0;
  double error_rate_ = 0;
  uint64_t size_ = 0;
  uint64_t nonzero_ = 0;
};
}  // namespace internal

class CountingBloomFilter
    : public internal::FilterBase<CountingBloomFilter, internal::CountingBloomFields> {
 public:
  // A counter that reached this value is saturated and never changes again.
  static constexpr uint32_t kMaxCount = 15;
  static constexpr uint32_t kMaxHashes = 64;

  // An un-initialised filter: Contains() is false, size() is 0, Add()/Remove() do nothing.
  // Moves leave the source so; copies are deleted (filter_base.h).
  CountingBloomFilter() = default;

  // Validates `options` (as BloomFilter: counters and hashes from capacity and error_rate, or
  // given) and allocates. On failure *this is unchanged; the message names the bad option.
  Status Init(const CountingBloomOptions& options);

  // Inserts the key hashed as `h`: increments its k counters (a counter at 15 stays 15).
  // Returns true when at least one counter went from 0 to 1, i.e. the key was certainly new.
  bool Add(Hash128 h);
  // Hashes and inserts every key; returns how many were certainly new.
  size_t AddBatch(const KeyBatch& keys);

  // Removes one occurrence of the key. If any of its counters is 0 the key is certainly absent:
  // returns false and changes nothing. Otherwise decrements each of its counters that is not
  // saturated and returns true.
  // Saturated counters (15) are never decremented: once a counter overflowed we no longer know
  // how many keys share it, and taking it to 0 too early would make a key still in the filter
  // disappear (a false negative). A saturated counter can only cost false positives.
  // Removing a key that was never added (a false positive) succeeds and can remove other keys:
  // only remove what you added.
  bool Remove(Hash128 h);
  // Hashes and removes every key; returns how many Remove calls returned true.
  size_t RemoveBatch(const KeyBatch& keys);

  // True when the key may be present; false when it certainly is not.
  bool Contains(Hash128 h) const;
  // out[i] = 1 when key i may be present, 0 when it certainly is not. `out` holds keys.count.
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;
  // The smallest of the key's counters: an upper bound on how many times it was added
  // (15 means "15 or more"), 0 when it is certainly absent.
  uint32_t Count(Hash128 h) const;

  // Empties the filter, keeping its shape and seed.
  void Clear();

  // For visualisation: writes the key's hashes() counter indices, in probe order, to `out`.
  void Positions(Hash128 h, uint64_t* out) const;
  // For visualisation: out[c] = fraction of non-zero counters in slice c of `cells` slices.
  void FillMap(uint32_t cells, float* out) const;

  // Estimated number of distinct keys from the nonzero counters X (Swamidass & Baldi):
  // -(m/k) * ln(1 - X/m); clamped to the value at X = m - 1/2 when every counter is nonzero.
  double EstimatedSize() const;
  // False-positive rate at the current fill: (X/m)^k.
  double EstimatedErrorRate() const;

  uint64_t counters() const { return counters_; }
  uint32_t hashes() const { return hashes_; }
  uint64_t nonzero_counters() const { return nonzero_; }
  // Counters stuck at 15 (computed by a scan of the table).
  uint64_t SaturatedCounters() const;
  // nonzero_counters() / counters(), in [0, 1].
  double fill_ratio() const;
  // The capacity it was sized for; 0 when built from (counters, hashes).
  uint64_t capacity() const { return capacity_; }
  // The target error rate it was sized for; 0 when built from (counters, hashes).
  double error_rate() const { return error_rate_; }
  // info() after size, byteLength and seed, in the order of the JS class's names
  // (internal/declared.h).
  auto InfoValues() const {
    return std::make_tuple(capacity(), error_rate(), counters(), hashes(), nonzero_counters(),
                           SaturatedCounters(), fill_ratio(), EstimatedSize(),
                           EstimatedErrorRate());
  }
  // Add calls minus successful Remove calls (never below 0).
  uint64_t size() const { return size_; }
  // Bytes of counter storage: ceil(counters / 2).
  size_t byte_length() const { return table_.bytes(); }
  uint32_t seed() const { return seed_; }
  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kCountingBloom;
  using KeyHashing = Murmur3Hashing;
  bool initialized() const { return counters_ != 0; }

 private:
  Status Allocate(uint64_t counters, uint32_t hashes, uint32_t seed, const char* too_large,
                  bool zeroed = true);
  uint32_t Get(uint64_t i) const;
  void Set(uint64_t i, uint32_t v);
  void Recount();
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_COUNTING_BLOOM_FILTER_H_
