// RedisCuckooFilter natively against the fixtures captured from a real RedisBloom server
// (tests/fixtures/redis/cf-*.txt, scripts/capture-redis-cf.mjs): the same replies op by op
// (CF.ADD / ADDNX / DEL / COUNT), the same CF.INFO, the same dump bytes, and the same
// CF.EXISTS / CF.COUNT answers (tests/js/redis-cuckoo.test.js checks the wasm build on the same
// files).
#include "bloomcuckoo/redis_cuckoo_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/serialization.h"
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

}  // namespace
}  // namespace bloomcuckoo
