// The worst header of every kind (issue 34): the frame or dump header that claims the most work
// for its bytes (counts, lengths and sub-filters at their limits), read by every native reader
// (each class's Deserialize, PeekFilterKind, the RedisBloom dump loaders). Every reader must judge
// n bytes in O(n) time and memory, before any work proportional to what the bytes claim, so each
// verdict comes within a generous ceiling (kCeilingSeconds: the quadratic CF header took 5-57 s
// before). tests/js/worst-headers.test.js reads the same headers in wasm and in the checker.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bloomcuckoo/bloomcuckoo.h"

namespace bloomcuckoo {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr double kCeilingSeconds = 1.0;

// Little-endian field writers.
void Put(Bytes& b, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void PutF64(Bytes& b, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  Put(b, bits, 8);
}

// A whole frame around `body`, with the right body length and checksum (so every reader gets past
// the frame to the body's claims).
Bytes Frame(uint8_t kind, const Bytes& body) {
  Bytes f = {'B', 'C', 'F', 'L'};
  Put(f, kFormatVersion, 2);
  f.push_back(kind);
  f.push_back(FilterKindHashId(kind));
  Put(f, 0, 4);
  Put(f, body.size(), 8);
  f.insert(f.end(), body.begin(), body.end());
  Put(f, Crc32(f.data(), f.size()), 4);
  return f;
}

// A kind-1 body claiming `bits` bits with 64 probes, its words absent.
Bytes BloomBody(uint64_t bits) {
  Bytes b;
  Put(b, bits, 8);
  Put(b, 64, 4);
  Put(b, 0, 8);
  PutF64(b, 0);
  Put(b, 0, 8);
  return b;
}

// RedisBloom CF header: expansion 1 (every sub-filter as large as the first) and the most
// sub-filters (65535): the header of issue 34, refused because the data is not there.
Bytes CfHeader(uint64_t first_buckets, uint64_t filters, uint32_t bucket_size, uint32_t expansion) {
  Bytes b;
  Put(b, 1, 8);  // items
  Put(b, first_buckets, 8);
  Put(b, 0, 8);  // deletes
  Put(b, filters, 8);
  Put(b, bucket_size, 2);
  Put(b, 20, 2);  // max iterations
  Put(b, expansion, 2);
  return b;
}

// A RedisBloom BF dump header of 4096 links (the most), each a real link record of a small
// filter, each claiming `link_bytes` bytes of bitmap.
Bytes BfHeader(uint64_t link_bytes) {
  RedisBloomFilter f;
  RedisBloomOptions o;
  o.capacity = 100;
  o.error_rate = 0.01;
  EXPECT_TRUE(f.Init(o).ok());
  Bytes one(f.DumpHeaderSize());
  f.WriteDumpHeader(one.data());
  const size_t head = one.size() - RedisBloomFilter::kDumpLinkBytes;
  Bytes b(one.begin(), one.begin() + static_cast<ptrdiff_t>(head));
  b[8] = 0x00;  // n = 4096
  b[9] = 0x10;
  b[10] = b[11] = 0;
  std::memset(b.data(), 0, 8);  // items 0
  Bytes link(one.begin() + static_cast<ptrdiff_t>(head), one.end());
  std::memset(link.data() + 16, 0, 8);  // items 0
  for (int i = 0; i < 8; ++i) link[i] = static_cast<uint8_t>(link_bytes >> (8 * i));
  const uint64_t bits = link_bytes * 8;
  for (int i = 0; i < 8; ++i) link[8 + i] = static_cast<uint8_t>(bits >> (8 * i));
  link[52] = 0;  // n2: not a power of two
  for (int i = 0; i < 4096; ++i) b.insert(b.end(), link.begin(), link.end());
  return b;
}

// Every kind's class reading `bytes` as the main entry's deserialize does: the kind from the
// frame, then that class.
Status DeserializeAny(const Bytes& bytes) {
  FilterKind kind;
  BLOOMCUCKOO_RETURN_IF_ERROR(PeekFilterKind(bytes.data(), bytes.size(), &kind));
  switch (kind) {
#define WORST_DESERIALIZE(number, enumerator, name, cls, hash_id) \
  case FilterKind::enumerator: {                                  \
    cls f;                                                        \
    return f.Deserialize(bytes.data(), bytes.size());             \
  }
    BLOOMCUCKOO_FILTER_KINDS(WORST_DESERIALIZE)
#undef WORST_DESERIALIZE
  }
  return Status(StatusCode::kCorruptData, "unknown kind");
}

struct Case {
  std::string name;
  std::function<Status()> read;
  bool accepted;
};

double Seconds(const std::function<Status()>& read, Status* status) {
  const auto start = std::chrono::steady_clock::now();
  *status = read();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const auto frame = [&cases](const std::string& name, uint8_t kind, const Bytes& body,
                              bool accepted) {
    const Bytes bytes = Frame(kind, body);
    cases.push_back({name, [bytes] { return DeserializeAny(bytes); }, accepted});
  };
  frame("bloom: 2^64-1 bits, 64 probes", 1, BloomBody(~uint64_t{0}), false);
  {
    Bytes b;
    Put(b, BlockedBloomFilter::kMaxBlocks, 8);
    Put(b, 0, 8);
    PutF64(b, 0);
    Put(b, 0, 8);
    frame("blocked: 2^32-1 blocks", 2, b, false);
  }
  {
    Bytes b = BloomBody(~uint64_t{0});
    frame("counting: 2^64-1 counters, 64 probes", 3, b, false);
  }
  {
    // 64 layers (the most) of expansion 1, each a Bloom body of 64 bits, then the last claiming
    // 2^64-1 bits.
    Bytes b;
    Put(b, 1, 8);
    PutF64(b, 0.5);
    Put(b, 1, 4);
    b.push_back(0);
    Put(b, ScalableBloomFilter::kMaxLayers, 4);
    Bytes layer = BloomBody(~uint64_t{0});
    b.insert(b.end(), layer.begin(), layer.end());
    frame("scalable: 64 layers, the first claiming 2^64-1 bits", 4, b, false);
  }
  {
    Bytes b;
    Put(b, uint64_t{1} << 48, 8);
    PutF64(b, 0.01);
    Put(b, 16, 4);
    Put(b, 8, 4);
    Put(b, 65535, 4);
    Put(b, 1, 4);  // expansion 1
    Put(b, 0, 8);
    Put(b, 0, 8);
    Put(b, CuckooFilter::kMaxFilters, 4);
    Put(b, uint64_t{1} << 40, 8);
    Put(b, (uint64_t{1} << 40) * 16, 8);
    frame("cuckoo: 32 sub-filters of 2^40 buckets", 5, b, false);
  }
  {
    Bytes b;
    Put(b, 16, 4);
    Put(b, BinaryFuseFilter::kMaxSegmentLength, 4);
    Put(b, (uint64_t{1} << 14) - 3, 4);
    Put(b, ((uint64_t{1} << 14) - 1) << 18, 4);
    Put(b, 1, 8);
    Put(b, 1, 8);
    frame("fuse: 2^32 - 2^18 16-bit fingerprints", 6, b, false);
  }
  const Bytes bf = BfHeader(uint64_t{1} << 40);
  frame("redis-bloom: 4096 links of 2^40 bytes", 7, bf, false);
  // Issue 34: 38 + 534 bytes (572, as reported) claiming 65535 sub-filters.
  Bytes cf = CfHeader(1, 65535, 1, 1);
  cf.resize(cf.size() + 534, 0);
  frame("redis-cuckoo: expansion 1, 65535 sub-filters (572 bytes)", 8, cf, false);
  frame("redis-cuckoo: expansion 1, 65535 sub-filters of 2^55 buckets x 255", 8,
        CfHeader(uint64_t{1} << 55, 65535, 255, 1), false);
  frame("redis-cuckoo: expansion 32768, 65535 sub-filters", 8, CfHeader(1, 65535, 1, 32768), false);
  {
    // Valid: 65535 sub-filters of one 1-slot bucket, every byte present (accepted).
    Bytes b = CfHeader(1, 65535, 1, 1);
    b.resize(b.size() + 65535, 0);
    b[38 + 65534] = 7;
    frame("redis-cuckoo: a valid filter of 65535 sub-filters", 8, b, true);
  }

  // The RedisBloom dump loaders (fromRedisDump): the header chunk alone, then with its data.
  cases.push_back({"CF dump header: expansion 1, 65535 sub-filters, 534 data bytes",
                   [] {
                     RedisCuckooFilter f;
                     const Bytes h = CfHeader(1, 65535, 1, 1);
                     return f.LoadDumpHeader(h.data(), h.size(), 534);
                   },
                   false});
  cases.push_back({"CF dump header: expansion 1, 65535 sub-filters of 2^55 buckets",
                   [] {
                     RedisCuckooFilter f;
                     const Bytes h = CfHeader(uint64_t{1} << 55, 65535, 255, 1);
                     return f.LoadDumpHeader(h.data(), h.size(), 534);
                   },
                   false});
  cases.push_back({"CF dump: a valid dump of 65535 sub-filters, one chunk each",
                   [] {
                     RedisCuckooFilter f;
                     const Bytes h = CfHeader(1, 65535, 1, 1);
                     BLOOMCUCKOO_RETURN_IF_ERROR(f.LoadDumpHeader(h.data(), h.size(), 65535));
                     for (uint64_t k = 0; k < 65535; ++k) {
                       Status s;
                       uint8_t* at = f.DumpChunkTarget(k + 2, 1, &s);
                       if (at == nullptr) return s;
                       *at = static_cast<uint8_t>(k % 255 + 1);
                     }
                     return f.FinishDumpLoad();
                   },
                   true});
  cases.push_back({"BF dump header: 4096 links of 2^40 bytes, no data",
                   [bf] {
                     RedisBloomFilter f;
                     return f.LoadDumpHeader(bf.data(), bf.size(), 0);
                   },
                   false});
  cases.push_back({"BF dump: 4096 links of 1 byte, one chunk each",
                   [] {
                     RedisBloomFilter f;
                     const Bytes h = BfHeader(1);
                     BLOOMCUCKOO_RETURN_IF_ERROR(f.LoadDumpHeader(h.data(), h.size(), 4096));
                     for (uint64_t k = 0; k < 4096; ++k) {
                       Status s;
                       if (f.DumpChunkTarget(k + 2, 1, &s) == nullptr) return s;
                     }
                     return f.FinishDumpLoad();
                   },
                   true});
  return cases;
}

TEST(WorstHeader, EveryReaderJudgesItsWorstHeaderInBoundedTime) {
  for (const Case& c : Cases()) {
    Status status;
    const double seconds = Seconds(c.read, &status);
    EXPECT_LT(seconds, kCeilingSeconds) << c.name;
    EXPECT_EQ(status.ok(), c.accepted) << c.name << ": " << status.message();
    if (!c.accepted) {
      EXPECT_EQ(status.code(), StatusCode::kCorruptData) << c.name;
    }
  }
}

// The valid filter of 65535 sub-filters reads back as written, and answers.
TEST(WorstHeader, ValidCuckooOf65535SubFiltersRoundTrips) {
  Bytes body = CfHeader(1, 65535, 1, 1);
  body.resize(body.size() + 65535, 0);
  const Bytes bytes = Frame(8, body);
  RedisCuckooFilter f;
  ASSERT_TRUE(f.Deserialize(bytes.data(), bytes.size()).ok());
  EXPECT_EQ(f.num_filters(), 65535u);
  EXPECT_EQ(f.byte_length(), 65535u);
  EXPECT_FALSE(f.Contains(f.HashOf("a", 1)));
  Bytes again(f.SerializedSize());
  ASSERT_TRUE(f.Serialize(again.data(), again.size()).ok());
  EXPECT_EQ(again, bytes);
}

}  // namespace
}  // namespace bloomcuckoo
