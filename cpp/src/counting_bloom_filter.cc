#include "bloomcuckoo/counting_bloom_filter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "bit_array.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "checks.h"
#include "filter_base_impl.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

// Fixed part of the body: counters u64, hashes u32, capacity u64, error_rate f64, size u64.
constexpr size_t kBodyFixedSize = 8 + 4 + 8 + 8 + 8;

uint64_t BytesForCounters(uint64_t counters) { return counters / 2 + (counters % 2); }

}  // namespace

inline uint32_t CountingBloomFilter::Get(uint64_t i) const {
  return (table_[static_cast<size_t>(i >> 1)] >> ((i & 1) * 4)) & 0xFu;
}

inline void CountingBloomFilter::Set(uint64_t i, uint32_t v) {
  uint8_t& b = table_[static_cast<size_t>(i >> 1)];
  const uint32_t shift = static_cast<uint32_t>((i & 1) * 4);
  b = static_cast<uint8_t>((b & ~(0xFu << shift)) | (v << shift));
}

Status CountingBloomFilter::Allocate(uint64_t counters, uint32_t hashes, uint32_t seed,
                                     const char* too_large, bool zeroed) {
  const uint64_t bytes = BytesForCounters(counters);
  if (bytes > internal::kMaxAllocationBytes) return Status(StatusCode::kOutOfMemory, too_large);
  CountingBloomFilter tmp;
  if (!tmp.table_.Allocate(bytes, zeroed).ok()) return Status(StatusCode::kOutOfMemory, too_large);
  tmp.counters_ = counters;
  tmp.hashes_ = hashes;
  tmp.seed_ = seed;
  *this = std::move(tmp);
  return Status::Ok();
}

Status CountingBloomFilter::Init(const CountingBloomOptions& options) {
  const bool sized = options.capacity != 0 || options.error_rate != 0;
  const bool direct = options.counters != 0 || options.hashes != 0;
  if (sized && direct) {
    return Status(StatusCode::kInvalidArgument,
                  "give either capacity and errorRate, or counters and hashes, not both");
  }
  if (!sized && !direct) {
    return Status(StatusCode::kInvalidArgument,
                  "capacity and errorRate (or counters and hashes) are required");
  }
  if (sized) {
    uint64_t counters = 0;
    uint32_t hashes = 0;
    BLOOMCUCKOO_RETURN_IF_ERROR(
        BloomFilter::OptimalShape(options.capacity, options.error_rate, &counters, &hashes));
    BLOOMCUCKOO_RETURN_IF_ERROR(Allocate(
        counters, hashes, options.seed,
        "capacity too large: the filter for this capacity and errorRate cannot be allocated"));
    capacity_ = options.capacity;
    error_rate_ = options.error_rate;
    return Status::Ok();
  }
  if (options.counters == 0) {
    return Status(StatusCode::kInvalidArgument, "counters must be a positive integer");
  }
  if (options.hashes < 1 || options.hashes > kMaxHashes) {
    return Status(StatusCode::kInvalidArgument, "hashes must be an integer from 1 to 64");
  }
  return Allocate(options.counters, options.hashes, options.seed,
                  "counters too large: the filter cannot be allocated");
}

bool CountingBloomFilter::Add(Hash128 h) {
  if (counters_ == 0) return false;
  bool fresh = false;
  internal::ForEachProbe(h, counters_, hashes_, [&](uint64_t i) {
    const uint32_t c = Get(i);
    if (c == 0) {
      fresh = true;
      ++nonzero_;
    }
    if (c < kMaxCount) Set(i, c + 1);
    return true;
  });
  if (size_ != std::numeric_limits<uint64_t>::max()) ++size_;
  return fresh;
}

size_t CountingBloomFilter::AddBatch(const KeyBatch& keys) {
  size_t added = 0;
  ForEachHash(keys, seed_, [&](size_t, Hash128 h) { added += Add(h) ? 1 : 0; });
  return added;
}

bool CountingBloomFilter::Remove(Hash128 h) {
  if (counters_ == 0) return false;
  // Decrement as we go; if a zero counter shows up, undo what was done (a probe sequence may
  // visit the same counter twice, so checking first and decrementing after is not enough).
  uint64_t touched[kMaxHashes];
  uint32_t n = 0;
  const bool present = internal::ForEachProbe(h, counters_, hashes_, [&](uint64_t i) {
    const uint32_t c = Get(i);
    if (c == 0) return false;
    if (c < kMaxCount) {
      Set(i, c - 1);
      if (c == 1) --nonzero_;
      touched[n++] = i;
    }
    return true;
  });
  if (!present) {
    while (n > 0) {
      const uint64_t i = touched[--n];
      const uint32_t c = Get(i);
      if (c == 0) ++nonzero_;
      Set(i, c + 1);
    }
    return false;
  }
  if (size_ != 0) --size_;
  return true;
}

size_t CountingBloomFilter::RemoveBatch(const KeyBatch& keys) {
  size_t removed = 0;
  ForEachHash(keys, seed_, [&](size_t, Hash128 h) { removed += Remove(h) ? 1 : 0; });
  return removed;
}

void CountingBloomFilter::Positions(Hash128 h, uint64_t* out) const {
  if (counters_ == 0) return;
  uint32_t n = 0;
  internal::ForEachProbe(h, counters_, hashes_, [&](uint64_t i) {
    out[n++] = i;
    return true;
  });
}

void CountingBloomFilter::FillMap(uint32_t cells, float* out) const {
  internal::FillMapOf(counters_, cells, out, [&](uint64_t i) { return Get(i) != 0; });
}

bool CountingBloomFilter::Contains(Hash128 h) const {
  if (counters_ == 0) return false;
  return internal::ForEachProbe(h, counters_, hashes_, [&](uint64_t i) { return Get(i) != 0; });
}

void CountingBloomFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  ForEachHash(keys, seed_, [&](size_t i, Hash128 h) { out[i] = Contains(h) ? 1 : 0; });
}

uint32_t CountingBloomFilter::Count(Hash128 h) const {
  if (counters_ == 0) return 0;
  uint32_t least = kMaxCount;
  internal::ForEachProbe(h, counters_, hashes_, [&](uint64_t i) {
    least = std::min(least, Get(i));
    return least != 0;
  });
  return least;
}

void CountingBloomFilter::Clear() {
  table_.Clear();
  size_ = 0;
  nonzero_ = 0;
}

void CountingBloomFilter::Recount() {
  uint64_t x = 0;
  const uint8_t* t = table_.data();
  for (size_t i = 0; i < table_.size(); ++i) x += ((t[i] & 0xF) != 0) + ((t[i] >> 4) != 0);
  nonzero_ = x;
}

uint64_t CountingBloomFilter::SaturatedCounters() const {
  uint64_t x = 0;
  const uint8_t* t = table_.data();
  for (size_t i = 0; i < table_.size(); ++i) x += ((t[i] & 0xF) == 0xF) + ((t[i] >> 4) == 0xF);
  return x;
}

double CountingBloomFilter::fill_ratio() const {
  if (counters_ == 0) return 0.0;
  return static_cast<double>(nonzero_) / static_cast<double>(counters_);
}

double CountingBloomFilter::EstimatedSize() const {
  return internal::EstimatedKeys(counters_, hashes_, nonzero_);
}

double CountingBloomFilter::EstimatedErrorRate() const {
  if (counters_ == 0) return 0.0;
  return std::pow(fill_ratio(), static_cast<double>(hashes_));
}

// Body layout (little-endian):
//   u64 counters | u32 hashes | u64 capacity | f64 error_rate | u64 size |
//   u8 table[ceil(counters / 2)]   (counter i: byte i/2, low nibble for even i, high for odd;
//                                   the unused high nibble of an odd-sized table is 0)
size_t CountingBloomFilter::BodySize() const { return kBodyFixedSize + table_.bytes(); }

void CountingBloomFilter::WriteBody(internal::ByteWriter& w) const {
  w.U64(counters_);
  w.U32(hashes_);
  internal::BloomSizing::Write(w, *this);
  w.Bytes(table_.data(), table_.size());
}

Status CountingBloomFilter::ReadBody(internal::ByteReader& r, const internal::FrameInfo& info) {
  const uint64_t counters = r.U64();
  const uint32_t hashes = r.U32();
  internal::BloomSizing sizing;
  sizing.Read(r);
  if (!r.ok()) return Status(StatusCode::kCorruptData, "serialized counting filter is truncated");
  if (counters == 0) {
    return Status(StatusCode::kCorruptData, "serialized counting filter has 0 counters");
  }
  if (hashes < 1 || hashes > kMaxHashes) {
    return Status(StatusCode::kCorruptData, "serialized counting filter has hashes outside 1..64");
  }
  if (!sizing.Valid()) {
    return Status(StatusCode::kCorruptData,
                  "serialized counting filter has an invalid capacity or errorRate");
  }
  const uint64_t bytes = BytesForCounters(counters);
  if (bytes != r.remaining()) {
    return Status(StatusCode::kCorruptData,
                  "serialized counting filter's counter count does not match its bytes");
  }
  const size_t nbytes = static_cast<size_t>(bytes);
  BLOOMCUCKOO_RETURN_IF_ERROR(Allocate(counters, hashes, info.seed,
                                       "serialized counting filter too large to allocate", false));
  if (!r.Read(table_.data(), nbytes)) {
    return Status(StatusCode::kCorruptData, "serialized counting filter is truncated");
  }
  if (counters % 2 != 0 && (table_[nbytes - 1] >> 4) != 0) {
    return Status(StatusCode::kCorruptData,
                  "serialized counting filter has a counter past its counter count");
  }
  capacity_ = sizing.capacity;
  error_rate_ = sizing.error_rate;
  size_ = sizing.size;
  Recount();
  return Status::Ok();
}

template class internal::FilterBase<CountingBloomFilter, internal::CountingBloomFields>;

}  // namespace bloomcuckoo
