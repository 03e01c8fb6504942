#include "bloomcuckoo/bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "byte_io.h"
#include "conformance.h"

namespace bloomcuckoo {

struct BloomAdapter
    : ProbedAdapter<BloomFilter, BloomOptions, &BloomOptions::bits, &BloomFilter::bits> {
  static constexpr const char* kName = "bloom";
  // A hand-built body of `words` 64-bit words, each `fill`.
  static std::vector<uint8_t> Body(uint64_t bits, uint32_t hashes, uint64_t capacity,
                                   double error_rate, uint64_t size, size_t words,
                                   uint64_t fill = 0) {
    std::vector<uint8_t> cells(8 * words);
    for (size_t i = 0; i < words; ++i) testing_util::PutLE(&cells, 8 * i, fill, 8);
    return CellsBody(bits, hashes, capacity, error_rate, size, cells);
  }
  static double MaxBitsPerKey(double error_rate) {
    return -std::log2(error_rate) / std::log(2.0) + 0.01;
  }
  static std::vector<double> State(const Filter& f) {
    return {static_cast<double>(f.bits()),
            static_cast<double>(f.hashes()),
            static_cast<double>(f.set_bits()),
            static_cast<double>(f.capacity()),
            f.error_rate(),
            static_cast<double>(f.initialized())};
  }
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    return BadSizingsAnd(BadDirectForms("bits"));
  }
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return HugeSizingAnd({
        {Sized(std::numeric_limits<uint64_t>::max(), 0.5), nullptr},
        {Direct(std::numeric_limits<uint64_t>::max(), 3), "bits"},
    });
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    return {
        {Body(0, 3, 0, 0, 0, 0), "zero bits"},
        {Body(128, 0, 0, 0, 0, 2), "zero hashes"},
        {Body(128, 65, 0, 0, 0, 2), "65 hashes"},
        {Body(129, 3, 0, 0, 0, 2), "more bits than bytes"},
        {Body(uint64_t{1} << 60, 3, 0, 0, 0, 2), "huge bit count"},
        {Body(~uint64_t{0}, 3, 0, 0, 0, 2), "max bit count"},
        {Body(64, 3, 0, 0, 0, 2), "trailing words"},
        {Body(100, 3, 0, 0, 0, 2, ~uint64_t{0}), "bits past the end set"},
        {Body(128, 3, 100, 0.0, 0, 2), "capacity without error rate"},
        {Body(128, 3, 0, 0.5, 0, 2), "error rate without capacity"},
        {Body(128, 3, 100, 1.5, 0, 2), "error rate > 1"},
        {Body(128, 3, 100, std::nan(""), 0, 2), "NaN error rate"},
    };
  }
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    return {{Body(128, 3, 100, 0.01, 5, 2, 1), "one bit in each of two words", [](const Filter& h) {
               EXPECT_EQ(h.set_bits(), 2u);
               EXPECT_EQ(h.size(), 5u);
             }}};
  }
  // 64 bits, one probe, 5000 keys: every bit set.
  static void Saturate(Filter* f) {
    ASSERT_TRUE(f->Init(Direct(64, 1)).ok());
    for (const auto& k : MakeKeys("full:", 5000)) f->Add(H(k));
    ASSERT_EQ(f->set_bits(), 64u);
  }
  static constexpr const char* kShapeMessage = "same bits, hashes and seed";
  static std::vector<Options> OtherShapes(const Filter& a) {
    return {Direct(a.bits() + 1, a.hashes(), a.seed()), Direct(a.bits(), a.hashes() - 1, a.seed()),
            Direct(a.bits(), a.hashes(), a.seed() + 1)};
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Bloom, Conformance, BloomAdapter);
INSTANTIATE_TYPED_TEST_SUITE_P(Bloom, BloomFamily, BloomAdapter);
INSTANTIATE_TYPED_TEST_SUITE_P(Bloom, BitUnion, BloomAdapter);

namespace {

TEST(BloomFilter, ExactSizing) {
  uint64_t m = 0;
  uint32_t k = 0;
  ASSERT_TRUE(BloomFilter::OptimalShape(1000000, 0.01, &m, &k).ok());
  EXPECT_EQ(m, 9585059u);
  EXPECT_EQ(k, 7u);
  ASSERT_TRUE(BloomFilter::OptimalShape(100000, 0.001, &m, &k).ok());
  EXPECT_EQ(m, 1437759u);
  EXPECT_EQ(k, 10u);
  ASSERT_TRUE(BloomFilter::OptimalShape(1, 0.5, &m, &k).ok());
  EXPECT_EQ(m, 64u);  // ceil(ln 2 / ln^2 2) = 2 bits, raised to 64 bits per probe
  EXPECT_EQ(k, 1u);
  ASSERT_TRUE(BloomFilter::OptimalShape(44, 0.01, &m, &k).ok());
  EXPECT_EQ(m, 448u);  // 422 by the formula, 7 probes: at least 64 * 7
  EXPECT_EQ(k, 7u);
  ASSERT_TRUE(BloomFilter::OptimalShape(47, 0.01, &m, &k).ok());
  EXPECT_EQ(m, 451u);  // the formula from here on
  EXPECT_EQ(k, 7u);

  BloomFilter f;
  ASSERT_TRUE(f.Init(BloomAdapter::Sized(1000000, 0.01)).ok());
  EXPECT_EQ(f.bits(), 9585059u);
  EXPECT_EQ(f.hashes(), 7u);
  // capacity() and error_rate(): Conformance.ReportsTheSizingItWasGiven
  EXPECT_EQ(f.byte_length(), (9585059u + 63) / 64 * 8);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.set_bits(), 0u);
}

TEST(BloomFilter, DirectShapeIsExact) {
  BloomAdapter::ExpectDirectFormKept(1000, 3, 42, 16u * 8u);
  BloomFilter one;
  ASSERT_TRUE(one.Init(BloomAdapter::Direct(1, 64)).ok());
  EXPECT_TRUE(one.Add(H("a")));
  EXPECT_FALSE(one.Add(H("b")));  // the single bit is already set
  EXPECT_TRUE(one.Contains(H("zzz")));
  EXPECT_EQ(one.set_bits(), 1u);
}

TEST(BloomFilter, AddReturnValues) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(BloomAdapter::Sized(1000, 0.01)).ok());
  EXPECT_TRUE(f.Add(H("apple")));
  EXPECT_FALSE(f.Add(H("apple")));  // every bit already set
  EXPECT_EQ(f.size(), 2u);          // size counts every Add call
  EXPECT_LE(f.set_bits(), f.hashes());
  EXPECT_GE(f.set_bits(), 1u);
}

// What BloomFamily.EstimatesTrackTheFill leaves to the class: the fill at capacity, and the exact
// clamp of the estimate when every bit is set.
TEST(BloomFilter, FillAtCapacityAndSaturatedEstimate) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(BloomAdapter::Sized(100000, 0.01)).ok());
  for (const auto& k : MakeKeys("e:", 100000)) f.Add(H(k));
  EXPECT_NEAR(f.fill_ratio(), 0.5, 0.02);
  BloomFilter full;
  BloomAdapter::Saturate(&full);
  EXPECT_NEAR(full.EstimatedSize(), 64.0 * std::log(128.0), 1e-9);
}

TEST(BloomFilter, SerializedLayout) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(BloomAdapter::Direct(70, 3, 0x01020304)).ok());
  f.Add(H("x", 0x01020304));
  const auto bytes = SerializeToVector(f);
  ASSERT_EQ(bytes.size(), kHeaderSize + 36 + 16 + kTrailerSize);
  internal::ByteReader r(bytes.data() + kHeaderSize, 36);
  EXPECT_EQ(r.U64(), 70u);
  EXPECT_EQ(r.U32(), 3u);
  EXPECT_EQ(r.U64(), 0u);
  EXPECT_EQ(r.F64(), 0.0);
  EXPECT_EQ(r.U64(), 1u);
  EXPECT_EQ(bytes[6], static_cast<uint8_t>(FilterKind::kBloom));
  BloomFilter g;
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  EXPECT_EQ(g.set_bits(), f.set_bits());
  EXPECT_EQ(g.size(), 1u);
  EXPECT_EQ(g.capacity(), 0u);
}

}  // namespace
}  // namespace bloomcuckoo
