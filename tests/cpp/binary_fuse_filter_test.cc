#include "bloomcuckoo/binary_fuse_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "conformance.h"

namespace bloomcuckoo {
namespace {

using testing_util::BodyOf;
using testing_util::PutLE;

// Options for `bits`-bit fingerprints with `seed`.
BinaryFuseOptions Bits(uint32_t bits, uint32_t seed = kDefaultSeed) {
  BinaryFuseOptions o;
  o.fingerprint_bits = bits;
  o.seed = seed;
  return o;
}

Status BuildKeys(BinaryFuseFilter* f, const std::vector<std::string>& keys, uint32_t bits,
                 uint32_t seed = kDefaultSeed) {
  PackedKeys packed(keys);
  return f->Build(packed.batch(), Bits(bits, seed));
}

// Conformance adapters. Create ignores capacity and error_rate: the fingerprint width (and so
// the FPR, 2^-bits) is fixed per adapter, and the filter holds exactly the given keys.
template <uint32_t kBits>
struct BinaryFuseAdapter {
  using Filter = BinaryFuseFilter;
  using Options = BinaryFuseOptions;
  static constexpr const char* kName = kBits == 8 ? "fuse8" : "fuse16";
  static constexpr FilterKind kKind = FilterKind::kBinaryFuse;
  static Status Create(Filter* f, uint64_t /*capacity*/, double /*error_rate*/, uint32_t seed,
                       const std::vector<std::string>& keys) {
    return BuildKeys(f, keys, kBits, seed);
  }
  // A static filter: "initialising" is building, here over 20 keys.
  static Status Init(Filter* f, const Options& o) {
    PackedKeys packed(MakeKeys("j", 20));
    return f->Build(packed.batch(), o);
  }
  static double ExpectedFpr(const Filter& /*f*/, double /*error_rate*/, uint64_t /*n*/) {
    return std::ldexp(1.0, -static_cast<int>(kBits));
  }
  // A fuse filter takes no error rate: its promise is 2^-bits whatever was asked.
  static double PromisedFpr(double /*error_rate*/) {
    return std::ldexp(1.0, -static_cast<int>(kBits));
  }
  // At n = 10^4 the array is 1.28 n slots (10.24 / 20.48 bits/key); it shrinks towards 1.13 n
  // (9.04 / 18.09) at 10^6, which BitsPerKeyAtOneMillion checks strictly.
  static double MaxBitsPerKey(double /*error_rate*/) { return kBits == 8 ? 10.5 : 21.0; }
  static std::vector<double> State(const Filter& f) {
    return {static_cast<double>(f.fingerprint_bits()), static_cast<double>(f.segment_length()),
            static_cast<double>(f.segment_count()), static_cast<double>(f.array_length()),
            static_cast<double>(f.construction_seed())};
  }
  static std::vector<testing_util::OptionCase<Options>> InvalidOptions() {
    std::vector<testing_util::OptionCase<Options>> cases;
    for (uint32_t bits : {0u, 1u, 4u, 7u, 9u, 12u, 15u, 17u, 32u}) {
      cases.push_back({Bits(bits), "fingerprintBits must be 8 or 16", /*exact=*/true});
    }
    return cases;
  }
  static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions() { return {}; }

  // A filter of 200 keys (seed 3). Body: u32 fingerprint_bits 0 | u32 segment_length 4 |
  // u32 segment_count 8 | u32 array_length 12 | u64 size 16 | u64 construction_seed 24 | array.
  static BinaryFuseFilter Sample() {
    BinaryFuseFilter f;
    EXPECT_TRUE(BuildKeys(&f, MakeKeys("t", 200), kBits, 3).ok());
    return f;
  }
  static std::vector<testing_util::BodyCase> BadBodies() {
    const BinaryFuseFilter f = Sample();
    const auto body = BodyOf(SerializeToVector(f));
    const uint32_t L = f.segment_length(), S = f.segment_count(), A = f.array_length();
    struct Edit {
      size_t at;
      bool wide;
      uint64_t value;
    };
    const Edit edits[] = {
        {0, false, 0},
        {0, false, 7},
        {0, false, 24},
        {0, false, kBits == 8 ? 16u : 8u},  // wrong width for the payload length
        {4, false, 0},
        {4, false, L + 1},
        {4, false, L * 2},
        {4, false, 1u << 19},
        {4, false, 0xffffffffu},
        {8, false, 0},
        {8, false, S + 1},
        {8, false, 0xffffffffu},
        {12, false, A + 1},
        {12, false, A - 1},
        {12, false, 0},
        {12, false, 0xffffffffu},
        {16, true, 0},
        {16, true, A + 1ull},
        {16, true, ~0ull},
    };
    std::vector<testing_util::BodyCase> cases;
    for (const Edit& e : edits) {
      auto b = body;
      PutLE(&b, e.at, e.value, e.wide ? 8 : 4);
      cases.push_back({b, "at " + std::to_string(e.at) + " value " + std::to_string(e.value)});
    }
    // The empty filter with a nonzero layout field or seed.
    const auto empty = BodyOf(SerializeToVector(BinaryFuseFilter()));
    for (size_t at : {4u, 8u, 16u, 24u}) {
      auto b = empty;
      b[at] = 1;
      cases.push_back({b, "empty filter, byte " + std::to_string(at) + " set"});
    }
    // A huge claimed array with a tiny payload: refused before allocating.
    std::vector<uint8_t> huge(32, 0);
    PutLE(&huge, 0, kBits, 4);
    PutLE(&huge, 4, 1u << 18, 4);
    PutLE(&huge, 8, 16000, 4);
    PutLE(&huge, 12, (16000u + 2) * (1u << 18), 4);
    PutLE(&huge, 16, 5, 8);
    cases.push_back({huge, "huge array, tiny payload"});
    return cases;
  }
  // A consistent but different layout (L/2, 2S+2) over the same array is read.
  static std::vector<testing_util::GoodBody<Filter>> GoodBodies() {
    const BinaryFuseFilter f = Sample();
    const uint32_t L = f.segment_length(), S = f.segment_count();
    if (L < 2) return {};
    auto b = BodyOf(SerializeToVector(f));
    PutLE(&b, 4, L / 2, 4);
    PutLE(&b, 8, 2 * S + 2, 4);
    return {{b, "half the segment length",
             [L](const Filter& other) { EXPECT_EQ(other.segment_length(), L / 2); }}};
  }
};
using BinaryFuse8Adapter = BinaryFuseAdapter<8>;
using BinaryFuse16Adapter = BinaryFuseAdapter<16>;

}  // namespace

INSTANTIATE_TYPED_TEST_SUITE_P(BinaryFuse8, Conformance, BinaryFuse8Adapter);
INSTANTIATE_TYPED_TEST_SUITE_P(BinaryFuse16, Conformance, BinaryFuse16Adapter);

namespace {

uint64_t SplitMix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<uint64_t> RandomHashes(size_t n, uint64_t state) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = SplitMix(state);
  return v;
}

// What Conformance.DefaultConstructedIsSafe leaves to the class: the default width and seed, and
// the 64-bit-hash query.
TEST(BinaryFuseFilter, DefaultIsEightBitWithTheDefaultSeed) {
  BinaryFuseFilter f;
  EXPECT_EQ(f.fingerprint_bits(), 8u);
  EXPECT_EQ(f.seed(), kDefaultSeed);
  EXPECT_FALSE(f.ContainsHash64(0));
}

// What Conformance.BadOptionsAreRefusedByName leaves to the class: BuildFromHashes refuses the
// same widths, and changes nothing either.
TEST(BinaryFuseFilter, BuildFromHashesRefusesBadWidths) {
  for (uint32_t bits : {0u, 1u, 4u, 7u, 9u, 12u, 15u, 17u, 32u}) {
    BinaryFuseFilter f;
    ASSERT_TRUE(BuildKeys(&f, MakeKeys("k", 10), 8).ok());
    const uint64_t h = 1;
    Status s = f.BuildFromHashes(&h, 1, Bits(bits));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_STREQ(s.message(), "fingerprintBits must be 8 or 16");
    EXPECT_EQ(f.size(), 10u);
    EXPECT_TRUE(Has(f, "k3"));
  }
}

TEST(BinaryFuseFilter, SmallSizes) {
  for (uint32_t bits : {8u, 16u}) {
    for (uint64_t n : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 10u, 31u, 100u, 1000u}) {
      const auto keys = MakeKeys("s", n);
      BinaryFuseFilter f;
      Status s = BuildKeys(&f, keys, bits);
      ASSERT_TRUE(s.ok()) << s.message() << " n=" << n;
      EXPECT_EQ(f.size(), n);
      for (const auto& k : keys) EXPECT_TRUE(Has(f, k)) << n;
      if (n == 0) {
        EXPECT_EQ(f.byte_length(), 0u);
        for (int i = 0; i < 1000; ++i) EXPECT_FALSE(Has(f, "a" + std::to_string(i)));
      } else {
        EXPECT_EQ(f.array_length(), (f.segment_count() + 2) * f.segment_length());
        EXPECT_EQ(f.byte_length(), f.array_length() * bits / 8);
      }
      const auto bytes = SerializeToVector(f);
      BinaryFuseFilter g;
      ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok()) << n;
      for (const auto& k : keys) EXPECT_TRUE(Has(g, k));
    }
  }
}

// Every size up to 600 (small n peels fail more often, so retries with other seeds and the
// alternate layout are exercised here).
TEST(BinaryFuseFilter, EverySmallSize) {
  for (uint64_t n = 0; n <= 600; ++n) {
    const auto h = RandomHashes(n, n + 1);
    BinaryFuseFilter f;
    Status s = f.BuildFromHashes(h.data(), h.size(), BinaryFuseOptions{});
    ASSERT_TRUE(s.ok()) << s.message() << " n=" << n;
    ASSERT_EQ(f.size(), n);
    for (uint64_t x : h) ASSERT_TRUE(f.ContainsHash64(x)) << n;
  }
}

// Where other implementations fail to build (few, long segments right after the segment length
// doubles): every n from 11,400 to 11,600, 8-bit, plus every 10th with 16 bits.
TEST(BinaryFuseFilter, EveryNFrom11400To11600) {
  for (uint64_t n = 11400; n <= 11600; ++n) {
    const auto keys = MakeKeys("n" + std::to_string(n) + ":", n);
    for (uint32_t bits : {8u, 16u}) {
      if (bits == 16 && n % 10 != 0) continue;
      BinaryFuseFilter f;
      Status s = BuildKeys(&f, keys, bits);
      ASSERT_TRUE(s.ok()) << s.message() << " n=" << n;
      ASSERT_EQ(f.size(), n);
      uint64_t missing = 0;
      for (const auto& k : keys) missing += Has(f, k) ? 0 : 1;
      ASSERT_EQ(missing, 0u) << n;
    }
  }
}

// The same for 64-bit hashes, on random key sets at sizes where the paper's layout peels badly.
TEST(BinaryFuseFilter, HardSizesFromHashes) {
  uint64_t state = 12345;
  for (uint64_t n : {11193u, 11300u, 11480u, 11500u, 11521u, 13993u, 17493u, 37273u}) {
    for (int trial = 0; trial < 5; ++trial) {
      const auto h = RandomHashes(n, SplitMix(state));
      BinaryFuseFilter f;
      BinaryFuseOptions o;
      Status s = f.BuildFromHashes(h.data(), h.size(), o);
      ASSERT_TRUE(s.ok()) << s.message() << " n=" << n;
      for (uint64_t x : h) ASSERT_TRUE(f.ContainsHash64(x));
    }
  }
}

// BuildFromHashesInPlace builds the same filter as BuildFromHashes without the copy: same bytes
// for distinct hashes and for hashes with repeats (the in-place sort and dedup), same bad-width
// refusal, and a peak 8 bytes per key lower.
TEST(BinaryFuseFilter, BuildFromHashesInPlaceIsTheSameFilter) {
  for (uint64_t n : {0u, 1u, 100u, 5000u, 100000u}) {
    for (bool repeats : {false, true}) {
      auto h = RandomHashes(n, n + 17);
      if (repeats) {
        for (uint64_t i = 0; i + 3 < n; i += 4) h[i + 3] = h[i];
      }
      BinaryFuseFilter copied;
      ASSERT_TRUE(copied.BuildFromHashes(h.data(), h.size(), BinaryFuseOptions{}).ok());
      auto scratch = h;
      BinaryFuseFilter in_place;
      ASSERT_TRUE(
          in_place.BuildFromHashesInPlace(scratch.data(), scratch.size(), BinaryFuseOptions{})
              .ok());
      EXPECT_EQ(SerializeToVector(in_place), SerializeToVector(copied)) << n << " " << repeats;
      for (uint64_t x : h) ASSERT_TRUE(in_place.ContainsHash64(x));
    }
  }
  BinaryFuseOptions bad;
  bad.fingerprint_bits = 12;
  uint64_t one = 1;
  EXPECT_EQ(BinaryFuseFilter().BuildFromHashesInPlace(&one, 1, bad).code(),
            StatusCode::kInvalidArgument);
  for (uint64_t n : {1000u, 1000000u, 100000000u}) {
    EXPECT_EQ(BinaryFuseFilter::PeakBuildBytes(n) - BinaryFuseFilter::PeakBuildBytes(n, true),
              8 * n);
  }
  EXPECT_EQ(BinaryFuseFilter::PeakBuildBytes(0, true), 0u);
}

TEST(BinaryFuseFilter, BitsPerKeyAtOneMillion) {
  const auto h = RandomHashes(1000000, 99);
  for (uint32_t bits : {8u, 16u}) {
    BinaryFuseFilter f;
    ASSERT_TRUE(f.BuildFromHashes(h.data(), h.size(), Bits(bits)).ok());
    EXPECT_EQ(f.size(), 1000000u);
    const double bpk = f.bits_per_key();
    std::printf(
        "[fuse] %u-bit n=1e6: bits/key=%.3f segment_length=%u segment_count=%u "
        "array_length=%u peak build bytes/key=%llu\n",
        bits, bpk, f.segment_length(), f.segment_count(), f.array_length(),
        static_cast<unsigned long long>(BinaryFuseFilter::PeakBuildBytesPerKey(1000000)));
    EXPECT_LE(bpk, bits == 8 ? 9.1 : 18.2);
    uint64_t missing = 0;
    for (uint64_t x : h) missing += f.ContainsHash64(x) ? 0 : 1;
    EXPECT_EQ(missing, 0u);
  }
  EXPECT_LE(BinaryFuseFilter::PeakBuildBytesPerKey(1000000), 33u);
}

// FPR within a binomial bound of 2^-f: 8-bit at n = 10^5 with 10^6 probes, 16-bit with 4*10^6.
TEST(BinaryFuseFilter, FalsePositiveRate) {
  const auto keys = RandomHashes(100000, 7);
  for (uint32_t bits : {8u, 16u}) {
    BinaryFuseFilter f;
    ASSERT_TRUE(f.BuildFromHashes(keys.data(), keys.size(), Bits(bits)).ok());
    const uint64_t probes = bits == 8 ? 1000000 : 4000000;
    uint64_t state = 0xabcdef;
    uint64_t fp = 0;
    for (uint64_t i = 0; i < probes; ++i) fp += f.ContainsHash64(SplitMix(state)) ? 1 : 0;
    const double p = std::ldexp(1.0, -static_cast<int>(bits));
    const double measured = static_cast<double>(fp) / static_cast<double>(probes);
    std::printf("[fuse] %u-bit FPR: measured=%.7f expected=%.7f (%llu probes)\n", bits, measured, p,
                static_cast<unsigned long long>(probes));
    EXPECT_LE(measured, testing_util::FprUpperBound(p, probes));
    // And not absurdly low either (the fingerprints are really used).
    const double sigma = std::sqrt(p * (1 - p) / static_cast<double>(probes));
    EXPECT_GE(measured, p - 5.0 * sigma - 2.0 / probes);
    EXPECT_DOUBLE_EQ(f.expected_fpr(), p);
  }
}

TEST(BinaryFuseFilter, AllDuplicates) {
  std::vector<std::string> keys(1000, "same-key");
  for (uint32_t bits : {8u, 16u}) {
    BinaryFuseFilter f;
    Status s = BuildKeys(&f, keys, bits);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(f.size(), 1u);
    EXPECT_TRUE(Has(f, "same-key"));
    // Same bytes as building from the single key.
    BinaryFuseFilter g;
    ASSERT_TRUE(BuildKeys(&g, {"same-key"}, bits).ok());
    EXPECT_EQ(SerializeToVector(f), SerializeToVector(g));
  }
  // 64-bit hashes: 300 copies of each of 3 values (counts would overflow 6 bits per slot).
  std::vector<uint64_t> h;
  for (int i = 0; i < 300; ++i) h.insert(h.end(), {11u, 22u, 33u});
  BinaryFuseFilter f;
  ASSERT_TRUE(f.BuildFromHashes(h.data(), h.size(), BinaryFuseOptions{}).ok());
  EXPECT_EQ(f.size(), 3u);
  for (uint64_t x : {11u, 22u, 33u}) EXPECT_TRUE(f.ContainsHash64(x));
}

TEST(BinaryFuseFilter, SomeDuplicatesCountDistinct) {
  auto keys = MakeKeys("d", 5000);
  const auto extra = MakeKeys("d", 1234);
  keys.insert(keys.end(), extra.begin(), extra.end());
  BinaryFuseFilter f, g;
  ASSERT_TRUE(BuildKeys(&f, keys, 8).ok());
  ASSERT_TRUE(BuildKeys(&g, MakeKeys("d", 5000), 8).ok());
  EXPECT_EQ(f.size(), 5000u);
  EXPECT_EQ(SerializeToVector(f), SerializeToVector(g));
}

TEST(BinaryFuseFilter, DeterministicAndOrderIndependent) {
  auto h = RandomHashes(50000, 3);
  BinaryFuseFilter a, b, c;
  BinaryFuseOptions o;
  o.seed = 42;
  ASSERT_TRUE(a.BuildFromHashes(h.data(), h.size(), o).ok());
  ASSERT_TRUE(b.BuildFromHashes(h.data(), h.size(), o).ok());
  const auto bytes = SerializeToVector(a);
  EXPECT_EQ(bytes, SerializeToVector(b));
  std::reverse(h.begin(), h.end());
  std::rotate(h.begin(), h.begin() + 777, h.end());
  ASSERT_TRUE(c.BuildFromHashes(h.data(), h.size(), o).ok());
  EXPECT_EQ(bytes, SerializeToVector(c));
  // The caller's array is not modified (the copy is deduplicated/sorted, not the input).
  std::vector<uint64_t> dup = {5, 3, 5, 1};
  const auto before = dup;
  ASSERT_TRUE(c.BuildFromHashes(dup.data(), dup.size(), o).ok());
  EXPECT_EQ(dup, before);
  EXPECT_EQ(c.size(), 3u);
}

TEST(BinaryFuseFilter, PeakBuildBytes) {
  EXPECT_EQ(BinaryFuseFilter::PeakBuildBytes(0), 0u);
  EXPECT_EQ(BinaryFuseFilter::PeakBuildBytesPerKey(0), 0u);
  EXPECT_LE(BinaryFuseFilter::PeakBuildBytesPerKey(10000), 36u);
  EXPECT_LE(BinaryFuseFilter::PeakBuildBytesPerKey(10000000), 33u);
}

TEST(BinaryFuseFilter, BodyLayout) {
  const auto keys = MakeKeys("L", 500);
  BinaryFuseFilter f;
  ASSERT_TRUE(BuildKeys(&f, keys, 16, 1234).ok());
  const auto bytes = SerializeToVector(f);
  ASSERT_EQ(bytes.size(), kHeaderSize + 32 + f.byte_length() + kTrailerSize);
  internal::ByteReader r(bytes.data() + kHeaderSize, bytes.size() - kHeaderSize - kTrailerSize);
  EXPECT_EQ(r.U32(), 16u);
  EXPECT_EQ(r.U32(), f.segment_length());
  EXPECT_EQ(r.U32(), f.segment_count());
  EXPECT_EQ(r.U32(), f.array_length());
  EXPECT_EQ(r.U64(), 500u);
  EXPECT_EQ(r.U64(), f.construction_seed());
  EXPECT_EQ(r.remaining(), f.byte_length());
  EXPECT_EQ(bytes[6], static_cast<uint8_t>(FilterKind::kBinaryFuse));
}

}  // namespace
}  // namespace bloomcuckoo
