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
namespace {

using testing_util::H;
using testing_util::MakeKeys;
using testing_util::SerializeToVector;

BloomOptions Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
  return testing_util::Sized<BloomOptions>(capacity, error_rate, seed);
}

BloomOptions Direct(uint64_t bits, uint32_t hashes, uint32_t seed = kDefaultSeed) {
  BloomOptions o;
  o.bits = bits;
  o.hashes = hashes;
  o.seed = seed;
  return o;
}

// A hand-built body: u64 bits | u32 hashes | u64 capacity | f64 error_rate | u64 size | words.
std::vector<uint8_t> Body(uint64_t bits, uint32_t hashes, uint64_t capacity, double error_rate,
                          uint64_t size, size_t words, uint64_t fill = 0) {
  std::vector<uint8_t> body(36 + 8 * words);
  internal::ByteWriter w(body.data(), body.size());
  w.U64(bits);
  w.U32(hashes);
  w.U64(capacity);
  w.F64(error_rate);
  w.U64(size);
  for (size_t i = 0; i < words; ++i) w.U64(fill);
  return body;
}

}  // namespace

struct BloomAdapter : AddingAdapter<BloomFilter, BloomOptions> {
  static constexpr const char* kName = "bloom";
  static constexpr FilterKind kKind = FilterKind::kBloom;
  static double ExpectedFpr(const Filter& f, double, uint64_t n) {
    const double k = f.hashes();
    return std::pow(1.0 - std::exp(-k * static_cast<double>(n) / static_cast<double>(f.bits())), k);
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
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    BloomOptions both = Sized(100, 0.01);
    both.bits = 100;
    both.hashes = 3;
    return {
        {BloomOptions{}, "capacity"},   {Sized(0, 0.01), "capacity"},
        {Sized(100, 0), "errorRate"},  // capacity given: error_rate 0 is out of (0, 1)
        {Sized(100, 1.0), "errorRate"}, {Sized(100, -0.1), "errorRate"},
        {Sized(100, 1.5), "errorRate"}, {Sized(100, nan), "errorRate"},
        {Sized(100, inf), "errorRate"}, {Sized(100, 1e-30), "errorRate"},  // needs ~100 hashes
        {Direct(0, 3), "bits"},         {Direct(100, 0), "hashes"},
        {Direct(100, 65), "hashes"},    {both, "bits"},
    };
  }
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return {
        {Sized(uint64_t{1} << 62, 0.01), "capacity"},
        {Sized(std::numeric_limits<uint64_t>::max(), 0.5), nullptr},
        {Direct(std::numeric_limits<uint64_t>::max(), 3), "bits"},
    };
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
  static std::vector<Filter> OtherShapes(const Filter& a) {
    std::vector<Filter> v(3);
    EXPECT_TRUE(v[0].Init(Direct(a.bits() + 1, a.hashes(), a.seed())).ok());
    EXPECT_TRUE(v[1].Init(Direct(a.bits(), a.hashes() - 1, a.seed())).ok());
    EXPECT_TRUE(v[2].Init(Direct(a.bits(), a.hashes(), a.seed() + 1)).ok());
    return v;
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
  ASSERT_TRUE(f.Init(Sized(1000000, 0.01)).ok());
  EXPECT_EQ(f.bits(), 9585059u);
  EXPECT_EQ(f.hashes(), 7u);
  EXPECT_EQ(f.capacity(), 1000000u);
  EXPECT_EQ(f.error_rate(), 0.01);
  EXPECT_EQ(f.byte_length(), (9585059u + 63) / 64 * 8);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.set_bits(), 0u);
}

TEST(BloomFilter, DirectShapeIsExact) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Direct(1000, 3, 42)).ok());
  EXPECT_EQ(f.bits(), 1000u);
  EXPECT_EQ(f.hashes(), 3u);
  EXPECT_EQ(f.seed(), 42u);
  EXPECT_EQ(f.capacity(), 0u);
  EXPECT_EQ(f.error_rate(), 0.0);
  EXPECT_EQ(f.byte_length(), 16u * 8u);
  BloomFilter one;
  ASSERT_TRUE(one.Init(Direct(1, 64)).ok());
  EXPECT_TRUE(one.Add(H("a")));
  EXPECT_FALSE(one.Add(H("b")));  // the single bit is already set
  EXPECT_TRUE(one.Contains(H("zzz")));
  EXPECT_EQ(one.set_bits(), 1u);
}

TEST(BloomFilter, AddReturnValues) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000, 0.01)).ok());
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
  ASSERT_TRUE(f.Init(Sized(100000, 0.01)).ok());
  for (const auto& k : MakeKeys("e:", 100000)) f.Add(H(k));
  EXPECT_NEAR(f.fill_ratio(), 0.5, 0.02);
  BloomFilter full;
  BloomAdapter::Saturate(&full);
  EXPECT_NEAR(full.EstimatedSize(), 64.0 * std::log(128.0), 1e-9);
}

TEST(BloomFilter, SerializedLayout) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Direct(70, 3, 0x01020304)).ok());
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
