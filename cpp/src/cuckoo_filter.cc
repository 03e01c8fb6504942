#include "bloomcuckoo/cuckoo_filter.h"

#include <cmath>
#include <cstring>
#include <new>
#include <utility>

#include "bit_array.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "checks.h"
#include "cuckoo_table.h"
#include "filter_base_impl.h"
#include "frame.h"

namespace bloomcuckoo {
namespace internal {

// The sub-filters and the kick-chain scratch space (one entry per allowed kick: bucket << 3 |
// slot; allocated on the first kick), kept out of the public header.
struct CuckooStorage {
  CuckooTable tables[CuckooFilter::kMaxFilters];
  uint64_t items[CuckooFilter::kMaxFilters] = {};  // fingerprints stored in each sub-filter
  Buffer<uint64_t> chain;
};

}  // namespace internal

namespace {

// Target load (per mille of the slots) of a first sub-filter of 2^lg buckets with b slots each:
// the largest load the sizing rule may plan for. Measured (this implementation, 500 kicks,
// 1000 random key sets per size, f = 8/12/16): the minimum load at the first failed insert, less a
// small margin. Small tables vary a lot from one key set to another, so they get lower targets;
// from 2^11 buckets on the load at first failure is tightly concentrated and the targets are the
// paper's (b = 2: 84%, b = 4: 95%, b = 8: 98%; b = 1 only 40%, see the header comment).
// The b = 1 row (12-bit fingerprints, which b = 1 requires) was measured again and smoothed so
// that the largest capacity of each bucket count grows with the count: filling to it failed in at
// most 0.15% of 2,000 key sets below 2^11 buckets; from 2^11 on the paper's 40% is too much for
// partial-key hashing (only 2^f - 1 distinct bucket offsets make short cycles common: one of five
// key sets failed at 2^20 buckets at 40% and at 38%), so large tables plan for 35%.
constexpr uint32_t kTargetLoadLevels = 12;
constexpr uint16_t kTargetLoadPerMille[4][kTargetLoadLevels] = {
    // 2^0 .. 2^10 buckets, then 2^11 and more
    {1000, 1000, 500, 250, 250, 200, 200, 200, 250, 250, 300, 350},  // b = 1 (12+ bit fp)
    {1000, 1000, 500, 370, 400, 520, 660, 720, 810, 830, 840, 840},  // b = 2
    {1000, 1000, 600, 640, 800, 840, 890, 920, 925, 940, 945, 950},  // b = 4
    {1000, 1000, 920, 900, 930, 955, 965, 970, 975, 980, 980, 980},  // b = 8
};
uint64_t TargetLoadPerMille(uint32_t bucket_size, uint32_t lg) {
  const uint32_t row = bucket_size == 1 ? 0 : bucket_size == 2 ? 1 : bucket_size == 4 ? 2 : 3;
  return kTargetLoadPerMille[row][lg < kTargetLoadLevels ? lg : kTargetLoadLevels - 1];
}

// log2 of the largest bucket count of any sub-filter (the allocator refuses far less anyway).
constexpr uint32_t kMaxBucketsLog2 = 40;
// The largest capacity Init accepts (and a serialized filter may state).
constexpr uint64_t kMaxCapacity = uint64_t{1} << 48;

bool ValidBucketSize(uint32_t b) { return b == 1 || b == 2 || b == 4 || b == 8; }
bool ValidFingerprintBits(uint32_t f) { return f == 8 || f == 12 || f == 16; }
uint32_t Log2(uint64_t v) {  // v a power of two
  uint32_t k = 0;
  while ((uint64_t{1} << k) < v) ++k;
  return k;
}

// Fixed multiplicative mix of a fingerprint, for the alternate-bucket offset.
inline uint64_t MixFingerprint(uint32_t fp) {
  const uint64_t x = static_cast<uint64_t>(fp) * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 32);
}

// SplitMix64 finaliser, to seed the kick generator.
inline uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline uint64_t XorShift64(uint64_t* s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return x;
}

// Fields of the body before the sub-filters: u64 capacity, f64 error_rate, u32 f, u32 b,
// u32 max_iterations, u32 expansion, u64 inserted, u64 deleted, u32 num_filters.
constexpr size_t kFixedBodySize = 8 + 8 + 4 * 4 + 8 + 8 + 4;
// Per sub-filter: u64 num_buckets, u64 payload_bytes, then the payload.
constexpr size_t kSubFilterHeaderSize = 16;

}  // namespace

CuckooFilter::CuckooFilter() = default;
CuckooFilter::~CuckooFilter() = default;
CuckooFilter::CuckooFilter(CuckooFilter&& other) noexcept = default;
CuckooFilter& CuckooFilter::operator=(CuckooFilter&& other) noexcept = default;

Status CuckooFilter::FirstSubFilterBuckets(uint64_t capacity, uint32_t bucket_size,
                                           uint64_t* buckets) {
  if (capacity == 0) return Status(StatusCode::kInvalidArgument, "capacity must be at least 1");
  if (!ValidBucketSize(bucket_size)) {
    return Status(StatusCode::kInvalidArgument, "bucketSize must be 1, 2, 4 or 8");
  }
  if (capacity > kMaxCapacity) {
    return Status(StatusCode::kOutOfMemory,
                  "capacity too large: the cuckoo filter cannot be allocated");
  }
  // The smallest power of two n with capacity <= n * b * target_load(n).
  for (uint32_t lg = 0; lg <= kMaxBucketsLog2; ++lg) {
    const uint64_t n = uint64_t{1} << lg;
    if (capacity * 1000 <= n * bucket_size * TargetLoadPerMille(bucket_size, lg)) {
      *buckets = n;
      return Status::Ok();
    }
  }
  return Status(StatusCode::kOutOfMemory,
                "capacity too large: the cuckoo filter cannot be allocated");
}

// Not inlined: Init and the bindings' sizing share one copy.
__attribute__((noinline)) Status CuckooFilter::OptimalShape(const CuckooOptions& options,
                                                            uint64_t* buckets,
                                                            uint32_t* fingerprint_bits,
                                                            uint64_t* bytes) {
  if (options.capacity == 0) {
    return Status(StatusCode::kInvalidArgument, "capacity must be at least 1");
  }
  const double error_rate = options.error_rate == 0 ? kDefaultErrorRate : options.error_rate;
  if (!(error_rate > 0 && error_rate < 1)) {
    return Status(StatusCode::kInvalidArgument, "errorRate must be between 0 and 1 (exclusive)");
  }
  if (!ValidBucketSize(options.bucket_size)) {
    return Status(StatusCode::kInvalidArgument, "bucketSize must be 1, 2, 4 or 8");
  }
  uint32_t f = options.fingerprint_bits;
  if (f != 0 && !ValidFingerprintBits(f)) {
    return Status(StatusCode::kInvalidArgument,
                  "fingerprintBits must be 8, 12 or 16 (or 0 to choose)");
  }
  // One slot per bucket cannot hold three keys that share a fingerprint and a bucket pair; with
  // 8-bit fingerprints that happens below capacity on large tables, so b = 1 needs 12+ bits.
  if (options.bucket_size == 1 && f == 8) {
    return Status(StatusCode::kInvalidArgument, "bucketSize 1 needs fingerprintBits 12 or 16");
  }
  if (f == 0) {
    for (uint32_t candidate : {options.bucket_size == 1 ? 12u : 8u, 12u, 16u}) {
      if (2.0 * options.bucket_size / static_cast<double>(uint32_t{1} << candidate) <= error_rate) {
        f = candidate;
        break;
      }
    }
    if (f == 0) {
      return Status(StatusCode::kInvalidArgument,
                    "errorRate too small for a cuckoo filter: at least 2 * bucketSize / 65536");
    }
  }
  *fingerprint_bits = f;
  BLOOMCUCKOO_RETURN_IF_ERROR(
      FirstSubFilterBuckets(options.capacity, options.bucket_size, buckets));
  *bytes = internal::CuckooTable::PayloadBytes(*buckets, options.bucket_size, f);
  return Status::Ok();
}

Status CuckooFilter::Init(const CuckooOptions& options) {
  uint64_t buckets = 0, bytes = 0;
  uint32_t f = 0;
  BLOOMCUCKOO_RETURN_IF_ERROR(OptimalShape(options, &buckets, &f, &bytes));
  const double error_rate = options.error_rate == 0 ? kDefaultErrorRate : options.error_rate;
  if (options.max_iterations == 0 || options.max_iterations > kMaxIterationsLimit) {
    return Status(StatusCode::kInvalidArgument, "maxIterations must be between 1 and 65535");
  }
  if (options.expansion > kMaxExpansion) {
    return Status(StatusCode::kInvalidArgument, "expansion must be between 0 and 65536");
  }
  uint32_t expansion = 0;
  if (options.expansion != 0) {
    expansion = 1;
    while (expansion < options.expansion) expansion <<= 1;
  }
  CuckooFilter tmp;
  tmp.storage_.reset(new (std::nothrow) internal::CuckooStorage());
  if (!tmp.storage_)
    return Status(StatusCode::kOutOfMemory, "out of memory allocating cuckoo filter");
  BLOOMCUCKOO_RETURN_IF_ERROR(tmp.storage_->tables[0].Init(buckets, options.bucket_size, f));
  tmp.capacity_ = options.capacity;
  tmp.error_rate_ = error_rate;
  tmp.fingerprint_bits_ = f;
  tmp.bucket_size_ = options.bucket_size;
  tmp.max_iterations_ = options.max_iterations;
  tmp.expansion_ = expansion;
  tmp.seed_ = options.seed;
  tmp.num_filters_ = 1;
  *this = std::move(tmp);
  return Status::Ok();
}

CuckooFilter::Lookup CuckooFilter::MakeLookup(Hash128 h) const {
  const uint32_t range = (uint32_t{1} << fingerprint_bits_) - 1;
  const uint32_t fp = 1 + Reduce32(static_cast<uint32_t>(h.h2 >> 32), range);
  return Lookup{fp, MixFingerprint(fp) | 1};
}

uint32_t CuckooFilter::Locate(Hash128 h, uint64_t* buckets) const {
  if (num_filters_ == 0) return 0;
  const Lookup lk = MakeLookup(h);
  for (uint32_t k = 0; k < num_filters_; ++k) {
    const uint64_t mask = storage_->tables[k].mask();
    buckets[2 * k] = h.h1 & mask;
    buckets[2 * k + 1] = (h.h1 & mask) ^ (lk.offset & mask);
  }
  return lk.fp;
}

void CuckooFilter::FillMap(uint32_t cells, float* out) const {
  uint64_t total = 0;
  for (uint32_t k = 0; k < num_filters_; ++k)
    total += storage_->tables[k].num_buckets() * bucket_size_;
  internal::FillMapOf(total, cells, out, [&](uint64_t slot) {
    for (uint32_t k = 0; k < num_filters_; ++k) {
      const internal::CuckooTable& t = storage_->tables[k];
      const uint64_t slots = t.num_buckets() * bucket_size_;
      if (slot < slots) {
        return t.ReadSlot(slot / bucket_size_, static_cast<uint32_t>(slot % bucket_size_)) != 0;
      }
      slot -= slots;
    }
    return false;
  });
}

bool CuckooFilter::Contains(Hash128 h) const {
  if (num_filters_ == 0) return false;
  const Lookup lk = MakeLookup(h);
  for (uint32_t k = 0; k < num_filters_; ++k) {
    const internal::CuckooTable& t = storage_->tables[k];
    const uint64_t mask = t.mask();
    const uint64_t i1 = h.h1 & mask;
    if (t.FindInBuckets(i1, i1 ^ (lk.offset & mask), lk.fp)) return true;
  }
  return false;
}

uint32_t CuckooFilter::Count(Hash128 h) const {
  if (num_filters_ == 0) return 0;
  const Lookup lk = MakeLookup(h);
  uint32_t n = 0;
  for (uint32_t k = 0; k < num_filters_; ++k) {
    const internal::CuckooTable& t = storage_->tables[k];
    const uint64_t mask = t.mask();
    const uint64_t i1 = h.h1 & mask;
    const uint64_t i2 = i1 ^ (lk.offset & mask);
    n += t.CountInBucket(i1, lk.fp);
    if (i2 != i1) n += t.CountInBucket(i2, lk.fp);
  }
  return n;
}

bool CuckooFilter::Add(Hash128 h) {
  last_kicks_ = 0;
  if (num_filters_ == 0) return false;
  const Lookup lk = MakeLookup(h);
  for (uint32_t k = 0; k < num_filters_; ++k) {
    internal::CuckooTable& t = storage_->tables[k];
    const uint64_t mask = t.mask();
    const uint64_t i1 = h.h1 & mask;
    if (t.InsertIntoBucket(i1, lk.fp) || t.InsertIntoBucket(i1 ^ (lk.offset & mask), lk.fp)) {
      ++storage_->items[k];
      ++items_inserted_;
      return true;
    }
  }
  const uint32_t newest = num_filters_ - 1;
  const uint64_t mask = storage_->tables[newest].mask();
  const uint64_t i1 = h.h1 & mask;
  if (KickInsert(newest, i1, i1 ^ (lk.offset & mask), lk.fp, h) || Grow(lk, h)) {
    ++storage_->items[num_filters_ - 1];  // the newest (possibly just added) sub-filter
    ++items_inserted_;
    return true;
  }
  return false;
}

bool CuckooFilter::KickInsert(uint32_t table, uint64_t i1, uint64_t i2, uint32_t fp, Hash128 h) {
  internal::CuckooTable& t = storage_->tables[table];
  // The scratch is allocated on the first kick (not by Init or Deserialize, so reading bytes
  // allocates only what they describe). Without it no kick is tried and nothing changes.
  if (storage_->chain.size() < max_iterations_ && !storage_->chain.Allocate(max_iterations_).ok()) {
    last_kicks_ = 0;
    return false;
  }
  uint64_t* chain = storage_->chain.data();
  const uint64_t mask = t.mask();
  const uint32_t slot_mask = bucket_size_ - 1;
  uint64_t rng =
      Mix64(h.h1 ^ (h.h2 * 0xD6E8FEB86659FD93ull) ^ (static_cast<uint64_t>(seed_) << 32) ^
            (items_inserted_ * 0x9E3779B97F4A7C15ull));
  if (rng == 0) rng = 0x2545F4914F6CDD1Dull;
  uint64_t bucket = (XorShift64(&rng) >> 63) != 0 ? i2 : i1;
  uint32_t cur = fp;
  uint32_t n = 0;
  while (n < max_iterations_) {
    const uint32_t slot = static_cast<uint32_t>(XorShift64(&rng) >> 32) & slot_mask;
    const uint32_t victim = t.ReadSlot(bucket, slot);
    t.WriteSlot(bucket, slot, cur);
    chain[n++] = (bucket << 3) | slot;
    cur = victim;
    bucket ^= MixFingerprint(cur) | 1;
    bucket &= mask;
    if (t.InsertIntoBucket(bucket, cur)) {
      last_kicks_ = n;
      return true;
    }
  }
  // Roll back: undo the swaps newest first; cur ends as the fingerprint we started with.
  for (uint32_t k = n; k-- > 0;) {
    const uint64_t b = chain[k] >> 3;
    const uint32_t s = static_cast<uint32_t>(chain[k] & 7);
    const uint32_t back = t.ReadSlot(b, s);
    t.WriteSlot(b, s, cur);
    cur = back;
  }
  last_kicks_ = n;
  return false;
}

bool CuckooFilter::Grow(Lookup lk, Hash128 h) {
  if (expansion_ == 0 || num_filters_ >= kMaxFilters) return false;
  const uint64_t first = storage_->tables[0].num_buckets();
  const uint64_t shift = static_cast<uint64_t>(Log2(expansion_)) * num_filters_;
  if (shift > kMaxBucketsLog2 || Log2(first) + shift > kMaxBucketsLog2) return false;
  internal::CuckooTable& t = storage_->tables[num_filters_];
  if (!t.Init(first << shift, bucket_size_, fingerprint_bits_).ok()) return false;
  ++num_filters_;
  const uint64_t mask = t.mask();
  // the new sub-filter is empty: the key's first bucket takes it
  t.InsertIntoBucket(h.h1 & mask, lk.fp);
  return true;
}

void CuckooFilter::Compact() {
  for (uint32_t k = num_filters_; k-- > 1;) {
    internal::CuckooTable& t = storage_->tables[k];
    for (uint64_t b = 0; b < t.num_buckets(); ++b) {
      for (uint32_t s = 0; s < bucket_size_; ++s) {
        const uint32_t fp = t.ReadSlot(b, s);
        if (fp == 0) continue;
        const uint64_t offset = MixFingerprint(fp) | 1;
        for (uint32_t j = 0; j < k; ++j) {
          internal::CuckooTable& older = storage_->tables[j];
          const uint64_t mask = older.mask();
          const uint64_t i1 = b & mask;  // = the key's i1 or i2 there: the same pair of buckets
          if (older.InsertIntoBucket(i1, fp) || older.InsertIntoBucket(i1 ^ (offset & mask), fp)) {
            t.WriteSlot(b, s, 0);
            --storage_->items[k];
            ++storage_->items[j];
            break;
          }
        }
      }
    }
  }
  while (num_filters_ > 1 && storage_->items[num_filters_ - 1] == 0) {
    storage_->tables[num_filters_ - 1].Reset();
    --num_filters_;
  }
}

bool CuckooFilter::AddUnique(Hash128 h) {
  if (Contains(h)) {
    last_kicks_ = 0;
    return false;
  }
  return Add(h);
}

bool CuckooFilter::Remove(Hash128 h) {
  if (num_filters_ == 0) return false;
  const Lookup lk = MakeLookup(h);
  for (uint32_t k = num_filters_; k-- > 0;) {
    internal::CuckooTable& t = storage_->tables[k];
    const uint64_t mask = t.mask();
    const uint64_t i1 = h.h1 & mask;
    if (t.DeleteFromBucket(i1, lk.fp) || t.DeleteFromBucket(i1 ^ (lk.offset & mask), lk.fp)) {
      --storage_->items[k];
      ++items_deleted_;
      return true;
    }
  }
  return false;
}

size_t CuckooFilter::AddBatch(const KeyBatch& batch, uint8_t* results) {
  size_t added = 0;
  ForEachHash(batch, seed_, [&](size_t i, Hash128 h) {
    const bool ok = Add(h);
    added += ok ? 1 : 0;
    if (results != nullptr) results[i] = ok ? 1 : 0;
  });
  return added;
}

void CuckooFilter::ContainsBatch(const KeyBatch& batch, uint8_t* out) const {
  ForEachHash(batch, seed_, [&](size_t i, Hash128 h) { out[i] = Contains(h) ? 1 : 0; });
}

void CuckooFilter::Clear() {
  if (num_filters_ == 0) return;
  for (uint32_t k = 1; k < num_filters_; ++k) storage_->tables[k].Reset();
  storage_->tables[0].Clear();
  for (uint64_t& n : storage_->items) n = 0;
  num_filters_ = 1;
  items_inserted_ = 0;
  items_deleted_ = 0;
  last_kicks_ = 0;
}

double CuckooFilter::LoadFactor() const {
  if (num_filters_ == 0) return 0;
  return static_cast<double>(size()) / (static_cast<double>(buckets()) * bucket_size_);
}

size_t CuckooFilter::byte_length() const {
  size_t n = 0;
  for (uint32_t k = 0; k < num_filters_; ++k) n += storage_->tables[k].payload_bytes();
  return n;
}

size_t CuckooFilter::allocated_bytes() const {
  if (!storage_) return 0;
  return sizeof(internal::CuckooStorage) + byte_length() + storage_->chain.bytes();
}

uint64_t CuckooFilter::buckets() const {
  uint64_t n = 0;
  for (uint32_t k = 0; k < num_filters_; ++k) n += storage_->tables[k].num_buckets();
  return n;
}

uint64_t CuckooFilter::sub_filter_buckets(uint32_t i) const {
  return i < num_filters_ ? storage_->tables[i].num_buckets() : 0;
}

uint64_t CuckooFilter::sub_filter_items(uint32_t i) const {
  return i < num_filters_ ? storage_->items[i] : 0;
}

double CuckooFilter::EstimatedFpr() const {
  if (num_filters_ == 0) return 0;
  // A probe checks 2b slots per sub-filter; each holds the probe's fingerprint with probability
  // (its load) / (2^f - 1). The chance of no match anywhere is the product over sub-filters.
  const double q = 1.0 / (std::ldexp(1.0, static_cast<int>(fingerprint_bits_)) - 1);
  double log_none = 0;
  for (uint32_t k = 0; k < num_filters_; ++k) {
    const internal::CuckooTable& t = storage_->tables[k];
    const double slots = static_cast<double>(t.num_buckets()) * bucket_size_;
    const double load = static_cast<double>(storage_->items[k]) / slots;
    log_none += 2.0 * bucket_size_ * load * std::log1p(-q);
  }
  return -std::expm1(log_none);
}

size_t CuckooFilter::BodySize() const {
  uint64_t n = kFixedBodySize;
  for (uint32_t k = 0; k < num_filters_; ++k) {
    n += kSubFilterHeaderSize + storage_->tables[k].payload_bytes();
  }
  return static_cast<size_t>(n);
}

void CuckooFilter::WriteBody(internal::ByteWriter& w) const {
  w.U64(capacity_);
  w.F64(error_rate_);
  w.U32(fingerprint_bits_);
  w.U32(bucket_size_);
  w.U32(max_iterations_);
  w.U32(expansion_);
  w.U64(items_inserted_);
  w.U64(items_deleted_);
  w.U32(num_filters_);
  for (uint32_t k = 0; k < num_filters_; ++k) {
    const internal::CuckooTable& t = storage_->tables[k];
    w.U64(t.num_buckets());
    w.U64(t.payload_bytes());
    w.Bytes(t.payload(), t.payload_bytes());
  }
}

namespace {
Status Corrupt(const char* why) { return Status(StatusCode::kCorruptData, why); }
}  // namespace

// The body's fixed part: the parameters and counts, checked; *filters is the sub-filter count.
Status CuckooFilter::ReadParameters(internal::ByteReader& r, uint32_t* filters) {
  capacity_ = r.U64();
  error_rate_ = r.F64();
  fingerprint_bits_ = r.U32();
  bucket_size_ = r.U32();
  max_iterations_ = r.U32();
  expansion_ = r.U32();
  items_inserted_ = r.U64();
  items_deleted_ = r.U64();
  *filters = r.U32();
  if (!r.ok()) return Corrupt("corrupt cuckoo filter: truncated header");
  if (capacity_ == 0 || !(error_rate_ > 0 && error_rate_ < 1) ||
      !ValidFingerprintBits(fingerprint_bits_) || !ValidBucketSize(bucket_size_) ||
      max_iterations_ == 0 || max_iterations_ > kMaxIterationsLimit ||
      (expansion_ != 0 && !internal::IsPowerOfTwo(expansion_)) || expansion_ > kMaxExpansion) {
    return Corrupt("corrupt cuckoo filter: invalid parameters");
  }
  if (*filters == 0 || *filters > kMaxFilters || (expansion_ == 0 && *filters != 1)) {
    return Corrupt("corrupt cuckoo filter: invalid sub-filter count");
  }
  if (items_deleted_ > items_inserted_) {
    return Corrupt("corrupt cuckoo filter: more items deleted than inserted");
  }
  // The capacity is what the filter was sized for; the bucket counts are not re-derived from it
  // (docs/FORMAT.md): the first sub-filter's is any power of two up to 2^40 that the payload
  // pays for, and sub-filter k has first * expansion^k buckets.
  if (capacity_ > kMaxCapacity) return Corrupt("corrupt cuckoo filter: capacity out of range");
  return Status::Ok();
}

// Sub-filter k (after k others, the first of `first` buckets; set when k is 0): its bucket count,
// payload length and payload, checked, into tables[k].
Status CuckooFilter::ReadSubFilter(internal::ByteReader& r, uint32_t k, uint64_t* first) {
  const uint64_t buckets = r.U64();
  const uint64_t payload = r.U64();
  if (!r.ok()) return Corrupt("corrupt cuckoo filter: truncated sub-filter");
  if (k == 0) {
    if (!internal::IsPowerOfTwo(buckets) || buckets > (uint64_t{1} << kMaxBucketsLog2)) {
      return Corrupt("corrupt cuckoo filter: bucket count is not a power of two up to 2^40");
    }
    *first = buckets;
  }
  // Sub-filter k has first * expansion^k buckets (checked without overflow).
  const uint64_t shift = static_cast<uint64_t>(expansion_ == 0 ? 0 : Log2(expansion_)) * k;
  if (shift > kMaxBucketsLog2 || Log2(*first) + shift > kMaxBucketsLog2 ||
      buckets != (*first << shift)) {
    return Corrupt("corrupt cuckoo filter: sub-filter bucket count inconsistent");
  }
  if (payload != internal::CuckooTable::PayloadBytes(buckets, bucket_size_, fingerprint_bits_)) {
    return Corrupt("corrupt cuckoo filter: sub-filter payload length inconsistent");
  }
  if (payload > r.remaining())
    return Corrupt("corrupt cuckoo filter: truncated sub-filter payload");
  internal::CuckooTable& t = storage_->tables[k];
  BLOOMCUCKOO_RETURN_IF_ERROR(t.Init(buckets, bucket_size_, fingerprint_bits_));
  if (!r.Read(t.mutable_payload(), static_cast<size_t>(payload))) {
    return Corrupt("corrupt cuckoo filter");
  }
  if (!t.PaddingIsZero()) return Corrupt("corrupt cuckoo filter: nonzero padding bits");
  storage_->items[k] = t.CountOccupied();
  num_filters_ = k + 1;
  return Status::Ok();
}

Status CuckooFilter::ReadBody(internal::ByteReader& r, const internal::FrameInfo& info) {
  seed_ = info.seed;
  uint32_t filters = 0;
  BLOOMCUCKOO_RETURN_IF_ERROR(ReadParameters(r, &filters));
  storage_.reset(new (std::nothrow) internal::CuckooStorage());
  if (!storage_) return Status(StatusCode::kOutOfMemory, "out of memory allocating cuckoo filter");
  uint64_t first = 0;
  uint64_t occupied = 0;
  for (uint32_t k = 0; k < filters; ++k) {
    BLOOMCUCKOO_RETURN_IF_ERROR(ReadSubFilter(r, k, &first));
    occupied += storage_->items[k];
  }
  if (!r.AtEnd()) return Corrupt("corrupt cuckoo filter: trailing bytes");
  if (occupied != items_inserted_ - items_deleted_) {
    return Corrupt("corrupt cuckoo filter: item count disagrees with the stored fingerprints");
  }
  return Status::Ok();
}

template class internal::FilterBase<CuckooFilter, internal::CuckooFields>;

}  // namespace bloomcuckoo
