// Positions / FillMap (used by the playground) agree with what Add actually sets.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/counting_bloom_filter.h"

namespace bloomcuckoo {
namespace {

// With one key added and one cell per slot, the fill map is 1 exactly at the key's positions.
template <typename F>
void CheckOneKey(F& f, uint64_t slots, uint32_t k) {
  const Hash128 h = Murmur3KeyHash("visual", 6, f.seed());
  f.Add(h);
  std::vector<uint64_t> pos(k);
  f.Positions(h, pos.data());
  std::set<uint64_t> want(pos.begin(), pos.end());
  std::vector<float> map(static_cast<size_t>(slots));
  f.FillMap(static_cast<uint32_t>(slots), map.data());
  for (uint64_t i = 0; i < slots; ++i) EXPECT_EQ(map[i], want.count(i) ? 1.0f : 0.0f) << i;
  // Coarser maps average: cells of 4 slots.
  std::vector<float> coarse(static_cast<size_t>(slots / 4));
  f.FillMap(static_cast<uint32_t>(slots / 4), coarse.data());
  double total = 0;
  for (float v : coarse) total += v * 4;
  EXPECT_NEAR(total, static_cast<double>(want.size()), 1e-3);
}

TEST(Introspection, BloomPositionsAndFillMap) {
  BloomFilter f;
  ASSERT_TRUE(f.Init({0, 0, 1024, 5, 1}).ok());
  CheckOneKey(f, 1024, 5);
}

TEST(Introspection, CountingPositionsAndFillMap) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init({0, 0, 512, 4, 1}).ok());
  CheckOneKey(f, 512, 4);
}

TEST(Introspection, BlockedPositionsAndFillMap) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init({0, 0, 4, 1}).ok());
  CheckOneKey(f, 4 * 256, 8);
}

TEST(Introspection, MoreCellsThanSlots) {
  BloomFilter f;
  ASSERT_TRUE(f.Init({0, 0, 10, 1, 1}).ok());
  std::vector<float> map(40);
  f.FillMap(40, map.data());
  for (float v : map) EXPECT_EQ(v, 0.0f);
}

}  // namespace
}  // namespace bloomcuckoo

#include "bloomcuckoo/cuckoo_filter.h"

namespace bloomcuckoo {
namespace {

TEST(Introspection, CuckooLocateAndFillMap) {
  CuckooFilter f;
  CuckooOptions o;
  o.capacity = 64;
  o.bucket_size = 4;
  o.fingerprint_bits = 8;
  ASSERT_TRUE(f.Init(o).ok());
  const Hash128 h = Murmur3KeyHash("visual", 6, f.seed());
  ASSERT_TRUE(f.Add(h));
  uint64_t buckets[64];
  const uint32_t fp = f.Locate(h, buckets);
  EXPECT_GE(fp, 1u);
  EXPECT_LE(fp, 255u);
  const uint64_t mask = f.sub_filter_buckets(0) - 1;
  EXPECT_LE(buckets[0], mask);
  EXPECT_LE(buckets[1], mask);
  EXPECT_NE(buckets[0], buckets[1]);
  const uint32_t slots = static_cast<uint32_t>(f.buckets() * 4);
  std::vector<float> map(slots);
  f.FillMap(slots, map.data());
  // exactly one occupied slot, inside one of the key's two buckets
  uint32_t used = 0;
  for (uint32_t s = 0; s < slots; ++s) {
    if (map[s] == 1.0f) {
      ++used;
      EXPECT_TRUE(s / 4 == buckets[0] || s / 4 == buckets[1]) << s;
    }
  }
  EXPECT_EQ(used, 1u);
}

}  // namespace
}  // namespace bloomcuckoo
