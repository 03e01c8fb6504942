// RedisCuckooFilter natively against the fixtures captured from a real RedisBloom server
// (tests/fixtures/redis/cf-*.txt, scripts/capture-redis-cf.mjs): the same replies op by op
// (CF.ADD / ADDNX / DEL / COUNT), the same CF.INFO, the same dump bytes, and the same
// CF.EXISTS / CF.COUNT answers (tests/js/redis-cuckoo.test.js checks the wasm build on the same
// files).
#include "bloomcuckoo/redis_cuckoo_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/serialization.h"
#include "conformance.h"
#include "redis_fixtures.h"

namespace bloomcuckoo {
namespace {

using Bytes = std::vector<uint8_t>;

struct Op {
  std::string op;
  Bytes key;
  std::string reply;
};

struct Fixture : testing_util::RedisFixture {
  RedisCuckooOptions options;
  std::vector<Op> ops;
  std::vector<uint64_t> info;
  std::vector<Bytes> probes = testing_util::NumberedProbes();
  std::vector<uint64_t> counts;
};

// The items of a comma-separated list, each read by `item`.
template <typename T, typename Item>
void ReadList(std::istream& ss, std::vector<T>* out, Item item) {
  std::string list, one;
  ss >> list;
  std::istringstream items(list);
  while (std::getline(items, one, ',')) out->push_back(item(one));
}

std::vector<Fixture> ReadFixtures() {
  return testing_util::ReadRedisFixtures<Fixture>(
      "cf-", [](Fixture& f, const std::string& tag, std::istream& ss) {
        if (tag == "reserve") {
          ss >> f.options.capacity >> f.options.bucket_size >> f.options.max_iterations >>
              f.options.expansion;
        } else if (tag == "add" || tag == "addnx" || tag == "del" || tag == "count") {
          std::string key, reply;
          ss >> key;
          std::getline(ss, reply);
          f.ops.push_back({tag, testing_util::FromHex(key), reply.substr(1)});
        } else if (tag == "info") {
          uint64_t v;
          while (ss >> v) f.info.push_back(v);
        } else if (tag == "probekeys") {
          ReadList(ss, &f.probes, [](const std::string& x) { return testing_util::FromHex(x); });
        } else if (tag == "counts") {
          ReadList(ss, &f.counts, [](const std::string& x) { return std::stoull(x); });
        }
      });
}

uint64_t H(const Bytes& k) { return RedisCfHashing::Of(k.data(), k.size()); }

// One operation, written as the capture script writes the server's reply.
std::string Apply(RedisCuckooFilter& f, const Op& o) {
  if (o.op == "count") return std::to_string(f.Count(H(o.key)));
  if (o.op == "del") return f.Delete(H(o.key)) ? "1" : "0";
  RedisCuckooFilter::Insert r;
  const Status s = f.Add(H(o.key), o.op == "addnx", &r);
  if (!s.ok()) return std::string("E ") + s.message();
  if (r == RedisCuckooFilter::Insert::kInserted) return "1";
  return r == RedisCuckooFilter::Insert::kExists ? "0" : "E Filter is full";
}

std::vector<uint64_t> Info(const RedisCuckooFilter& f) {
  return {f.info_size(),   f.num_buckets(), f.num_filters(), f.num_items(),
          f.num_deletes(), f.bucket_size(), f.expansion(),   f.max_iterations()};
}

TEST(RedisCuckooFilter, ReplaysEveryFixtureLikeTheServer) {
  testing_util::ReplayEach<RedisCuckooFilter>(
      ReadFixtures(), 8, [](const Fixture& fx, RedisCuckooFilter& f) {
        for (size_t i = 0; i < fx.ops.size(); ++i) {
          ASSERT_EQ(Apply(f, fx.ops[i]), fx.ops[i].reply) << fx.ops[i].op << " #" << i;
        }
        EXPECT_EQ(Info(f), fx.info);
        if (fx.chunks.empty()) {  // the server sends no dump for a filter with no items
          EXPECT_EQ(f.num_items(), 0u);
          EXPECT_EQ(f.DumpHeaderSize(), 0u);
          return;
        }
        Bytes data;
        for (uint32_t i = 0; i < f.num_filters(); ++i) {
          data.insert(data.end(), f.filter_data(i), f.filter_data(i) + f.filter_bytes(i));
        }
        ASSERT_NO_FATAL_FAILURE(testing_util::ExpectTheServersDump(f, fx, data));

        // Reading the server's dump answers every probe as CF.EXISTS and CF.COUNT did.
        RedisCuckooFilter g;
        ASSERT_NO_FATAL_FAILURE(testing_util::LoadTheServersDump(&g, fx));
        EXPECT_EQ(Info(g), fx.info);
        std::string answers;
        std::vector<uint64_t> counts;
        for (const Bytes& p : fx.probes) {
          answers += g.Contains(H(p)) ? '1' : '0';
          counts.push_back(g.Count(H(p)));
        }
        EXPECT_EQ(answers, fx.answers);
        EXPECT_EQ(counts, fx.counts);
      });
}

TEST(RedisCuckooFilter, DumpHeaderChecksComeBeforeAnyAllocation) {
  RedisCuckooFilter f;
  RedisCuckooOptions o;
  o.capacity = 100;
  o.bucket_size = 2;
  ASSERT_TRUE(f.Init(o).ok());
  RedisCuckooFilter::Insert r;
  ASSERT_TRUE(f.Add(1234, false, &r).ok());
  // 64 buckets of 2 slots: 128 data bytes, no more, no less.
  Bytes header;
  testing_util::ExpectHeaderWantsExactly(f, 128, &header);
  ASSERT_EQ(header.size(), 38u);
  RedisCuckooFilter g;
  Bytes huge = header;
  huge[8 + 5] = 1;  // 2^40 buckets
  EXPECT_EQ(g.LoadDumpHeader(huge.data(), huge.size(), 128).code(), StatusCode::kCorruptData);
  Bytes odd = header;
  odd[8] = 3;  // not a power of two
  EXPECT_EQ(g.LoadDumpHeader(odd.data(), odd.size(), 6).code(), StatusCode::kCorruptData);
  ASSERT_TRUE(g.LoadDumpHeader(header.data(), header.size(), 128).ok());
  Status s;
  EXPECT_EQ(g.DumpChunkTarget(60, 64, &s), nullptr);    // iterator too small for its length
  EXPECT_EQ(g.DumpChunkTarget(66, 64, &s), nullptr);    // would start at byte 1, not 0
  EXPECT_EQ(g.DumpChunkTarget(130, 129, &s), nullptr);  // past the slots
  uint8_t* first = g.DumpChunkTarget(65, 64, &s);
  ASSERT_NE(first, nullptr);
  std::copy(f.filter_data(0), f.filter_data(0) + 64, first);
  EXPECT_EQ(g.FinishDumpLoad().code(), StatusCode::kCorruptData);  // 64 bytes missing
  uint8_t* rest = g.DumpChunkTarget(129, 64, &s);
  ASSERT_NE(rest, nullptr);
  std::copy(f.filter_data(0) + 64, f.filter_data(0) + 128, rest);
  EXPECT_TRUE(g.FinishDumpLoad().ok());
  EXPECT_TRUE(g.Contains(1234));
}

// A filter for 100 keys.
RedisCuckooOptions Small() {
  RedisCuckooOptions o;
  o.capacity = 100;
  return o;
}

// Kind 8 hashes as RedisBloom, with no seed: a nonzero seed field is refused (as for kind 7).
TEST(RedisCuckooFilter, OurFormatRefusesANonZeroSeed) {
  RedisCuckooFilter f;
  ASSERT_TRUE(f.Init(Small()).ok());
  testing_util::ExpectANonZeroSeedRefused(f);
}

TEST(RedisCuckooFilter, MovedFromFilterIsUninitialised) {
  RedisCuckooFilter f;
  ASSERT_TRUE(f.Init(Small()).ok());
  RedisCuckooFilter g(std::move(f));
  EXPECT_TRUE(g.initialized());
  EXPECT_FALSE(f.initialized());  // NOLINT(bugprone-use-after-move): the promised state
  EXPECT_FALSE(f.Contains(1));
  RedisCuckooFilter::Insert r;
  EXPECT_FALSE(f.Add(1, false, &r).ok());
}

// ---------------------------------------------------------------------------------------------
// Conformance (conformance.h): what every filter class honours.

// A filter for `capacity` keys (CF.RESERVE), the rest as defaulted or given.
RedisCuckooOptions Opts(uint64_t capacity, uint32_t bucket_size = 2, uint32_t max_iterations = 20,
                        uint32_t expansion = 1) {
  return RedisCuckooOptions{capacity, bucket_size, max_iterations, expansion};
}

// Where the fields of a body of kind 8 are (docs/FORMAT.md): the 38-byte dump header, then the
// sub-filters' slots.
constexpr size_t kOffItems = 0, kOffBuckets = 8, kOffDeletes = 16, kOffFilters = 24,
                 kOffBucketSize = 32, kOffMaxIterations = 34, kOffExpansion = 36;

// The body of a filter made with `o` holding distinct keys until it has `filters` sub-filters.
Bytes BodyWithSubFilters(const RedisCuckooOptions& o, uint32_t filters) {
  RedisCuckooFilter f;
  EXPECT_TRUE(f.Init(o).ok());
  for (int i = 0; f.num_filters() < filters; ++i) {
    const std::string k = "grow:" + std::to_string(i);
    RedisCuckooFilter::Insert r;
    EXPECT_TRUE(f.Add(f.HashOf(k.data(), k.size()), false, &r).ok());
  }
  return testing_util::BodyOf(SerializeToVector(f));
}

// Capacity 16: sub-filters of 8 buckets of 2 slots (16 bytes each), grown to two.
Bytes TwoSubFilterBody() { return BodyWithSubFilters(Opts(16), 2); }

// CF.RESERVE's smallest capacity for the adapter's bucket size (2): 2 * BUCKETSIZE.
constexpr uint64_t kMinCapacity = 4;

struct RedisCuckooAdapter : InitAdapter<RedisCuckooFilter, RedisCuckooOptions> {
  static constexpr const char* kName = "redis-cf";
  // RedisBloom's CF hashes every key with MurmurHash64A seed 0 (RedisCfHashing): the class has no
  // seed of its own, seed() is always 0 and the frame must carry 0 (OurFormatRefusesANonZeroSeed).
  // The seed Create is given is ignored.
  static constexpr bool kSeeded = false;
  // CF.ADD, as Create adds (so a filter refilled after Clear is the one Create made).
  static bool Insert(Filter* f, uint64_t h) {
    RedisCuckooFilter::Insert r;
    return f->Add(h, false, &r).ok() && r == RedisCuckooFilter::Insert::kInserted;
  }
  // CF.RESERVE takes no error rate (the rate is fixed, PromisedFpr) and refuses capacities below
  // 2 * BUCKETSIZE: the tiny filters the suite asks for get that least capacity.
  static Status Create(Filter* f, uint64_t capacity, double /*error_rate*/, uint32_t /*seed*/,
                       const std::vector<std::string>& keys) {
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(Opts(std::max(capacity, kMinCapacity))));
    for (const auto& k : keys) {
      RedisCuckooFilter::Insert r;
      BLOOMCUCKOO_RETURN_IF_ERROR(f->Add(f->HashOf(k.data(), k.size()), false, &r));
      if (r != RedisCuckooFilter::Insert::kInserted) {
        return Status(StatusCode::kFull, "redis cuckoo filter: no room for a key");
      }
    }
    return Status::Ok();
  }
  // A probe checks the 2 * b slots of its two buckets in every sub-filter; an occupied slot holds
  // its fingerprint (one of 255) with probability 1/255: 1 - prod_k (1 - load_k / 255)^(2b).
  static double ExpectedFpr(const Filter& f, double, uint64_t) {
    double pass = 1.0;
    for (uint32_t k = 0; k < f.num_filters(); ++k) {
      const uint64_t slots = f.filter_bytes(k);
      const uint64_t used =
          slots - std::count(f.filter_data(k), f.filter_data(k) + slots, uint8_t{0});
      const double load = static_cast<double>(used) / static_cast<double>(slots);
      pass *= std::pow(1.0 - load / 255.0, 2.0 * f.bucket_size());
    }
    return 1.0 - pass;
  }
  // RedisBloom's CF has no error rate: with one-byte fingerprints its rate at capacity is about
  // 2b/255 whatever was asked (b = 2: 1.6%). Sub-filters of one size (expansion 1) hold n keys
  // in S >= capacity slots each, so the loads above add up to n / S <= 1 and the rate stays
  // below 2b/255.
  static double PromisedFpr(double) { return 2.0 * 2 / 255; }
  // A sub-filter has NextPow2(capacity / 2) buckets of 2 one-byte slots: < 2 * capacity bytes.
  // At capacity the first holds most keys (b = 2 with 20 kicks fills well over half of it), the
  // second the rest: < 4 bytes, 32 bits per key.
  static double MaxBitsPerKey(double) { return 32; }
  static std::vector<double> State(const Filter& f) {
    std::vector<double> v = {
        static_cast<double>(f.initialized()),    static_cast<double>(f.num_filters()),
        static_cast<double>(f.num_buckets()),    static_cast<double>(f.num_items()),
        static_cast<double>(f.num_deletes()),    static_cast<double>(f.bucket_size()),
        static_cast<double>(f.max_iterations()), static_cast<double>(f.expansion()),
        static_cast<double>(f.info_size())};
    for (uint32_t k = 0; k < f.num_filters(); ++k) {
      v.push_back(static_cast<double>(f.filter_buckets(k)));
    }
    return v;
  }
  // The server's own messages, word for word.
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    const char* kCapacity = "Capacity must be at least (BucketSize * 2)";
    const char* kBucketSize = "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.";
    const char* kMaxIterations =
        "MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.";
    const char* kExpansion = "EXPANSION: value must be an integer between 0 and 32768, inclusive.";
    return {{Options{}, kCapacity, true},
            {Opts(0), kCapacity, true},
            {Opts(3), kCapacity, true},
            {Opts(9, 5), kCapacity, true},
            {Opts(509, 255), kCapacity, true},
            {Opts(1000, 0), kBucketSize, true},
            {Opts(1000, 256), kBucketSize, true},
            {Opts(1000, 2, 0), kMaxIterations, true},
            {Opts(1000, 2, 65536), kMaxIterations, true},
            {Opts(1000, 2, 20, 32769), kExpansion, true},
            {Opts(1000, 2, 20, ~0u), kExpansion, true}};
  }
  // Beyond what the native build allows one allocation (64 GiB), before any is tried.
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return {{Opts(uint64_t{1} << 62), "too large"},
            {Opts(~uint64_t{0}), "too large"},
            {Opts((uint64_t{1} << 48) + 1), "too large"},
            {Opts(uint64_t{1} << 48, 1), "too large"},
            {Opts(uint64_t{1} << 40), "too large"}};
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    using testing_util::PutLE;
    const Bytes two = TwoSubFilterBody();
    std::vector<testing_util::BodyCase> cases;
    auto with = [&](const char* why, size_t at, uint64_t value, int width) {
      Bytes b = two;
      PutLE(&b, at, value, width);
      cases.push_back({b, why});
    };
    with("first sub-filter of 0 buckets", kOffBuckets, 0, 8);
    with("buckets not a power of two", kOffBuckets, 9, 8);
    with("buckets 4 (bytes to spare)", kOffBuckets, 4, 8);
    with("buckets 16 (slots short)", kOffBuckets, 16, 8);
    with("buckets 2^56", kOffBuckets, uint64_t{1} << 56, 8);
    with("buckets 2^63", kOffBuckets, uint64_t{1} << 63, 8);
    with("0 sub-filters", kOffFilters, 0, 8);
    with("1 sub-filter (bytes to spare)", kOffFilters, 1, 8);
    with("3 sub-filters (slots short)", kOffFilters, 3, 8);
    with("65536 sub-filters", kOffFilters, 65536, 8);
    with("2^63 sub-filters", kOffFilters, uint64_t{1} << 63, 8);
    with("bucket size 0", kOffBucketSize, 0, 2);
    with("bucket size 256", kOffBucketSize, 256, 2);
    with("bucket size 1 (bytes to spare)", kOffBucketSize, 1, 2);
    with("bucket size 4 (slots short)", kOffBucketSize, 4, 2);
    with("max iterations 0", kOffMaxIterations, 0, 2);
    with("expansion 0 with two sub-filters", kOffExpansion, 0, 2);
    with("expansion 2 (the second sub-filter short)", kOffExpansion, 2, 2);
    with("expansion 65535 (the second sub-filter far too large)", kOffExpansion, 65535, 2);
    // Headers the slots that follow agree with, each breaking one rule: one empty sub-filter of 8
    // buckets (16 bytes) grown to `filters` by `expansion`, with `slots` bytes of slots after it.
    const Bytes one = BodyWithSubFilters(Opts(16), 1);
    auto grown = [&](const char* why, uint64_t filters, uint64_t expansion, size_t slots) {
      Bytes b = one;
      PutLE(&b, kOffFilters, filters, 8);
      PutLE(&b, kOffExpansion, expansion, 2);
      b.resize(b.size() + slots, 0);
      cases.push_back({b, why});
    };
    // Expansion 0 grows sub-filters of 0 buckets (no slots), where a probe would divide by zero.
    grown("expansion 0, a second sub-filter of 0 buckets", 2, 0, 0);
    // Expansion 3, which nothing writes (Init and the server round it up to a power of two),
    // grows a sub-filter of 24 buckets, where a kick's alternate bucket (i ^ fp * 0x5bd1e995) mod
    // 24 is not the key's other bucket: keys kicked there are lost (7 of 60 added in a trial).
    grown("expansion 3, a second sub-filter of 24 buckets", 2, 3, 48);
    grown("expansion 3, one sub-filter (growing into 24 buckets)", 1, 3, 0);
    return cases;
  }
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    using testing_util::PutLE;
    const Bytes two = TwoSubFilterBody();
    const uint64_t items = testing_util::GetLE(two, kOffItems, 8);
    // The item count is not checked against the fingerprints stored (the server never checks
    // it); nor are the deletes since the last compaction.
    Bytes counts = two;
    PutLE(&counts, kOffItems, items + 5, 8);
    PutLE(&counts, kOffDeletes, 3, 8);
    return {{two, "two sub-filters",
             [=](const Filter& g) {
               EXPECT_EQ(g.num_filters(), 2u);
               EXPECT_EQ(g.num_buckets(), 8u);
               EXPECT_EQ(g.num_items(), items);
             }},
            {BodyWithSubFilters(Opts(16), 1), "one empty sub-filter",
             [](const Filter& g) {
               EXPECT_EQ(g.num_filters(), 1u);
               EXPECT_FALSE(g.Contains(g.HashOf("x", 1)));
             }},
            {counts, "item and delete counts the slots do not show",
             [=](const Filter& g) {
               EXPECT_EQ(g.num_items(), items + 5);
               EXPECT_EQ(g.num_deletes(), 3u);
             }},
            {BodyWithSubFilters(Opts(100, 4, 500, 0), 1), "expansion 0, bucket size 4",
             [](const Filter& g) {
               EXPECT_EQ(g.expansion(), 0u);
               EXPECT_EQ(g.bucket_size(), 4u);
               EXPECT_EQ(g.max_iterations(), 500u);
             }}};
  }
};

}  // namespace

INSTANTIATE_TYPED_TEST_SUITE_P(RedisCuckoo, Conformance, RedisCuckooAdapter);

}  // namespace bloomcuckoo
