// RedisBloomFilter natively against the fixtures captured from a real RedisBloom server
// (tests/fixtures/redis/bf-*.txt, scripts/capture-redis-bf.mjs): the same replies op by op, the
// same dump bytes, and the same EXISTS answers as the server (and so as the wasm build, which
// tests/js/redis-bloom.test.js checks against the same files).
#include "bloomcuckoo/redis_bloom_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/serialization.h"
#include "redis_fixtures.h"

namespace bloomcuckoo {
namespace {

struct Fixture {
  std::string name;
  RedisBloomOptions options;
  std::vector<std::pair<std::vector<uint8_t>, std::string>> adds;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> chunks;  // without the final [0, empty]
  std::vector<uint64_t> info;
  std::string answers;
};

std::vector<Fixture> ReadFixtures() {
  std::vector<Fixture> out;
  for (const std::string& n : testing_util::RedisFixtureFiles("bf-")) {
    Fixture f;
    f.name = n;
    std::ifstream in(n);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ss(line);
      std::string tag;
      ss >> tag;
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
      } else if (tag == "chunk") {
        uint64_t it;
        std::string hex;
        ss >> it >> hex;
        if (it != 0) f.chunks.emplace_back(it, testing_util::FromHex(hex));
      } else if (tag == "probes") {
        size_t n2;
        ss >> n2 >> f.answers;
      }
    }
    out.push_back(std::move(f));
  }
  return out;
}

RedisBloomFilter::Hash H(const std::vector<uint8_t>& k) {
  return RedisBfHashing::Of(k.data(), k.size());
}

std::vector<std::vector<uint8_t>> Probes(const Fixture& f) {
  std::vector<std::vector<uint8_t>> probes;
  for (int i = 0; i < 1000; ++i) {
    const std::string s = "probe:" + std::to_string(i);
    probes.emplace_back(s.begin(), s.end());
  }
  for (const auto& a : f.adds) {
    if (probes.size() >= 2000) break;
    if (a.second == "1") probes.push_back(a.first);
  }
  return probes;
}

TEST(RedisBloomFilter, ReplaysEveryFixtureLikeTheServer) {
  const std::vector<Fixture> fixtures = ReadFixtures();
  ASSERT_GE(fixtures.size(), 5u);
  for (const Fixture& fx : fixtures) {
    SCOPED_TRACE(fx.name);
    RedisBloomFilter f;
    ASSERT_TRUE(f.Init(fx.options).ok());
    for (size_t i = 0; i < fx.adds.size(); ++i) {
      bool added = false;
      const Status s = f.Add(H(fx.adds[i].first), &added);
      const std::string reply = s.ok() ? (added ? "1" : "0") : std::string("E ERR ") + s.message();
      ASSERT_EQ(reply, fx.adds[i].second) << "add #" << i;
    }
    // BF.INFO: capacity, size, filters, items, expansion (0 for null)
    const std::vector<uint64_t> info = {f.capacity(), f.info_size(), f.num_links(), f.size(),
                                        f.non_scaling() ? 0 : f.expansion()};
    EXPECT_EQ(info, fx.info);
    // The dump: header, then the bitmaps in chunks.
    ASSERT_FALSE(fx.chunks.empty());
    std::vector<uint8_t> header(f.DumpHeaderSize());
    f.WriteDumpHeader(header.data());
    EXPECT_EQ(fx.chunks[0].first, 1u);
    EXPECT_EQ(header, fx.chunks[0].second);
    std::vector<uint8_t> data;
    for (uint32_t i = 0; i < f.num_links(); ++i) {
      data.insert(data.end(), f.link_data(i), f.link_data(i) + f.link_bytes(i));
    }
    std::vector<uint8_t> theirs;
    for (size_t i = 1; i < fx.chunks.size(); ++i) {
      theirs.insert(theirs.end(), fx.chunks[i].second.begin(), fx.chunks[i].second.end());
    }
    EXPECT_EQ(data, theirs);

    // Reading the server's dump answers every probe as the server did.
    RedisBloomFilter g;
    ASSERT_TRUE(
        g.LoadDumpHeader(fx.chunks[0].second.data(), fx.chunks[0].second.size(), theirs.size())
            .ok());
    for (size_t i = 1; i < fx.chunks.size(); ++i) {
      Status s;
      uint8_t* target = g.DumpChunkTarget(fx.chunks[i].first, fx.chunks[i].second.size(), &s);
      ASSERT_NE(target, nullptr) << s.message();
      std::copy(fx.chunks[i].second.begin(), fx.chunks[i].second.end(), target);
    }
    ASSERT_TRUE(g.FinishDumpLoad().ok());
    std::string answers;
    for (const auto& p : Probes(fx)) answers += g.Contains(H(p)) ? '1' : '0';
    EXPECT_EQ(answers, fx.answers);
  }
}

TEST(RedisBloomFilter, DumpHeaderChecksComeBeforeAnyAllocation) {
  RedisBloomFilter f;
  RedisBloomOptions o;
  o.capacity = 100;
  o.error_rate = 0.01;
  ASSERT_TRUE(f.Init(o).ok());
  std::vector<uint8_t> header(f.DumpHeaderSize());
  f.WriteDumpHeader(header.data());
  RedisBloomFilter g;
  // The header describes 144 bytes of bitmap: fewer or more data bytes are refused.
  EXPECT_EQ(g.LoadDumpHeader(header.data(), header.size(), 143).code(), StatusCode::kCorruptData);
  EXPECT_EQ(g.LoadDumpHeader(header.data(), header.size(), 1u << 30).code(),
            StatusCode::kCorruptData);
  EXPECT_FALSE(g.initialized());
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

// Kind 7 hashes as RedisBloom, with no seed: a file whose seed field is not 0 is not one we wrote
// (reading it would silently drop the seed, and the bytes would not round-trip). Found by fuzzing.
TEST(RedisBloomFilter, OurFormatRefusesANonZeroSeed) {
  RedisBloomFilter f;
  RedisBloomOptions o;
  o.capacity = 100;
  o.error_rate = 0.01;
  ASSERT_TRUE(f.Init(o).ok());
  std::vector<uint8_t> bytes(f.SerializedSize());
  ASSERT_TRUE(f.Serialize(bytes.data(), bytes.size()).ok());
  RedisBloomFilter g;
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  bytes[8] = 1;  // the seed field
  const uint32_t crc = Crc32(bytes.data(), bytes.size() - kTrailerSize);
  for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = static_cast<uint8_t>(crc >> (8 * i));
  EXPECT_EQ(g.Deserialize(bytes.data(), bytes.size()).code(), StatusCode::kCorruptData);
}

}  // namespace
}  // namespace bloomcuckoo
