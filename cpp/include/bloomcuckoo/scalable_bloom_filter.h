// ScalableBloomFilter: a chain of BloomFilter layers that grows when the newest layer is full,
// with the semantics of RedisBloom's BF.* commands (BF.RESERVE capacity, error_rate, EXPANSION,
// NONSCALING; BF.ADD answers 0 for a key that may already be present).
//
// Layers (RedisBloom sb.c, ERROR_TIGHTENING_RATIO 0.5):
//   - layer 0 holds `capacity` keys at error_rate * 0.5 (at error_rate when non_scaling, since
//     no layer will ever follow it);
//   - layer i holds capacity * expansion^i keys at error_rate * 0.5^(i + 1).
// The layer targets sum to error_rate * (1 - 2^-L), so the compound false-positive rate
// 1 - prod(1 - p_i) stays about error_rate however many layers are added (full layers run
// slightly above their own target, as any Bloom filter at capacity with k rounded).
#ifndef BLOOMCUCKOO_SCALABLE_BLOOM_FILTER_H_
#define BLOOMCUCKOO_SCALABLE_BLOOM_FILTER_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/internal/filter_base.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

struct ScalableBloomOptions {
  uint64_t capacity = 0;     // keys the first layer holds (>= 1)
  double error_rate = 0;     // overall target false-positive rate, in (0, 1)
  uint32_t expansion = 2;    // each new layer holds `expansion` times the previous one (>= 1)
  bool non_scaling = false;  // true: never add a layer; Add reports kFull at capacity
  uint32_t seed = kDefaultSeed;
};

namespace internal {
inline constexpr uint32_t kMaxScalableLayers = 64;
// ScalableBloomFilter's data (filter_base.h: moves reset it to these defaults).
struct ScalableBloomFields {
  std::array<BloomFilter, kMaxScalableLayers> layers_;
  uint32_t num_layers_ = 0;
  uint64_t capacity_ = 0;
  double error_rate_ = 0;
  uint32_t expansion_ = 2;
  bool non_scaling_ = false;
  uint32_t seed_ = kDefaultSeed;
};
}  // namespace internal

class ScalableBloomFilter
    : public internal::FilterBase<ScalableBloomFilter, internal::ScalableBloomFields> {
 public:
  // The most layers a filter may have; adding one more is kFull.
  static constexpr uint32_t kMaxLayers = internal::kMaxScalableLayers;
  static constexpr double kTighteningRatio = 0.5;

  // An un-initialised filter: Contains() is false, size() is 0, Add() is kInvalidArgument. Moves
  // leave the source so; copies are deleted (filter_base.h).
  ScalableBloomFilter() = default;

  // Validates `options` and allocates the first layer. On failure *this is unchanged; the
  // message names the bad option (kOutOfMemory when the first layer cannot be allocated).
  Status Init(const ScalableBloomOptions& options);

  // Adds the key hashed as `h` (HashOf(key, len)), like BF.ADD:
  //  - the key may already be present in some layer: *added = false, Ok, nothing changes;
  //  - else it goes into the newest layer, after adding a layer when the newest is full:
  //    *added = true, Ok.
  // Errors (nothing changed, *added = false): kFull when the filter is non_scaling and full, or
  // cannot grow (64 layers, layer capacity overflowing 2^64, or a layer error rate needing more
  // than 64 hashes); kOutOfMemory when the new layer cannot be allocated; kInvalidArgument when
  // the filter is not initialised.
  Status Add(Hash128 h, bool* added);
  // Adds the keys of `keys` in order, stopping at the first error (which is returned). Keys
  // before it stay added. *added = keys reported new, *processed = keys handled before the
  // error (all of them on Ok).
  Status AddBatch(const KeyBatch& keys, size_t* added, size_t* processed);
  // True when the key may be present in any layer; false when it certainly is not.
  bool Contains(Hash128 h) const;
  // out[i] = 1 when key i may be present, 0 when it certainly is not. `out` holds keys.count.
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;

  // Empties the filter: drops every layer but the first and clears that one (back to the shape
  // Init made).
  void Clear();

  // Sum of the layers' estimates (see BloomFilter::EstimatedSize).
  double EstimatedSize() const;
  // 1 - prod over layers of (1 - layer estimated error rate).
  double EstimatedErrorRate() const;

  // Keys added (Add calls that reported *added = true), summed over the layers.
  uint64_t size() const;
  // Bytes of filter storage, all layers.
  size_t byte_length() const;
  uint32_t seed() const { return seed_; }
  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kScalableBloom;
  using KeyHashing = Murmur3Hashing;
  // The capacity of the first layer and the overall target error rate given to Init.
  uint64_t capacity() const { return capacity_; }
  double error_rate() const { return error_rate_; }
  uint32_t expansion() const { return expansion_; }
  bool non_scaling() const { return non_scaling_; }
  bool initialized() const { return num_layers_ != 0; }
  // Number of layers (1..64 once initialised).
  size_t num_layers() const { return num_layers_; }
  // Layer i (0 = oldest) for info(): capacity(), error_rate(), size(), bits(), hashes(),
  // set_bits(), byte_length(). Requires i < num_layers().
  const BloomFilter& layer(size_t i) const { return layers_[i]; }
  // Capacity and error rate the layer at `index` has (or would have, if added).
  // Returns false when the capacity overflows 64 bits.
  bool LayerParameters(uint32_t index, uint64_t* capacity, double* error_rate) const;

 private:
  Status AddLayer();
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SCALABLE_BLOOM_FILTER_H_
