// RedisBloomFilter: RedisBloom's BF type (a scalable chain of Bloom filters), bit for bit, so a
// filter read from BF.SCANDUMP answers exactly as the server does, and one built here loads with
// BF.LOADCHUNK. Matched against RedisBloom 2.6.12 (the dump format and hashes are the same from
// 2.2.11 through Redis 8); docs/FORMAT.md describes the dump as read and written here.
//
// How RedisBloom's BF works (and so this class):
//  - A key's hash is two 64-bit values: a = MurmurHash64A(key, 0xc6a4a7935bd1e995),
//    b = MurmurHash64A(key, a). Probe i of a filter of `bits` bits is (a + i*b) mod bits
//    (mod 2^n2 for power-of-two filters), i = 0 .. hashes-1, bit x at byte x/8, bit x%8.
//  - A link (one Bloom filter) for `entries` keys at error e has bpe = -ln(e) / 0.480453013918201
//    bits per entry, bits = floor(entries * bpe) rounded up to whole 64-bit words, hashes =
//    ceil(0.693147180559945 * bpe). BF.RESERVE makes the first link at e = errorRate / 2
//    (errorRate when NONSCALING).
//  - BF.ADD checks every link; a key found anywhere is not added (reply 0). Otherwise, when the
//    newest link holds `entries` keys, a new link of entries * expansion keys at half its error
//    rate is added (NONSCALING: "non scaling filter is full", kFull here), and the key goes into
//    the newest link (reply 1).
// The RedisBloom-compatible classes are the one place that does not hash with MurmurHash3.
#ifndef BLOOMCUCKOO_REDIS_BLOOM_FILTER_H_
#define BLOOMCUCKOO_REDIS_BLOOM_FILTER_H_

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

struct RedisBloomOptions {
  uint64_t capacity = 0;     // BF.RESERVE capacity (>= 1)
  double error_rate = 0;     // BF.RESERVE error_rate, in (0, 1)
  uint32_t expansion = 2;    // EXPANSION, in the server's range (redis_server.h); stored also
                             // when non_scaling, as BF.INSERT does; 0 (where the server takes
                             // it) means non_scaling
  bool non_scaling = false;  // NONSCALING
  RedisServer server = 0;    // the row of kRedisServers whose rules to follow
};

// RedisBloom's BF key hash (hash id 2): a = MurmurHash64A(key, 0xc6a4a7935bd1e995),
// b = MurmurHash64A(key, a); probe i is a + i * b. No seed: `seed` is ignored.
struct RedisBfHashing {
  struct Hash {
    uint64_t a;
    uint64_t b;
  };
  static constexpr uint8_t kId = kHashMurmur64A;
  static Hash Of(const void* key, size_t len, uint32_t seed = 0);
};

namespace internal {
// One link of the chain: a Bloom filter as RedisBloom lays it out.
struct RedisBfLink {
  Buffer<uint8_t> data;
  uint64_t bytes = 0;
  uint64_t bits = 0;
  uint64_t size = 0;
  double error = 0;
  double bpe = 0;
  uint32_t hashes = 0;
  uint64_t entries = 0;
  uint8_t n2 = 0;
};
// RedisBloomFilter's data (filter_base.h: moves reset it to these defaults).
struct RedisBloomFields {
  std::vector<RedisBfLink> links_;
  uint64_t size_ = 0;
  uint32_t options_ = 0;
  uint32_t growth_ = 0;
  uint64_t load_next_ = 0;        // the data offset the next dump chunk must start at
  size_t load_part_ = 0;          // the link the next dump chunk's search starts at
  uint64_t load_part_start_ = 0;  // its offset in the data (redis_dump.h)
  RedisServer server_ = 0;
};
}  // namespace internal

class RedisBloomFilter : public internal::FilterBase<RedisBloomFilter, internal::RedisBloomFields> {
 public:
  // RedisBloom's option bits, as stored in its dump header.
  static constexpr uint32_t kOptNoRound = 1;
  static constexpr uint32_t kOptEntriesAreBits = 2;
  static constexpr uint32_t kOptForce64 = 4;
  static constexpr uint32_t kOptNoScaling = 8;
  // Data chunks of SCANDUMP are at most this long and never span two links.
  static constexpr size_t kMaxChunkBytes = size_t{16} << 20;
  // Bytes of the dump header before the links, and of each link record.
  static constexpr size_t kDumpHeaderBytes = 20;
  static constexpr size_t kDumpLinkBytes = 53;

  // Its row of the kind table (serialization.h) and its hash policy (HashOf, filter_base.h).
  static constexpr FilterKind kKind = FilterKind::kRedisBloom;
  using KeyHashing = RedisBfHashing;
  using Hash = RedisBfHashing::Hash;

  // An un-initialised filter: Contains() is false, it holds nothing. Moves leave the source so;
  // copies are deleted (filter_base.h).
  RedisBloomFilter() = default;

  // As BF.RESERVE on options.server. kInvalidArgument names the bad option (or a value outside
  // the server's limits); kOutOfMemory when too large.
  Status Init(const RedisBloomOptions& options);
  // The server whose rules later adds follow (a filter read from a dump or bytes has row 0's).
  // kInvalidArgument for a number that is not a row of kRedisServers.
  Status set_server(RedisServer server);

  // As BF.ADD: *added = true when the key was added, false when it may already be present.
  // kFull when a NONSCALING filter is full (nothing changes); kOutOfMemory when a new link
  // cannot be allocated (nothing changes).
  Status Add(Hash h, bool* added);
  // As BF.EXISTS.
  bool Contains(Hash h) const;
  // As BF.MADD: out[i] = 1 added, 0 may exist, for keys before the first failure; *processed is
  // how many keys were handled. Stops at the first error (kFull, kOutOfMemory).
  Status AddBatch(const KeyBatch& keys, uint8_t* out, size_t* processed);
  // As BF.MEXISTS: out[i] = 1 may be present, 0 certainly absent.
  void ContainsBatch(const KeyBatch& keys, uint8_t* out) const;

  // Empties the filter: back to one empty first link, as BF.RESERVE with the same options made it.
  void Clear();

  bool initialized() const { return !links_.empty(); }
  // BF.INFO fields.
  uint64_t capacity() const;   // "Capacity": the sum of every link's entries
  uint64_t info_size() const;  // "Size": RedisBloom's memory count, 32 + sum(64 + bytes)
  uint32_t num_links() const {
    return static_cast<uint32_t>(links_.size());
  }                                               // "Number of filters"
  uint64_t size() const { return size_; }         // "Number of items inserted"
  uint32_t expansion() const { return growth_; }  // "Expansion rate" (none when non_scaling)
  bool non_scaling() const { return (options_ & kOptNoScaling) != 0; }
  uint32_t options() const { return options_; }
  // Bytes of the link bitmaps.
  size_t byte_length() const;
  // Per link: its capacity (entries), error rate, bits, hashes and items.
  uint64_t link_entries(uint32_t i) const { return links_[i].entries; }
  double link_error(uint32_t i) const { return links_[i].error; }
  uint64_t link_bits(uint32_t i) const { return links_[i].bits; }
  uint32_t link_hashes(uint32_t i) const { return links_[i].hashes; }
  uint64_t link_size(uint32_t i) const { return links_[i].size; }
  uint64_t link_bytes(uint32_t i) const { return links_[i].bytes; }
  // The bitmap of link i (link_bytes(i) bytes), as RedisBloom stores it.
  const uint8_t* link_data(uint32_t i) const { return links_[i].data.data(); }

  // ---- RedisBloom's dump (BF.SCANDUMP / BF.LOADCHUNK) ----
  // The header chunk (iterator 1): 20 + 53 * links bytes.
  size_t DumpHeaderSize() const { return kDumpHeaderBytes + kDumpLinkBytes * links_.size(); }
  void WriteDumpHeader(uint8_t* out) const;
  // Starts reading a dump: validates the header chunk (untrusted) and allocates the links it
  // describes, zeroed, only when their bytes add up to `data_bytes`, the total size of the data
  // chunks that came with it (so nothing is allocated beyond what the input carries).
  // kCorruptData for anything RedisBloom would reject and more; on failure *this is unchanged.
  Status LoadDumpHeader(const uint8_t* header, size_t len, uint64_t data_bytes);
  // Where the data chunk that SCANDUMP replied with `iterator` and `len` bytes goes, or null
  // (kCorruptData in *status) when it is not the next chunk in order, spans two links or runs
  // past the data. Chunks must come in SCANDUMP's order, each in one link.
  uint8_t* DumpChunkTarget(uint64_t iterator, size_t len, Status* status);
  // Finishes a load: kCorruptData unless every data byte came in a chunk.
  Status FinishDumpLoad() const;

  uint32_t seed() const { return 0; }

 private:
  using Link = internal::RedisBfLink;
  static Status InitLink(Link* link, uint64_t entries, double error, uint32_t options);
  static bool LinkContains(const Link& link, Hash h);
  static bool LinkAdd(Link* link, Hash h);  // true when a bit changed
  Status ParseHeader(const uint8_t* header, size_t len, std::vector<Link>* links, uint64_t* size,
                     uint32_t* options, uint32_t* growth) const;
  BLOOMCUCKOO_FILTER_BODY_HOOKS;
};

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_REDIS_BLOOM_FILTER_H_
