#include "bloomcuckoo/counting_bloom_filter.h"

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

struct CountingBloomAdapter {
  using Filter = CountingBloomFilter;
  static constexpr const char* kName = "counting";
  static constexpr FilterKind kKind = FilterKind::kCountingBloom;
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    CountingBloomOptions o;
    o.capacity = capacity;
    o.error_rate = error_rate;
    o.seed = seed;
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(o));
    for (const auto& k : keys) f->Add(HashKey(k.data(), k.size(), seed));
    return Status::Ok();
  }
  static double ExpectedFpr(const Filter& f, double, uint64_t n) {
    const double k = f.hashes();
    return std::pow(
        1.0 - std::exp(-k * static_cast<double>(n) / static_cast<double>(f.counters())), k);
  }
  // Four bits per Bloom bit.
  static double MaxBitsPerKey(double error_rate) {
    return 4.0 * (-std::log2(error_rate) / std::log(2.0) + 0.01);
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Counting, Conformance, CountingBloomAdapter);

namespace {

using testing_util::MakeKeys;
using testing_util::PackedKeys;
using testing_util::SerializeToVector;

Hash128 H(const std::string& k, uint32_t seed = kDefaultSeed) {
  return HashKey(k.data(), k.size(), seed);
}

CountingBloomOptions Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
  CountingBloomOptions o;
  o.capacity = capacity;
  o.error_rate = error_rate;
  o.seed = seed;
  return o;
}

CountingBloomOptions Direct(uint64_t counters, uint32_t hashes, uint32_t seed = kDefaultSeed) {
  CountingBloomOptions o;
  o.counters = counters;
  o.hashes = hashes;
  o.seed = seed;
  return o;
}

TEST(CountingBloomFilter, SizedLikeBloom) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000000, 0.01)).ok());
  EXPECT_EQ(f.counters(), 9585059u);
  EXPECT_EQ(f.hashes(), 7u);
  EXPECT_EQ(f.byte_length(), 9585060u / 2);
  EXPECT_EQ(f.capacity(), 1000000u);
  EXPECT_EQ(f.error_rate(), 0.01);
  CountingBloomFilter g;
  ASSERT_TRUE(g.Init(Direct(7, 3, 5)).ok());
  EXPECT_EQ(g.counters(), 7u);
  EXPECT_EQ(g.byte_length(), 4u);
  EXPECT_EQ(g.capacity(), 0u);
  EXPECT_EQ(g.seed(), 5u);
}

TEST(CountingBloomFilter, InvalidOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    CountingBloomOptions o;
    const char* word;
  };
  CountingBloomOptions both = Sized(100, 0.01);
  both.counters = 100;
  const std::vector<Case> cases = {
      {CountingBloomOptions{}, "capacity"}, {Sized(0, 0.01), "capacity"},
      {Sized(100, 0), "errorRate"},         {Sized(100, 1), "errorRate"},
      {Sized(100, nan), "errorRate"},       {Sized(100, 1e-30), "errorRate"},
      {Direct(0, 3), "counters"},           {Direct(10, 0), "hashes"},
      {Direct(10, 65), "hashes"},           {both, "counters"},
  };
  for (const Case& c : cases) {
    CountingBloomFilter f;
    ASSERT_TRUE(f.Init(Direct(64, 2, 9)).ok());
    f.Add(H("x", 9));
    Status s = f.Init(c.o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.word;
    EXPECT_NE(std::string(s.message()).find(c.word), std::string::npos) << s.message();
    EXPECT_EQ(f.counters(), 64u);
    EXPECT_TRUE(f.Contains(H("x", 9)));
  }
  CountingBloomFilter f;
  Status s = f.Init(Sized(uint64_t{1} << 62, 0.01));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("capacity"), std::string::npos);
  s = f.Init(Direct(std::numeric_limits<uint64_t>::max(), 3));
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(std::string(s.message()).find("counters"), std::string::npos);
  EXPECT_FALSE(f.initialized());
}

TEST(CountingBloomFilter, UninitialisedIsSafe) {
  CountingBloomFilter f;
  EXPECT_FALSE(f.Contains(H("a")));
  EXPECT_FALSE(f.Add(H("a")));
  EXPECT_FALSE(f.Remove(H("a")));
  EXPECT_EQ(f.Count(H("a")), 0u);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.SerializedSize(), 0u);
  EXPECT_EQ(f.EstimatedSize(), 0.0);
  uint8_t buf[64];
  EXPECT_FALSE(f.Serialize(buf, sizeof buf).ok());
}

TEST(CountingBloomFilter, AddRemoveRoundTrip) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000, 0.01)).ok());
  EXPECT_TRUE(f.Add(H("a")));
  EXPECT_FALSE(f.Add(H("a")));  // no counter went 0 -> 1
  EXPECT_EQ(f.size(), 2u);
  EXPECT_EQ(f.Count(H("a")), 2u);
  EXPECT_TRUE(f.Remove(H("a")));
  EXPECT_TRUE(f.Contains(H("a")));
  EXPECT_EQ(f.size(), 1u);
  EXPECT_TRUE(f.Remove(H("a")));
  EXPECT_FALSE(f.Contains(H("a")));
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.nonzero_counters(), 0u);
  EXPECT_FALSE(f.Remove(H("a")));  // certainly absent now
  EXPECT_EQ(f.size(), 0u);

  // Many keys in, half out: the other half stays, the removed half is (mostly) gone.
  const auto keys = MakeKeys("k:", 1000);
  PackedKeys packed(keys);
  EXPECT_GE(f.AddBatch(packed.batch()), 990u);
  for (size_t i = 0; i < keys.size(); i += 2) EXPECT_TRUE(f.Remove(H(keys[i])));
  size_t still = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 2 == 1) {
      EXPECT_TRUE(f.Contains(H(keys[i])));
    } else {
      still += f.Contains(H(keys[i])) ? 1 : 0;
    }
  }
  EXPECT_LT(still, 20u);
  EXPECT_EQ(f.size(), 500u);
  std::vector<uint8_t> out(keys.size());
  f.ContainsBatch(packed.batch(), out.data());
  for (size_t i = 1; i < keys.size(); i += 2) EXPECT_EQ(out[i], 1);
  EXPECT_GE(f.RemoveBatch(packed.batch()), 500u);
  EXPECT_LE(f.nonzero_counters(), 20u * f.hashes());
}

TEST(CountingBloomFilter, RemoveOfNeverAddedKeyChangesNothing) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(1000, 0.01, 4)).ok());
  for (const auto& k : MakeKeys("in:", 500)) f.Add(H(k, 4));
  const auto before = SerializeToVector(f);
  size_t refused = 0;
  for (const auto& k : MakeKeys("out:", 2000)) {
    Hash128 h = H(k, 4);
    if (f.Contains(h)) continue;  // a false positive would be removable: skip it
    EXPECT_FALSE(f.Remove(h));
    ++refused;
  }
  EXPECT_GT(refused, 1900u);
  EXPECT_EQ(SerializeToVector(f), before);
}

TEST(CountingBloomFilter, RepeatedProbeOfOneCounterIsRolledBack) {
  // One counter and several probes: every probe hits counter 0.
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Direct(1, 4)).ok());
  EXPECT_TRUE(f.Add(H("a")));
  EXPECT_EQ(f.Count(H("zzz")), 4u);
  EXPECT_TRUE(f.Remove(H("b")));  // indistinguishable from "a"
  EXPECT_EQ(f.Count(H("a")), 0u);
  EXPECT_FALSE(f.Remove(H("a")));
  EXPECT_EQ(f.nonzero_counters(), 0u);

  // Two counters, 3 probes: a table state where some key's probes need more than is there.
  CountingBloomFilter g;
  ASSERT_TRUE(g.Init(Direct(2, 3)).ok());
  for (int i = 0; i < 50; ++i) {
    const std::string k = "r" + std::to_string(i);
    g.Clear();
    g.Add(H("base"));
    const auto before = SerializeToVector(g);
    if (!g.Remove(H(k))) {
      EXPECT_EQ(SerializeToVector(g), before) << k;  // a refused remove changed nothing
    }
  }
}

TEST(CountingBloomFilter, SaturatedCountersStayForever) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Direct(1000, 3)).ok());
  for (int i = 0; i < 40; ++i) f.Add(H("hot"));
  EXPECT_EQ(f.Count(H("hot")), 15u);
  EXPECT_EQ(f.SaturatedCounters(), f.nonzero_counters());
  EXPECT_GE(f.SaturatedCounters(), 1u);
  EXPECT_EQ(f.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_TRUE(f.Remove(H("hot")));
  // Still there: its counters saturated, so they are never decremented.
  EXPECT_TRUE(f.Contains(H("hot")));
  EXPECT_EQ(f.Count(H("hot")), 15u);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_TRUE(f.Remove(H("hot")));  // still "present"
  EXPECT_EQ(f.size(), 0u);          // never below zero

  // A key sharing a non-saturated filter keeps working next to it.
  EXPECT_TRUE(f.Add(H("cold")));
  EXPECT_TRUE(f.Remove(H("cold")));
  EXPECT_FALSE(f.Contains(H("cold")));
}

TEST(CountingBloomFilter, EstimatesAndClear) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(100000, 0.01)).ok());
  for (const auto& k : MakeKeys("e:", 100000)) f.Add(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 100000.0, 2000.0);
  EXPECT_NEAR(f.EstimatedErrorRate(), 0.01, 0.002);
  for (const auto& k : MakeKeys("e:", 50000)) f.Remove(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 50000.0, 1500.0);
  f.Clear();
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.nonzero_counters(), 0u);
  EXPECT_FALSE(f.Contains(H("e:1")));
  EXPECT_EQ(f.counters(), 958506u);

  CountingBloomFilter full;
  ASSERT_TRUE(full.Init(Direct(3, 1)).ok());
  for (const auto& k : MakeKeys("full:", 200)) full.Add(H(k));
  EXPECT_TRUE(std::isfinite(full.EstimatedSize()));
  EXPECT_EQ(full.EstimatedErrorRate(), 1.0);
}

std::vector<uint8_t> FrameBody(const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  Status s = internal::WriteFrame(out.data(), out.size(), FilterKind::kCountingBloom, 7,
                                  kHashMurmur3x64_128, body.size(), [&](internal::ByteWriter& w) {
                                    w.Bytes(body.data(), body.size());
                                  });
  EXPECT_TRUE(s.ok());
  return out;
}

std::vector<uint8_t> Body(uint64_t counters, uint32_t hashes, uint64_t capacity,
                          double error_rate, size_t bytes, uint8_t fill = 0x21) {
  std::vector<uint8_t> body(36 + bytes);
  internal::ByteWriter w(body.data(), body.size());
  w.U64(counters);
  w.U32(hashes);
  w.U64(capacity);
  w.F64(error_rate);
  w.U64(3);
  for (size_t i = 0; i < bytes; ++i) w.U8(fill);
  return body;
}

TEST(CountingBloomFilter, DeserializeRejectsInconsistentBodies) {
  CountingBloomFilter g;
  ASSERT_TRUE(g.Init(Direct(8, 2, 7)).ok());
  g.Add(H("keep", 7));
  const std::vector<std::vector<uint8_t>> bad = {
      Body(0, 3, 0, 0, 0),       Body(8, 0, 0, 0, 4),  Body(8, 65, 0, 0, 4),
      Body(9, 3, 0, 0, 4),       Body(8, 3, 0, 0, 5),  Body(uint64_t{1} << 40, 3, 0, 0, 4),
      Body(~uint64_t{0}, 3, 0, 0, 4), Body(7, 3, 0, 0, 4, 0x11),  // nibble past the end
      Body(8, 3, 5, 0, 4),       Body(8, 3, 0, 0.2, 4),
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    const auto bytes = FrameBody(bad[i]);
    EXPECT_EQ(g.Deserialize(bytes.data(), bytes.size()).code(), StatusCode::kCorruptData) << i;
  }
  const auto good = FrameBody(Body(7, 3, 5, 0.25, 4, 0x01));
  CountingBloomFilter h;
  ASSERT_TRUE(h.Deserialize(good.data(), good.size()).ok());
  EXPECT_EQ(h.nonzero_counters(), 4u);
  EXPECT_EQ(h.size(), 3u);
  EXPECT_EQ(g.counters(), 8u);
  EXPECT_TRUE(g.Contains(H("keep", 7)));
}

TEST(CountingBloomFilter, DeserializeEveryTruncation) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(Sized(50, 0.01, 5)).ok());
  for (const auto& k : MakeKeys("t:", 50)) f.Add(H(k, 5));
  const auto bytes = SerializeToVector(f);
  CountingBloomFilter g;
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(g.Deserialize(bytes.data(), n).ok()) << n;
  for (size_t n = 0; n < bytes.size() - kHeaderSize - kTrailerSize; ++n) {
    std::vector<uint8_t> body(bytes.begin() + kHeaderSize, bytes.begin() + kHeaderSize + n);
    const auto framed = FrameBody(body);
    EXPECT_EQ(g.Deserialize(framed.data(), framed.size()).code(), StatusCode::kCorruptData) << n;
  }
  EXPECT_FALSE(g.initialized());
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  EXPECT_EQ(SerializeToVector(g), bytes);
  EXPECT_EQ(g.nonzero_counters(), f.nonzero_counters());
  EXPECT_EQ(g.size(), 50u);
}

}  // namespace
}  // namespace bloomcuckoo
