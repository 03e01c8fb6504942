#include "bloomcuckoo/blocked_bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "byte_io.h"
#include "conformance.h"
#include "frame.h"

namespace bloomcuckoo {

struct BlockedBloomAdapter {
  using Filter = BlockedBloomFilter;
  static constexpr const char* kName = "blocked";
  static constexpr FilterKind kKind = FilterKind::kBlockedBloom;
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    BlockedBloomOptions o;
    o.capacity = capacity;
    o.error_rate = error_rate;
    o.seed = seed;
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(o));
    for (const auto& k : keys) f->Add(HashKey(k.data(), k.size(), seed));
    return Status::Ok();
  }
  static double ExpectedFpr(const Filter& f, double, uint64_t n) {
    return BlockedBloomFilter::SplitBlockFpr(static_cast<double>(n) /
                                             static_cast<double>(f.blocks()));
  }
  // The split-block model needs 10.53 bits/key at 1% and 16.89 at 0.1%, plus block rounding.
  static double MaxBitsPerKey(double error_rate) {
    if (error_rate >= 0.01) return 10.7;
    if (error_rate >= 0.001) return 17.0;
    return 64.0;
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Blocked, Conformance, BlockedBloomAdapter);

namespace {

using testing_util::MakeKeys;
using testing_util::PackedKeys;
using testing_util::SerializeToVector;

Hash128 H(const std::string& k, uint32_t seed = kDefaultSeed) {
  return HashKey(k.data(), k.size(), seed);
}

BlockedBloomOptions Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
  BlockedBloomOptions o;
  o.capacity = capacity;
  o.error_rate = error_rate;
  o.seed = seed;
  return o;
}

BlockedBloomOptions Direct(uint64_t blocks, uint32_t seed = kDefaultSeed) {
  BlockedBloomOptions o;
  o.blocks = blocks;
  o.seed = seed;
  return o;
}

TEST(BlockedBloomFilter, SplitBlockModel) {
  EXPECT_EQ(BlockedBloomFilter::SplitBlockFpr(0.0), 0.0);
  // One key per block on average: mostly blocks with 0 or 1 keys, each 1-key block passes a
  // random probe with probability (1/32)^8.
  EXPECT_GT(BlockedBloomFilter::SplitBlockFpr(1.0), 0.0);
  EXPECT_LT(BlockedBloomFilter::SplitBlockFpr(1.0), 1e-8);
  double prev = 0.0;
  for (double lambda = 0.5; lambda < 200; lambda *= 1.5) {
    const double f = BlockedBloomFilter::SplitBlockFpr(lambda);
    EXPECT_GT(f, prev) << lambda;
    EXPECT_LT(f, 1.0);
    prev = f;
  }
}

TEST(BlockedBloomFilter, SizingMeetsTargetWithSmallestBlockCount) {
  for (double p : {0.1, 0.01, 0.001, 0.0001}) {
    for (uint64_t n : {1ull, 100ull, 10000ull, 1000000ull}) {
      uint64_t b = 0;
      ASSERT_TRUE(BlockedBloomFilter::BlocksFor(n, p, &b).ok());
      const double dn = static_cast<double>(n);
      EXPECT_LE(BlockedBloomFilter::SplitBlockFpr(dn / static_cast<double>(b)), p);
      if (b > 1) {
        EXPECT_GT(BlockedBloomFilter::SplitBlockFpr(dn / static_cast<double>(b - 1)), p);
      }
    }
  }
  uint64_t b = 0;
  ASSERT_TRUE(BlockedBloomFilter::BlocksFor(1000000, 0.01, &b).ok());
  const double bits_per_key = 256.0 * static_cast<double>(b) / 1e6;
  EXPECT_LE(bits_per_key, 10.7);
  EXPECT_GE(bits_per_key, 10.4);
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000000, 0.01)).ok());
  EXPECT_EQ(f.blocks(), b);
  EXPECT_EQ(f.byte_length(), b * 32);
  EXPECT_EQ(f.bits(), b * 256);
  EXPECT_EQ(f.capacity(), 1000000u);
  EXPECT_EQ(f.error_rate(), 0.01);
  std::printf("[blocked] n=1e6 p=1%%: %llu blocks, %.3f bits/key\n",
              static_cast<unsigned long long>(b), bits_per_key);
}

TEST(BlockedBloomFilter, InvalidOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    BlockedBloomOptions o;
    const char* word;
  };
  BlockedBloomOptions both = Sized(100, 0.01);
  both.blocks = 4;
  const std::vector<Case> cases = {
      {BlockedBloomOptions{}, "capacity"},  {Sized(0, 0.01), "capacity"},
      {Sized(100, 0), "errorRate"},         {Sized(100, 1), "errorRate"},
      {Sized(100, -1), "errorRate"},        {Sized(100, nan), "errorRate"},
      {Sized(100, 1e-30), "errorRate"},     {Direct(uint64_t{1} << 32), "blocks"},
      {both, "blocks"},
  };
  for (const Case& c : cases) {
    BlockedBloomFilter f;
    ASSERT_TRUE(f.Init(Direct(3, 9)).ok());
    f.Add(H("x", 9));
    Status s = f.Init(c.o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.word;
    EXPECT_NE(std::string(s.message()).find(c.word), std::string::npos) << s.message();
    EXPECT_EQ(f.blocks(), 3u);
    EXPECT_TRUE(f.Contains(H("x", 9)));
  }
}

TEST(BlockedBloomFilter, AbsurdSizesAreOutOfMemory) {
  BlockedBloomFilter f;
  Status s = f.Init(Sized(uint64_t{1} << 62, 0.01));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("capacity"), std::string::npos);
  s = f.Init(Direct(0xFFFFFFFFu));  // 128 GiB
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("blocks"), std::string::npos);
  EXPECT_FALSE(f.initialized());
}

TEST(BlockedBloomFilter, UninitialisedIsSafe) {
  BlockedBloomFilter f;
  EXPECT_FALSE(f.Contains(H("a")));
  EXPECT_FALSE(f.Add(H("a")));
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.SerializedSize(), 0u);
  EXPECT_EQ(f.EstimatedSize(), 0.0);
  EXPECT_EQ(f.EstimatedErrorRate(), 0.0);
  uint8_t buf[64];
  EXPECT_FALSE(f.Serialize(buf, sizeof buf).ok());
  f.Clear();
}

TEST(BlockedBloomFilter, AddSetsEightBitsInOneBlock) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(Direct(16)).ok());
  EXPECT_TRUE(f.Add(H("one")));
  EXPECT_EQ(f.set_bits(), 8u);  // one bit in each of the 8 words
  EXPECT_FALSE(f.Add(H("one")));
  EXPECT_EQ(f.set_bits(), 8u);
  EXPECT_EQ(f.size(), 2u);
  EXPECT_TRUE(f.Contains(H("one")));
  const auto bytes = SerializeToVector(f);
  // Exactly one block is non-zero and each of its words has one bit.
  int nonzero_blocks = 0;
  for (size_t b = 0; b < 16; ++b) {
    int bits = 0;
    for (size_t i = 0; i < 8; ++i) {
      internal::ByteReader r(bytes.data() + kHeaderSize + 32 + 32 * b + 4 * i, 4);
      const uint32_t w = r.U32();
      EXPECT_EQ(__builtin_popcount(w) <= 1, true);
      bits += __builtin_popcount(w);
    }
    if (bits != 0) {
      ++nonzero_blocks;
      EXPECT_EQ(bits, 8);
    }
  }
  EXPECT_EQ(nonzero_blocks, 1);
}

TEST(BlockedBloomFilter, AddBatchAndContainsBatch) {
  const auto keys = MakeKeys("bb:", 3000);
  PackedKeys packed(keys);
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(3000, 0.01)).ok());
  const size_t added = f.AddBatch(packed.batch());
  EXPECT_GE(added, 2980u);
  EXPECT_EQ(f.size(), 3000u);
  EXPECT_EQ(f.AddBatch(packed.batch()), 0u);
  std::vector<uint8_t> out(keys.size());
  f.ContainsBatch(packed.batch(), out.data());
  for (uint8_t v : out) EXPECT_EQ(v, 1);
}

TEST(BlockedBloomFilter, EstimatesTrackTheFill) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(100000, 0.01)).ok());
  for (const auto& k : MakeKeys("e:", 50000)) f.Add(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 50000.0, 50000.0 * 0.02);
  for (const auto& k : MakeKeys("f:", 50000)) f.Add(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 100000.0, 100000.0 * 0.02);
  // The exact current FPR of the contents is close to the model at this load.
  const double model = BlockedBloomFilter::SplitBlockFpr(100000.0 / f.blocks());
  EXPECT_NEAR(f.EstimatedErrorRate(), model, model * 0.1);
  // And to what is measured.
  uint64_t fp = 0;
  for (const auto& k : MakeKeys("absent:", 200000)) fp += f.Contains(H(k)) ? 1 : 0;
  EXPECT_NEAR(fp / 200000.0, f.EstimatedErrorRate(), 0.0015);

  BlockedBloomFilter full;
  ASSERT_TRUE(full.Init(Direct(1)).ok());
  for (const auto& k : MakeKeys("full:", 20000)) full.Add(H(k));
  ASSERT_EQ(full.set_bits(), 256u);
  EXPECT_TRUE(std::isfinite(full.EstimatedSize()));
  EXPECT_EQ(full.EstimatedErrorRate(), 1.0);
  EXPECT_EQ(full.fill_ratio(), 1.0);
}

TEST(BlockedBloomFilter, UnionAndIntersect) {
  const auto a_keys = MakeKeys("a:", 2000);
  const auto b_keys = MakeKeys("b:", 2000);
  const auto both = MakeKeys("both:", 500);
  BlockedBloomFilter a, b, u, in;
  for (BlockedBloomFilter* f : {&a, &b, &u, &in}) ASSERT_TRUE(f->Init(Sized(5000, 0.01, 3)).ok());
  for (const auto& k : a_keys) {
    a.Add(H(k, 3));
    u.Add(H(k, 3));
    in.Add(H(k, 3));
  }
  for (const auto& k : b_keys) b.Add(H(k, 3));
  for (const auto& k : both) {
    for (BlockedBloomFilter* f : {&a, &b, &u, &in}) f->Add(H(k, 3));
  }
  ASSERT_TRUE(u.Union(b).ok());
  EXPECT_EQ(u.size(), 5000u);
  for (const auto* set : {&a_keys, &b_keys, &both}) {
    for (const auto& k : *set) EXPECT_TRUE(u.Contains(H(k, 3)));
  }
  EXPECT_NEAR(u.EstimatedSize(), 4500.0, 4500.0 * 0.05);
  ASSERT_TRUE(in.Intersect(b).ok());
  EXPECT_EQ(in.size(), 2500u);
  for (const auto& k : both) EXPECT_TRUE(in.Contains(H(k, 3)));
  size_t only_a = 0;
  for (const auto& k : a_keys) only_a += in.Contains(H(k, 3)) ? 1 : 0;
  EXPECT_LT(only_a, 400u);

  BlockedBloomFilter other_blocks, other_seed, uninit;
  ASSERT_TRUE(other_blocks.Init(Direct(a.blocks() + 1, 3)).ok());
  ASSERT_TRUE(other_seed.Init(Sized(5000, 0.01, 4)).ok());
  const uint64_t set_before = a.set_bits();
  for (const BlockedBloomFilter* o : {&other_blocks, &other_seed, &uninit}) {
    Status s = a.Union(*o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(s.message()).find("same blocks and seed"), std::string::npos);
    EXPECT_EQ(a.Intersect(*o).code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(a.set_bits(), set_before);
  }
}

TEST(BlockedBloomFilter, ClearKeepsShape) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000, 0.01, 8)).ok());
  for (const auto& k : MakeKeys("c:", 300)) f.Add(H(k, 8));
  const uint64_t blocks = f.blocks();
  f.Clear();
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.set_bits(), 0u);
  EXPECT_EQ(f.blocks(), blocks);
  EXPECT_EQ(f.seed(), 8u);
  for (const auto& k : MakeKeys("c:", 300)) EXPECT_FALSE(f.Contains(H(k, 8)));
}

std::vector<uint8_t> FrameBody(const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  Status s = internal::WriteFrame(out.data(), out.size(), FilterKind::kBlockedBloom, 7,
                                  kHashMurmur3x64_128, body.size(), [&](internal::ByteWriter& w) {
                                    w.Bytes(body.data(), body.size());
                                  });
  EXPECT_TRUE(s.ok());
  return out;
}

std::vector<uint8_t> Body(uint64_t blocks, uint64_t capacity, double error_rate, size_t words) {
  std::vector<uint8_t> body(32 + 4 * words);
  internal::ByteWriter w(body.data(), body.size());
  w.U64(blocks);
  w.U64(capacity);
  w.F64(error_rate);
  w.U64(0);
  for (size_t i = 0; i < words; ++i) w.U32(0x11);
  return body;
}

TEST(BlockedBloomFilter, DeserializeRejectsInconsistentBodies) {
  BlockedBloomFilter g;
  ASSERT_TRUE(g.Init(Direct(2, 7)).ok());
  g.Add(H("keep", 7));
  const std::vector<std::vector<uint8_t>> bad = {
      Body(0, 0, 0, 0),  Body(3, 0, 0, 16),          Body(1, 0, 0, 16),
      Body(2, 0, 0, 17), Body(uint64_t{1} << 33, 0, 0, 16), Body(~uint64_t{0}, 0, 0, 16),
      Body(2, 10, 0, 16), Body(2, 0, 0.1, 16),       Body(2, 10, 2.0, 16),
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    const auto bytes = FrameBody(bad[i]);
    EXPECT_EQ(g.Deserialize(bytes.data(), bytes.size()).code(), StatusCode::kCorruptData) << i;
  }
  const auto good = FrameBody(Body(2, 10, 0.5, 16));
  BlockedBloomFilter h;
  ASSERT_TRUE(h.Deserialize(good.data(), good.size()).ok());
  EXPECT_EQ(h.set_bits(), 32u);
  EXPECT_EQ(g.blocks(), 2u);
  EXPECT_TRUE(g.Contains(H("keep", 7)));
}

TEST(BlockedBloomFilter, DeserializeEveryTruncation) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(100, 0.01, 5)).ok());
  for (const auto& k : MakeKeys("t:", 100)) f.Add(H(k, 5));
  const auto bytes = SerializeToVector(f);
  BlockedBloomFilter g;
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(g.Deserialize(bytes.data(), n).ok()) << n;
  }
  for (size_t n = 0; n < bytes.size() - kHeaderSize - kTrailerSize; ++n) {
    std::vector<uint8_t> body(bytes.begin() + kHeaderSize, bytes.begin() + kHeaderSize + n);
    const auto framed = FrameBody(body);
    EXPECT_EQ(g.Deserialize(framed.data(), framed.size()).code(), StatusCode::kCorruptData) << n;
  }
  EXPECT_FALSE(g.initialized());
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  EXPECT_EQ(SerializeToVector(g), bytes);
  EXPECT_EQ(g.set_bits(), f.set_bits());
}

}  // namespace
}  // namespace bloomcuckoo
