// RedisBloomFilter natively against the fixtures captured from a real RedisBloom server
// (tests/fixtures/redis/bf-*.txt, scripts/capture-redis-bf.mjs): the same replies op by op, the
// same dump bytes, and the same EXISTS answers as the server (and so as the wasm build, which
// tests/js/redis-bloom.test.js checks against the same files).
#include "bloomcuckoo/redis_bloom_filter.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/serialization.h"
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
TEST(RedisBloomFilter, OurFormatRefusesANonZeroSeed) {
  RedisBloomFilter f;
  ASSERT_TRUE(f.Init(Small()).ok());
  testing_util::ExpectANonZeroSeedRefused(f);
}

}  // namespace
}  // namespace bloomcuckoo
