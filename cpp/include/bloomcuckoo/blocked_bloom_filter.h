// BlockedBloomFilter: the split-block Bloom filter of the Apache Parquet spec. The filter is an
// array of 256-bit blocks, each eight 32-bit words; a key picks one block and sets one bit in
// each of its eight words, so an insert or a lookup touches one 32-byte block (half a cache
// line) and the eight bit tests are one SIMD operation.
#ifndef BLOOMCUCKOO_BLOCKED_BLOOM_FILTER_H_
#define BLOOMCUCKOO_BLOCKED_BLOOM_FILTER_H_

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
}  // namespace internal

// Give exactly one of the two forms: (capacity, error_rate) or blocks.
struct BlockedBloomOptions {
  uint64_t capacity = 0;  // keys the filter is sized for (>= 1)
  double error_rate = 0;  // target false-positive rate at `capacity` keys, in (0, 1)
  uint64_t blocks = 0;    // direct form: number of 256-bit blocks (1 .. 2^32 - 1)
  uint32_t seed = kDefaultSeed;
};

namespace internal {
// BlockedBloomFilter's data (filter_base.h: moves reset it to these defaults).
struct BlockedBloomFields {
  Buffer<uint32_t> words_;  // blocks_ * 8 words, block b at words_[8 * b]
  uint64_t blocks_ = 0;
  uint32_t seed_ = kDefaultSeed;
  uint64_t capacity_ = 0;
  double error_rate_ = 0;
  uint64_t size_ = 0;
  uint64_t set_bits_ = 0;
};
}  // namespace internal

class BlockedBloomFilter
    : public internal::FilterBase<BlockedBloomFilter, internal::BlockedBloomFields> {
 public:
  static constexpr uint32_t kWordsPerBlock = 8;
  static constexpr uint32_t kBitsPerBlock = 256;
  // Bits set per key (one per word of its block).
  static constexpr uint32_t kHashesPerKey = 8;
  static constexpr uint64_t kMaxBlocks = 0xFFFFFFFFu;

  // An un-initialised filter: Contains() is false, size() is 0, Add() does nothing. Moves leave
  // the source so; copies are deleted (filter_base.h).
  BlockedBloomFilter() = default;

  // The false-positive rate of a split-block filter holding on average `keys_per_block` keys
  // per block (keys land in blocks as a Poisson process):
  //   FPR = sum_j Pois(j; lambda) * (1 - (1 - 1/32)^j)^8.
  static double SplitBlockFpr(double keys_per_block);
  // The smallest block count whose SplitBlockFpr(capacity / blocks) <= error_rate.
  // kInvalidArgument for a bad capacity/error_rate; kOutOfMemory when too large to allocate.
  static Status BlocksFor(uint64_t capacity, double error_rate, uint64_t* blocks);

  // Validates `options` and allocates an empty filter. On failure *this is unchanged; the
  // message names the bad option.
  Status Init(const BlockedBloomOptions& options);

  // Add, AddBatch, Contains, ContainsBatch, Clear and FillMap keep BloomFilter's contracts
  // (bloom_filter.h); a key's bits are its 8 bits in one block.
  bool Add(Hash128 h);
  size_t AddBatch(const KeyBatch& keys);
  bool Contains(Hash128 h) const;
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;
  void Clear();
  void FillMap(uint32_t cells, float* out) const;
  // For visualisation: writes the key's 8 bit indices (block * 256 + word * 32 + bit) to `out`.
  void Positions(Hash128 h, uint64_t* out) const;

  // ORs / ANDs `other` into this filter. Both must have the same block count and seed, else
  // kInvalidArgument and nothing changes. size() becomes the sum (union) / the smaller (intersect).
  Status Union(const BlockedBloomFilter& other);
  Status Intersect(const BlockedBloomFilter& other);

  // Estimated number of distinct keys from the fill. Each key sets exactly one bit in every
  // "lane" (word w of all blocks: 32 * blocks bits), so the lanes are 1-hash Bloom filters and
  // the classic estimate applies with m = 256 * blocks, k = 8: -(m/8) * ln(1 - X/m).
  // When every bit is set it is clamped to the value at X = m - 1/2.
  double EstimatedSize() const;
  // False-positive rate at the current fill, exactly for this filter's contents: the mean over
  // blocks of the product over its 8 words of (set bits in the word / 32).
  double EstimatedErrorRate() const;

  uint64_t blocks() const { return blocks_; }
  // Bits of filter storage (256 per block).
  uint64_t bits() const { return blocks_ * kBitsPerBlock; }
  uint64_t set_bits() const { return set_bits_; }
  // set_bits() / bits(), in [0, 1].
  double fill_ratio() const;
  // The capacity it was sized for; 0 when built from a block count.
  uint64_t capacity() const { return capacity_; }
  // The target error rate it was sized for; 0 when built from a block count.
  double error_rate() const { return error_rate_; }
  // Number of Add calls (every key added, new or not) since Init/Clear.
  uint64_t size() const { return size_; }
  size_t byte_length() const { return words_.bytes(); }
  uint32_t seed() const { return seed_; }
  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kBlockedBloom;
  using KeyHashing = Murmur3Hashing;
  bool initialized() const { return blocks_ != 0; }

 private:
  Status Allocate(uint64_t blocks, uint32_t seed, const char* too_large, bool zeroed = true);
  template <typename F>
  friend Status internal::MergeSameShape(F& self, const F& other, bool intersect);
  Status CheckSameShape(const BlockedBloomFilter& other) const;
  void RecountSetBits();
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BLOCKED_BLOOM_FILTER_H_
