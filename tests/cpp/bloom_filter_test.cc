#include "bloomcuckoo/bloom_filter.h"

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

struct BloomAdapter {
  using Filter = BloomFilter;
  static constexpr const char* kName = "bloom";
  static constexpr FilterKind kKind = FilterKind::kBloom;
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    BloomOptions o;
    o.capacity = capacity;
    o.error_rate = error_rate;
    o.seed = seed;
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(o));
    for (const auto& k : keys) f->Add(HashKey(k.data(), k.size(), seed));
    return Status::Ok();
  }
  static double ExpectedFpr(const Filter& f, double, uint64_t n) {
    const double k = f.hashes();
    return std::pow(1.0 - std::exp(-k * static_cast<double>(n) / static_cast<double>(f.bits())),
                    k);
  }
  static double MaxBitsPerKey(double error_rate) {
    return -std::log2(error_rate) / std::log(2.0) + 0.01;
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Bloom, Conformance, BloomAdapter);

namespace {

using testing_util::Has;
using testing_util::MakeKeys;
using testing_util::PackedKeys;
using testing_util::SerializeToVector;

Hash128 H(const std::string& k, uint32_t seed = kDefaultSeed) {
  return HashKey(k.data(), k.size(), seed);
}

BloomOptions Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
  BloomOptions o;
  o.capacity = capacity;
  o.error_rate = error_rate;
  o.seed = seed;
  return o;
}

BloomOptions Direct(uint64_t bits, uint32_t hashes, uint32_t seed = kDefaultSeed) {
  BloomOptions o;
  o.bits = bits;
  o.hashes = hashes;
  o.seed = seed;
  return o;
}

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

TEST(BloomFilter, InvalidOptions) {
  struct Case {
    BloomOptions o;
    const char* word;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Case> cases = {
      {BloomOptions{}, "capacity"},
      {Sized(0, 0.01), "capacity"},
      {Sized(100, 0), "errorRate"},  // capacity given: error_rate 0 is out of (0, 1)
      {Sized(100, 1.0), "errorRate"},
      {Sized(100, -0.1), "errorRate"},
      {Sized(100, 1.5), "errorRate"},
      {Sized(100, nan), "errorRate"},
      {Sized(100, inf), "errorRate"},
      {Sized(100, 1e-30), "errorRate"},  // needs ~100 hashes
      {Direct(0, 3), "bits"},
      {Direct(100, 0), "hashes"},
      {Direct(100, 65), "hashes"},
  };
  BloomOptions both = Sized(100, 0.01);
  both.bits = 100;
  both.hashes = 3;
  cases.push_back({both, "bits"});
  for (const Case& c : cases) {
    BloomFilter f;
    ASSERT_TRUE(f.Init(Direct(64, 2, 9)).ok());
    f.Add(H("x", 9));
    Status s = f.Init(c.o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.word;
    EXPECT_NE(std::string(s.message()).find(c.word), std::string::npos) << s.message();
    // Unchanged on failure.
    EXPECT_EQ(f.bits(), 64u);
    EXPECT_EQ(f.seed(), 9u);
    EXPECT_TRUE(f.Contains(H("x", 9)));
  }
}

TEST(BloomFilter, AbsurdSizesAreOutOfMemory) {
  BloomFilter f;
  Status s = f.Init(Sized(uint64_t{1} << 62, 0.01));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("capacity"), std::string::npos);
  s = f.Init(Sized(std::numeric_limits<uint64_t>::max(), 0.5));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  s = f.Init(Direct(std::numeric_limits<uint64_t>::max(), 3));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("bits"), std::string::npos);
  EXPECT_FALSE(f.initialized());
}

TEST(BloomFilter, UninitialisedIsSafe) {
  BloomFilter f;
  EXPECT_FALSE(f.Contains(H("a")));
  EXPECT_FALSE(f.Add(H("a")));
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.byte_length(), 0u);
  EXPECT_EQ(f.SerializedSize(), 0u);
  EXPECT_EQ(f.EstimatedSize(), 0.0);
  EXPECT_EQ(f.EstimatedErrorRate(), 0.0);
  uint8_t buf[64];
  EXPECT_FALSE(f.Serialize(buf, sizeof buf).ok());
  PackedKeys keys(MakeKeys("u", 3));
  uint8_t out[3] = {9, 9, 9};
  f.ContainsBatch(keys.batch(), out);
  EXPECT_EQ(out[0] + out[1] + out[2], 0);
  f.Clear();
}

TEST(BloomFilter, AddReturnValuesAndSize) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000, 0.01)).ok());
  EXPECT_TRUE(f.Add(H("apple")));
  EXPECT_FALSE(f.Add(H("apple")));  // every bit already set
  EXPECT_EQ(f.size(), 2u);          // size counts every Add call
  EXPECT_LE(f.set_bits(), f.hashes());
  EXPECT_GE(f.set_bits(), 1u);

  const auto keys = MakeKeys("batch:", 500);
  PackedKeys packed(keys);
  BloomFilter g;
  ASSERT_TRUE(g.Init(Sized(1000, 0.01)).ok());
  const size_t added = g.AddBatch(packed.batch());
  EXPECT_GE(added, 495u);  // a few may collide with earlier keys (false positives)
  EXPECT_LE(added, 500u);
  EXPECT_EQ(g.size(), 500u);
  EXPECT_EQ(g.AddBatch(packed.batch()), 0u);  // all already present
  EXPECT_EQ(g.size(), 1000u);
  std::vector<uint8_t> out(keys.size());
  g.ContainsBatch(packed.batch(), out.data());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(out[i], 1) << i;
}

TEST(BloomFilter, EstimatesTrackTheFill) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Sized(100000, 0.01)).ok());
  EXPECT_EQ(f.EstimatedSize(), 0.0);
  EXPECT_EQ(f.EstimatedErrorRate(), 0.0);
  for (const auto& k : MakeKeys("e:", 50000)) f.Add(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 50000.0, 50000.0 * 0.02);
  for (const auto& k : MakeKeys("f:", 50000)) f.Add(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 100000.0, 100000.0 * 0.02);
  EXPECT_NEAR(f.EstimatedErrorRate(), 0.01, 0.002);
  EXPECT_NEAR(f.fill_ratio(), 0.5, 0.02);

  // Everything set: finite, clamped estimate.
  BloomFilter full;
  ASSERT_TRUE(full.Init(Direct(64, 1)).ok());
  for (const auto& k : MakeKeys("full:", 5000)) full.Add(H(k));
  ASSERT_EQ(full.set_bits(), 64u);
  EXPECT_TRUE(std::isfinite(full.EstimatedSize()));
  EXPECT_NEAR(full.EstimatedSize(), 64.0 * std::log(128.0), 1e-9);
  EXPECT_EQ(full.EstimatedErrorRate(), 1.0);
}

TEST(BloomFilter, UnionAndIntersect) {
  const auto a_keys = MakeKeys("a:", 2000);
  const auto b_keys = MakeKeys("b:", 2000);
  const auto both = MakeKeys("both:", 500);
  BloomFilter a, b;
  ASSERT_TRUE(a.Init(Sized(5000, 0.01, 3)).ok());
  ASSERT_TRUE(b.Init(Sized(5000, 0.01, 3)).ok());
  for (const auto& k : a_keys) a.Add(H(k, 3));
  for (const auto& k : b_keys) b.Add(H(k, 3));
  for (const auto& k : both) {
    a.Add(H(k, 3));
    b.Add(H(k, 3));
  }
  BloomFilter u;
  ASSERT_TRUE(u.Deserialize(SerializeToVector(a).data(), SerializeToVector(a).size()).ok());
  ASSERT_TRUE(u.Union(b).ok());
  EXPECT_EQ(u.size(), 5000u);
  for (const auto* set : {&a_keys, &b_keys, &both}) {
    for (const auto& k : *set) EXPECT_TRUE(u.Contains(H(k, 3)));
  }
  EXPECT_NEAR(u.EstimatedSize(), 4500.0, 4500.0 * 0.05);

  BloomFilter in;
  const auto bytes = SerializeToVector(a);
  ASSERT_TRUE(in.Deserialize(bytes.data(), bytes.size()).ok());
  ASSERT_TRUE(in.Intersect(b).ok());
  EXPECT_EQ(in.size(), 2500u);
  for (const auto& k : both) EXPECT_TRUE(in.Contains(H(k, 3)));
  size_t only_a = 0;
  for (const auto& k : a_keys) only_a += in.Contains(H(k, 3)) ? 1 : 0;
  EXPECT_LT(only_a, 400u);  // mostly gone
  EXPECT_LE(in.set_bits(), a.set_bits());

  // Union with itself changes nothing in the bits.
  const uint64_t set_before = a.set_bits();
  BloomFilter a2;
  ASSERT_TRUE(a2.Deserialize(bytes.data(), bytes.size()).ok());
  ASSERT_TRUE(a.Union(a2).ok());
  EXPECT_EQ(a.set_bits(), set_before);
}

TEST(BloomFilter, UnionShapeMismatch) {
  BloomFilter a, other_bits, other_hashes, other_seed, uninit;
  ASSERT_TRUE(a.Init(Direct(1000, 5, 1)).ok());
  ASSERT_TRUE(other_bits.Init(Direct(1001, 5, 1)).ok());
  ASSERT_TRUE(other_hashes.Init(Direct(1000, 4, 1)).ok());
  ASSERT_TRUE(other_seed.Init(Direct(1000, 5, 2)).ok());
  a.Add(H("k", 1));
  const uint64_t set_before = a.set_bits();
  for (const BloomFilter* o : {&other_bits, &other_hashes, &other_seed, &uninit}) {
    Status s = a.Union(*o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(s.message()).find("same bits, hashes and seed"), std::string::npos);
    EXPECT_EQ(a.Intersect(*o).code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(a.set_bits(), set_before);
    EXPECT_EQ(a.size(), 1u);
  }
}

TEST(BloomFilter, ClearKeepsShape) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000, 0.01, 8)).ok());
  for (const auto& k : MakeKeys("c:", 300)) f.Add(H(k, 8));
  const uint64_t bits = f.bits();
  f.Clear();
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.set_bits(), 0u);
  EXPECT_EQ(f.bits(), bits);
  EXPECT_EQ(f.seed(), 8u);
  EXPECT_EQ(f.capacity(), 1000u);
  for (const auto& k : MakeKeys("c:", 300)) EXPECT_FALSE(f.Contains(H(k, 8)));
  EXPECT_TRUE(f.Add(H("c:1", 8)));
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

// Frames a hand-made body, with a correct checksum, so the body checks themselves are reached.
std::vector<uint8_t> FrameBody(const std::vector<uint8_t>& body, FilterKind kind) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  Status s = internal::WriteFrame(out.data(), out.size(), kind, 7, kHashMurmur3x64_128,
                                  body.size(), [&](internal::ByteWriter& w) {
                                    w.Bytes(body.data(), body.size());
                                  });
  EXPECT_TRUE(s.ok());
  return out;
}

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

TEST(BloomFilter, DeserializeRejectsInconsistentBodies) {
  BloomFilter g;
  ASSERT_TRUE(g.Init(Direct(128, 2, 7)).ok());
  g.Add(H("keep", 7));
  struct Case {
    std::vector<uint8_t> body;
    const char* why;
  };
  const std::vector<Case> cases = {
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
  for (const Case& c : cases) {
    const auto bytes = FrameBody(c.body, FilterKind::kBloom);
    Status s = g.Deserialize(bytes.data(), bytes.size());
    EXPECT_EQ(s.code(), StatusCode::kCorruptData) << c.why << ": " << s.message();
  }
  // A sound body of the right shape is accepted (the helper itself is right).
  const auto good = FrameBody(Body(128, 3, 100, 0.01, 5, 2, 1), FilterKind::kBloom);
  BloomFilter h;
  ASSERT_TRUE(h.Deserialize(good.data(), good.size()).ok());
  EXPECT_EQ(h.set_bits(), 2u);
  EXPECT_EQ(h.size(), 5u);
  // Another kind's frame: kInvalidArgument.
  const auto other = FrameBody(Body(128, 3, 0, 0, 0, 2), FilterKind::kCuckoo);
  EXPECT_EQ(g.Deserialize(other.data(), other.size()).code(), StatusCode::kInvalidArgument);
  // g is unchanged by all of that.
  EXPECT_EQ(g.bits(), 128u);
  EXPECT_TRUE(g.Contains(H("keep", 7)));
}

TEST(BloomFilter, DeserializeEveryTruncation) {
  BloomFilter f;
  ASSERT_TRUE(f.Init(Sized(200, 0.01, 5)).ok());
  for (const auto& k : MakeKeys("t:", 200)) f.Add(H(k, 5));
  const auto bytes = SerializeToVector(f);
  BloomFilter g;
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(g.Deserialize(bytes.data(), n).ok()) << n;
    EXPECT_FALSE(g.initialized());
  }
  // Truncated bodies re-framed with a valid checksum still fail.
  for (size_t n = 0; n < bytes.size() - kHeaderSize - kTrailerSize; ++n) {
    std::vector<uint8_t> body(bytes.begin() + kHeaderSize, bytes.begin() + kHeaderSize + n);
    const auto framed = FrameBody(body, FilterKind::kBloom);
    EXPECT_EQ(g.Deserialize(framed.data(), framed.size()).code(), StatusCode::kCorruptData) << n;
  }
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  EXPECT_EQ(SerializeToVector(g), bytes);
}

}  // namespace
}  // namespace bloomcuckoo
