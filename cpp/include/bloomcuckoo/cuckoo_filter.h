// CuckooFilter: a cuckoo filter (Fan, Andersen, Kaminsky, Mitzenmacher, "Cuckoo Filter:
// Practically Better Than Bloom", CoNEXT 2014) with partial-key cuckoo hashing, deletions and
// counting, that grows by adding sub-filters the way RedisBloom's CF.* commands do (bucketSize,
// maxIterations, expansion, at most 32 sub-filters).
//
// How a key is placed. From the key's Hash128 {h1, h2}:
//  - fingerprint fp = 1 + Reduce32(high 32 bits of h2, 2^f - 1), in 1..2^f-1 (0 means empty).
//    The multiply-shift reduction of 32 hash bits onto 2^f - 1 values maps every fp to
//    floor or ceil of 2^32 / (2^f - 1) hash values, a relative bias below 2^f / 2^32 (1.5e-5 at
//    f = 16), so no value is favoured in any way that matters; fp uses none of the index bits.
//  - in a sub-filter of n buckets (n a power of two, mask = n - 1): i1 = h1 & mask and
//    i2 = i1 XOR ((H(fp) | 1) & mask) with H(fp) = x ^ (x >> 32), x = fp * 0x9E3779B97F4A7C15
//    (a fixed multiplicative mix). The XOR makes i1 and i2 each other's alternate in every
//    sub-filter (all sizes are powers of two); forcing the offset odd makes i2 != i1 whenever
//    n >= 2, so a key always has two distinct buckets. Each sub-filter masks the same hash.
//
// Insertion: an empty slot in the key's two buckets of every sub-filter (oldest first); else
// kicks in the newest sub-filter: swap fp with a victim slot (chosen by a xorshift generator
// seeded from the key's hash, the filter seed and items_inserted(), so results are identical
// natively, in wasm and after a serialize round trip), move the victim to its alternate bucket,
// at most max_iterations times. If that fails, every kick is rolled back (nothing stored is ever
// lost) and, when growth is allowed, a new sub-filter of expansion^i times the first one's
// buckets is added (i = its index) and fp goes there; otherwise Add returns false and the filter
// is exactly as before.
//
// Sizing: the first sub-filter has the smallest power of two n of buckets with
// capacity <= n * b * target_load(b, n), so that `capacity` distinct keys fit without growing.
// The targets are the loads this implementation reliably reaches before its first failed insert
// (500 kicks; measured over 1000 random key sets per size, less a margin). From 2^11 buckets on
// they are the paper's: b = 2: 84%, b = 4: 95%, b = 8: 98%, and b = 1: 35% (the paper's 40% is not
// reached reliably with partial-key offsets). Smaller tables vary
// more between key sets and get lower targets (b = 4: 60% at 4 buckets rising to 94.5% at 1024;
// the table is in cuckoo_filter.cc). b = 1 requires 12+ bit fingerprints: with 8 bits, large
// tables fail much earlier (three keys sharing a fingerprint and a bucket pair cannot all be
// stored: about 30% load at 2^12+ buckets), so Init refuses that shape.
//
// Fingerprint width: when fingerprint_bits is 0 it is the smallest of 8, 12, 16 with
// 2 * b / 2^f <= error_rate (the paper's bound on the false-positive rate of a full filter),
// and at least 12 when b = 1.
//
// Two known weaknesses of cuckoo filters (documented for users too):
//  - a key can be stored at most 2 * b times per sub-filter: its copies fill its two buckets, and
//    the next Add of the same key cannot kick them anywhere else. Without growth that Add returns
//    false (after max_iterations kicks, rolled back); with growth it opens a new sub-filter, so
//    repeated duplicates use up the 32 sub-filters. Use AddUnique when a set is meant.
//  - Remove of a key that was never added may delete the fingerprint of another key that shares
//    a bucket and fingerprint with it, which then becomes a false negative. Only remove keys
//    that you added (and as many times as you added them).
#ifndef BLOOMCUCKOO_CUCKOO_FILTER_H_
#define BLOOMCUCKOO_CUCKOO_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/internal/filter_base.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

namespace internal {
struct CuckooStorage;
}  // namespace internal

struct CuckooOptions {
  // Number of distinct keys the first sub-filter must hold without growing (>= 1).
  uint64_t capacity = 0;
  // Target false-positive rate in (0, 1); 0 means 0.01. Only chooses fingerprint_bits when that
  // is 0 (error_rate below 2 * bucket_size / 65536 is then invalid); otherwise informational.
  double error_rate = 0;
  // 8, 12 or 16 bits per fingerprint (12 or 16 when bucket_size is 1); 0 chooses from error_rate.
  uint32_t fingerprint_bits = 0;
  // Slots per bucket: 1, 2, 4 or 8.
  uint32_t bucket_size = 4;
  // Kicks allowed per insertion, 1..65535.
  uint32_t max_iterations = 500;
  // Growth factor of each new sub-filter: 0 = never grow (Add returns false when full); else
  // rounded up to a power of two, at most 65536.
  uint32_t expansion = 1;
  // Hash seed (stored in serialized bytes).
  uint32_t seed = kDefaultSeed;
};

namespace internal {
// CuckooFilter's data (filter_base.h: moves reset it to these defaults). CuckooStorage is
// complete only in cuckoo_filter.cc, where the moves and the destructor are defined.
struct CuckooFields {
  std::unique_ptr<CuckooStorage> storage_;
  uint64_t capacity_ = 0;
  double error_rate_ = 0;
  uint32_t fingerprint_bits_ = 0;
  uint32_t bucket_size_ = 0;
  uint32_t max_iterations_ = 0;
  uint32_t expansion_ = 0;
  uint32_t seed_ = kDefaultSeed;
  uint32_t num_filters_ = 0;
  uint64_t items_inserted_ = 0;
  uint64_t items_deleted_ = 0;
  uint64_t last_kicks_ = 0;
};
}  // namespace internal

class CuckooFilter : public internal::FilterBase<CuckooFilter, internal::CuckooFields> {
 public:
  static constexpr uint32_t kMaxFilters = 32;
  static constexpr uint32_t kMaxIterationsLimit = 65535;
  static constexpr uint32_t kMaxExpansion = 1u << 16;
  static constexpr double kDefaultErrorRate = 0.01;

  // An empty, un-initialised filter: Contains is false, Add is false, size() is 0. The moves are
  // the defaulted ones (filter_base.h: they leave the source so), declared here to be defined
  // where CuckooStorage is complete; copies are deleted.
  CuckooFilter();
  ~CuckooFilter();
  CuckooFilter(CuckooFilter&& other) noexcept;
  CuckooFilter& operator=(CuckooFilter&& other) noexcept;

  // Validates every option (kInvalidArgument naming it: capacity, errorRate, fingerprintBits,
  // bucketSize, maxIterations, expansion) and allocates the first sub-filter (kOutOfMemory if
  // too large). On failure *this is unchanged.
  Status Init(const CuckooOptions& options);

  // Inserts one fingerprint copy of the key. True if stored; false if the filter is full and may
  // not grow (or 32 sub-filters exist, or the new one cannot be allocated): then nothing changed.
  // Duplicates are stored again (see the header comment on 2 * b copies).
  bool Add(Hash128 h);
  // False if Contains(h) (nothing changes, including when that is a false positive), else Add(h).
  bool AddUnique(Hash128 h);
  // Removes one copy of the key's fingerprint from one of its two buckets, newest sub-filter
  // first. False if there is none. Only remove keys that were added.
  bool Remove(Hash128 h);
  // Moves fingerprints of newer sub-filters into free slots of older ones (a fingerprint's two
  // buckets in an older sub-filter follow from its bucket index, as every size is a power of two
  // and sizes never shrink), then drops the newest sub-filters left empty: a filter that grew and
  // then shrank gets its memory back, and lookups visit fewer sub-filters. The false-positive
  // rate follows the fingerprints per bucket: unchanged with expansion 1, slightly higher with
  // expansion > 1 (older sub-filters are smaller). Never loses a fingerprint. Unlike RedisBloom,
  // Remove never compacts by itself (call this when it suits you).
  void Compact();
  // True if the key may be present; false means it is definitely absent.
  bool Contains(Hash128 h) const;
  // Number of copies of the key's fingerprint in its buckets across all sub-filters: at least the
  // number of times the key was added and not removed (more on fingerprint collisions).
  uint32_t Count(Hash128 h) const;

  // Hashes each key with seed() and Adds it. results (nullable, batch.count bytes): 1 added,
  // 0 full. Returns the number added.
  size_t AddBatch(const KeyBatch& batch, uint8_t* results);
  // out[i] (batch.count bytes) = 1 if key i may be present, 0 if definitely absent.
  void ContainsBatch(const KeyBatch& batch, uint8_t* out) const;

  // Back to one empty sub-filter of the original shape; counts to zero; options kept.
  void Clear();

  // For visualisation: the key's fingerprint, and its two bucket indices in every sub-filter
  // (buckets[2k], buckets[2k + 1] for sub-filter k; filters() pairs). Returns the fingerprint.
  uint32_t Locate(Hash128 h, uint64_t* buckets) const;
  // For visualisation: out[c] = fraction of occupied slots in slice c of `cells` equal slices of
  // all slots (sub-filters one after another, oldest first).
  void FillMap(uint32_t cells, float* out) const;

  // items_inserted() - items_deleted(): the fingerprints currently stored.
  uint64_t size() const { return items_inserted_ - items_deleted_; }
  // Occupied slots / total slots over all sub-filters (0 when un-initialised).
  double LoadFactor() const;
  // Bytes of fingerprint storage over all sub-filters (the serialized payloads).
  size_t byte_length() const;
  // Every heap byte the filter holds: its sub-filters, its bookkeeping and the kick-chain scratch
  // (allocated on the first kick, so reading bytes allocates only what they describe).
  size_t allocated_bytes() const;
  // Buckets over all sub-filters.
  uint64_t buckets() const;
  // Buckets of sub-filter i (0 if i >= filters()).
  uint64_t sub_filter_buckets(uint32_t i) const;
  // Fingerprints stored in sub-filter i (0 if i >= filters()).
  uint64_t sub_filter_items(uint32_t i) const;
  // The false-positive rate expected at the current fill: 1 - prod over sub-filters k of
  // (1 - 1/(2^f - 1))^(2 * b * load_k). At most about 2 * b * load / 2^f per sub-filter.
  double EstimatedFpr() const;
  // Number of sub-filters (0 when un-initialised).
  uint32_t filters() const { return num_filters_; }
  uint64_t items_inserted() const { return items_inserted_; }
  uint64_t items_deleted() const { return items_deleted_; }
  uint32_t bucket_size() const { return bucket_size_; }
  uint32_t fingerprint_bits() const { return fingerprint_bits_; }
  // The effective expansion (0 or a power of two).
  uint32_t expansion() const { return expansion_; }
  uint32_t max_iterations() const { return max_iterations_; }
  uint64_t capacity() const { return capacity_; }
  // The effective error rate option (0.01 when 0 was given).
  double error_rate() const { return error_rate_; }
  uint32_t seed() const { return seed_; }
  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kCuckoo;
  using KeyHashing = Murmur3Hashing;
  // Kicks used by the last Add/AddUnique (including rolled-back ones); 0 if it found a slot.
  uint64_t last_kicks() const { return last_kicks_; }
  bool initialized() const { return num_filters_ != 0; }

  // Body of the frame (kind kCuckoo), little-endian, field by field:
  //   u64 capacity | f64 error_rate | u32 fingerprint_bits | u32 bucket_size |
  //   u32 max_iterations | u32 expansion (effective: 0 or a power of two) | u64 items_inserted |
  //   u64 items_deleted | u32 num_filters, then per sub-filter k:
  //   u64 num_buckets (= first * expansion^k, first from capacity and bucket_size) |
  //   u64 payload_bytes (= ceil(num_buckets * b * f / 8)) | payload (the packed slot bit stream).
  // Deserialize rejects (kCorruptData) any parameter out of range, a sub-filter size that does not
  // follow from the options, nonzero padding bits, trailing bytes, and an item count
  // (inserted - deleted) that differs from the number of nonzero slots. (Serialize and
  // Deserialize: filter_base.h.)

  // Buckets of the first sub-filter for (capacity, bucket_size); kOutOfMemory if absurd.
  static Status FirstSubFilterBuckets(uint64_t capacity, uint32_t bucket_size, uint64_t* buckets);
  // The first sub-filter Init makes for these options, without allocating: its buckets, the
  // fingerprint width it chooses (fingerprint_bits 0: the narrowest that meets errorRate) and
  // its bytes. Init checks these first, then maxIterations and expansion, which do not shape it.
  static Status OptimalShape(const CuckooOptions& options, uint64_t* buckets,
                             uint32_t* fingerprint_bits, uint64_t* bytes);

 private:
  struct Lookup {
    uint32_t fp;
    uint64_t offset;  // H(fp) | 1, masked per sub-filter
  };
  Lookup MakeLookup(Hash128 h) const;
  bool KickInsert(uint32_t table, uint64_t i1, uint64_t i2, uint32_t fp, Hash128 h);
  bool Grow(Lookup lk, Hash128 h);
  // ReadBody's two parts (cuckoo_filter.cc).
  Status ReadParameters(internal::ByteReader& r, uint32_t* filters);
  Status ReadSubFilter(internal::ByteReader& r, uint32_t k, uint64_t* first);
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_CUCKOO_FILTER_H_
