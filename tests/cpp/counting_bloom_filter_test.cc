#include "bloomcuckoo/counting_bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "byte_io.h"
#include "conformance.h"

namespace bloomcuckoo {

struct CountingBloomAdapter
    : ProbedAdapter<CountingBloomFilter, CountingBloomOptions, &CountingBloomOptions::counters,
                    &CountingBloomFilter::counters> {
  static constexpr const char* kName = "counting";
  // A hand-built body of size 3 and `bytes` bytes of `fill` (two 4-bit counters each).
  static std::vector<uint8_t> Body(uint64_t counters, uint32_t hashes, uint64_t capacity,
                                   double error_rate, size_t bytes, uint8_t fill = 0x21) {
    return CellsBody(counters, hashes, capacity, error_rate, 3, std::vector<uint8_t>(bytes, fill));
  }
  // Four bits per Bloom bit.
  static double MaxBitsPerKey(double error_rate) {
    return 4.0 * (-std::log2(error_rate) / std::log(2.0) + 0.01);
  }
  static std::vector<double> State(const Filter& f) {
    return {static_cast<double>(f.counters()),         static_cast<double>(f.hashes()),
            static_cast<double>(f.nonzero_counters()), static_cast<double>(f.SaturatedCounters()),
            static_cast<double>(f.capacity()),         f.error_rate(),
            static_cast<double>(f.initialized())};
  }
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    return BadSizingsAnd(BadDirectForms("counters"));
  }
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() {
    return HugeSizingAnd({{Direct(std::numeric_limits<uint64_t>::max(), 3), "counters"}});
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    return {
        {Body(0, 3, 0, 0, 0), "zero counters"},
        {Body(8, 0, 0, 0, 4), "zero hashes"},
        {Body(8, 65, 0, 0, 4), "65 hashes"},
        {Body(9, 3, 0, 0, 4), "more counters than bytes"},
        {Body(8, 3, 0, 0, 5), "a byte too many"},
        {Body(uint64_t{1} << 40, 3, 0, 0, 4), "2^40 counters"},
        {Body(~uint64_t{0}, 3, 0, 0, 4), "max counters"},
        {Body(7, 3, 0, 0, 4, 0x11), "a counter past the end set"},
        {Body(8, 3, 5, 0, 4), "capacity without error rate"},
        {Body(8, 3, 0, 0.2, 4), "error rate without capacity"},
    };
  }
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    return {{Body(7, 3, 5, 0.25, 4, 0x01), "every other counter 1", [](const Filter& h) {
               EXPECT_EQ(h.nonzero_counters(), 4u);
               EXPECT_EQ(h.size(), 3u);
             }}};
  }
  // Three counters, one probe, 200 keys: every counter set.
  static void Saturate(Filter* f) {
    ASSERT_TRUE(f->Init(Direct(3, 1)).ok());
    for (const auto& k : MakeKeys("full:", 200)) f->Add(H(k));
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Counting, Conformance, CountingBloomAdapter);
INSTANTIATE_TYPED_TEST_SUITE_P(Counting, BloomFamily, CountingBloomAdapter);

namespace {

TEST(CountingBloomFilter, SizedLikeBloom) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(CountingBloomAdapter::Sized(1000000, 0.01)).ok());
  EXPECT_EQ(f.counters(), 9585059u);
  EXPECT_EQ(f.hashes(), 7u);
  EXPECT_EQ(f.byte_length(), 9585060u / 2);
  // capacity() and error_rate(): Conformance.ReportsTheSizingItWasGiven
  CountingBloomAdapter::ExpectDirectFormKept(7, 3, 5, 4);
}

TEST(CountingBloomFilter, AddRemoveRoundTrip) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(CountingBloomAdapter::Sized(1000, 0.01)).ok());
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
  ASSERT_TRUE(f.Init(CountingBloomAdapter::Sized(1000, 0.01, 4)).ok());
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
  ASSERT_TRUE(f.Init(CountingBloomAdapter::Direct(1, 4)).ok());
  EXPECT_TRUE(f.Add(H("a")));
  EXPECT_EQ(f.Count(H("zzz")), 4u);
  EXPECT_TRUE(f.Remove(H("b")));  // indistinguishable from "a"
  EXPECT_EQ(f.Count(H("a")), 0u);
  EXPECT_FALSE(f.Remove(H("a")));
  EXPECT_EQ(f.nonzero_counters(), 0u);

  // Two counters, 3 probes: a table state where some key's probes need more than is there.
  CountingBloomFilter g;
  ASSERT_TRUE(g.Init(CountingBloomAdapter::Direct(2, 3)).ok());
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
  ASSERT_TRUE(f.Init(CountingBloomAdapter::Direct(1000, 3)).ok());
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

// What BloomFamily.EstimatesTrackTheFill leaves to the class: removing half the keys halves the
// estimate.
TEST(CountingBloomFilter, RemovingHalfHalvesTheEstimate) {
  CountingBloomFilter f;
  ASSERT_TRUE(f.Init(CountingBloomAdapter::Sized(100000, 0.01)).ok());
  EXPECT_EQ(f.counters(), 958506u);
  for (const auto& k : MakeKeys("e:", 100000)) f.Add(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 100000.0, 2000.0);
  for (const auto& k : MakeKeys("e:", 50000)) f.Remove(H(k));
  EXPECT_NEAR(f.EstimatedSize(), 50000.0, 1500.0);
}

}  // namespace
}  // namespace bloomcuckoo
