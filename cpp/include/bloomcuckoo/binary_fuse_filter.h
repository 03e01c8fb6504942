// BinaryFuseFilter: a static set, built once from all its keys: the 3-wise binary fuse filter of
// Graf & Lemire, "Binary Fuse Filters: Fast and Smaller Than Xor Filters" (ACM JEA 27, 2022),
// with 8- or 16-bit fingerprints (false-positive rate ~2^-8 or ~2^-16, about 9.04 or 18.09 bits
// per key at 10^6 keys; more at small n).
//
// Each key hash x (64 bits: h1 of the key's MurmurHash3_x64_128) is remixed with a construction
// seed into h = fmix64(x + construction_seed). The array of array_length = (segment_count + 2) *
// segment_length fingerprints is cut into segments; the key's three slots are one in each of
// three consecutive segments: p0 = mulhi(h, segment_count * segment_length),
// p1 = (p0 + segment_length) ^ ((h >> 18) & (segment_length - 1)),
// p2 = (p0 + 2 * segment_length) ^ (h & (segment_length - 1)); its fingerprint is the low bits of
// h ^ (h >> 32). A key is reported present when F[p0] ^ F[p1] ^ F[p2] == fingerprint.
//
// Construction peels the 3-hypergraph (slots = vertices, keys = edges): slots touched by one key
// are removed repeatedly (each slot keeps a count and the xor of its keys' hashes, so the lone
// key is known without lists), then fingerprints are assigned in reverse peeling order. A peel
// that gets stuck is retried with the next construction seed of a fixed sequence derived from
// the user seed, at most kMaxAttempts times; a stuck peel is also how duplicate key hashes are
// noticed (they can never be peeled): the hashes are then sorted and deduplicated once.
//
// Peak temporary memory during Build/BuildFromHashes (besides the filter itself), per input key:
//   17 + 13 * array_length / n bytes = about 31.7 bytes/key at n >= 10^6 (array_length/n ~1.13),
//   about 34 bytes/key at n = 10^4; PeakBuildBytes(n) gives the exact figure for n input keys.
// (8 per key: the key hashes; 8 + 1 per key: remixed hashes, reused as the peeling order;
//  8 + 1 + 4 per slot: xor of hashes, count, and the slot stack.)
#ifndef BLOOMCUCKOO_BINARY_FUSE_FILTER_H_
#define BLOOMCUCKOO_BINARY_FUSE_FILTER_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/internal/filter_base.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

struct BinaryFuseOptions {
  uint32_t fingerprint_bits = 8;  // 8 or 16
  uint32_t seed = kDefaultSeed;   // key hashing seed; construction seeds derive from it
};

namespace internal {
// BinaryFuseFilter's data (filter_base.h: moves reset it to these defaults).
struct BinaryFuseFields {
  // Exactly one of these holds the array_length_ fingerprints (per fingerprint_bits_).
  Buffer<uint8_t> fp8_;
  Buffer<uint16_t> fp16_;
  uint64_t size_ = 0;
  uint64_t construction_seed_ = 0;
  uint32_t fingerprint_bits_ = 8;
  uint32_t seed_ = kDefaultSeed;
  uint32_t segment_length_ = 0;
  uint32_t segment_count_ = 0;
  uint32_t array_length_ = 0;
  uint64_t segment_count_length_ = 0;  // segment_count_ * segment_length_
};
}  // namespace internal

class BinaryFuseFilter : public internal::FilterBase<BinaryFuseFilter, internal::BinaryFuseFields> {
 public:
  // Peel attempts (construction seeds) per Build before giving up.
  static constexpr uint32_t kMaxAttempts = 100;
  // The largest segment length any layout uses (and Deserialize accepts), from the paper's
  // implementation (2^18).
  static constexpr uint32_t kMaxSegmentLength = uint32_t{1} << 18;

  // An empty filter (8-bit, default seed): Contains() is false, size() is 0. Moves leave the
  // source so; copies are deleted (filter_base.h).
  BinaryFuseFilter() = default;

  // Builds the filter from every key of `keys` (hashed with Murmur3KeyHash(key, len,
  // options.seed)). Duplicate keys are fine; size() counts distinct key hashes. Deterministic for a
  // given seed and key set (independent of key order and of repeats). kInvalidArgument for bad
  // options
  // ("fingerprintBits must be 8 or 16") or when no construction seed works within
  // kMaxAttempts; kOutOfMemory when it cannot allocate. On failure *this is unchanged.
  Status Build(const KeyBatch& keys, const BinaryFuseOptions& options);
  // Same from n precomputed 64-bit key hashes (Build uses Murmur3KeyHash(...).h1). `hashes` is only
  // read, never kept; it may be null when n == 0.
  Status BuildFromHashes(const uint64_t* hashes, size_t n, const BinaryFuseOptions& options);
  // Same, building in `hashes` itself instead of a copy: 8 bytes per key less at the peak
  // (PeakBuildBytes(n, /*in_place=*/true)). The hashes may be reordered and deduplicated: they
  // are the build's scratch, not a key list, once this returns.
  Status BuildFromHashesInPlace(uint64_t* hashes, size_t n, const BinaryFuseOptions& options);

  // True when the key may be present; false when it certainly is not. Uses h.h1 only.
  bool Contains(Hash128 h) const { return ContainsHash64(h.h1); }
  // The same for a 64-bit key hash as given to BuildFromHashes.
  bool ContainsHash64(uint64_t key_hash) const;
  // out[i] = 1 when key i may be present, 0 when it certainly is not. `out` holds keys.count.
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;

  // Makes this the empty filter (contains nothing), keeping fingerprint_bits and seed.
  void Clear();

  // Number of distinct key hashes the filter was built from.
  uint64_t size() const { return size_; }
  // Bytes of the fingerprint array.
  size_t byte_length() const {
    return static_cast<size_t>(array_length_) * (fingerprint_bits_ / 8);
  }
  // The key hashing seed (stored in the frame).
  uint32_t seed() const { return seed_; }
  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kBinaryFuse;
  using KeyHashing = Murmur3Hashing;
  // Always: the empty filter is a filter too (it serializes as one).
  bool initialized() const { return true; }
  uint32_t fingerprint_bits() const { return fingerprint_bits_; }
  // The construction seed the successful peel used (0 for an empty filter).
  uint64_t construction_seed() const { return construction_seed_; }
  // Layout: array_length == (segment_count + 2) * segment_length; all 0 for an empty filter.
  uint32_t segment_length() const { return segment_length_; }
  uint32_t segment_count() const { return segment_count_; }
  uint32_t array_length() const { return array_length_; }
  // 8 * byte_length() / size(), 0 when empty.
  double bits_per_key() const;
  // The false-positive rate it promises: 2^-fingerprint_bits (0 when empty).
  double expected_fpr() const;

  // Peak temporary bytes Build/BuildFromHashes allocate for n input keys (besides the
  // fingerprint array), and the same per key rounded up (0 for n == 0). in_place: for
  // BuildFromHashesInPlace, which allocates no copy of the hashes.
  static uint64_t PeakBuildBytes(uint64_t n, bool in_place = false);
  // The layout a build of n distinct keys starts from: segment length and count, and the array
  // length (all 0 for n = 0); kInvalidArgument when n keys cannot be held. Retries keep the
  // array length and may cut it into segments of the other length.
  static Status LayoutFor(uint64_t n, uint32_t* segment_length, uint32_t* segment_count,
                          uint32_t* array_length);
  static uint64_t PeakBuildBytesPerKey(uint64_t n);

 private:
  // Builds from the n key hashes in `keys` (scratch: may be reordered) and, on success only,
  // replaces *this.
  Status BuildFrom(uint64_t* keys, size_t n, const BinaryFuseOptions& options);
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BINARY_FUSE_FILTER_H_
