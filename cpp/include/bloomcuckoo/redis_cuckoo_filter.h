// RedisCuckooFilter: RedisBloom's CF type bit for bit, so a filter read from CF.SCANDUMP answers
// CF.EXISTS / CF.COUNT exactly as the server, and the same operations give the same replies and
// the same dump. Matched against RedisBloom 2.6.12 (docs/FORMAT.md describes its dump).
//
// How RedisBloom's CF works (and so this class):
//  - hash = MurmurHash64A(key, seed 0); fingerprint fp = hash % 255 + 1 (one byte, 0 = empty);
//    the two buckets of a sub-filter of n buckets (a power of two) are hash % n and
//    (hash ^ fp * 0x5bd1e995) % n. Buckets hold `bucket_size` one-byte slots (1..255).
//  - The first sub-filter has nextPow2(capacity / bucket_size) buckets; sub-filter k has
//    first * expansion^k (expansion rounded up to a power of two; 0 = never grow).
//  - CF.ADD: the first free slot in the two buckets, newest sub-filter first; else kicks in the
//    newest sub-filter (up to max_iterations, victim slot 0, 1, 2, ... in turn, rolled back on
//    failure); else a new sub-filter ("Filter is full" when expansion is 0). A CF.ADD on a filter
//    of 32 sub-filters is refused ("Maximum expansions reached"); CF.INSERT checks that once per
//    command, so one CF.INSERT may grow a filter past 32 (up to 65535, RedisBloom's 16-bit count).
//  - CF.DEL removes one copy, newest sub-filter first, and compacts (moves fingerprints of newer
//    sub-filters into older ones, dropping emptied newest sub-filters) once deletions exceed 10%
//    of the items.
// Known weaknesses (as every cuckoo filter): a key fits at most 2 * bucket_size times per
// sub-filter, and deleting a key never added can delete another key's fingerprint.
#ifndef BLOOMCUCKOO_REDIS_CUCKOO_FILTER_H_
#define BLOOMCUCKOO_REDIS_CUCKOO_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/internal/filter_base.h"
#include "bloomcuckoo/redis_server.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

struct RedisCuckooOptions {
  uint64_t capacity = 0;         // CF.RESERVE capacity (>= 2 * bucket_size)
  uint32_t bucket_size = 2;      // BUCKETSIZE, 1..255
  uint32_t max_iterations = 20;  // MAXITERATIONS, 1..65535
  uint32_t expansion = 1;        // EXPANSION, 0..32768 (rounded up to a power of two)
  RedisServer server = 0;        // the row of kRedisServers whose capacity limit applies
};

// RedisBloom's CF key hash (hash id 2): MurmurHash64A(key, seed 0); the fingerprint is
// hash % 255 + 1. No seed of ours: `seed` is ignored.
struct RedisCfHashing {
  using Hash = uint64_t;
  static constexpr uint8_t kId = kHashMurmur64A;
  static Hash Of(const void* key, size_t len, uint32_t seed = 0);
};

namespace internal {
// One sub-filter: buckets * bucket_size one-byte slots.
struct RedisCfSubFilter {
  Buffer<uint8_t> data;
  uint64_t buckets = 0;
};
// RedisCuckooFilter's data (filter_base.h: moves reset it to these defaults).
struct RedisCuckooFields {
  std::vector<RedisCfSubFilter> filters_;
  uint64_t num_buckets_ = 0;
  uint64_t num_items_ = 0;
  uint64_t num_deletes_ = 0;
  uint32_t bucket_size_ = 0;
  uint32_t max_iterations_ = 0;
  uint32_t expansion_ = 0;
  uint64_t load_next_ = 0;
  size_t load_part_ = 0;          // the sub-filter the next dump chunk's search starts at
  uint64_t load_part_start_ = 0;  // its offset in the data (redis_dump.h)
};
}  // namespace internal

class RedisCuckooFilter
    : public internal::FilterBase<RedisCuckooFilter, internal::RedisCuckooFields> {
 public:
  // Sub-filters at which every insert is refused (RedisBloom's CFMaxExpansions default).
  static constexpr uint32_t kMaxFilters = 32;
  static constexpr size_t kMaxChunkBytes = size_t{16} << 20;
  static constexpr size_t kDumpHeaderBytes = 38;

  enum class Insert { kInserted, kExists, kNoSpace };

  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kRedisCuckoo;
  using KeyHashing = RedisCfHashing;

  RedisCuckooFilter() = default;

  // As CF.RESERVE; kInvalidArgument with the server's message for a bad option.
  Status Init(const RedisCuckooOptions& options);
  // Buckets of the first sub-filter Init makes (NextPow2(capacity / bucketSize), at least 1);
  // each holds bucketSize one-byte slots.
  static uint64_t FirstSubFilterBuckets(uint64_t capacity, uint32_t bucket_size);

  // As CF.ADD (unique = false) or CF.ADDNX (unique = true): *result says what happened. kFull
  // "Maximum expansions reached" at 32 sub-filters; kOutOfMemory when a sub-filter cannot be
  // allocated. Nothing changes on any error or kNoSpace.
  Status Add(uint64_t hash, bool unique, Insert* result);
  // As CF.INSERT (unique = false) / CF.INSERTNX (true) without NOCREATE, in batches: out[i] = 1
  // inserted, 0 not (exists, or no space: the server replies -1 and goes on). The sub-filter
  // limit is checked only when `first` (the command's first batch), as the server checks it once
  // per command. Stops at the first error with *processed = keys handled.
  Status AddBatch(const KeyBatch& keys, bool unique, bool first, uint8_t* out, size_t* processed);
  // As CF.EXISTS / CF.COUNT / CF.DEL.
  bool Contains(uint64_t hash) const;
  uint64_t Count(uint64_t hash) const;
  bool Delete(uint64_t hash);
  // As CF.COMPACT: moves fingerprints of newer sub-filters into older ones and drops emptied
  // newest sub-filters (`keep_going`: continue with older sub-filters after one cannot be emptied).
  void Compact(bool keep_going);
  // out[i] = 1 may be present, 0 certainly absent.
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;

  bool initialized() const { return !filters_.empty(); }
  // CF.INFO fields.
  uint64_t info_size() const;                            // "Size": 40 + 16 per sub-filter + data
  uint64_t num_buckets() const { return num_buckets_; }  // "Number of buckets" (first sub-filter)
  uint32_t num_filters() const { return static_cast<uint32_t>(filters_.size()); }
  uint64_t num_items() const { return num_items_; }      // "Number of items inserted"
  uint64_t size() const { return num_items_; }           // the same, under every filter's name
  uint64_t num_deletes() const { return num_deletes_; }  // "Number of items deleted"
  uint32_t bucket_size() const { return bucket_size_; }
  uint32_t expansion() const { return expansion_; }
  uint32_t max_iterations() const { return max_iterations_; }
  size_t byte_length() const;
  uint64_t filter_buckets(uint32_t i) const { return filters_[i].buckets; }
  const uint8_t* filter_data(uint32_t i) const { return filters_[i].data.data(); }
  uint64_t filter_bytes(uint32_t i) const { return filters_[i].buckets * bucket_size_; }
  uint32_t seed() const { return 0; }
  uint64_t HashOf(const void* key, size_t len) const { return KeyHashing::Of(key, len); }
  // Empties the filter: back to one empty first sub-filter, as CF.RESERVE made it.
  void Clear();

  // ---- RedisBloom's dump (CF.SCANDUMP / CF.LOADCHUNK) ----
  // The server sends no dump for a filter with no items (CF.SCANDUMP replies [0, nil]).
  size_t DumpHeaderSize() const { return num_items_ == 0 ? 0 : kDumpHeaderBytes; }
  void WriteDumpHeader(uint8_t* out) const;  // kDumpHeaderBytes bytes
  // As RedisBloomFilter's: validates the header chunk against `data_bytes` before allocating.
  Status LoadDumpHeader(const uint8_t* header, size_t len, uint64_t data_bytes);
  uint8_t* DumpChunkTarget(uint64_t iterator, size_t len, Status* status);
  // kCorruptData unless every byte came and the fingerprints stored match the item count.
  Status FinishDumpLoad();

 private:
  using SubFilter = internal::RedisCfSubFilter;
  struct Lookup {
    uint64_t h1;
    uint64_t h2;
    uint8_t fp;
  };
  static Lookup MakeLookup(uint64_t hash);
  Status Grow();
  // Refuses inserts into an un-initialised filter, or one of kMaxFilters sub-filters or more.
  Status CheckCanInsert() const;
  // Inserts (CF.ADD / CF.ADDNX) without the sub-filter limit check.
  Status InsertHash(uint64_t hash, bool unique, Insert* result);
  uint8_t* FindAvailable(SubFilter& f, uint64_t h1, uint64_t h2);
  bool KickInsert(SubFilter& f, const Lookup& lk);
  Insert InsertFingerprint(const Lookup& lk, Status* status);
  bool CompactOne(uint32_t index);
  Status ParseHeader(const uint8_t* header, size_t len, RedisCuckooFilter* out,
                     uint64_t* data_bytes) const;
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_REDIS_CUCKOO_FILTER_H_
