#include "bloomcuckoo/bloom_filter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "bit_array.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "checks.h"
#include "exact_math.h"
#include "filter_base_impl.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

constexpr double kLn2 = 0.69314718055994530942;
// Fixed part of the body: bits u64, hashes u32, capacity u64, error_rate f64, size u64.
constexpr size_t kBodyFixedSize = 8 + 4 + 8 + 8 + 8;

}  // namespace

Status BloomFilter::OptimalShape(uint64_t capacity, double error_rate, uint64_t* bits,
                                 uint32_t* hashes) {
  if (capacity == 0) {
    return Status(StatusCode::kInvalidArgument, "capacity must be a positive integer");
  }
  if (!internal::ValidErrorRate(error_rate)) {
    return Status(StatusCode::kInvalidArgument,
                  "errorRate must be a number greater than 0 and less than 1");
  }
  const double n = static_cast<double>(capacity);
  const double m_formula = std::ceil(-n * internal::ExactLog(error_rate) / (kLn2 * kLn2));
  const double k = std::max(1.0, std::round(m_formula / n * kLn2));
  // At least 64 bits per probe. In a table of a few dozen bits the k probes of a key often
  // cluster (h2 · m / 2^64 close to an integer puts them all in one or two slots), and the
  // measured rate misses the target: 5.7% at 1% for capacity 1 (10 bits), 2.6% for capacity 5
  // (48 bits), 1.17% for capacity 10. With m >= 64k the excess is below a tenth of the target;
  // it changes only filters of fewer than ~45 keys (64 ln 2), by at most 8k bytes.
  const double m = std::max(m_formula, 64.0 * k);
  if (!(k <= kMaxHashes)) {
    return Status(StatusCode::kInvalidArgument,
                  "errorRate too small: a Bloom filter would need more than 64 hashes");
  }
  // Beyond 2^63 bits no allocation can succeed anyway; the Buffer limit is far lower.
  if (!(m < 9.2e18) || m / 64.0 > static_cast<double>(internal::kMaxAllocationBytes / 8)) {
    return Status(StatusCode::kOutOfMemory,
                  "capacity too large: the filter for this capacity and errorRate cannot be "
                  "allocated");
  }
  *bits = static_cast<uint64_t>(m);
  *hashes = static_cast<uint32_t>(k);
  return Status::Ok();
}

Status BloomFilter::Allocate(uint64_t bits, uint32_t hashes, uint32_t seed, const char* too_large,
                             bool zeroed) {
  BloomFilter tmp;
  const uint64_t words = internal::WordsForBits(bits);
  if (words > internal::kMaxAllocationBytes / 8) return Status(StatusCode::kOutOfMemory, too_large);
  Status s = tmp.words_.Allocate(words, zeroed);
  if (!s.ok()) return Status(StatusCode::kOutOfMemory, too_large);
  tmp.bits_ = bits;
  tmp.hashes_ = hashes;
  tmp.seed_ = seed;
  *this = std::move(tmp);
  return Status::Ok();
}

Status BloomFilter::Init(const BloomOptions& options) {
  const bool sized = options.capacity != 0 || options.error_rate != 0;
  const bool direct = options.bits != 0 || options.hashes != 0;
  if (sized && direct) {
    return Status(StatusCode::kInvalidArgument,
                  "give either capacity and errorRate, or bits and hashes, not both");
  }
  if (!sized && !direct) {
    return Status(StatusCode::kInvalidArgument,
                  "capacity and errorRate (or bits and hashes) are required");
  }
  if (sized) {
    uint64_t bits = 0;
    uint32_t hashes = 0;
    BLOOMCUCKOO_RETURN_IF_ERROR(OptimalShape(options.capacity, options.error_rate, &bits, &hashes));
    BLOOMCUCKOO_RETURN_IF_ERROR(Allocate(
        bits, hashes, options.seed,
        "capacity too large: the filter for this capacity and errorRate cannot be allocated"));
    capacity_ = options.capacity;
    error_rate_ = options.error_rate;
    return Status::Ok();
  }
  if (options.bits == 0) {
    return Status(StatusCode::kInvalidArgument, "bits must be a positive integer");
  }
  if (options.hashes < 1 || options.hashes > kMaxHashes) {
    return Status(StatusCode::kInvalidArgument, "hashes must be an integer from 1 to 64");
  }
  return Allocate(options.bits, options.hashes, options.seed,
                  "bits too large: the filter cannot be allocated");
}

bool BloomFilter::Add(Hash128 h) {
  if (bits_ == 0) return false;
  uint64_t* words = words_.data();
  uint32_t changed = 0;
  internal::ForEachProbe(h, bits_, hashes_, [&](uint64_t i) {
    changed += internal::SetBit(words, i) ? 1 : 0;
    return true;
  });
  set_bits_ += changed;
  ++size_;
  return changed != 0;
}

size_t BloomFilter::AddBatch(const KeyBatch& keys) {
  size_t added = 0;
  ForEachHash(keys, seed_, [&](size_t, Hash128 h) { added += Add(h) ? 1 : 0; });
  return added;
}

void BloomFilter::Positions(Hash128 h, uint64_t* out) const {
  if (bits_ == 0) return;
  uint32_t n = 0;
  internal::ForEachProbe(h, bits_, hashes_, [&](uint64_t i) {
    out[n++] = i;
    return true;
  });
}

void BloomFilter::FillMap(uint32_t cells, float* out) const {
  internal::FillMapOf(bits_, cells, out,
                      [&](uint64_t i) { return internal::TestBit(words_.data(), i); });
}

bool BloomFilter::Contains(Hash128 h) const {
  if (bits_ == 0) return false;
  const uint64_t* words = words_.data();
  return internal::ForEachProbe(h, bits_, hashes_,
                                [&](uint64_t i) { return internal::TestBit(words, i); });
}

void BloomFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  ForEachHash(keys, seed_, [&](size_t i, Hash128 h) { out[i] = Contains(h) ? 1 : 0; });
}

Status BloomFilter::CheckSameShape(const BloomFilter& other) const {
  if (bits_ != other.bits_ || hashes_ != other.hashes_ || seed_ != other.seed_) {
    return Status(StatusCode::kInvalidArgument,
                  "other filter must have the same bits, hashes and seed");
  }
  return Status::Ok();
}

void BloomFilter::RecountSetBits() {
  set_bits_ = internal::CountSetBits(words_.data(), words_.size());
}

Status BloomFilter::Union(const BloomFilter& other) {
  return internal::MergeSameShape(*this, other, /*intersect=*/false);
}

Status BloomFilter::Intersect(const BloomFilter& other) {
  return internal::MergeSameShape(*this, other, /*intersect=*/true);
}

void BloomFilter::Clear() {
  words_.Clear();
  size_ = 0;
  set_bits_ = 0;
}

double BloomFilter::fill_ratio() const {
  if (bits_ == 0) return 0.0;
  return static_cast<double>(set_bits_) / static_cast<double>(bits_);
}

double BloomFilter::EstimatedSize() const {
  return internal::EstimatedKeys(bits_, hashes_, set_bits_);
}

double BloomFilter::EstimatedErrorRate() const {
  if (bits_ == 0) return 0.0;
  return std::pow(fill_ratio(), static_cast<double>(hashes_));
}

// Body layout (little-endian):
//   u64 bits | u32 hashes | u64 capacity | f64 error_rate | u64 size | u64 words[ceil(bits/64)]
// Bit i of the filter is bit (i % 64) of words[i / 64]; bits past `bits` in the last word are 0.
size_t BloomFilter::BodySize() const { return kBodyFixedSize + words_.bytes(); }

void BloomFilter::WriteBody(internal::ByteWriter& w) const {
  w.U64(bits_);
  w.U32(hashes_);
  internal::BloomSizing::Write(w, *this);
  w.Words(words_.data(), words_.size());
}

Status BloomFilter::ReadBody(internal::ByteReader& r, uint32_t seed) {
  const uint64_t bits = r.U64();
  const uint32_t hashes = r.U32();
  internal::BloomSizing sizing;
  sizing.Read(r);
  if (!r.ok()) return Status(StatusCode::kCorruptData, "serialized bloom filter is truncated");
  if (bits == 0) return Status(StatusCode::kCorruptData, "serialized bloom filter has 0 bits");
  if (hashes < 1 || hashes > kMaxHashes) {
    return Status(StatusCode::kCorruptData, "serialized bloom filter has hashes outside 1..64");
  }
  if (!sizing.Valid()) {
    return Status(StatusCode::kCorruptData,
                  "serialized bloom filter has an invalid capacity or errorRate");
  }
  const uint64_t words = internal::WordsForBits(bits);
  if (words > r.remaining() / 8) {
    return Status(StatusCode::kCorruptData,
                  "serialized bloom filter claims more bits than its bytes hold");
  }
  BLOOMCUCKOO_RETURN_IF_ERROR(
      Allocate(bits, hashes, seed, "serialized bloom filter too large to allocate", false));
  if (!r.Words(words_.data(), static_cast<size_t>(words))) {
    return Status(StatusCode::kCorruptData, "serialized bloom filter is truncated");
  }
  if (bits % 64 != 0 && (words_[static_cast<size_t>(words - 1)] >> (bits % 64)) != 0) {
    return Status(StatusCode::kCorruptData,
                  "serialized bloom filter has bits set past its bit count");
  }
  capacity_ = sizing.capacity;
  error_rate_ = sizing.error_rate;
  size_ = sizing.size;
  RecountSetBits();
  return Status::Ok();
}

Status BloomFilter::ReadBody(internal::ByteReader& r, const internal::FrameInfo& info) {
  return ReadBody(r, info.seed);
}

template class internal::FilterBase<BloomFilter, internal::BloomFields>;

}  // namespace bloomcuckoo
