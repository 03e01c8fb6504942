#include "bloomcuckoo/scalable_bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "conformance.h"

namespace bloomcuckoo {
namespace {

ScalableBloomOptions Opts(uint64_t capacity, double error_rate, uint32_t expansion = 2,
                          bool non_scaling = false, uint32_t seed = kDefaultSeed) {
  ScalableBloomOptions o = testing_util::Sized<ScalableBloomOptions>(capacity, error_rate, seed);
  o.expansion = expansion;
  o.non_scaling = non_scaling;
  return o;
}

// Adds keys until `n` were reported new; returns the keys that were.
std::vector<std::string> AddDistinct(ScalableBloomFilter* f, const std::string& prefix, size_t n) {
  std::vector<std::string> added;
  for (uint64_t i = 0; added.size() < n; ++i) {
    const std::string k = prefix + std::to_string(i);
    bool fresh = false;
    Status s = f->Add(H(k, f->seed()), &fresh);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) break;
    if (fresh) added.push_back(k);
  }
  return added;
}

// The body of a filter of 2 layers (10 + 15 keys of 20). Offsets: capacity 0, error_rate 8,
// expansion 16, non_scaling 20, layers 21, layer 0 at 25: bits 25, hashes 33, capacity 37,
// error_rate 45, size 53, words 61.
std::vector<uint8_t> TwoLayerBody() {
  ScalableBloomFilter f;
  EXPECT_TRUE(f.Init(Opts(10, 0.01, 2, false, 7)).ok());
  AddDistinct(&f, "d:", 25);
  EXPECT_EQ(f.num_layers(), 2u);
  return testing_util::BodyOf(SerializeToVector(f));
}

}  // namespace

struct ScalableBloomAdapter : InitAdapter<ScalableBloomFilter, ScalableBloomOptions> {
  static constexpr const char* kName = "scalable";
  static bool Insert(Filter* f, Hash128 h) {
    bool added = false;
    return f->Add(h, &added).ok() && added;
  }
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(testing_util::Sized<Options>(capacity, error_rate, seed)));
    for (const auto& k : keys) {
      bool added = false;
      BLOOMCUCKOO_RETURN_IF_ERROR(f->Add(H(k, seed), &added));
    }
    return Status::Ok();
  }
  // 1 - prod(1 - p_i), p_i the classic Bloom rate of layer i at the keys it holds.
  static double ExpectedFpr(const Filter& f, double, uint64_t) {
    double pass = 1.0;
    for (size_t i = 0; i < f.num_layers(); ++i) {
      const BloomFilter& l = f.layer(i);
      const double k = l.hashes();
      const double p = std::pow(
          1.0 - std::exp(-k * static_cast<double>(l.size()) / static_cast<double>(l.bits())), k);
      pass *= 1.0 - p;
    }
    return 1.0 - pass;
  }
  // The first layer is a classic Bloom filter at error_rate / 2 (RedisBloom tightening).
  static double MaxBitsPerKey(double error_rate) {
    return -std::log2(error_rate / 2) / std::log(2.0) + 0.01;
  }
  static std::vector<double> State(const Filter& f) {
    std::vector<double> v = {static_cast<double>(f.num_layers()),
                             static_cast<double>(f.capacity()),
                             f.error_rate(),
                             static_cast<double>(f.expansion()),
                             static_cast<double>(f.non_scaling()),
                             static_cast<double>(f.initialized())};
    for (size_t i = 0; i < f.num_layers(); ++i) {
      const BloomFilter& l = f.layer(i);
      v.insert(v.end(), {static_cast<double>(l.bits()), static_cast<double>(l.hashes()),
                         static_cast<double>(l.set_bits()), static_cast<double>(l.size()),
                         static_cast<double>(l.capacity()), l.error_rate()});
    }
    return v;
  }
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {
        {ScalableBloomOptions{}, "capacity"}, {Opts(0, 0.01), "capacity"},
        {Opts(10, 0), "errorRate"},           {Opts(10, 1), "errorRate"},
        {Opts(10, nan), "errorRate"},         {Opts(10, -0.5), "errorRate"},
        {Opts(10, 1e-30), "errorRate"},       {Opts(10, 0.01, 0), "expansion"},
    };
  }
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return {{Opts(uint64_t{1} << 62, 0.01), "capacity"}};
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    using testing_util::PutF64;
    using testing_util::PutLE;
    const std::vector<uint8_t> body = TwoLayerBody();
    testing_util::EditedBodies bad(body);
    bad.Add("capacity 0", [](std::vector<uint8_t>* b) { PutLE(b, 0, 0, 8); });
    bad.Add("error rate 1", [](std::vector<uint8_t>* b) { PutF64(b, 8, 1.0); });
    bad.Add("error rate changed", [](std::vector<uint8_t>* b) { PutF64(b, 8, 0.02); });
    bad.Add("expansion 0", [](std::vector<uint8_t>* b) { PutLE(b, 16, 0, 4); });
    bad.Add("expansion changed", [](std::vector<uint8_t>* b) { PutLE(b, 16, 3, 4); });
    bad.Add("non_scaling 2", [](std::vector<uint8_t>* b) { (*b)[20] = 2; });
    bad.Add("non_scaling with 2 layers", [](std::vector<uint8_t>* b) { (*b)[20] = 1; });
    bad.Add("0 layers", [](std::vector<uint8_t>* b) { PutLE(b, 21, 0, 4); });
    bad.Add("65 layers", [](std::vector<uint8_t>* b) { PutLE(b, 21, 65, 4); });
    bad.Add("3 layers", [](std::vector<uint8_t>* b) { PutLE(b, 21, 3, 4); });
    bad.Add("1 layer (trailing bytes)", [](std::vector<uint8_t>* b) { PutLE(b, 21, 1, 4); });
    bad.Add("layer hashes 0", [](std::vector<uint8_t>* b) { PutLE(b, 33, 0, 4); });
    bad.Add("layer hashes 65", [](std::vector<uint8_t>* b) { PutLE(b, 33, 65, 4); });
    bad.Add("layer bits huge", [](std::vector<uint8_t>* b) { PutLE(b, 25, uint64_t{1} << 50, 8); });
    bad.Add("layer capacity", [](std::vector<uint8_t>* b) { PutLE(b, 37, 11, 8); });
    bad.Add("layer error", [](std::vector<uint8_t>* b) { PutF64(b, 45, 0.01); });
    bad.Add("layer overfull", [](std::vector<uint8_t>* b) { PutLE(b, 53, 11, 8); });
    return bad.cases();
  }
  // The unpatched body (the patches above are judged against a body the parser accepts).
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    return {{TwoLayerBody(), "two layers", [](const Filter& h) { EXPECT_EQ(h.num_layers(), 2u); }}};
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Scalable, Conformance, ScalableBloomAdapter);

namespace {

TEST(ScalableBloomFilter, FirstLayer) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(1000000, 0.01)).ok());
  EXPECT_EQ(f.num_layers(), 1u);
  // capacity() and error_rate(): Conformance.ReportsTheSizingItWasGiven
  EXPECT_EQ(f.expansion(), 2u);
  EXPECT_FALSE(f.non_scaling());
  EXPECT_EQ(f.layer(0).capacity(), 1000000u);
  EXPECT_EQ(f.layer(0).error_rate(), 0.005);  // tightened: error_rate * 0.5
  uint64_t m = 0;
  uint32_t k = 0;
  ASSERT_TRUE(BloomFilter::OptimalShape(1000000, 0.005, &m, &k).ok());
  EXPECT_EQ(f.layer(0).bits(), m);
  EXPECT_EQ(f.layer(0).hashes(), k);
  EXPECT_EQ(f.byte_length(), f.layer(0).byte_length());
  EXPECT_EQ(f.size(), 0u);

  ScalableBloomFilter ns;
  ASSERT_TRUE(ns.Init(Opts(1000000, 0.01, 2, true)).ok());
  EXPECT_EQ(ns.layer(0).error_rate(), 0.01);  // nonScaling: no tightening
  EXPECT_EQ(ns.layer(0).bits(), 9585059u);
  EXPECT_EQ(ns.layer(0).hashes(), 7u);
}

// What Conformance.DefaultConstructedIsSafe leaves to the class: Add on an un-initialised filter
// is an error, not a "may be present".
TEST(ScalableBloomFilter, UninitialisedAddIsInvalidArgument) {
  ScalableBloomFilter f;
  bool added = true;
  EXPECT_EQ(f.Add(H("a"), &added).code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(added);
}

TEST(ScalableBloomFilter, AddLikeBfAdd) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(100, 0.01)).ok());
  bool added = false;
  ASSERT_TRUE(f.Add(H("a"), &added).ok());
  EXPECT_TRUE(added);
  ASSERT_TRUE(f.Add(H("a"), &added).ok());
  EXPECT_FALSE(added);  // BF.ADD returns 0 for a key that may be present
  EXPECT_EQ(f.size(), 1u);
  EXPECT_TRUE(f.Contains(H("a")));
}

TEST(ScalableBloomFilter, GrowsAndKeepsOldKeys) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(100, 0.01, 2, false, 11)).ok());
  const auto keys = AddDistinct(&f, "g:", 100000);
  ASSERT_EQ(keys.size(), 100000u);
  // 100 * (2^10 - 1) = 102300 >= 100000 > 100 * (2^9 - 1).
  EXPECT_EQ(f.num_layers(), 10u);
  EXPECT_EQ(f.size(), 100000u);
  for (const auto& k : keys) ASSERT_TRUE(f.Contains(H(k, 11))) << k;
  size_t bytes = 0;
  for (size_t i = 0; i < f.num_layers(); ++i) {
    const BloomFilter& l = f.layer(i);
    EXPECT_EQ(l.capacity(), uint64_t{100} << i) << i;
    EXPECT_EQ(l.error_rate(), 0.01 * std::ldexp(1.0, -static_cast<int>(i) - 1)) << i;
    EXPECT_EQ(l.seed(), 11u);
    if (i + 1 < f.num_layers()) {
      EXPECT_EQ(l.size(), l.capacity()) << i;
    }
    bytes += l.byte_length();
  }
  EXPECT_EQ(f.byte_length(), bytes);
  EXPECT_NEAR(f.EstimatedSize(), 100000.0, 3000.0);
  // The compound rate stays about error_rate: the layer targets sum to 0.01 * (1 - 2^-10), and
  // small full layers run a little above their target (fill variance, k rounded).
  EXPECT_LT(f.EstimatedErrorRate(), 0.0115);
  uint64_t fp = 0;
  for (const auto& k : MakeKeys("absent:", 200000)) fp += f.Contains(H(k, 11)) ? 1 : 0;
  EXPECT_LT(fp / 200000.0, 0.0115);
  EXPECT_NEAR(fp / 200000.0, f.EstimatedErrorRate(), 0.001);
  std::printf("[scalable] 10 layers: measured FPR %.5f, estimated %.5f, %.2f bits/key\n",
              fp / 200000.0, f.EstimatedErrorRate(), 8.0 * f.byte_length() / 100000.0);

  // Survives a round trip with all layers.
  const auto bytes_out = SerializeToVector(f);
  ScalableBloomFilter g;
  ASSERT_TRUE(g.Deserialize(bytes_out.data(), bytes_out.size()).ok());
  EXPECT_EQ(g.num_layers(), 10u);
  EXPECT_EQ(g.size(), 100000u);
  for (const auto& k : keys) ASSERT_TRUE(g.Contains(H(k, 11)));
  EXPECT_EQ(SerializeToVector(g), bytes_out);
}

TEST(ScalableBloomFilter, ExpansionOne) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(50, 0.05, 1)).ok());
  AddDistinct(&f, "e1:", 500);
  EXPECT_EQ(f.num_layers(), 10u);
  for (size_t i = 0; i < f.num_layers(); ++i) EXPECT_EQ(f.layer(i).capacity(), 50u);
}

TEST(ScalableBloomFilter, NonScalingFullChangesNothing) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(20, 0.01, 2, true)).ok());
  const auto keys = AddDistinct(&f, "ns:", 20);
  ASSERT_EQ(keys.size(), 20u);
  const auto before = SerializeToVector(f);
  size_t full = 0;
  for (const auto& k : MakeKeys("more:", 50)) {
    bool added = true;
    Status s = f.Add(H(k), &added);
    EXPECT_FALSE(added);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), StatusCode::kFull);
      EXPECT_NE(std::string(s.message()).find("nonScaling"), std::string::npos);
      ++full;
    }
  }
  EXPECT_GE(full, 45u);  // the rest were false positives: "may be present", Ok
  EXPECT_EQ(SerializeToVector(f), before);
  EXPECT_EQ(f.num_layers(), 1u);
  EXPECT_EQ(f.size(), 20u);
  // Keys already in still answer Ok / not added.
  bool added = true;
  ASSERT_TRUE(f.Add(H(keys[3]), &added).ok());
  EXPECT_FALSE(added);

  // AddBatch stops at the first error; earlier keys stay.
  ScalableBloomFilter g;
  ASSERT_TRUE(g.Init(Opts(10, 0.001, 2, true)).ok());
  const auto batch_keys = MakeKeys("b:", 30);
  PackedKeys packed(batch_keys);
  size_t n_added = 0, processed = 0;
  Status s = g.AddBatch(packed.batch(), &n_added, &processed);
  EXPECT_EQ(s.code(), StatusCode::kFull);
  EXPECT_EQ(n_added, 10u);
  EXPECT_GE(processed, 10u);
  EXPECT_LT(processed, 30u);
  for (size_t i = 0; i < processed; ++i) EXPECT_TRUE(g.Contains(H(batch_keys[i])));
  std::vector<uint8_t> out(batch_keys.size());
  g.ContainsBatch(packed.batch(), out.data());
  for (size_t i = 0; i < processed; ++i) EXPECT_EQ(out[i], 1);

  ScalableBloomFilter h;
  ASSERT_TRUE(h.Init(Opts(1000, 0.01)).ok());
  ASSERT_TRUE(h.AddBatch(packed.batch(), &n_added, &processed).ok());
  EXPECT_EQ(processed, 30u);
  EXPECT_EQ(n_added, 30u);
}

TEST(ScalableBloomFilter, LayerLimitIsFull) {
  // Loose error rate and expansion 1 keep 64 layers small.
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(200, 0.9, 1)).ok());
  size_t added = 0;
  Status s = Status::Ok();
  for (uint64_t i = 0; s.ok() && i < 10000000; ++i) {
    const std::string k = "lim:" + std::to_string(i);
    bool fresh = false;
    s = f.Add(H(k), &fresh);
    added += fresh ? 1 : 0;
  }
  ASSERT_EQ(s.code(), StatusCode::kFull) << s.message();
  EXPECT_EQ(f.num_layers(), 64u);
  EXPECT_NE(std::string(s.message()).find("64-layer"), std::string::npos);
  EXPECT_EQ(f.size(), 64u * 200u);
  EXPECT_EQ(added, 64u * 200u);
  EXPECT_EQ(f.layer(63).hashes(), 64u);
  // Serializes and reloads at the limit.
  const auto bytes = SerializeToVector(f);
  ScalableBloomFilter g;
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  EXPECT_EQ(g.num_layers(), 64u);
}

TEST(ScalableBloomFilter, LayerParametersOverflow) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(1, 0.5, 0x80000000u)).ok());
  uint64_t cap = 0;
  double p = 0;
  ASSERT_TRUE(f.LayerParameters(1, &cap, &p));
  EXPECT_EQ(cap, 0x80000000u);
  EXPECT_EQ(p, 0.125);
  ASSERT_TRUE(f.LayerParameters(2, &cap, &p));
  EXPECT_EQ(cap, uint64_t{1} << 62);
  EXPECT_FALSE(f.LayerParameters(3, &cap, &p));
}

}  // namespace
}  // namespace bloomcuckoo
