// The conformance suite every filter joins: one typed test over an Adapter per filter class.
//
// A filter joins by defining an adapter and instantiating the suite in its own test file:
//   struct MyAdapter {
//     using Filter = MyFilter;
//     static constexpr const char* kName = "my";
//     // Creates *f sized for (capacity, error_rate) with `seed` and inserts every key
//     // (dynamic filters: Init + Add; static filters: Build).
//     static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
//                          const std::vector<std::string>& keys);
//     // The false-positive rate the filter promises for this shape once it holds `n` keys.
//     static double ExpectedFpr(const Filter& f, double error_rate, uint64_t n);
//     // Upper bound on bits per key at (error_rate) for n >= 10^4 (checked, and reported).
//     static double MaxBitsPerKey(double error_rate);
//     static constexpr FilterKind kKind;  // what PeekFilterKind must say of its bytes
//     // Optional: the rate promised for a requested error_rate (default: error_rate itself).
//     static double PromisedFpr(double error_rate);
//   };
//   INSTANTIATE_TYPED_TEST_SUITE_P(My, Conformance, MyAdapter);
//
// Every filter provides: bool Contains(Hash128) const; void ContainsBatch(const KeyBatch&,
// uint8_t* out) const; uint32_t seed() const; size_t byte_length() const;
// size_t SerializedSize() const; Status Serialize(uint8_t*, size_t) const;
// Status Deserialize(const uint8_t*, size_t).
#ifndef BLOOMCUCKOO_TESTS_CPP_CONFORMANCE_H_
#define BLOOMCUCKOO_TESTS_CPP_CONFORMANCE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"
#include "byte_io.h"

namespace bloomcuckoo {
namespace testing_util {

inline std::vector<std::string> MakeKeys(const std::string& prefix, uint64_t n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (uint64_t i = 0; i < n; ++i) keys.push_back(prefix + std::to_string(i));
  return keys;
}

template <typename F>
bool Has(const F& f, const std::string& key) {
  return f.Contains(HashKey(key.data(), key.size(), f.seed()));
}

// Packs keys the way the JS layer does: bytes back to back plus count + 1 offsets.
struct PackedKeys {
  std::vector<uint8_t> data;
  std::vector<uint32_t> offsets;
  explicit PackedKeys(const std::vector<std::string>& keys) {
    offsets.push_back(0);
    for (const std::string& k : keys) {
      data.insert(data.end(), k.begin(), k.end());
      offsets.push_back(static_cast<uint32_t>(data.size()));
    }
    if (data.empty()) data.push_back(0);
  }
  KeyBatch batch() const { return KeyBatch{data.data(), offsets.data(), offsets.size() - 1}; }
};

// Upper end of a one-sided binomial check: p + 5 sigma (+ a small absolute slack for tiny p).
inline double FprUpperBound(double p, uint64_t trials) {
  return p + 5.0 * std::sqrt(p * (1.0 - p) / static_cast<double>(trials)) + 2.0 / trials;
}

template <typename F>
std::vector<uint8_t> SerializeToVector(const F& f) {
  std::vector<uint8_t> out(f.SerializedSize());
  Status s = f.Serialize(out.data(), out.size());
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

}  // namespace testing_util

// The rate a filter built for `error_rate` promises: the requested rate, unless the adapter says
// otherwise (a fuse filter's rate is fixed by its fingerprint width).
template <typename A>
auto PromisedFpr(double error_rate, int) -> decltype(A::PromisedFpr(error_rate)) {
  return A::PromisedFpr(error_rate);
}
template <typename A>
double PromisedFpr(double error_rate, long) { return error_rate; }  // NOLINT(runtime/int)

namespace testing_util {

// Rewrites the frame's body length and CRC after a mutation, so the body parser sees it.
inline void RefitFrame(std::vector<uint8_t>* b) {
  if (b->size() < kHeaderSize + kTrailerSize) return;
  const uint64_t body = b->size() - kHeaderSize - kTrailerSize;
  for (int i = 0; i < 8; ++i) (*b)[12 + i] = static_cast<uint8_t>(body >> (8 * i));
  const uint32_t crc = Crc32(b->data(), b->size() - kTrailerSize);
  for (int i = 0; i < 4; ++i) (*b)[b->size() - 4 + i] = static_cast<uint8_t>(crc >> (8 * i));
}

}  // namespace testing_util

template <typename Adapter>
class Conformance : public ::testing::Test {};
TYPED_TEST_SUITE_P(Conformance);

// No false negatives and FPR within a binomial bound, at the three shapes.
TYPED_TEST_P(Conformance, NoFalseNegativesAndFprWithinBound) {
  using A = TypeParam;
  struct Shape { uint64_t n; double p; };
  for (Shape shape : {Shape{10000, 0.01}, Shape{100000, 0.001}, Shape{1000000, 0.01}}) {
    const auto keys = testing_util::MakeKeys("key:", shape.n);
    typename A::Filter f;
    Status s = A::Create(&f, shape.n, shape.p, kDefaultSeed, keys);
    ASSERT_TRUE(s.ok()) << s.message();
    uint64_t missing = 0;
    for (const auto& k : keys) missing += testing_util::Has(f, k) ? 0 : 1;
    EXPECT_EQ(missing, 0u) << A::kName << " n=" << shape.n;

    testing_util::PackedKeys packed(keys);
    std::vector<uint8_t> out(keys.size());
    f.ContainsBatch(packed.batch(), out.data());
    uint64_t batch_missing = 0;
    for (uint8_t v : out) batch_missing += v ? 0 : 1;
    EXPECT_EQ(batch_missing, 0u);

    const uint64_t probes = 1000000;
    uint64_t fp = 0;
    for (uint64_t i = 0; i < probes; ++i) {
      const std::string k = "absent:" + std::to_string(i);
      fp += testing_util::Has(f, k) ? 1 : 0;
    }
    const double measured = static_cast<double>(fp) / probes;
    const double expected = A::ExpectedFpr(f, shape.p, shape.n);
    const double bits = 8.0 * f.byte_length() / static_cast<double>(shape.n);
    ::testing::Test::RecordProperty(std::string(A::kName) + "_fpr_" + std::to_string(shape.n),
                                    std::to_string(measured));
    std::printf("[conformance] %-9s n=%-8llu target=%.4f expected=%.5f measured=%.5f bits/key=%.2f\n",
                A::kName, static_cast<unsigned long long>(shape.n), shape.p, expected, measured, bits);
    EXPECT_LE(measured, testing_util::FprUpperBound(expected, probes)) << A::kName;
    // and against what was asked for, so a wrong sizing or fingerprint choice cannot hide
    // behind a shape that predicts its own (too high) rate
    const double promised = PromisedFpr<A>(shape.p, 0);
    EXPECT_LE(measured, testing_util::FprUpperBound(promised, probes)) << A::kName << " asked " << shape.p;
    EXPECT_LE(bits, A::MaxBitsPerKey(shape.p)) << A::kName;
  }
}

TYPED_TEST_P(Conformance, TinySizes) {
  using A = TypeParam;
  for (uint64_t n : {0, 1, 2}) {
    const auto keys = testing_util::MakeKeys("tiny:", n);
    typename A::Filter f;
    Status s = A::Create(&f, n == 0 ? 1 : n, 0.01, kDefaultSeed, keys);
    ASSERT_TRUE(s.ok()) << s.message();
    for (const auto& k : keys) EXPECT_TRUE(testing_util::Has(f, k)) << n;
    // Few keys: (almost) nothing else is present; none at all when empty.
    uint64_t hits = 0;
    for (int i = 0; i < 1000; ++i) hits += testing_util::Has(f, "absent:" + std::to_string(i)) ? 1 : 0;
    if (n == 0) {
      EXPECT_EQ(hits, 0u) << A::kName << ": an empty filter answers false";
    } else {
      EXPECT_LE(hits, 30u) << A::kName << " n=" << n;
    }
    // It round-trips like any other.
    const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
    typename A::Filter g;
    ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok()) << A::kName << " n=" << n;
    EXPECT_EQ(testing_util::SerializeToVector(g), bytes);
    for (const auto& k : keys) EXPECT_TRUE(testing_util::Has(g, k)) << n;
    // An empty batch is fine.
    testing_util::PackedKeys empty({});
    f.ContainsBatch(empty.batch(), nullptr);
  }
}

TYPED_TEST_P(Conformance, DuplicateKeysAreFine) {
  using A = TypeParam;
  std::vector<std::string> keys = testing_util::MakeKeys("dup:", 100);
  const std::vector<std::string> once = keys;
  keys.insert(keys.end(), once.begin(), once.end());
  keys.insert(keys.end(), once.begin(), once.end());
  typename A::Filter f;
  Status s = A::Create(&f, 1000, 0.01, kDefaultSeed, keys);
  ASSERT_TRUE(s.ok()) << s.message();
  for (const auto& k : once) EXPECT_TRUE(testing_util::Has(f, k));
}

TYPED_TEST_P(Conformance, SeedChangesHashesButNotCorrectness) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("seed:", 2000);
  typename A::Filter a, b;
  ASSERT_TRUE(A::Create(&a, 2000, 0.01, 1, keys).ok());
  ASSERT_TRUE(A::Create(&b, 2000, 0.01, 2, keys).ok());
  EXPECT_EQ(a.seed(), 1u);
  EXPECT_EQ(b.seed(), 2u);
  for (const auto& k : keys) {
    EXPECT_TRUE(testing_util::Has(a, k));
    EXPECT_TRUE(testing_util::Has(b, k));
  }
  EXPECT_NE(testing_util::SerializeToVector(a), testing_util::SerializeToVector(b));
}

TYPED_TEST_P(Conformance, SerializeRoundTrip) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("rt:", 5000);
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 5000, 0.01, 77, keys).ok());
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
  typename A::Filter g;
  Status s = g.Deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(g.seed(), 77u);
  EXPECT_EQ(testing_util::SerializeToVector(g), bytes);
  for (const auto& k : keys) EXPECT_TRUE(testing_util::Has(g, k));
  for (int i = 0; i < 20000; ++i) {
    const std::string k = "other:" + std::to_string(i);
    EXPECT_EQ(testing_util::Has(f, k), testing_util::Has(g, k));
  }
  FilterKind kind;
  ASSERT_TRUE(PeekFilterKind(bytes.data(), bytes.size(), &kind).ok());
  EXPECT_EQ(kind, A::kKind) << A::kName;
}

// Corrupt input never crashes, and a failed Deserialize leaves the target as it was. Mutations
// are tried twice: as they are (the CRC catches them) and with the frame refitted (length and
// CRC rewritten) so the body parser must judge them: it either refuses them or reads a filter
// whose bytes are exactly the mutated ones.
TYPED_TEST_P(Conformance, CorruptBytesAreRejected) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("c:", 300);
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 300, 0.01, 5, keys).ok());
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
  // The target holds other keys and another seed, so "unchanged" can be told from "became f".
  const auto own_keys = testing_util::MakeKeys("g:", 200);
  typename A::Filter g;
  ASSERT_TRUE(A::Create(&g, 200, 0.01, 6, own_keys).ok());
  const std::vector<uint8_t> g_bytes = testing_util::SerializeToVector(g);
  auto expect_unchanged = [&](const char* what, size_t at) {
    EXPECT_EQ(g.seed(), 6u) << what << " " << at;
    EXPECT_EQ(testing_util::SerializeToVector(g), g_bytes) << A::kName << " " << what << " " << at;
  };
  for (size_t n = 0; n < bytes.size(); n += (n < 64 ? 1 : 97)) {
    EXPECT_FALSE(g.Deserialize(bytes.data(), n).ok()) << "truncated to " << n;
    expect_unchanged("truncated to", n);
  }
  size_t parser_refused = 0, parser_accepted = 0;
  for (size_t i = 0; i < bytes.size(); i += (i < 128 ? 1 : 61)) {
    std::vector<uint8_t> b = bytes;
    b[i] ^= 0x10;
    EXPECT_FALSE(g.Deserialize(b.data(), b.size()).ok()) << "flip at " << i;
    expect_unchanged("flip at", i);
    if (i >= kHeaderSize && i < bytes.size() - kTrailerSize) {
      testing_util::RefitFrame(&b);
      if (g.Deserialize(b.data(), b.size()).ok()) {
        ++parser_accepted;  // a consistent filter (e.g. one payload bit): it is exactly those bytes
        EXPECT_EQ(testing_util::SerializeToVector(g), b) << A::kName << " refitted flip at " << i;
        ASSERT_TRUE(g.Deserialize(g_bytes.data(), g_bytes.size()).ok());
      } else {
        ++parser_refused;
        expect_unchanged("refitted flip at", i);
      }
    }
  }
  // Truncated bodies with a consistent frame reach the parser too.
  for (size_t cut = 1; cut < 40 && cut + kHeaderSize + kTrailerSize < bytes.size(); ++cut) {
    std::vector<uint8_t> b(bytes.begin(), bytes.end() - kTrailerSize - cut);
    b.insert(b.end(), kTrailerSize, 0);
    testing_util::RefitFrame(&b);
    EXPECT_FALSE(g.Deserialize(b.data(), b.size()).ok()) << A::kName << " body cut by " << cut;
    expect_unchanged("body cut by", cut);
  }
  EXPECT_GT(parser_refused, 0u) << A::kName << ": the body parser refused no mutated field";
  std::printf("[conformance] %-9s refitted body flips: %zu refused by the parser, %zu read as other filters\n",
              A::kName, parser_refused, parser_accepted);
  for (const auto& k : own_keys) EXPECT_TRUE(testing_util::Has(g, k));
}


// Serialize to a sink and Deserialize from a source move the same bytes as the buffer versions,
// in pieces of at most internal::kBytePieceSize; a sink or source that fails part way makes them
// fail cleanly (the target unchanged).
TYPED_TEST_P(Conformance, StreamsInPiecesAndFailsCleanly) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("st:", 20000);
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 20000, 0.001, 9, keys).ok());
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);

  struct Sink final : ByteSink {
    std::vector<uint8_t> got;
    size_t writes = 0, fail_at = SIZE_MAX, largest = 0;
    bool Write(const uint8_t* data, size_t size) override {
      if (writes++ == fail_at) return false;
      largest = std::max(largest, size);
      got.insert(got.end(), data, data + size);
      return true;
    }
  };
  struct Source final : ByteSource {
    const std::vector<uint8_t>* b;
    size_t pos = 0, reads = 0, fail_at = SIZE_MAX, largest = 0;
    uint64_t size() const override { return b->size(); }
    bool Read(uint8_t* out, size_t n) override {
      if (reads++ == fail_at || n > b->size() - pos) return false;
      largest = std::max(largest, n);
      std::memcpy(out, b->data() + pos, n);
      pos += n;
      return true;
    }
  };
  Sink sink;
  ASSERT_TRUE(f.Serialize(sink).ok());
  EXPECT_EQ(sink.got, bytes) << A::kName;
  EXPECT_LE(sink.largest, internal::kBytePieceSize);
  Source source;
  source.b = &bytes;
  typename A::Filter g;
  ASSERT_TRUE(g.Deserialize(source).ok()) << A::kName;
  EXPECT_EQ(source.pos, bytes.size());
  EXPECT_LE(source.largest, internal::kBytePieceSize);
  EXPECT_EQ(testing_util::SerializeToVector(g), bytes);

  for (size_t k = 0; k < sink.writes; ++k) {
    Sink failing;
    failing.fail_at = k;
    EXPECT_EQ(f.Serialize(failing).code(), StatusCode::kInvalidArgument) << A::kName << " write " << k;
  }
  const std::vector<uint8_t> g_bytes = testing_util::SerializeToVector(g);
  typename A::Filter h;
  ASSERT_TRUE(A::Create(&h, 100, 0.01, 3, testing_util::MakeKeys("h:", 100)).ok());
  const std::vector<uint8_t> h_bytes = testing_util::SerializeToVector(h);
  for (size_t k = 0; k < source.reads; ++k) {
    Source failing;
    failing.b = &bytes;
    failing.fail_at = k;
    EXPECT_EQ(h.Deserialize(failing).code(), StatusCode::kCorruptData) << A::kName << " read " << k;
    EXPECT_EQ(testing_util::SerializeToVector(h), h_bytes) << A::kName << " read " << k;
  }
}


// A moved-from filter is un-initialised (the promise of every default constructor): Contains()
// is false and it is the same as a default-constructed filter; the moved-to one has every key.
TYPED_TEST_P(Conformance, MovedFromFilterIsUninitialised) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("move:", 1000);
  const auto other_keys = testing_util::MakeKeys("other:", 500);
  auto expect_empty = [&](const typename A::Filter& f, const char* what) {
    uint64_t hits = 0;
    for (const auto& k : keys) hits += testing_util::Has(f, k) ? 1 : 0;
    EXPECT_EQ(hits, 0u) << A::kName << " " << what;
    testing_util::PackedKeys packed(keys);
    std::vector<uint8_t> out(keys.size(), 7);
    f.ContainsBatch(packed.batch(), out.data());
    uint64_t batch_hits = 0;
    for (uint8_t v : out) batch_hits += v;
    EXPECT_EQ(batch_hits, 0u) << A::kName << " " << what;
    const typename A::Filter fresh;
    EXPECT_EQ(f.byte_length(), fresh.byte_length()) << A::kName << " " << what;
    EXPECT_EQ(f.SerializedSize(), fresh.SerializedSize()) << A::kName << " " << what;
  };
  auto expect_all = [&](const typename A::Filter& f, const char* what) {
    uint64_t missing = 0;
    for (const auto& k : keys) missing += testing_util::Has(f, k) ? 0 : 1;
    EXPECT_EQ(missing, 0u) << A::kName << " " << what;
  };

  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 1000, 0.01, kDefaultSeed, keys).ok());
  typename A::Filter g(std::move(f));
  expect_all(g, "move-constructed");
  expect_empty(f, "moved-from by construction");

  typename A::Filter h;
  ASSERT_TRUE(A::Create(&h, 500, 0.01, kDefaultSeed, other_keys).ok());
  h = std::move(g);
  expect_all(h, "move-assigned");
  expect_empty(g, "moved-from by assignment");

  // A moved-from filter can be initialised again.
  ASSERT_TRUE(A::Create(&f, 1000, 0.01, kDefaultSeed, keys).ok());
  expect_all(f, "re-created after the move");
}

REGISTER_TYPED_TEST_SUITE_P(Conformance, MovedFromFilterIsUninitialised, NoFalseNegativesAndFprWithinBound, TinySizes,
                            DuplicateKeysAreFine, SeedChangesHashesButNotCorrectness,
                            SerializeRoundTrip, CorruptBytesAreRejected, StreamsInPiecesAndFailsCleanly);

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_TESTS_CPP_CONFORMANCE_H_
