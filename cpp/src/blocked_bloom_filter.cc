#include "bloomcuckoo/blocked_bloom_filter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "checks.h"
#include "exact_math.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#elif defined(__AVX2__)
#include <immintrin.h>
#endif

#include "bit_array.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "filter_base_impl.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

// The eight odd salts of the Apache Parquet split-block Bloom filter spec (parquet-format
// BloomFilter.md): word i of a block gets bit (key * kSalt[i]) >> 27.
alignas(32) constexpr uint32_t kSalt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                           0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

// Fixed part of the body: blocks u64, capacity u64, error_rate f64, size u64.
constexpr size_t kBodyFixedSize = 8 + 8 + 8 + 8;
// Keys per block beyond which the Poisson sum below would underflow its first term; any
// error rate this loose is met by this load (SplitBlockFpr(600) ~ 1 - 1e-14).
constexpr double kMaxKeysPerBlock = 600.0;
constexpr double kMinKeysPerBlock = 1e-12;

// The block of a key: from the high half of h1, multiply-shift onto [0, blocks).
inline uint32_t BlockOf(Hash128 h, uint64_t blocks) {
  return Reduce32(static_cast<uint32_t>(h.h1 >> 32), static_cast<uint32_t>(blocks));
}
// The 32-bit key the eight bit positions are derived from: the low half of h2.
inline uint32_t MaskKey(Hash128 h) { return static_cast<uint32_t>(h.h2); }

#ifdef __wasm_simd128__

// 1 << ((key * salt) >> 27) per lane. wasm SIMD has no per-lane variable shift, so 2^x is made
// as a float (exponent x + 127) and converted back: exact for x in 0..31, and the unsigned
// saturating conversion keeps 2^31.
inline v128_t MaskHalf(v128_t key, v128_t salt) {
  const v128_t x = wasm_u32x4_shr(wasm_i32x4_mul(key, salt), 27);
  const v128_t f = wasm_i32x4_shl(wasm_i32x4_add(x, wasm_i32x4_splat(127)), 23);
  return wasm_u32x4_trunc_sat_f32x4(f);
}

// Sets the key's bits in `block`; returns how many were clear before.
inline uint32_t BlockInsert(uint32_t* block, uint32_t k) {
  const v128_t key = wasm_i32x4_splat(static_cast<int32_t>(k));
  const v128_t m0 = MaskHalf(key, wasm_v128_load(kSalt));
  const v128_t m1 = MaskHalf(key, wasm_v128_load(kSalt + 4));
  const v128_t b0 = wasm_v128_load(block);
  const v128_t b1 = wasm_v128_load(block + 4);
  const v128_t new0 = wasm_v128_andnot(m0, b0);
  const v128_t new1 = wasm_v128_andnot(m1, b1);
  wasm_v128_store(block, wasm_v128_or(b0, m0));
  wasm_v128_store(block + 4, wasm_v128_or(b1, m1));
  const v128_t zero = wasm_i32x4_splat(0);
  const uint32_t lanes = wasm_i32x4_bitmask(wasm_i32x4_ne(new0, zero)) |
                         (wasm_i32x4_bitmask(wasm_i32x4_ne(new1, zero)) << 4);
  return internal::PopCount32(lanes);
}

inline bool BlockContains(const uint32_t* block, uint32_t k) {
  const v128_t key = wasm_i32x4_splat(static_cast<int32_t>(k));
  const v128_t m0 = MaskHalf(key, wasm_v128_load(kSalt));
  const v128_t m1 = MaskHalf(key, wasm_v128_load(kSalt + 4));
  const v128_t miss = wasm_v128_or(wasm_v128_andnot(m0, wasm_v128_load(block)),
                                   wasm_v128_andnot(m1, wasm_v128_load(block + 4)));
  return !wasm_v128_any_true(miss);
}

#elif defined(__AVX2__)

inline __m256i Mask(uint32_t k) {
  const __m256i salt = _mm256_load_si256(reinterpret_cast<const __m256i*>(kSalt));
  const __m256i x =
      _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(k)), salt), 27);
  return _mm256_sllv_epi32(_mm256_set1_epi32(1), x);
}

inline uint32_t BlockInsert(uint32_t* block, uint32_t k) {
  const __m256i m = Mask(k);
  __m256i* p = reinterpret_cast<__m256i*>(block);
  const __m256i b = _mm256_load_si256(p);
  const __m256i fresh = _mm256_andnot_si256(b, m);  // m & ~b
  _mm256_store_si256(p, _mm256_or_si256(b, m));
  const __m256i is_zero = _mm256_cmpeq_epi32(fresh, _mm256_setzero_si256());
  const uint32_t zero_lanes =
      static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(is_zero)));
  return 8 - internal::PopCount32(zero_lanes);
}

inline bool BlockContains(const uint32_t* block, uint32_t k) {
  const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i*>(block));
  return _mm256_testc_si256(b, Mask(k)) != 0;  // (~b & m) == 0
}

#else

// Portable form; g++ -O3 unrolls it fully.
inline uint32_t BlockInsert(uint32_t* block, uint32_t k) {
  uint32_t fresh = 0;
  for (int i = 0; i < 8; ++i) {
    const uint32_t m = uint32_t{1} << ((k * kSalt[i]) >> 27);
    fresh += (block[i] & m) == 0 ? 1 : 0;
    block[i] |= m;
  }
  return fresh;
}

inline bool BlockContains(const uint32_t* block, uint32_t k) {
  uint32_t miss = 0;
  for (int i = 0; i < 8; ++i) miss |= ~block[i] & (uint32_t{1} << ((k * kSalt[i]) >> 27));
  return miss == 0;
}

#endif

}  // namespace

double BlockedBloomFilter::SplitBlockFpr(double keys_per_block) {
  const double lambda = keys_per_block;
  if (!(lambda > 0)) return 0.0;
  if (lambda > kMaxKeysPerBlock) return 1.0;
  // Sum the Poisson terms well past the mean (the tail beyond lambda + 12 sqrt(lambda) + 40
  // weighs far less than 1e-20).
  const int last = static_cast<int>(lambda + 12.0 * std::sqrt(lambda) + 40.0);
  const double q = 1.0 - 1.0 / 32.0;
  double pmf = internal::ExactExp(-lambda);  // Pois(0)
  double q_pow = 1.0;                        // q^j
  double fpr = 0.0;
  for (int j = 1; j <= last; ++j) {
    pmf *= lambda / j;
    q_pow *= q;
    const double word = 1.0 - q_pow;  // P(a given bit of one word is set by j keys)
    const double w2 = word * word;
    const double w4 = w2 * w2;
    fpr += pmf * (w4 * w4);
  }
  return std::min(fpr, 1.0);
}

Status BlockedBloomFilter::BlocksFor(uint64_t capacity, double error_rate, uint64_t* blocks) {
  if (capacity == 0) {
    return Status(StatusCode::kInvalidArgument, "capacity must be a positive integer");
  }
  if (!internal::ValidErrorRate(error_rate)) {
    return Status(StatusCode::kInvalidArgument,
                  "errorRate must be a number greater than 0 and less than 1");
  }
  if (SplitBlockFpr(kMinKeysPerBlock) > error_rate) {
    return Status(StatusCode::kInvalidArgument,
                  "errorRate too small for a blocked Bloom filter (must be at least 1e-23)");
  }
  // SplitBlockFpr grows with the load: bisect (geometrically) for the largest load meeting the
  // target, then settle the integer block count exactly.
  double lo = kMinKeysPerBlock;  // meets the target
  double hi = kMaxKeysPerBlock;
  if (SplitBlockFpr(hi) <= error_rate) {
    lo = hi;
  } else {
    for (int i = 0; i < 100; ++i) {
      const double mid = std::sqrt(lo * hi);
      if (SplitBlockFpr(mid) <= error_rate) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
  }
  const double n = static_cast<double>(capacity);
  const double estimate = std::ceil(n / lo);
  const char* too_large =
      "capacity too large: the filter for this capacity and errorRate cannot be allocated";
  if (!(estimate <= static_cast<double>(kMaxBlocks)) ||
      estimate * 32.0 > static_cast<double>(internal::kMaxAllocationBytes)) {
    return Status(StatusCode::kOutOfMemory, too_large);
  }
  uint64_t b = std::max<uint64_t>(1, static_cast<uint64_t>(estimate));
  while (b < kMaxBlocks && SplitBlockFpr(n / static_cast<double>(b)) > error_rate) ++b;
  while (b > 1 && SplitBlockFpr(n / static_cast<double>(b - 1)) <= error_rate) --b;
  if (b * 32 > internal::kMaxAllocationBytes) return Status(StatusCode::kOutOfMemory, too_large);
  *blocks = b;
  return Status::Ok();
}

Status BlockedBloomFilter::Allocate(uint64_t blocks, uint32_t seed, const char* too_large,
                                    bool zeroed) {
  if (blocks > internal::kMaxAllocationBytes / 32) {
    return Status(StatusCode::kOutOfMemory, too_large);
  }
  BlockedBloomFilter tmp;
  if (!tmp.words_.Allocate(blocks * kWordsPerBlock, zeroed).ok()) {
    return Status(StatusCode::kOutOfMemory, too_large);
  }
  tmp.blocks_ = blocks;
  tmp.seed_ = seed;
  *this = std::move(tmp);
  return Status::Ok();
}

Status BlockedBloomFilter::Init(const BlockedBloomOptions& options) {
  const bool sized = options.capacity != 0 || options.error_rate != 0;
  const bool direct = options.blocks != 0;
  if (sized && direct) {
    return Status(StatusCode::kInvalidArgument,
                  "give either capacity and errorRate, or blocks, not both");
  }
  if (!sized && !direct) {
    return Status(StatusCode::kInvalidArgument, "capacity and errorRate (or blocks) are required");
  }
  if (direct) {
    if (options.blocks > kMaxBlocks) {
      return Status(StatusCode::kInvalidArgument, "blocks must be an integer from 1 to 2^32 - 1");
    }
    return Allocate(options.blocks, options.seed,
                    "blocks too large: the filter cannot be allocated");
  }
  uint64_t blocks = 0;
  BLOOMCUCKOO_RETURN_IF_ERROR(BlocksFor(options.capacity, options.error_rate, &blocks));
  BLOOMCUCKOO_RETURN_IF_ERROR(Allocate(
      blocks, options.seed,
      "capacity too large: the filter for this capacity and errorRate cannot be allocated"));
  capacity_ = options.capacity;
  error_rate_ = options.error_rate;
  return Status::Ok();
}

bool BlockedBloomFilter::Add(Hash128 h) {
  if (blocks_ == 0) return false;
  uint32_t* block = words_.data() + size_t{BlockOf(h, blocks_)} * kWordsPerBlock;
  const uint32_t fresh = BlockInsert(block, MaskKey(h));
  set_bits_ += fresh;
  ++size_;
  return fresh != 0;
}

size_t BlockedBloomFilter::AddBatch(const KeyBatch& keys) {
  size_t added = 0;
  ForEachHash(keys, seed_, [&](size_t, Hash128 h) { added += Add(h) ? 1 : 0; });
  return added;
}

void BlockedBloomFilter::Positions(Hash128 h, uint64_t* out) const {
  if (blocks_ == 0) return;
  const uint64_t block = BlockOf(h, blocks_);
  const uint32_t k = MaskKey(h);
  for (uint32_t i = 0; i < 8; ++i) out[i] = block * kBitsPerBlock + 32 * i + ((k * kSalt[i]) >> 27);
}

void BlockedBloomFilter::FillMap(uint32_t cells, float* out) const {
  internal::FillMapOf(bits(), cells, out, [&](uint64_t i) {
    return (words_[static_cast<size_t>(i >> 5)] >> (i & 31)) & 1;
  });
}

bool BlockedBloomFilter::Contains(Hash128 h) const {
  if (blocks_ == 0) return false;
  const uint32_t* block = words_.data() + size_t{BlockOf(h, blocks_)} * kWordsPerBlock;
  return BlockContains(block, MaskKey(h));
}

void BlockedBloomFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  ForEachHash(keys, seed_, [&](size_t i, Hash128 h) { out[i] = Contains(h) ? 1 : 0; });
}

Status BlockedBloomFilter::CheckSameShape(const BlockedBloomFilter& other) const {
  if (blocks_ != other.blocks_ || seed_ != other.seed_) {
    return Status(StatusCode::kInvalidArgument, "other filter must have the same blocks and seed");
  }
  return Status::Ok();
}

void BlockedBloomFilter::RecountSetBits() {
  set_bits_ = internal::CountSetBits(words_.data(), words_.size());
}

Status BlockedBloomFilter::Union(const BlockedBloomFilter& other) {
  return internal::MergeSameShape(*this, other, /*intersect=*/false);
}

Status BlockedBloomFilter::Intersect(const BlockedBloomFilter& other) {
  return internal::MergeSameShape(*this, other, /*intersect=*/true);
}

void BlockedBloomFilter::Clear() {
  words_.Clear();
  size_ = 0;
  set_bits_ = 0;
}

double BlockedBloomFilter::fill_ratio() const {
  if (blocks_ == 0) return 0.0;
  return static_cast<double>(set_bits_) / static_cast<double>(bits());
}

double BlockedBloomFilter::EstimatedSize() const {
  return internal::EstimatedKeys(bits(), kHashesPerKey, set_bits_);
}

double BlockedBloomFilter::EstimatedErrorRate() const {
  if (blocks_ == 0) return 0.0;
  const uint32_t* w = words_.data();
  double sum = 0.0;
  for (size_t b = 0; b < static_cast<size_t>(blocks_); ++b) {
    double p = 1.0;
    for (size_t i = 0; i < kWordsPerBlock; ++i) {
      p *= internal::PopCount32(w[b * kWordsPerBlock + i]) / 32.0;
    }
    sum += p;
  }
  return sum / static_cast<double>(blocks_);
}

// Body layout (little-endian):
//   u64 blocks | u64 capacity | f64 error_rate | u64 size | u32 words[8 * blocks]
// Word i of block b is words[8 * b + i].
size_t BlockedBloomFilter::BodySize() const { return kBodyFixedSize + words_.bytes(); }

void BlockedBloomFilter::WriteBody(internal::ByteWriter& w) const {
  w.U64(blocks_);
  internal::BloomSizing::Write(w, *this);
  w.Words(words_.data(), words_.size());
}

Status BlockedBloomFilter::ReadBody(internal::ByteReader& r, const internal::FrameInfo& info) {
  const uint64_t blocks = r.U64();
  internal::BloomSizing sizing;
  sizing.Read(r);
  if (!r.ok()) return Status(StatusCode::kCorruptData, "serialized blocked filter is truncated");
  if (blocks == 0 || blocks > kMaxBlocks) {
    return Status(StatusCode::kCorruptData, "serialized blocked filter has an invalid block count");
  }
  if (!sizing.Valid()) {
    return Status(StatusCode::kCorruptData,
                  "serialized blocked filter has an invalid capacity or errorRate");
  }
  if (blocks != r.remaining() / 32 || r.remaining() % 32 != 0) {
    return Status(StatusCode::kCorruptData,
                  "serialized blocked filter's block count does not match its bytes");
  }
  BLOOMCUCKOO_RETURN_IF_ERROR(
      Allocate(blocks, info.seed, "serialized blocked filter too large to allocate", false));
  if (!r.Words(words_.data(), words_.size()) || !r.AtEnd()) {
    return Status(StatusCode::kCorruptData, "serialized blocked filter is truncated");
  }
  capacity_ = sizing.capacity;
  error_rate_ = sizing.error_rate;
  size_ = sizing.size;
  RecountSetBits();
  return Status::Ok();
}

template class internal::FilterBase<BlockedBloomFilter, internal::BlockedBloomFields>;

}  // namespace bloomcuckoo
