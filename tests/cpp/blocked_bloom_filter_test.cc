#include "bloomcuckoo/blocked_bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "byte_io.h"
#include "conformance.h"

namespace bloomcuckoo {

struct BlockedBloomAdapter : AddingAdapter<BlockedBloomFilter, BlockedBloomOptions> {
  static constexpr const char* kName = "blocked";
  // Options in the direct form: `blocks` blocks.
  static Options Direct(uint64_t blocks, uint32_t seed = kDefaultSeed) {
    Options o;
    o.blocks = blocks;
    o.seed = seed;
    return o;
  }
  // A hand-built body: u64 blocks | u64 capacity | f64 error_rate | u64 size | u32 words (0x11).
  static std::vector<uint8_t> Body(uint64_t blocks, uint64_t capacity, double error_rate,
                                   size_t words) {
    std::vector<uint8_t> body(32 + 4 * words);
    internal::ByteWriter w(body.data(), body.size());
    w.U64(blocks);
    w.U64(capacity);
    w.F64(error_rate);
    w.U64(0);
    for (size_t i = 0; i < words; ++i) w.U32(0x11);
    return body;
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
  static std::vector<double> State(const Filter& f) {
    return {static_cast<double>(f.blocks()), static_cast<double>(f.set_bits()),
            static_cast<double>(f.capacity()), f.error_rate(),
            static_cast<double>(f.initialized())};
  }
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    return BadSizingsAnd({{Direct(uint64_t{1} << 32), "blocks"}, {AlsoSized(Direct(4)), "blocks"}});
  }
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return HugeSizingAnd({{Direct(0xFFFFFFFFu), "blocks"}});  // 128 GiB
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    return {
        {Body(0, 0, 0, 0), "no blocks"},
        {Body(3, 0, 0, 16), "3 blocks, 2 blocks of words"},
        {Body(1, 0, 0, 16), "1 block, 2 blocks of words"},
        {Body(2, 0, 0, 17), "a word too many"},
        {Body(uint64_t{1} << 33, 0, 0, 16), "2^33 blocks"},
        {Body(~uint64_t{0}, 0, 0, 16), "max blocks"},
        {Body(2, 10, 0, 16), "capacity without error rate"},
        {Body(2, 0, 0.1, 16), "error rate without capacity"},
        {Body(2, 10, 2.0, 16), "error rate > 1"},
    };
  }
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    return {{Body(2, 10, 0.5, 16), "two bits in every word",
             [](const Filter& h) { EXPECT_EQ(h.set_bits(), 32u); }}};
  }
  // One block, 20000 keys: every bit set.
  static void Saturate(Filter* f) {
    ASSERT_TRUE(f->Init(Direct(1)).ok());
    for (const auto& k : MakeKeys("full:", 20000)) f->Add(H(k));
    ASSERT_EQ(f->set_bits(), 256u);
  }
  static constexpr const char* kShapeMessage = "same blocks and seed";
  static std::vector<Options> OtherShapes(const Filter& a) {
    return {Direct(a.blocks() + 1, a.seed()), Direct(a.blocks(), a.seed() + 1)};
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Blocked, Conformance, BlockedBloomAdapter);
INSTANTIATE_TYPED_TEST_SUITE_P(Blocked, BloomFamily, BlockedBloomAdapter);
INSTANTIATE_TYPED_TEST_SUITE_P(Blocked, BitUnion, BlockedBloomAdapter);

namespace {

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
  ASSERT_TRUE(f.Init(BlockedBloomAdapter::Sized(1000000, 0.01)).ok());
  EXPECT_EQ(f.blocks(), b);
  EXPECT_EQ(f.byte_length(), b * 32);
  EXPECT_EQ(f.bits(), b * 256);
  // capacity() and error_rate(): Conformance.ReportsTheSizingItWasGiven
  std::printf("[blocked] n=1e6 p=1%%: %llu blocks, %.3f bits/key\n",
              static_cast<unsigned long long>(b), bits_per_key);
}

TEST(BlockedBloomFilter, AddSetsEightBitsInOneBlock) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(BlockedBloomAdapter::Direct(16)).ok());
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

// What BloomFamily.EstimatesTrackTheFill leaves to the class: at capacity the estimated error
// rate is the split-block model's, and what is measured.
TEST(BlockedBloomFilter, EstimatedErrorRateIsTheModelsAndTheMeasured) {
  BlockedBloomFilter f;
  ASSERT_TRUE(f.Init(BlockedBloomAdapter::Sized(100000, 0.01)).ok());
  for (const auto& k : MakeKeys("e:", 100000)) f.Add(H(k));
  const double model = BlockedBloomFilter::SplitBlockFpr(100000.0 / f.blocks());
  EXPECT_NEAR(f.EstimatedErrorRate(), model, model * 0.1);
  uint64_t fp = 0;
  for (const auto& k : MakeKeys("absent:", 200000)) fp += f.Contains(H(k)) ? 1 : 0;
  EXPECT_NEAR(fp / 200000.0, f.EstimatedErrorRate(), 0.0015);
}

}  // namespace
}  // namespace bloomcuckoo
