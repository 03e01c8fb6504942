// RedisCuckooFilter: RedisBloom's CF, written from its documented behaviour and the replies and
// bytes of its server (see the header); no RedisBloom code is used.
#include "bloomcuckoo/redis_cuckoo_filter.h"

#include <cstring>
#include <limits>
#include <utility>

#include "bloomcuckoo/murmur2.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "checks.h"
#include "filter_base_impl.h"
#include "frame.h"
#include "redis_dump.h"

namespace bloomcuckoo {
namespace {

constexpr uint64_t kAltMultiplier = 0x5bd1e995;
// CF.INFO "Size": RedisBloom's struct sizes (x86-64): the filter, and one record per sub-filter.
constexpr uint64_t kInfoFilterBytes = 40;
constexpr uint64_t kInfoSubFilterBytes = 16;
// The most sub-filters RedisBloom's CF can have (it counts them in 16 bits; one CF.INSERT may grow
// a filter past the 32 at which later commands are refused): bounds a dump read from untrusted
// input.
constexpr uint64_t kMaxSubFilters = 65535;
// The most buckets a sub-filter may have (RedisBloom stores the count in 56 bits).
constexpr uint64_t kMaxBuckets = (uint64_t{1} << 56) - 1;

Status Corrupt(const char* what) { return Status(StatusCode::kCorruptData, what); }

// The smallest power of two >= n, as RedisBloom rounds (0 stays 0).
uint64_t NextPow2(uint64_t n) {
  --n;
  n |= n >> 1;
  n |= n >> 2;
  n |= n >> 4;
  n |= n >> 8;
  n |= n >> 16;
  n |= n >> 32;
  return n + 1;
}

// Buckets of sub-filter k: first * expansion^k (RedisBloom: expansion^0 = 1, 0^k = 0 for k > 0);
// false past RedisBloom's 56-bit bucket count. Never a loop over k (a header may claim 65535
// sub-filters, and this is asked for each): expansion 0 or 1 and first 0 are closed forms, and
// with expansion >= 2 and first >= 1 the product passes 2^56 within 56 rounds.
bool SubFilterBuckets(uint64_t first, uint32_t expansion, uint64_t k, uint64_t* out) {
  if (k == 0 || first == 0) {
    *out = first;
    return true;
  }
  if (expansion <= 1) {
    if (first > kMaxBuckets) return false;
    *out = expansion == 0 ? 0 : first;
    return true;
  }
  uint64_t n = first;
  for (uint64_t i = 0; i < k; ++i) {  // at most 57 rounds: n at least doubles in each
    if (n > kMaxBuckets / expansion) return false;
    n *= expansion;
  }
  *out = n;
  return true;
}

}  // namespace

uint64_t RedisCfHashing::Of(const void* key, size_t len, uint32_t /*seed*/) {
  return MurmurHash64A(key, len, 0);
}

uint64_t RedisCuckooFilter::FirstSubFilterBuckets(uint64_t capacity, uint32_t bucket_size) {
  const uint64_t n = NextPow2(capacity / bucket_size);
  return n == 0 ? 1 : n;
}

Status RedisCuckooFilter::Init(const RedisCuckooOptions& o) {
  const RedisServerRules* server = RedisServerRulesOf(o.server);
  if (server == nullptr) return Status(StatusCode::kInvalidArgument, "unknown server");
  if (o.capacity > server->max_capacity)
    return Status(StatusCode::kInvalidArgument, server->limits);
  // The server's own messages.
  if (o.bucket_size < 1 || o.bucket_size > 255) {
    return Status(StatusCode::kInvalidArgument,
                  "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.");
  }
  if (o.max_iterations < 1 || o.max_iterations > 65535) {
    return Status(StatusCode::kInvalidArgument,
                  "MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.");
  }
  if (o.expansion > 32768) {
    return Status(StatusCode::kInvalidArgument,
                  "EXPANSION: value must be an integer between 0 and 32768, inclusive.");
  }
  if (o.capacity < uint64_t{2} * o.bucket_size) {
    return Status(StatusCode::kInvalidArgument, "Capacity must be at least (BucketSize * 2)");
  }
  if (o.capacity > (uint64_t{1} << 48)) {
    return Status(StatusCode::kOutOfMemory, "capacity too large: the filter cannot be allocated");
  }
  RedisCuckooFilter tmp;
  tmp.bucket_size_ = o.bucket_size;
  tmp.max_iterations_ = o.max_iterations;
  tmp.expansion_ = static_cast<uint32_t>(NextPow2(o.expansion));
  tmp.num_buckets_ = FirstSubFilterBuckets(o.capacity, o.bucket_size);
  BLOOMCUCKOO_RETURN_IF_ERROR(tmp.Grow());
  *this = std::move(tmp);
  return Status::Ok();
}

Status RedisCuckooFilter::Grow() {
  if (filters_.size() >= kMaxSubFilters) {
    return Status(StatusCode::kOutOfMemory,
                  "65535 sub-filters: RedisBloom cannot grow a filter further");
  }
  uint64_t buckets = 0;
  if (!SubFilterBuckets(num_buckets_, expansion_, filters_.size(), &buckets)) {
    return Status(StatusCode::kOutOfMemory, "a new sub-filter would be too large to allocate");
  }
  SubFilter f;
  f.buckets = buckets;
  BLOOMCUCKOO_RETURN_IF_ERROR(f.data.Allocate(buckets * bucket_size_));
  filters_.push_back(std::move(f));
  return Status::Ok();
}

RedisCuckooFilter::Lookup RedisCuckooFilter::MakeLookup(uint64_t hash) {
  Lookup lk;
  lk.fp = static_cast<uint8_t>(hash % 255 + 1);
  lk.h1 = hash;
  lk.h2 = hash ^ (static_cast<uint64_t>(lk.fp) * kAltMultiplier);
  return lk;
}

uint8_t* RedisCuckooFilter::FindAvailable(SubFilter& f, uint64_t h1, uint64_t h2) {
  for (uint64_t h : {h1, h2}) {
    uint8_t* bucket = f.data.data() + (h % f.buckets) * bucket_size_;
    for (uint32_t s = 0; s < bucket_size_; ++s) {
      if (bucket[s] == 0) return bucket + s;
    }
  }
  return nullptr;
}

bool RedisCuckooFilter::KickInsert(SubFilter& f, const Lookup& lk) {
  // RedisBloom walks with 32-bit bucket indices; victims are slot 0, 1, 2, ... in turn.
  const uint32_t n = static_cast<uint32_t>(f.buckets);
  const uint32_t b = bucket_size_;
  uint8_t* data = f.data.data();
  uint8_t fp = lk.fp;
  uint32_t victim = 0;
  uint32_t i = static_cast<uint32_t>(lk.h1 % n);
  for (uint32_t counter = 0; counter < max_iterations_; ++counter) {
    std::swap(data[static_cast<uint64_t>(i) * b + victim], fp);
    i = static_cast<uint32_t>((i ^ (static_cast<uint64_t>(fp) * kAltMultiplier)) % n);
    uint8_t* bucket = data + static_cast<uint64_t>(i) * b;
    for (uint32_t s = 0; s < b; ++s) {
      if (bucket[s] == 0) {
        bucket[s] = fp;
        return true;
      }
    }
    victim = (victim + 1) % b;
  }
  // Roll back: walk the chain backwards, swapping every fingerprint back into place.
  for (uint32_t counter = 0; counter < max_iterations_; ++counter) {
    victim = (victim + b - 1) % b;
    i = static_cast<uint32_t>((i ^ (static_cast<uint64_t>(fp) * kAltMultiplier)) % n);
    std::swap(data[static_cast<uint64_t>(i) * b + victim], fp);
  }
  return false;
}

RedisCuckooFilter::Insert RedisCuckooFilter::InsertFingerprint(const Lookup& lk, Status* status) {
  for (size_t k = filters_.size(); k-- > 0;) {
    if (uint8_t* slot = FindAvailable(filters_[k], lk.h1, lk.h2)) {
      *slot = lk.fp;
      ++num_items_;
      return Insert::kInserted;
    }
  }
  if (KickInsert(filters_.back(), lk)) {
    ++num_items_;
    return Insert::kInserted;
  }
  // At the last sub-filter RedisBloom's grow fails and CF.INSERT replies -1 for the key and goes
  // on (its "insufficient memory" case), so here the key does not fit: no room, not an error.
  if (expansion_ == 0 || filters_.size() >= kMaxSubFilters) return Insert::kNoSpace;
  *status = Grow();
  if (!status->ok()) return Insert::kNoSpace;
  return InsertFingerprint(lk, status);  // the new sub-filter is empty: this finds a slot
}

Status RedisCuckooFilter::CheckCanInsert() const {
  if (filters_.empty()) return Status(StatusCode::kInvalidArgument, "filter is not initialised");
  if (filters_.size() >= kMaxFilters)
    return Status(StatusCode::kFull, "Maximum expansions reached");
  return Status::Ok();
}

Status RedisCuckooFilter::InsertHash(uint64_t hash, bool unique, Insert* result) {
  if (unique && Contains(hash)) {
    *result = Insert::kExists;
    return Status::Ok();
  }
  Status status;
  *result = InsertFingerprint(MakeLookup(hash), &status);
  return status;
}

Status RedisCuckooFilter::Add(uint64_t hash, bool unique, Insert* result) {
  *result = Insert::kNoSpace;
  BLOOMCUCKOO_RETURN_IF_ERROR(CheckCanInsert());
  return InsertHash(hash, unique, result);
}

Status RedisCuckooFilter::AddBatch(const KeyBatch& keys, bool unique, bool first, uint8_t* out,
                                   size_t* processed) {
  *processed = 0;
  // CF.INSERT checks the sub-filter limit once per command, so one command may grow past it.
  BLOOMCUCKOO_RETURN_IF_ERROR(first ? CheckCanInsert() : Status::Ok());
  for (size_t i = 0; i < keys.count; ++i) {
    Insert r = Insert::kNoSpace;
    BLOOMCUCKOO_RETURN_IF_ERROR(InsertHash(HashOf(keys.key(i), keys.length(i)), unique, &r));
    out[i] = r == Insert::kInserted ? 1 : 0;
    *processed = i + 1;
  }
  return Status::Ok();
}

bool RedisCuckooFilter::Contains(uint64_t hash) const {
  const Lookup lk = MakeLookup(hash);
  for (const SubFilter& f : filters_) {
    for (uint64_t h : {lk.h1, lk.h2}) {
      const uint8_t* bucket = f.data.data() + (h % f.buckets) * bucket_size_;
      for (uint32_t s = 0; s < bucket_size_; ++s) {
        if (bucket[s] == lk.fp) return true;
      }
    }
  }
  return false;
}

uint64_t RedisCuckooFilter::Count(uint64_t hash) const {
  const Lookup lk = MakeLookup(hash);
  uint64_t n = 0;
  for (const SubFilter& f : filters_) {
    for (uint64_t h : {lk.h1, lk.h2}) {  // as the server: both buckets, even when they coincide
      const uint8_t* bucket = f.data.data() + (h % f.buckets) * bucket_size_;
      for (uint32_t s = 0; s < bucket_size_; ++s) n += bucket[s] == lk.fp ? 1 : 0;
    }
  }
  return n;
}

bool RedisCuckooFilter::Delete(uint64_t hash) {
  const Lookup lk = MakeLookup(hash);
  for (size_t k = filters_.size(); k-- > 0;) {
    SubFilter& f = filters_[k];
    for (uint64_t h : {lk.h1, lk.h2}) {
      uint8_t* bucket = f.data.data() + (h % f.buckets) * bucket_size_;
      for (uint32_t s = 0; s < bucket_size_; ++s) {
        if (bucket[s] != lk.fp) continue;
        bucket[s] = 0;
        --num_items_;
        ++num_deletes_;
        if (filters_.size() > 1 &&
            static_cast<double>(num_deletes_) > static_cast<double>(num_items_) * 0.10) {
          Compact(false);
        }
        return true;
      }
    }
  }
  return false;
}

bool RedisCuckooFilter::CompactOne(uint32_t index) {
  SubFilter& f = filters_[index];
  bool all_moved = true;
  for (uint64_t b = 0; b < f.buckets; ++b) {
    uint8_t* bucket = f.data.data() + b * bucket_size_;
    for (uint32_t s = 0; s < bucket_size_; ++s) {
      const uint8_t fp = bucket[s];
      if (fp == 0) continue;
      // An older sub-filter has fewer buckets (a divisor of this one's count), so this bucket
      // index and the fingerprint give the same two candidate buckets there.
      const uint64_t h1 = b;
      const uint64_t h2 = b ^ (static_cast<uint64_t>(fp) * kAltMultiplier);
      bool moved = false;
      for (uint32_t k = 0; k < index && !moved; ++k) {
        if (uint8_t* slot = FindAvailable(filters_[k], h1, h2)) {
          *slot = fp;
          bucket[s] = 0;
          moved = true;
        }
      }
      if (!moved) all_moved = false;
    }
  }
  if (all_moved && index == filters_.size() - 1) filters_.pop_back();
  return all_moved;
}

void RedisCuckooFilter::Compact(bool keep_going) {
  for (size_t k = filters_.size(); k > 1; --k) {
    if (!CompactOne(static_cast<uint32_t>(k - 1)) && !keep_going) break;
  }
  num_deletes_ = 0;
}

void RedisCuckooFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  for (size_t i = 0; i < keys.count; ++i)
    out[i] = Contains(HashOf(keys.key(i), keys.length(i))) ? 1 : 0;
}

void RedisCuckooFilter::Clear() {
  if (filters_.empty()) return;
  filters_.resize(1);
  filters_[0].data.Clear();
  num_items_ = 0;
  num_deletes_ = 0;
}

uint64_t RedisCuckooFilter::info_size() const {
  return kInfoFilterBytes + kInfoSubFilterBytes * filters_.size() + byte_length();
}

size_t RedisCuckooFilter::byte_length() const {
  size_t n = 0;
  for (const SubFilter& f : filters_) n += static_cast<size_t>(f.buckets * bucket_size_);
  return n;
}

void RedisCuckooFilter::WriteDumpHeader(uint8_t* out) const {
  internal::StoreLE(out, num_items_, 8);
  internal::StoreLE(out + 8, num_buckets_, 8);
  internal::StoreLE(out + 16, num_deletes_, 8);
  internal::StoreLE(out + 24, filters_.size(), 8);
  internal::StoreLE(out + 32, bucket_size_, 2);
  internal::StoreLE(out + 34, max_iterations_, 2);
  internal::StoreLE(out + 36, expansion_, 2);
}

Status RedisCuckooFilter::ParseHeader(const uint8_t* header, size_t len, RedisCuckooFilter* out,
                                      uint64_t* data_bytes) const {
  if (len != kDumpHeaderBytes) return Corrupt("not a RedisBloom CF dump: header is not 38 bytes");
  out->num_items_ = internal::LoadLE(header, 8);
  out->num_buckets_ = internal::LoadLE(header + 8, 8);
  out->num_deletes_ = internal::LoadLE(header + 16, 8);
  const uint64_t filters = internal::LoadLE(header + 24, 8);
  out->bucket_size_ = static_cast<uint32_t>(internal::LoadLE(header + 32, 2));
  out->max_iterations_ = static_cast<uint32_t>(internal::LoadLE(header + 34, 2));
  out->expansion_ = static_cast<uint32_t>(internal::LoadLE(header + 36, 2));
  // Expansion is 0 or a power of two (Init and the server round it up), so every sub-filter's
  // bucket count is a power of two: a kick's alternate bucket, (i ^ fp * m) mod n, is the key's
  // other bucket only then.
  if (out->bucket_size_ < 1 || out->bucket_size_ > 255 || out->max_iterations_ < 1 ||
      !internal::IsPowerOfTwo(out->num_buckets_) || out->num_buckets_ > kMaxBuckets ||
      filters < 1 || filters > kMaxSubFilters || (out->expansion_ == 0 && filters != 1) ||
      (out->expansion_ != 0 && !internal::IsPowerOfTwo(out->expansion_))) {
    return Corrupt("not a RedisBloom CF dump: invalid header fields");
  }
  // The sub-filters' slots (at most 2^62 in all), in time independent of the claimed count: with
  // expansion 0 or 1 every sub-filter has the first's buckets (a product); with expansion >= 2
  // each has at least twice the last's, so the walk meets one of 2^56 buckets or more (refused)
  // within 57 sub-filters.
  constexpr uint64_t kMaxTotal = uint64_t{1} << 62;
  const uint64_t slots = out->bucket_size_;
  uint64_t total = 0;
  if (out->expansion_ <= 1) {
    const uint64_t each = out->num_buckets_;
    if (each > kMaxBuckets / slots || each * slots > kMaxTotal / filters) {
      return Corrupt("not a RedisBloom CF dump: sub-filters too large");
    }
    total = each * slots * filters;
  } else {
    uint64_t buckets = out->num_buckets_;
    for (uint64_t k = 0; k < filters; ++k) {
      if (k > 0 && buckets > kMaxBuckets / out->expansion_) {
        return Corrupt("not a RedisBloom CF dump: sub-filters too large");
      }
      if (k > 0) buckets *= out->expansion_;
      if (buckets > kMaxBuckets / slots || buckets * slots > kMaxTotal - total) {
        return Corrupt("not a RedisBloom CF dump: sub-filters too large");
      }
      total += buckets * slots;
    }
  }
  *data_bytes = total;
  return Status::Ok();
}

Status RedisCuckooFilter::LoadDumpHeader(const uint8_t* header, size_t len, uint64_t data_bytes) {
  RedisCuckooFilter tmp;
  uint64_t total = 0;
  BLOOMCUCKOO_RETURN_IF_ERROR(ParseHeader(header, len, &tmp, &total));
  if (total != data_bytes) {
    return Corrupt("RedisBloom CF dump: the data chunks do not add up to the sub-filters");
  }
  const uint64_t filters = internal::LoadLE(header + 24, 8);
  for (uint64_t k = 0; k < filters; ++k) BLOOMCUCKOO_RETURN_IF_ERROR(tmp.Grow());
  tmp.load_next_ = 0;
  *this = std::move(tmp);
  return Status::Ok();
}

uint8_t* RedisCuckooFilter::DumpChunkTarget(uint64_t iterator, size_t len, Status* status) {
  static constexpr internal::DumpChunkFaults kFaults{
      "RedisBloom CF dump: data chunks missing, repeated or out of order",
      "RedisBloom CF dump: a data chunk spans two sub-filters",
      "RedisBloom CF dump: a data chunk runs past the sub-filters"};
  const uint64_t slots = bucket_size_;
  return internal::DumpChunkTarget(
      filters_, [slots](const SubFilter& f) { return f.buckets * slots; }, iterator, len,
      &load_next_, &load_part_, &load_part_start_, kFaults, status);
}

Status RedisCuckooFilter::FinishDumpLoad() {
  // The item count is not checked against the stored fingerprints: the server never does, and
  // serves filters where they differ (a LOADCHUNK of data over a filter, a load of the header
  // only).
  if (load_next_ != byte_length())
    return Corrupt("RedisBloom CF dump: truncated (data chunks missing)");
  return Status::Ok();
}

// Our format (kind 8): the body is the 38-byte CF header followed by every sub-filter's bytes.
size_t RedisCuckooFilter::BodySize() const { return kDumpHeaderBytes + byte_length(); }

void RedisCuckooFilter::WriteBody(internal::ByteWriter& w) const {
  uint8_t head[kDumpHeaderBytes];
  WriteDumpHeader(head);
  w.Bytes(head, kDumpHeaderBytes);
  for (const SubFilter& f : filters_) {
    w.Bytes(f.data.data(), static_cast<size_t>(f.buckets * bucket_size_));
  }
}

Status RedisCuckooFilter::ReadBody(internal::ByteReader& body, const internal::FrameInfo& info) {
  if (info.seed != 0)
    return Corrupt("corrupt redis-cuckoo filter: RedisBloom hashes have no seed (must be 0)");
  uint8_t header[kDumpHeaderBytes];
  if (!body.Read(header, kDumpHeaderBytes))
    return Corrupt("corrupt redis-cuckoo filter: truncated");
  BLOOMCUCKOO_RETURN_IF_ERROR(LoadDumpHeader(header, kDumpHeaderBytes, body.remaining()));
  for (SubFilter& f : filters_) {
    const size_t bytes = static_cast<size_t>(f.buckets * bucket_size_);
    if (!body.Read(f.data.data(), bytes)) return Corrupt("corrupt redis-cuckoo filter: truncated");
  }
  load_next_ = byte_length();
  BLOOMCUCKOO_RETURN_IF_ERROR(FinishDumpLoad());
  if (!body.AtEnd()) return Corrupt("corrupt redis-cuckoo filter: trailing bytes");
  return Status::Ok();
}

template class internal::FilterBase<RedisCuckooFilter, internal::RedisCuckooFields>;

}  // namespace bloomcuckoo
