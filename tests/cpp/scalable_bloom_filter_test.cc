#include "bloomcuckoo/scalable_bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "byte_io.h"
#include "conformance.h"
#include "frame.h"

namespace bloomcuckoo {

struct ScalableBloomAdapter {
  using Filter = ScalableBloomFilter;
  static constexpr const char* kName = "scalable";
  static constexpr FilterKind kKind = FilterKind::kScalableBloom;
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    ScalableBloomOptions o;
    o.capacity = capacity;
    o.error_rate = error_rate;
    o.seed = seed;
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(o));
    for (const auto& k : keys) {
      bool added = false;
      BLOOMCUCKOO_RETURN_IF_ERROR(f->Add(HashKey(k.data(), k.size(), seed), &added));
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
};

INSTANTIATE_TYPED_TEST_SUITE_P(Scalable, Conformance, ScalableBloomAdapter);

namespace {

using testing_util::MakeKeys;
using testing_util::PackedKeys;
using testing_util::SerializeToVector;

Hash128 H(const std::string& k, uint32_t seed = kDefaultSeed) {
  return HashKey(k.data(), k.size(), seed);
}

ScalableBloomOptions Opts(uint64_t capacity, double error_rate, uint32_t expansion = 2,
                          bool non_scaling = false, uint32_t seed = kDefaultSeed) {
  ScalableBloomOptions o;
  o.capacity = capacity;
  o.error_rate = error_rate;
  o.expansion = expansion;
  o.non_scaling = non_scaling;
  o.seed = seed;
  return o;
}

// Adds keys until `n` were reported new; returns the keys that were.
std::vector<std::string> AddDistinct(ScalableBloomFilter* f, const std::string& prefix,
                                     size_t n) {
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

TEST(ScalableBloomFilter, FirstLayer) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(1000000, 0.01)).ok());
  EXPECT_EQ(f.num_layers(), 1u);
  EXPECT_EQ(f.capacity(), 1000000u);
  EXPECT_EQ(f.error_rate(), 0.01);
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

TEST(ScalableBloomFilter, InvalidOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    ScalableBloomOptions o;
    const char* word;
  };
  const std::vector<Case> cases = {
      {ScalableBloomOptions{}, "capacity"}, {Opts(0, 0.01), "capacity"},
      {Opts(10, 0), "errorRate"},           {Opts(10, 1), "errorRate"},
      {Opts(10, nan), "errorRate"},         {Opts(10, -0.5), "errorRate"},
      {Opts(10, 1e-30), "errorRate"},       {Opts(10, 0.01, 0), "expansion"},
  };
  for (const Case& c : cases) {
    ScalableBloomFilter f;
    ASSERT_TRUE(f.Init(Opts(5, 0.1, 3, false, 9)).ok());
    bool added = false;
    ASSERT_TRUE(f.Add(H("x", 9), &added).ok());
    Status s = f.Init(c.o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.word;
    EXPECT_NE(std::string(s.message()).find(c.word), std::string::npos) << s.message();
    EXPECT_EQ(f.capacity(), 5u);
    EXPECT_EQ(f.expansion(), 3u);
    EXPECT_TRUE(f.Contains(H("x", 9)));
  }
  ScalableBloomFilter f;
  Status s = f.Init(Opts(uint64_t{1} << 62, 0.01));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("capacity"), std::string::npos);
  EXPECT_FALSE(f.initialized());
}

TEST(ScalableBloomFilter, UninitialisedIsSafe) {
  ScalableBloomFilter f;
  EXPECT_FALSE(f.Contains(H("a")));
  bool added = true;
  EXPECT_EQ(f.Add(H("a"), &added).code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(added);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.byte_length(), 0u);
  EXPECT_EQ(f.SerializedSize(), 0u);
  EXPECT_EQ(f.EstimatedSize(), 0.0);
  EXPECT_EQ(f.EstimatedErrorRate(), 0.0);
  uint8_t buf[64];
  EXPECT_FALSE(f.Serialize(buf, sizeof buf).ok());
  f.Clear();
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

  // Clear: back to the first layer, empty.
  f.Clear();
  EXPECT_EQ(f.num_layers(), 1u);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.layer(0).capacity(), 100u);
  EXPECT_FALSE(f.Contains(H(keys[0], 11)));
  EXPECT_EQ(AddDistinct(&f, "again:", 150).size(), 150u);
  EXPECT_EQ(f.num_layers(), 2u);
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

std::vector<uint8_t> Reframe(const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  Status s = internal::WriteFrame(out.data(), out.size(), FilterKind::kScalableBloom, 7,
                                  kHashMurmur3x64_128, body.size(), [&](internal::ByteWriter& w) {
                                    w.Bytes(body.data(), body.size());
                                  });
  EXPECT_TRUE(s.ok());
  return out;
}

void Put64(std::vector<uint8_t>* b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void Put32(std::vector<uint8_t>* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutF64(std::vector<uint8_t>* b, size_t at, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  Put64(b, at, bits);
}

TEST(ScalableBloomFilter, DeserializeRejectsInconsistentBodies) {
  ScalableBloomFilter f;
  ASSERT_TRUE(f.Init(Opts(10, 0.01, 2, false, 7)).ok());
  AddDistinct(&f, "d:", 25);  // 2 layers: 10 + 15 of 20
  ASSERT_EQ(f.num_layers(), 2u);
  const auto bytes = SerializeToVector(f);
  const std::vector<uint8_t> body(bytes.begin() + kHeaderSize, bytes.end() - kTrailerSize);
  // The re-framed original is accepted.
  ScalableBloomFilter g;
  const auto same = Reframe(body);
  ASSERT_TRUE(g.Deserialize(same.data(), same.size()).ok());
  ASSERT_EQ(g.num_layers(), 2u);

  // Body offsets: capacity 0, error_rate 8, expansion 16, non_scaling 20, layers 21,
  // layer 0 at 25: bits 25, hashes 33, capacity 37, error_rate 45, size 53, words 61.
  struct Case {
    std::vector<uint8_t> b;
    const char* why;
  };
  std::vector<Case> cases;
  auto with = [&](const char* why, auto edit) {
    std::vector<uint8_t> b = body;
    edit(&b);
    cases.push_back({b, why});
  };
  with("capacity 0", [](std::vector<uint8_t>* b) { Put64(b, 0, 0); });
  with("error rate 1", [](std::vector<uint8_t>* b) { PutF64(b, 8, 1.0); });
  with("error rate changed", [](std::vector<uint8_t>* b) { PutF64(b, 8, 0.02); });
  with("expansion 0", [](std::vector<uint8_t>* b) { Put32(b, 16, 0); });
  with("expansion changed", [](std::vector<uint8_t>* b) { Put32(b, 16, 3); });
  with("non_scaling 2", [](std::vector<uint8_t>* b) { (*b)[20] = 2; });
  with("non_scaling with 2 layers", [](std::vector<uint8_t>* b) { (*b)[20] = 1; });
  with("0 layers", [](std::vector<uint8_t>* b) { Put32(b, 21, 0); });
  with("65 layers", [](std::vector<uint8_t>* b) { Put32(b, 21, 65); });
  with("3 layers", [](std::vector<uint8_t>* b) { Put32(b, 21, 3); });
  with("1 layer (trailing bytes)", [](std::vector<uint8_t>* b) { Put32(b, 21, 1); });
  with("layer hashes 0", [](std::vector<uint8_t>* b) { Put32(b, 33, 0); });
  with("layer hashes 65", [](std::vector<uint8_t>* b) { Put32(b, 33, 65); });
  with("layer bits huge", [](std::vector<uint8_t>* b) { Put64(b, 25, uint64_t{1} << 50); });
  with("layer capacity", [](std::vector<uint8_t>* b) { Put64(b, 37, 11); });
  with("layer error", [](std::vector<uint8_t>* b) { PutF64(b, 45, 0.01); });
  with("layer overfull", [](std::vector<uint8_t>* b) { Put64(b, 53, 11); });
  for (const Case& c : cases) {
    const auto framed = Reframe(c.b);
    EXPECT_EQ(g.Deserialize(framed.data(), framed.size()).code(), StatusCode::kCorruptData)
        << c.why;
  }
  EXPECT_EQ(g.num_layers(), 2u);  // unchanged

  // Every truncation, raw and re-framed.
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(g.Deserialize(bytes.data(), n).ok()) << n;
  for (size_t n = 0; n < body.size(); ++n) {
    const auto framed = Reframe(std::vector<uint8_t>(body.begin(), body.begin() + n));
    EXPECT_EQ(g.Deserialize(framed.data(), framed.size()).code(), StatusCode::kCorruptData) << n;
  }
  EXPECT_EQ(SerializeToVector(g), same);
}

}  // namespace
}  // namespace bloomcuckoo
