// RedisBloomFilter natively against the fixtures captured from a real RedisBloom server
// (tests/fixtures/redis/bf-*.txt, scripts/capture-redis-bf.mjs): the same replies op by op, the
// same dump bytes, and the same EXISTS answers as the server (and so as the wasm build, which
// tests/js/redis-bloom.test.js checks against the same files).
#include "bloomcuckoo/redis_bloom_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/serialization.h"
#include "conformance.h"
#include "redis_fixtures.h"

namespace bloomcuckoo {
namespace {

struct Fixture : testing_util::RedisFixture {
  RedisBloomOptions options;
  std::vector<std::pair<std::vector<uint8_t>, std::string>> adds;
  std::vector<uint64_t> info;
};

std::vector<Fixture> ReadFixtures() {
  return testing_util::ReadRedisFixtures<Fixture>(
      "bf-", [](Fixture& f, const std::string& tag, std::istream& ss) {
        if (tag == "reserve") {
          double e;
          uint64_t cap;
          uint32_t exp;
          int ns;
          ss >> e >> cap >> exp >> ns;
          f.options.error_rate = e;
          f.options.capacity = cap;
          f.options.non_scaling = ns == 1;
          f.options.expansion = exp;
        } else if (tag == "add") {
          std::string key, reply;
          ss >> key;
          std::getline(ss, reply);
          f.adds.emplace_back(testing_util::FromHex(key), reply.substr(1));
        } else if (tag == "info") {
          std::string v;
          while (ss >> v) f.info.push_back(v == "null" ? 0 : std::stoull(v));
        }
      });
}

RedisBloomFilter::Hash H(const std::vector<uint8_t>& k) {
  return RedisBfHashing::Of(k.data(), k.size());
}

std::vector<std::vector<uint8_t>> Probes(const Fixture& f) {
  std::vector<std::vector<uint8_t>> probes = testing_util::NumberedProbes();
  for (const auto& a : f.adds) {
    if (probes.size() >= 2000) break;
    if (a.second == "1") probes.push_back(a.first);
  }
  return probes;
}

TEST(RedisBloomFilter, ReplaysEveryFixtureLikeTheServer) {
  testing_util::ReplayEach<RedisBloomFilter>(
      ReadFixtures(), 5, [](const Fixture& fx, RedisBloomFilter& f) {
        for (size_t i = 0; i < fx.adds.size(); ++i) {
          bool added = false;
          const Status s = f.Add(H(fx.adds[i].first), &added);
          const std::string reply =
              s.ok() ? (added ? "1" : "0") : std::string("E ERR ") + s.message();
          ASSERT_EQ(reply, fx.adds[i].second) << "add #" << i;
        }
        // BF.INFO: capacity, size, filters, items, expansion (0 for null)
        const std::vector<uint64_t> info = {f.capacity(), f.info_size(), f.num_links(), f.size(),
                                            f.non_scaling() ? 0 : f.expansion()};
        EXPECT_EQ(info, fx.info);
        // The dump: header, then the bitmaps in chunks.
        std::vector<uint8_t> data;
        for (uint32_t i = 0; i < f.num_links(); ++i) {
          data.insert(data.end(), f.link_data(i), f.link_data(i) + f.link_bytes(i));
        }
        ASSERT_NO_FATAL_FAILURE(testing_util::ExpectTheServersDump(f, fx, data));

        // Reading the server's dump answers every probe as the server did.
        RedisBloomFilter g;
        ASSERT_NO_FATAL_FAILURE(testing_util::LoadTheServersDump(&g, fx));
        std::string answers;
        for (const auto& p : Probes(fx)) answers += g.Contains(H(p)) ? '1' : '0';
        EXPECT_EQ(answers, fx.answers);
      });
}

// A filter for 100 keys at 1%.
RedisBloomOptions Small() {
  RedisBloomOptions o;
  o.capacity = 100;
  o.error_rate = 0.01;
  return o;
}

TEST(RedisBloomFilter, DumpHeaderChecksComeBeforeAnyAllocation) {
  RedisBloomFilter f;
  ASSERT_TRUE(f.Init(Small()).ok());
  // The header describes 144 bytes of bitmap: fewer or more data bytes are refused.
  std::vector<uint8_t> header;
  testing_util::ExpectHeaderWantsExactly(f, 144, &header);
  RedisBloomFilter g;
  ASSERT_TRUE(g.LoadDumpHeader(header.data(), header.size(), 144).ok());
  Status s;
  EXPECT_EQ(g.DumpChunkTarget(100, 100, &s), nullptr);  // iterator too small for its length
  EXPECT_EQ(g.DumpChunkTarget(102, 100, &s), nullptr);  // would start at byte 1, not 0
  EXPECT_EQ(g.DumpChunkTarget(146, 145, &s), nullptr);  // past the bitmap
  EXPECT_NE(g.DumpChunkTarget(101, 100, &s), nullptr);  // the first 100 bytes
  EXPECT_EQ(g.FinishDumpLoad().code(), StatusCode::kCorruptData);  // 44 bytes still missing
  EXPECT_NE(g.DumpChunkTarget(145, 44, &s), nullptr);
  EXPECT_TRUE(g.FinishDumpLoad().ok());
  // A header of 32-bit-hash filters (no FORCE64 option) is refused with a clear message.
  std::vector<uint8_t> old = header;
  old[12] = 1;  // options: NOROUND only
  EXPECT_EQ(g.LoadDumpHeader(old.data(), old.size(), 144).code(), StatusCode::kCorruptData);
}

// Kind 7 hashes as RedisBloom, with no seed: a nonzero seed field is refused. Found by fuzzing.
// Every row of the server table (redis_server.h) is what Init, Add and set_server do: its limits
// refused with its message, its error-rate cap, EXPANSION 0 where it takes it, and the end of a
// chain that cannot grow; a number past the table is refused.
TEST(RedisBloomFilter, EveryServerRowIsWhatTheFilterDoes) {
  for (size_t i = 0; i < kRedisServerCount; ++i) {
    const RedisServerRules& row = kRedisServers[i];
    SCOPED_TRACE(row.name);
    auto opts = [&](uint64_t capacity, double error_rate, uint32_t expansion) {
      RedisBloomOptions o;
      o.capacity = capacity;
      o.error_rate = error_rate;
      o.expansion = expansion;
      o.server = static_cast<RedisServer>(i);
      return o;
    };
    RedisBloomFilter f;
    auto refused = [&](const RedisBloomOptions& o) {
      const Status s = f.Init(o);
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
      EXPECT_STREQ(s.message(), row.limits);
    };
    if (row.max_capacity < ~uint64_t{0}) refused(opts(row.max_capacity + 1, 0.01, 2));
    refused(opts(0, 0.01, 2));
    if (row.max_expansion < ~uint32_t{0}) refused(opts(10, 0.01, row.max_expansion + 1));
    if (row.min_expansion > 0) {
      refused(opts(10, 0.01, row.min_expansion - 1));
    } else {
      ASSERT_TRUE(f.Init(opts(10, 0.01, 0)).ok());
      EXPECT_TRUE(f.non_scaling());
    }
    ASSERT_TRUE(f.Init(opts(1000, 0.9, 2)).ok());
    EXPECT_EQ(f.link_error(0), std::min(0.9, row.max_error_rate) / 2);
    // EXPANSION 1 from one key at 0.1: each link halves the error rate until it underflows
    ASSERT_TRUE(f.Init(opts(1, 0.1, 1)).ok());
    Status s;
    uint32_t links = 0;
    for (int k = 0; k < 20000 && s.ok(); ++k) {
      links = f.num_links();
      const std::string key = "chain:" + std::to_string(k);
      bool added = false;
      s = f.Add(f.HashOf(key.data(), key.size()), &added);
    }
    EXPECT_EQ(s.code(), StatusCode::kFull);
    EXPECT_EQ(f.num_links() - links, row.keeps_failed_link ? 1u : 0u);
    EXPECT_EQ(f.set_server(static_cast<RedisServer>(i)).code(), StatusCode::kOk);
  }
  RedisBloomFilter f;
  EXPECT_EQ(f.set_server(static_cast<RedisServer>(kRedisServerCount)).code(),
            StatusCode::kInvalidArgument);
  RedisBloomOptions o;
  o.capacity = 10;
  o.error_rate = 0.01;
  o.server = static_cast<RedisServer>(kRedisServerCount);
  EXPECT_EQ(f.Init(o).code(), StatusCode::kInvalidArgument);
}

TEST(RedisBloomFilter, OurFormatRefusesANonZeroSeed) {
  RedisBloomFilter f;
  ASSERT_TRUE(f.Init(Small()).ok());
  testing_util::ExpectANonZeroSeedRefused(f);
}

// ---------------------------------------------------------------------------------------------
// Conformance (conformance.h): what every filter class honours.

// A scaling filter for `capacity` keys at `error_rate` (BF.RESERVE), expansion 2.
RedisBloomOptions Opts(uint64_t capacity, double error_rate, uint32_t expansion = 2,
                       bool non_scaling = false) {
  return RedisBloomOptions{capacity, error_rate, expansion, non_scaling};
}

// `o` on Redis 8's rules (row '8' of kRedisServers, redis_server.h).
RedisBloomOptions Redis8(RedisBloomOptions o) {
  o.server = RedisServerNamed("8");
  return o;
}

// Where the fields of a body of kind 7 are (docs/FORMAT.md): the dump header (items, links,
// options, expansion), then one 53-byte record per link, then the bitmaps.
constexpr size_t kOffItems = 0, kOffLinks = 8, kOffOptions = 12, kOffGrowth = 16;
constexpr size_t kLinkBytes = 0, kLinkBits = 8, kLinkSize = 16, kLinkError = 24, kLinkBpe = 32,
                 kLinkHashes = 40, kLinkEntries = 44, kLinkN2 = 52;
// The offset of `field` in the record of link `i`.
size_t LinkAt(size_t i, size_t field) {
  return RedisBloomFilter::kDumpHeaderBytes + RedisBloomFilter::kDumpLinkBytes * i + field;
}

// Adds distinct keys to `f` until it has `links` links.
void GrowTo(RedisBloomFilter* f, uint32_t links) {
  for (int i = 0; f->num_links() < links; ++i) {
    const std::string k = "grow:" + std::to_string(i);
    bool added = false;
    ASSERT_TRUE(f->Add(f->HashOf(k.data(), k.size()), &added).ok());
  }
}

// The body of a filter made with `o` holding keys until it has `links` links.
std::vector<uint8_t> BodyWithLinks(const RedisBloomOptions& o, uint32_t links) {
  RedisBloomFilter f;
  EXPECT_TRUE(f.Init(o).ok());
  GrowTo(&f, links);
  return testing_util::BodyOf(SerializeToVector(f));
}

// 10 keys at 1%, grown into a second link of 20 (the first link's bitmap is 16 bytes, 128 bits).
std::vector<uint8_t> TwoLinkBody() {
  std::vector<uint8_t> body = BodyWithLinks(Opts(10, 0.01), 2);
  EXPECT_EQ(testing_util::GetLE(body, LinkAt(0, kLinkBits), 8), 128u);  // what the patches assume
  return body;
}

struct RedisBloomAdapter : InitAdapter<RedisBloomFilter, RedisBloomOptions> {
  static constexpr const char* kName = "redis-bf";
  // RedisBloom's BF hashes every key with fixed seeds (RedisBfHashing): the class has no seed of
  // its own, seed() is always 0 and the frame must carry 0 (OurFormatRefusesANonZeroSeed). The
  // seed Create is given is ignored.
  static constexpr bool kSeeded = false;
  static bool Insert(Filter* f, RedisBloomFilter::Hash h) {
    bool added = false;
    return f->Add(h, &added).ok() && added;
  }
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t /*seed*/,
                       const std::vector<std::string>& keys) {
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(Opts(capacity, error_rate)));
    for (const auto& k : keys) {
      bool added = false;
      BLOOMCUCKOO_RETURN_IF_ERROR(f->Add(f->HashOf(k.data(), k.size()), &added));
    }
    return Status::Ok();
  }
  // 1 - prod(1 - p_i), p_i the classic Bloom rate of link i at the keys it holds (RedisBloom's
  // probes a + i*b are double hashing, which the classic rate describes).
  static double ExpectedFpr(const Filter& f, double, uint64_t) {
    double pass = 1.0;
    for (uint32_t i = 0; i < f.num_links(); ++i) {
      pass *=
          1.0 - testing_util::ClassicBloomFpr(f.link_hashes(i), static_cast<double>(f.link_size(i)),
                                              static_cast<double>(f.link_bits(i)));
    }
    return 1.0 - pass;
  }
  // A filter at capacity has one link, at error_rate / 2: bpe = -ln(e/2) / ln(2)^2 bits per key,
  // rounded up to whole 64-bit words (at most 0.0064 bits per key more for n >= 10^4).
  static double MaxBitsPerKey(double error_rate) {
    return -std::log(error_rate / 2) / (std::log(2.0) * std::log(2.0)) + 0.01;
  }
  static std::vector<double> State(const Filter& f) {
    std::vector<double> v = {
        static_cast<double>(f.initialized()), static_cast<double>(f.num_links()),
        static_cast<double>(f.size()),        static_cast<double>(f.capacity()),
        static_cast<double>(f.info_size()),   static_cast<double>(f.expansion()),
        static_cast<double>(f.non_scaling()), static_cast<double>(f.options())};
    for (uint32_t i = 0; i < f.num_links(); ++i) {
      v.insert(v.end(),
               {static_cast<double>(f.link_entries(i)), f.link_error(i),
                static_cast<double>(f.link_bits(i)), static_cast<double>(f.link_bytes(i)),
                static_cast<double>(f.link_hashes(i)), static_cast<double>(f.link_size(i))});
    }
    return v;
  }
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    std::vector<testing_util::OptionCase<Options>> cases = {{Options{}, "capacity"},
                                                            {Opts(0, 0.01), "capacity"}};
    for (double e : {0.0, 1.0, -0.1, 1.5, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
      cases.push_back({Opts(100, e), "errorRate"});
      cases.push_back({Opts(100, e, 2, true), "errorRate"});
    }
    cases.push_back({Opts(100, 0.01, 0), "expansion"});
    // The first link is made at errorRate / 2, which is 0 for the smallest double.
    cases.push_back({Opts(100, std::numeric_limits<double>::denorm_min()), "error rate"});
    // A NONSCALING link of less than one bit (capacity 1 at 90%: 0.3 bits), which RedisBloom 2.6
    // makes and then divides by zero in.
    cases.push_back({Opts(1, 0.9, 2, true), "bits per entry"});
    return cases;
  }
  // Beyond what the native build allows one allocation (64 GiB), before any is tried.
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return {{Opts(uint64_t{1} << 62, 0.01), "too large"},
            {Opts(~uint64_t{0}, 0.5, 2, true), "too large"},
            {Opts(uint64_t{1} << 40, 0.01), "too large"},
            {Opts(uint64_t{1} << 40, 0.01, 2, true), "too large"}};
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    using testing_util::PutF64;
    using testing_util::PutLE;
    const std::vector<uint8_t> two = TwoLinkBody();
    testing_util::EditedBodies bad(two);
    const uint64_t items = testing_util::GetLE(two, kOffItems, 8);
    const uint64_t size0 = testing_util::GetLE(two, LinkAt(0, kLinkSize), 8);
    bad.Add("items + 1", [&](auto* b) { PutLE(b, kOffItems, items + 1, 8); });
    bad.Add("items - 1", [&](auto* b) { PutLE(b, kOffItems, items - 1, 8); });
    bad.Add("0 links", [](auto* b) { PutLE(b, kOffLinks, 0, 4); });
    bad.Add("1 link (a record read as bitmap)", [](auto* b) { PutLE(b, kOffLinks, 1, 4); });
    bad.Add("3 links", [](auto* b) { PutLE(b, kOffLinks, 3, 4); });
    bad.Add("4097 links", [](auto* b) { PutLE(b, kOffLinks, 4097, 4); });
    bad.Add("unknown option bit 16", [](auto* b) { (*b)[kOffOptions] |= 16; });
    bad.Add("no FORCE64 (32-bit hashes)", [](auto* b) { PutLE(b, kOffOptions, 1, 4); });
    bad.Add("expansion 0, scaling", [](auto* b) { PutLE(b, kOffGrowth, 0, 4); });
    bad.Add("link bytes + 8 (bitmaps short)", [](auto* b) {
      PutLE(b, LinkAt(0, kLinkBytes), 24, 8);
      PutLE(b, LinkAt(0, kLinkBits), 192, 8);
    });
    bad.Add("link bytes - 8 (bitmaps long)", [](auto* b) {
      PutLE(b, LinkAt(0, kLinkBytes), 8, 8);
      PutLE(b, LinkAt(0, kLinkBits), 64, 8);
    });
    bad.Add("link bits != bytes * 8", [](auto* b) { PutLE(b, LinkAt(0, kLinkBits), 129, 8); });
    bad.Add("link bits 0", [](auto* b) { PutLE(b, LinkAt(0, kLinkBits), 0, 8); });
    bad.Add("link error 0", [](auto* b) { PutF64(b, LinkAt(0, kLinkError), 0.0); });
    bad.Add("link error 1", [](auto* b) { PutF64(b, LinkAt(1, kLinkError), 1.0); });
    bad.Add("link error -0.5", [](auto* b) { PutF64(b, LinkAt(0, kLinkError), -0.5); });
    bad.Add("link error NaN", [](auto* b) {
      PutF64(b, LinkAt(0, kLinkError), std::numeric_limits<double>::quiet_NaN());
    });
    bad.Add("link bpe 0", [](auto* b) { PutF64(b, LinkAt(0, kLinkBpe), 0.0); });
    bad.Add("link bpe NaN", [](auto* b) {
      PutF64(b, LinkAt(0, kLinkBpe), std::numeric_limits<double>::quiet_NaN());
    });
    bad.Add("link bpe 1e6", [](auto* b) { PutF64(b, LinkAt(0, kLinkBpe), 1e6); });
    bad.Add("link bpe of 2% (hashes disagree)",
            [](auto* b) { PutF64(b, LinkAt(0, kLinkBpe), -std::log(0.02) / 0.480453013918201); });
    bad.Add("link hashes + 1", [](auto* b) { ++(*b)[LinkAt(0, kLinkHashes)]; });
    bad.Add("link hashes 0", [](auto* b) { PutLE(b, LinkAt(0, kLinkHashes), 0, 4); });
    bad.Add("link of 1076 hashes, its bpe agreeing (more than any RedisBloom link)", [](auto* b) {
      PutLE(b, LinkAt(0, kLinkHashes), 1076, 4);
      PutF64(b, LinkAt(0, kLinkBpe), 1075.5 / 0.693147180559945);
    });
    bad.Add("link entries 0", [](auto* b) { PutLE(b, LinkAt(1, kLinkEntries), 0, 8); });
    bad.Add("link n2 64", [](auto* b) { (*b)[LinkAt(0, kLinkN2)] = 64; });
    bad.Add("link n2 8 (256 bits masked into 128)", [](auto* b) { (*b)[LinkAt(0, kLinkN2)] = 8; });
    bad.Add("link items + 1 (the sum disagrees)",
            [&](auto* b) { PutLE(b, LinkAt(0, kLinkSize), size0 + 1, 8); });
    bad.Add("link items overflow the sum", [](auto* b) {
      // 2^64 - 2 + 5 items: the header's count is what the sum wraps to.
      PutLE(b, LinkAt(0, kLinkSize), ~uint64_t{0} - 1, 8);
      PutLE(b, LinkAt(1, kLinkSize), 5, 8);
      PutLE(b, kOffItems, 3, 8);
    });
    // RedisBloom 2.x's all-zero link (see GoodBodies) is only ever last: first or in the middle,
    // or with anything set, it is corrupt.
    const std::vector<uint8_t> zeros(RedisBloomFilter::kDumpLinkBytes, 0);
    bad.Add("an all-zero link first", [&](auto* b) {
      b->insert(b->begin() + LinkAt(0, 0), zeros.begin(), zeros.end());
      PutLE(b, kOffLinks, 3, 4);
    });
    bad.Add("an all-zero link in the middle", [&](auto* b) {
      b->insert(b->begin() + LinkAt(1, 0), zeros.begin(), zeros.end());
      PutLE(b, kOffLinks, 3, 4);
    });
    bad.Add("a last link of zeros but its items", [&](auto* b) {
      b->insert(b->begin() + LinkAt(2, 0), zeros.begin(), zeros.end());
      PutLE(b, kOffLinks, 3, 4);
      PutLE(b, LinkAt(2, kLinkSize), 1, 8);
      PutLE(b, kOffItems, items + 1, 8);
    });
    return bad.cases();
  }
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    using testing_util::PutLE;
    std::vector<uint8_t> two = TwoLinkBody();
    // RedisBloom 2.x keeps an all-zero link when it cannot make the next one: it has no probes,
    // so every key reads as present (as on that server).
    std::vector<uint8_t> empty_last = two;
    const std::vector<uint8_t> zeros(RedisBloomFilter::kDumpLinkBytes, 0);
    empty_last.insert(empty_last.begin() + LinkAt(2, 0), zeros.begin(), zeros.end());
    PutLE(&empty_last, kOffLinks, 3, 4);
    // A power-of-two link (RedisBloom without NOROUND): n2 = log2(bits), probes masked.
    std::vector<uint8_t> pow2 = two;
    pow2[LinkAt(0, kLinkN2)] = 7;
    const uint64_t items = testing_util::GetLE(two, kOffItems, 8);
    return {{two, "two links",
             [=](const Filter& g) {
               EXPECT_EQ(g.num_links(), 2u);
               EXPECT_EQ(g.size(), items);
               EXPECT_EQ(g.link_entries(1), 20u);
             }},
            {BodyWithLinks(Opts(100, 0.01), 1), "one link, empty",
             [](const Filter& g) {
               EXPECT_EQ(g.num_links(), 1u);
               EXPECT_EQ(g.size(), 0u);
               EXPECT_FALSE(g.Contains(g.HashOf("x", 1)));
             }},
            {empty_last, "RedisBloom 2.x's all-zero last link",
             [](const Filter& g) {
               EXPECT_EQ(g.num_links(), 3u);
               EXPECT_EQ(g.link_bytes(2), 0u);
               EXPECT_TRUE(g.Contains(g.HashOf("never added", 11)));
             }},
            {pow2, "a power-of-two link", [](const Filter& g) { EXPECT_EQ(g.num_links(), 2u); }},
            {BodyWithLinks(Redis8(Opts(10, 0.01, 0, true)), 1), "Redis 8 NONSCALING (expansion 0)",
             [](const Filter& g) {
               EXPECT_TRUE(g.non_scaling());
               EXPECT_EQ(g.expansion(), 0u);
             }}};
  }
};

}  // namespace

INSTANTIATE_TYPED_TEST_SUITE_P(RedisBloom, Conformance, RedisBloomAdapter);

}  // namespace bloomcuckoo
