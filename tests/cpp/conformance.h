// The conformance suites every filter joins: typed tests over an Adapter per filter class, so that
// an idea every class must honour (round trips, corrupt and truncated bytes, Clear, seeds, moves,
// batches, refused options and bodies) is written once.
//
// Conformance (every filter). A kind whose class declares its options and info values
// (bloomcuckoo/internal/declared.h) and is sized by (capacity, error_rate, seed) joins with no file
// of its own: declared_conformance_test.cc instantiates the suite for each such row of the kind
// table with a generic adapter. Any filter can join (or add what the generic adapter cannot know)
// by defining an adapter and instantiating the suite in its own test file:
//   struct MyAdapter {
//     using Filter = MyFilter;
//     using Options = MyOptions;  // what Init takes
//     static constexpr const char* kName = "my";
//     static constexpr FilterKind kKind;  // what PeekFilterKind must say of its bytes (F::kKind)
//     // Creates *f sized for (capacity, error_rate) with `seed` and inserts every key
//     // (dynamic filters: Init + Add; static filters: Build).
//     static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
//                          const std::vector<std::string>& keys);
//     // Dynamic filters only: adds one more key hash (what f->HashOf gives), true when the
//     // filter reports it new. A static filter (built once) leaves it out: its
//     // default-constructed state is then the empty filter, where a dynamic filter's is
//     // un-initialised.
//     static bool Insert(Filter* f, decltype(f->HashOf(key, len)) h);
//     // (Re)initialises *f from `o` (a static filter: builds it over a few keys).
//     static Status Init(Filter* f, const Options& o);
//     // (Filter, Options, kKind and an Init that calls f->Init(o) come from deriving from
//     // InitAdapter<MyFilter, MyOptions>, below.)
//     // Options Init must refuse with kInvalidArgument, and with kOutOfMemory, each with a word
//     // its message must contain.
//     static std::vector<testing_util::OptionCase<Options>> InvalidOptions();
//     static std::vector<testing_util::OptionCase<Options>> OutOfMemoryOptions();
//     // Hand-built bodies (framed as kKind with a sound checksum) the parser must refuse with
//     // kCorruptData, and sound ones it must read and write back byte for byte (then `check`).
//     static std::vector<testing_util::BodyCase> BadBodies();
//     static std::vector<testing_util::GoodBody<Filter>> GoodBodies();
//     // The figures a filter keeps in memory besides its bytes (counts, shape): two filters that
//     // are the same agree on them (after Clear, after a round trip, after a refused call).
//     static std::vector<double> State(const Filter& f);
//     // The false-positive rate the filter promises for this shape once it holds `n` keys.
//     static double ExpectedFpr(const Filter& f, double error_rate, uint64_t n);
//     // Upper bound on bits per key at (error_rate) for n >= 10^4 (checked, and reported).
//     static double MaxBitsPerKey(double error_rate);
//     // Optional: the rate promised for a requested error_rate (default: error_rate itself).
//     static double PromisedFpr(double error_rate);
//     // Optional (default true): an un-initialised filter's SerializedSize() is 0.
//     static constexpr bool kUninitialisedSerializedSizeIsZero;
//     // Optional (default true): the filter keeps the seed it is given, reports it as seed() and
//     // frames it. False for a filter with no seed (seed() is always 0, the seed given to Create
//     // is ignored): the seed tests then check that instead.
//     static constexpr bool kSeeded;
//   };
//   INSTANTIATE_TYPED_TEST_SUITE_P(My, Conformance, MyAdapter);
//
// BloomFamily (Add, AddBatch, estimates, fill_ratio: Bloom, blocked and counting Bloom) also needs
//     static void Saturate(Filter* f);  // makes *f a tiny filter with every bit (counter) set
// BitUnion (Union and Intersect: Bloom, blocked Bloom) also needs
//     static constexpr const char* kShapeMessage;  // what a refused Union/Intersect says
//     // Options of filters `a` cannot combine with (another shape or seed).
//     static std::vector<Options> OtherShapes(const Filter& a);
//
// Every filter provides: HashOf(key, len) (its own key hash, filter_base.h: the suites probe every
// class through it, never through a hash function of their own); bool Contains(that hash) const;
// void ContainsBatch(const KeyBatch&, uint8_t* out) const; uint32_t seed() const; uint64_t size()
// const; size_t byte_length() const; void Clear(); size_t SerializedSize() const; Status
// Serialize(uint8_t*, size_t) const; Status Deserialize(const uint8_t*, size_t); and the ByteSink
// / ByteSource versions of both.
#ifndef BLOOMCUCKOO_TESTS_CPP_CONFORMANCE_H_
#define BLOOMCUCKOO_TESTS_CPP_CONFORMANCE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"
#include "byte_io.h"
#include "frame.h"

namespace bloomcuckoo {
namespace testing_util {

inline std::vector<std::string> MakeKeys(const std::string& prefix, uint64_t n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (uint64_t i = 0; i < n; ++i) keys.push_back(prefix + std::to_string(i));
  return keys;
}

// The MurmurHash3 key hash of our own filters (hash id kHashMurmur3x64_128), for their tests.
inline Hash128 H(const std::string& key, uint32_t seed = kDefaultSeed) {
  return Murmur3KeyHash(key.data(), key.size(), seed);
}

// The hash of `key` as `f` takes it: its class's own hash policy with its seed (F::HashOf), so
// one test probes every class, whichever function it hashes with.
template <typename F>
auto HashIn(const F& f, const std::string& key) {
  return f.HashOf(key.data(), key.size());
}

template <typename F>
bool Has(const F& f, const std::string& key) {
  return f.Contains(HashIn(f, key));
}

// Options sized by (capacity, error_rate) with `seed`, the rest as defaulted.
template <typename O>
O Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
  O o;
  o.capacity = capacity;
  o.error_rate = error_rate;
  o.seed = seed;
  return o;
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

// The classic Bloom false-positive rate of m cells probed k times per key, holding n keys:
// (1 - e^(-kn/m))^k.
inline double ClassicBloomFpr(double k, double n, double m) {
  return std::pow(1.0 - std::exp(-k * n / m), k);
}

template <typename F>
std::vector<uint8_t> SerializeToVector(const F& f) {
  std::vector<uint8_t> out(f.SerializedSize());
  Status s = f.Serialize(out.data(), out.size());
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

// Little-endian fields in hand-built or patched bytes.
inline void PutLE(std::vector<uint8_t>* b, size_t at, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline uint64_t GetLE(const std::vector<uint8_t>& b, size_t at, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) v |= static_cast<uint64_t>(b[at + i]) << (8 * i);
  return v;
}
inline void PutF64(std::vector<uint8_t>* b, size_t at, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  PutLE(b, at, bits, 8);
}

// Rewrites the frame's body length and CRC after a mutation, so the body parser sees it.
inline void RefitFrame(std::vector<uint8_t>* b) {
  if (b->size() < kHeaderSize + kTrailerSize) return;
  PutLE(b, 12, b->size() - kHeaderSize - kTrailerSize, 8);
  PutLE(b, b->size() - kTrailerSize, Crc32(b->data(), b->size() - kTrailerSize), 4);
}

// Frames a hand-made body of `kind` (with the kind's hash id) and a sound checksum, so that the
// body checks are reached.
inline std::vector<uint8_t> FrameBody(FilterKind kind, const std::vector<uint8_t>& body,
                                      uint32_t seed = 7) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  internal::MemorySink sink(out.data(), out.size());
  Status s = internal::WriteFrame(
      sink, kind, seed, FilterKindHashId(static_cast<uint8_t>(kind)), body.size(),
      [&](internal::ByteWriter& w) { w.Bytes(body.data(), body.size()); });
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

// The body of serialized bytes (between the header and the trailer).
inline std::vector<uint8_t> BodyOf(const std::vector<uint8_t>& bytes) {
  return std::vector<uint8_t>(bytes.begin() + kHeaderSize, bytes.end() - kTrailerSize);
}

template <typename O>
struct OptionCase {
  O options;
  const char* word;    // the message contains it (nullptr: any message)
  bool exact = false;  // the message is exactly `word`
};

struct BodyCase {
  std::vector<uint8_t> body;
  std::string why;
};

// Bad bodies made from one sound body, one edit each: Add(why, edit) calls edit(&copy) on a copy of
// the sound body and keeps the copy as a case; cases() is what an adapter's BadBodies returns.
class EditedBodies {
 public:
  explicit EditedBodies(std::vector<uint8_t> sound) : sound_(std::move(sound)) {}
  template <typename Edit>
  void Add(const char* why, Edit&& edit) {
    std::vector<uint8_t> b = sound_;
    edit(&b);
    cases_.push_back({std::move(b), why});
  }
  std::vector<BodyCase> cases() const { return cases_; }

 private:
  std::vector<uint8_t> sound_;
  std::vector<BodyCase> cases_;
};

template <typename F>
struct GoodBody {
  std::vector<uint8_t> body;
  std::string why;
  std::function<void(const F&)> check;  // what the filter read must show (may be empty)
};

// What can be seen of a filter from outside: its bytes (or that it has none), its counts and the
// adapter's State. Equal snapshots: the same filter, as far as any test can tell.
struct Snapshot {
  bool serializes = false;
  size_t serialized_size = 0;
  std::vector<uint8_t> bytes;
  std::vector<double> state;
  size_t byte_length = 0;
  uint64_t size = 0;
  uint32_t seed = 0;
  bool operator==(const Snapshot& o) const {
    return serializes == o.serializes && serialized_size == o.serialized_size && bytes == o.bytes &&
           state == o.state && byte_length == o.byte_length && size == o.size && seed == o.seed;
  }
};

inline void PrintTo(const Snapshot& s, std::ostream* os) {
  *os << "{serializes " << s.serializes << ", " << s.serialized_size << " bytes (crc32 " << std::hex
      << Crc32(s.bytes.data(), s.bytes.size()) << std::dec << "), byte_length " << s.byte_length
      << ", size " << s.size << ", seed " << s.seed << ", state";
  for (double v : s.state) *os << " " << v;
  *os << "}";
}

template <typename A>
Snapshot Snap(const typename A::Filter& f) {
  Snapshot s;
  s.serialized_size = f.SerializedSize();
  s.bytes.resize(s.serialized_size);
  s.serializes = f.Serialize(s.bytes.data(), s.bytes.size()).ok();
  if (!s.serializes) s.bytes.clear();
  s.state = A::State(f);
  s.byte_length = f.byte_length();
  s.size = f.size();
  s.seed = f.seed();
  return s;
}

// Which optional parts an adapter or filter has.
template <typename A, typename = void>
struct IsDynamic : std::false_type {};
template <typename A>
struct IsDynamic<A, std::void_t<decltype(&A::Insert)>> : std::true_type {};

template <typename A, typename = void>
struct UninitialisedSerializedSizeIsZero : std::true_type {};
template <typename A>
struct UninitialisedSerializedSizeIsZero<
    A, std::void_t<decltype(A::kUninitialisedSerializedSizeIsZero)>>
    : std::bool_constant<A::kUninitialisedSerializedSizeIsZero> {};

// Whether A's filter keeps a seed (A::kSeeded, default true), and so the seed a filter of A
// created with `seed` reports and frames: `seed`, or 0 for a filter with no seed.
template <typename A, typename = void>
struct Seeded : std::true_type {};
template <typename A>
struct Seeded<A, std::void_t<decltype(A::kSeeded)>> : std::bool_constant<A::kSeeded> {};
template <typename A>
constexpr uint32_t SeedOf(uint32_t seed) {
  return Seeded<A>::value ? seed : 0;
}

// The hash type F's Contains takes (what F::HashOf gives).
template <typename F>
using HashType = decltype(std::declval<const F&>().HashOf(nullptr, 0));

template <typename F, typename = void>
struct HasEstimates : std::false_type {};
template <typename F>
struct HasEstimates<F, std::void_t<decltype(std::declval<const F&>().EstimatedSize()),
                                   decltype(std::declval<const F&>().EstimatedErrorRate())>>
    : std::true_type {};

template <typename F, typename = void>
struct HasRemoveAndCount : std::false_type {};
template <typename F>
struct HasRemoveAndCount<F, std::void_t<decltype(std::declval<F&>().Remove(HashType<F>{})),
                                        decltype(std::declval<const F&>().Count(HashType<F>{}))>>
    : std::true_type {};

// Whether F reports the capacity and error rate it was sized for: KeepsItsSizing<F>(0).
template <typename F>
constexpr auto KeepsItsSizing(int)
    -> decltype(std::declval<const F&>().capacity(), std::declval<const F&>().error_rate(), true) {
  return true;
}
template <typename F>
constexpr bool KeepsItsSizing(long) {  // NOLINT(runtime/int)
  return false;
}

// Two targets for bytes that must be refused: a default-constructed filter and one holding keys
// of its own (and another seed, where the filter has one), so "unchanged" can be told from
// "became the input". A refused input
// leaves each exactly as it was.
template <typename A>
struct Targets {
  using Filter = typename A::Filter;
  Filter fresh, own;
  Snapshot fresh_snap, own_snap;
  const std::vector<std::string> own_keys = MakeKeys("own:", 200);
  Targets() {
    fresh_snap = Snap<A>(fresh);
    Status s = A::Create(&own, 200, 0.01, 6, own_keys);
    EXPECT_TRUE(s.ok()) << s.message();
    own_snap = Snap<A>(own);
  }
  // `want` kOk: any error will do.
  void ExpectRefused(const std::vector<uint8_t>& b, StatusCode want, const std::string& what) {
    for (Filter* t : {&fresh, &own}) {
      const char* which = t == &fresh ? " (default target)" : " (target with keys)";
      const Status s = t->Deserialize(b.data(), b.size());
      if (want == StatusCode::kOk) {
        EXPECT_FALSE(s.ok()) << A::kName << " " << what << which;
      } else {
        EXPECT_EQ(s.code(), want) << A::kName << " " << what << which << ": " << s.message();
      }
      EXPECT_EQ(Snap<A>(*t), t == &fresh ? fresh_snap : own_snap)
          << A::kName << " " << what << which;
    }
  }
  void ExpectOwnKeys() const {
    uint64_t missing = 0;
    for (const auto& k : own_keys) missing += Has(own, k) ? 0 : 1;
    EXPECT_EQ(missing, 0u) << A::kName;
  }
};

}  // namespace testing_util

// The helpers every filter's test file calls by their short names.
using testing_util::H;
using testing_util::Has;
using testing_util::MakeKeys;
using testing_util::PackedKeys;
using testing_util::SerializeToVector;

// The rate a filter built for `error_rate` promises: the requested rate, unless the adapter says
// otherwise (a fuse filter's rate is fixed by its fingerprint width).
template <typename A>
auto PromisedFpr(double error_rate, int) -> decltype(A::PromisedFpr(error_rate)) {
  return A::PromisedFpr(error_rate);
}
template <typename A>
double PromisedFpr(double error_rate, long) {
  return error_rate;
}  // NOLINT(runtime/int)

// The adapter part of every filter that Status F::Init(const O&) (re)initialises: its types,
// its kind (the class's row of the kind table, F::kKind) and Init. An adapter that derives from
// it adds kName and what its filter does its own way.
template <typename F, typename O>
struct InitAdapter {
  using Filter = F;
  using Options = O;
  static constexpr FilterKind kKind = F::kKind;
  static Status Init(F* f, const O& o) { return f->Init(o); }
};

// The adapter part shared by filters sized from (capacity, error_rate, seed) options and filled
// with bool Add(Hash128): Bloom, blocked Bloom and counting Bloom.
template <typename F, typename O>
struct AddingAdapter : InitAdapter<F, O> {
  using Filter = F;
  // Options sized by (capacity, error_rate) with `seed`.
  static O Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
    return testing_util::Sized<O>(capacity, error_rate, seed);
  }
  // `o` (the direct form) sized as well: Init refuses it, naming the direct form's field.
  static O AlsoSized(O o) {
    o.capacity = 100;
    o.error_rate = 0.01;
    return o;
  }
  // What Init refuses of any sizing (no capacity, an error rate out of (0, 1) or too small to
  // reach), then the class's own refusals.
  static std::vector<testing_util::OptionCase<O>> BadSizingsAnd(
      const std::vector<testing_util::OptionCase<O>>& own) {
    std::vector<testing_util::OptionCase<O>> cases = {{O{}, "capacity"},
                                                      {Sized(0, 0.01), "capacity"}};
    for (double e : {0.0, 1.0, -0.1, -1.0, 1.5, 1e-30, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
      cases.push_back({Sized(100, e), "errorRate"});
    }
    cases.insert(cases.end(), own.begin(), own.end());
    return cases;
  }
  // What Init refuses as too large to allocate of any sizing (2^62 keys), then the class's own.
  static std::vector<testing_util::OptionCase<O>> HugeSizingAnd(
      std::vector<testing_util::OptionCase<O>> own) {
    own.insert(own.begin(),
               testing_util::OptionCase<O>{Sized(uint64_t{1} << 62, 0.01), "capacity"});
    return own;
  }
  static bool Insert(Filter* f, Hash128 h) { return f->Add(h); }
  static Status Create(Filter* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(Sized(capacity, error_rate, seed)));
    for (const auto& k : keys) f->Add(testing_util::HashIn(*f, k));
    return Status::Ok();
  }
};

// The adapter part shared by Bloom and counting Bloom: a filter of m cells (bits, or 4-bit
// counters) that probes k of them per key. Their options name m `kCells` (bits, counters) in the
// direct form, the filter reports it as `kCellCount`, and their bodies begin alike.
template <typename F, typename O, uint64_t O::*kCells, uint64_t (F::*kCellCount)() const>
struct ProbedAdapter : AddingAdapter<F, O> {
  // Options in the direct form: m cells, k hashes.
  static O Direct(uint64_t cells, uint32_t hashes, uint32_t seed = kDefaultSeed) {
    O o = testing_util::Sized<O>(0, 0, seed);  // no capacity and no error rate
    o.*kCells = cells;
    o.hashes = hashes;
    return o;
  }
  // A hand-built body: u64 m | u32 hashes | u64 capacity | f64 error_rate | u64 size | cells.
  static std::vector<uint8_t> CellsBody(uint64_t cells, uint32_t hashes, uint64_t capacity,
                                        double error_rate, uint64_t size,
                                        const std::vector<uint8_t>& cell_bytes) {
    std::vector<uint8_t> body(36 + cell_bytes.size());
    internal::ByteWriter w(body.data(), body.size());
    w.U64(cells);
    w.U32(hashes);
    w.U64(capacity);
    w.F64(error_rate);
    w.U64(size);
    w.Bytes(cell_bytes.data(), cell_bytes.size());
    return body;
  }
  // What Init refuses of the direct form: no cells, no or too many hashes, a sizing as well.
  // `cells_word` is the name the messages give m.
  static std::vector<testing_util::OptionCase<O>> BadDirectForms(const char* cells_word) {
    return {{Direct(0, 3), cells_word},
            {Direct(10, 0), "hashes"},
            {Direct(100, 0), "hashes"},
            {Direct(10, 65), "hashes"},
            {Direct(100, 65), "hashes"},
            {ProbedAdapter::AlsoSized(Direct(100, 0)), cells_word},
            {ProbedAdapter::AlsoSized(Direct(100, 3)), cells_word}};
  }
  // A filter initialised in the direct form keeps exactly it: m cells, k hashes, the seed, no
  // capacity and no error rate; and it takes `byte_length` bytes.
  static void ExpectDirectFormKept(uint64_t cells, uint32_t hashes, uint32_t seed,
                                   size_t byte_length) {
    F f;
    ASSERT_TRUE(f.Init(Direct(cells, hashes, seed)).ok());
    EXPECT_EQ((f.*kCellCount)(), cells);
    EXPECT_EQ(f.hashes(), hashes);
    EXPECT_EQ(f.seed(), seed);
    EXPECT_EQ(f.capacity(), 0u);
    EXPECT_EQ(f.error_rate(), 0.0);
    EXPECT_EQ(f.byte_length(), byte_length);
  }
  static double ExpectedFpr(const F& f, double, uint64_t n) {
    return testing_util::ClassicBloomFpr(f.hashes(), static_cast<double>(n),
                                         static_cast<double>((f.*kCellCount)()));
  }
};

// The fixture of every suite here: nothing but the adapter type.
template <typename Adapter>
class AdapterTest : public ::testing::Test {};

// Declares the typed suite `Suite` over adapters.
#define BLOOMCUCKOO_ADAPTER_SUITE(Suite) \
  template <typename Adapter>            \
  using Suite = AdapterTest<Adapter>;    \
  TYPED_TEST_SUITE_P(Suite)

BLOOMCUCKOO_ADAPTER_SUITE(Conformance);

// No false negatives and FPR within a binomial bound, at the three shapes.
TYPED_TEST_P(Conformance, NoFalseNegativesAndFprWithinBound) {
  using A = TypeParam;
  struct Shape {
    uint64_t n;
    double p;
  };
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
    std::printf(
        "[conformance] %-9s n=%-8llu target=%.4f expected=%.5f measured=%.5f bits/key=%.2f\n",
        A::kName, static_cast<unsigned long long>(shape.n), shape.p, expected, measured, bits);
    EXPECT_LE(measured, testing_util::FprUpperBound(expected, probes)) << A::kName;
    // and against what was asked for, so a wrong sizing or fingerprint choice cannot hide
    // behind a shape that predicts its own (too high) rate
    const double promised = PromisedFpr<A>(shape.p, 0);
    EXPECT_LE(measured, testing_util::FprUpperBound(promised, probes))
        << A::kName << " asked " << shape.p;
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
    for (int i = 0; i < 1000; ++i)
      hits += testing_util::Has(f, "absent:" + std::to_string(i)) ? 1 : 0;
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

// Another seed hashes the keys elsewhere (other bytes) and finds them all; the same seed and keys
// make the same bytes. A filter with no seed (kSeeded false) reports 0 whatever it was given, and
// the same keys make the same bytes under any seed asked for.
TYPED_TEST_P(Conformance, SeedChangesHashesButNotCorrectness) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("seed:", 2000);
  typename A::Filter a, b, c;
  ASSERT_TRUE(A::Create(&a, 2000, 0.01, 1, keys).ok());
  ASSERT_TRUE(A::Create(&b, 2000, 0.01, 2, keys).ok());
  ASSERT_TRUE(A::Create(&c, 2000, 0.01, 1, keys).ok());
  EXPECT_EQ(a.seed(), testing_util::SeedOf<A>(1)) << A::kName;
  EXPECT_EQ(b.seed(), testing_util::SeedOf<A>(2)) << A::kName;
  for (const auto& k : keys) {
    EXPECT_TRUE(testing_util::Has(a, k));
    EXPECT_TRUE(testing_util::Has(b, k));
  }
  if constexpr (testing_util::Seeded<A>::value) {
    EXPECT_NE(testing_util::SerializeToVector(a), testing_util::SerializeToVector(b));
  } else {
    EXPECT_EQ(testing_util::SerializeToVector(a), testing_util::SerializeToVector(b)) << A::kName;
  }
  // The same seed and keys make the same bytes.
  EXPECT_EQ(testing_util::SerializeToVector(a), testing_util::SerializeToVector(c)) << A::kName;
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
  EXPECT_EQ(g.seed(), testing_util::SeedOf<A>(77)) << A::kName;
  EXPECT_EQ(testing_util::SerializeToVector(g), bytes);
  EXPECT_EQ(testing_util::Snap<A>(g), testing_util::Snap<A>(f)) << A::kName;
  for (const auto& k : keys) EXPECT_TRUE(testing_util::Has(g, k));
  for (int i = 0; i < 20000; ++i) {
    const std::string k = "other:" + std::to_string(i);
    EXPECT_EQ(testing_util::Has(f, k), testing_util::Has(g, k));
  }
  FilterKind kind;
  ASSERT_TRUE(PeekFilterKind(bytes.data(), bytes.size(), &kind).ok());
  EXPECT_EQ(kind, A::kKind) << A::kName;
}

// Corrupt input never crashes, and a failed Deserialize leaves the target as it was. Bit flips
// are tried twice: as they are (the CRC catches them) and with the frame refitted (length and
// CRC rewritten) so the body parser must judge them: it either refuses them or reads a filter
// whose bytes are exactly the mutated ones. (Truncations: EveryTruncationIsRefused.)
TYPED_TEST_P(Conformance, CorruptBytesAreRejected) {
  using A = TypeParam;
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 300, 0.01, 5, testing_util::MakeKeys("c:", 300)).ok());
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
  // The target holds other keys (and another seed, where the filter has one), so "unchanged"
  // can be told from "became f".
  const auto own_keys = testing_util::MakeKeys("g:", 200);
  typename A::Filter g;
  ASSERT_TRUE(A::Create(&g, 200, 0.01, 6, own_keys).ok());
  const std::vector<uint8_t> g_bytes = testing_util::SerializeToVector(g);
  auto expect_unchanged = [&](const char* what, size_t at) {
    EXPECT_EQ(g.seed(), testing_util::SeedOf<A>(6)) << what << " " << at;
    EXPECT_EQ(testing_util::SerializeToVector(g), g_bytes) << A::kName << " " << what << " " << at;
  };
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
  EXPECT_GT(parser_refused, 0u) << A::kName << ": the body parser refused no mutated field";
  std::printf(
      "[conformance] %-9s refitted body flips: %zu refused by the parser, %zu read as other "
      "filters\n",
      A::kName, parser_refused, parser_accepted);
  for (const auto& k : own_keys) EXPECT_TRUE(testing_util::Has(g, k));
}

// Every truncation of a filter (grown, where the filter grows) is refused: as it is (the frame
// catches it; each prefix in a buffer of its own size, so ASan sees any read past it) and as
// the body cut short in a sound frame (the parser must: kCorruptData). So is a body with bytes
// to spare. The target, default-constructed or holding keys, stays as it was; the whole input
// then reads back into either, the same filter as the one written.
TYPED_TEST_P(Conformance, EveryTruncationIsRefused) {
  using A = TypeParam;
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 50, 0.01, 5, testing_util::MakeKeys("t:", 400)).ok());
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
  const std::vector<uint8_t> body = testing_util::BodyOf(bytes);
  testing_util::Targets<A> t;
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + n);
    t.ExpectRefused(prefix, StatusCode::kOk, "truncated to " + std::to_string(n));
  }
  for (size_t n = 0; n < body.size(); ++n) {
    const std::vector<uint8_t> cut(body.begin(), body.begin() + n);
    t.ExpectRefused(testing_util::FrameBody(A::kKind, cut, testing_util::SeedOf<A>(5)),
                    StatusCode::kCorruptData, "body cut to " + std::to_string(n));
  }
  for (size_t extra : {1, 4, 8}) {
    std::vector<uint8_t> longer = body;
    longer.insert(longer.end(), extra, 0);
    t.ExpectRefused(testing_util::FrameBody(A::kKind, longer, testing_util::SeedOf<A>(5)),
                    StatusCode::kCorruptData, std::to_string(extra) + " trailing body bytes");
  }
  t.ExpectOwnKeys();
  const testing_util::Snapshot written = testing_util::Snap<A>(f);
  for (typename A::Filter* target : {&t.fresh, &t.own}) {
    ASSERT_TRUE(target->Deserialize(bytes.data(), bytes.size()).ok()) << A::kName;
    EXPECT_EQ(testing_util::Snap<A>(*target), written) << A::kName;
  }
}

// The bytes of one kind framed as any other kind, with that kind's hash id and a sound checksum,
// are refused as the wrong kind (kInvalidArgument, not kCorruptData). With the hash id left as
// it was, a kind that goes with another hash id (our own kinds and the RedisBloom ones) is
// refused by the frame first (kUnsupportedVersion). Either way the target stays as it was.
TYPED_TEST_P(Conformance, OtherKindsAreRefused) {
  using A = TypeParam;
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 300, 0.01, 5, testing_util::MakeKeys("k:", 300)).ok());
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
  testing_util::Targets<A> t;
  const uint8_t own_hash_id = FilterKindHashId(static_cast<uint8_t>(A::kKind));
  int kinds_tried = 0;
  for (int kind = 1; kind < 256; ++kind) {
    if (!IsFilterKind(static_cast<uint8_t>(kind)) || kind == static_cast<int>(A::kKind)) continue;
    ++kinds_tried;
    const uint8_t hash_id = FilterKindHashId(static_cast<uint8_t>(kind));
    std::vector<uint8_t> b = bytes;
    b[6] = static_cast<uint8_t>(kind);
    b[7] = hash_id;
    testing_util::RefitFrame(&b);
    t.ExpectRefused(b, StatusCode::kInvalidArgument, "framed as kind " + std::to_string(kind));
    if (hash_id != own_hash_id) {
      b[7] = own_hash_id;
      testing_util::RefitFrame(&b);
      t.ExpectRefused(b, StatusCode::kUnsupportedVersion,
                      "framed as kind " + std::to_string(kind) + " with hash id " +
                          std::to_string(own_hash_id));
    }
  }
  EXPECT_GE(kinds_tried, 7) << A::kName;  // every other kind of the table (8 today)
  t.ExpectOwnKeys();
}

// Hand-built bodies: each bad one is refused (kCorruptData) and changes no target; each good one
// reads, writes back byte for byte and shows what its builder meant.
TYPED_TEST_P(Conformance, HandBuiltBodiesAreJudged) {
  using A = TypeParam;
  testing_util::Targets<A> t;
  const std::vector<testing_util::BodyCase> bad = A::BadBodies();
  EXPECT_FALSE(bad.empty()) << A::kName;
  for (const auto& c : bad) {
    t.ExpectRefused(testing_util::FrameBody(A::kKind, c.body, testing_util::SeedOf<A>(7)),
                    StatusCode::kCorruptData, c.why);
  }
  t.ExpectOwnKeys();
  for (const auto& c : A::GoodBodies()) {
    const std::vector<uint8_t> framed =
        testing_util::FrameBody(A::kKind, c.body, testing_util::SeedOf<A>(7));
    typename A::Filter h;
    const Status s = h.Deserialize(framed.data(), framed.size());
    ASSERT_TRUE(s.ok()) << A::kName << " " << c.why << ": " << s.message();
    EXPECT_EQ(testing_util::SerializeToVector(h), framed) << A::kName << " " << c.why;
    if (c.check) c.check(h);
  }
}

// Init refuses bad options with kInvalidArgument and absurd sizes with kOutOfMemory, naming the
// option, and changes nothing: a default-constructed filter stays so, a filter with keys keeps
// them.
TYPED_TEST_P(Conformance, BadOptionsAreRefusedByName) {
  using A = TypeParam;
  using Options = typename A::Options;
  const auto own_keys = testing_util::MakeKeys("own:", 10);
  auto check = [&](const testing_util::OptionCase<Options>& c, StatusCode want) {
    const std::string word = c.word == nullptr ? "" : c.word;
    auto expect_named = [&](const Status& s, const char* which) {
      EXPECT_EQ(s.code(), want) << A::kName << " " << word << which << ": " << s.message();
      if (c.exact) {
        EXPECT_EQ(std::string(s.message()), word) << A::kName << which;
      } else {
        EXPECT_NE(std::string(s.message()).find(word), std::string::npos)
            << A::kName << " " << word << which << ": " << s.message();
      }
    };
    typename A::Filter fresh;
    const testing_util::Snapshot fresh_snap = testing_util::Snap<A>(fresh);
    expect_named(A::Init(&fresh, c.options), " (default filter)");
    EXPECT_EQ(testing_util::Snap<A>(fresh), fresh_snap) << A::kName << " " << word;
    typename A::Filter own;
    ASSERT_TRUE(A::Create(&own, 100, 0.01, 9, own_keys).ok());
    const testing_util::Snapshot own_snap = testing_util::Snap<A>(own);
    expect_named(A::Init(&own, c.options), " (filter with keys)");
    EXPECT_EQ(testing_util::Snap<A>(own), own_snap) << A::kName << " " << word;
    for (const auto& k : own_keys)
      EXPECT_TRUE(testing_util::Has(own, k)) << A::kName << " " << word;
  };
  const auto invalid = A::InvalidOptions();
  EXPECT_FALSE(invalid.empty()) << A::kName;
  for (const auto& c : invalid) check(c, StatusCode::kInvalidArgument);
  for (const auto& c : A::OutOfMemoryOptions()) check(c, StatusCode::kOutOfMemory);
}

// A default-constructed filter answers false to everything and survives every call. A dynamic
// filter's is un-initialised: it takes no key, has no bytes to write (kInvalidArgument) and
// stays as it was; a static filter's is the empty filter, which writes and reads back.
TYPED_TEST_P(Conformance, DefaultConstructedIsSafe) {
  using A = TypeParam;
  using F = typename A::Filter;
  const F pristine;
  const testing_util::Snapshot fresh = testing_util::Snap<A>(pristine);
  F f;
  const auto keys = testing_util::MakeKeys("u", 10);
  for (const auto& k : keys) EXPECT_FALSE(testing_util::Has(f, k)) << A::kName << " " << k;
  testing_util::PackedKeys packed(keys);
  std::vector<uint8_t> out(keys.size(), 9);
  f.ContainsBatch(packed.batch(), out.data());
  for (uint8_t v : out) EXPECT_EQ(v, 0) << A::kName;
  EXPECT_EQ(f.size(), 0u) << A::kName;
  EXPECT_EQ(f.byte_length(), 0u) << A::kName;
  const auto h = testing_util::HashIn(f, keys[0]);
  if constexpr (testing_util::HasEstimates<F>::value) {
    EXPECT_EQ(f.EstimatedSize(), 0.0) << A::kName;
    EXPECT_EQ(f.EstimatedErrorRate(), 0.0) << A::kName;
  }
  if constexpr (testing_util::HasRemoveAndCount<F>::value) {
    EXPECT_FALSE(f.Remove(h)) << A::kName;
    EXPECT_EQ(f.Count(h), 0u) << A::kName;
  }
  if constexpr (testing_util::IsDynamic<A>::value) {
    EXPECT_FALSE(A::Insert(&f, h)) << A::kName;
    if constexpr (testing_util::UninitialisedSerializedSizeIsZero<A>::value) {
      EXPECT_EQ(f.SerializedSize(), 0u) << A::kName;
    }
    uint8_t buf[64];
    EXPECT_EQ(f.Serialize(buf, sizeof buf).code(), StatusCode::kInvalidArgument) << A::kName;
    std::vector<uint8_t> exact(f.SerializedSize());
    EXPECT_EQ(f.Serialize(exact.data(), exact.size()).code(), StatusCode::kInvalidArgument)
        << A::kName;
  } else {
    const std::vector<uint8_t> bytes = testing_util::SerializeToVector(f);
    F g;
    ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok()) << A::kName;
    EXPECT_EQ(testing_util::Snap<A>(g), fresh) << A::kName;
  }
  EXPECT_EQ(testing_util::Snap<A>(f), fresh) << A::kName << ": no longer as default-constructed";
  f.Clear();
  EXPECT_EQ(testing_util::Snap<A>(f), fresh) << A::kName << ": Clear changed a default filter";
  EXPECT_FALSE(testing_util::Has(f, keys[0])) << A::kName;
}

// Clear empties a filter, grown or not, into exactly the filter created empty with the same
// options and seed (the shape and options kept, every count zero); a dynamic filter then takes
// the same keys back into the same filter as before.
TYPED_TEST_P(Conformance, ClearEmptiesAndKeepsTheShape) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("clear:", 600);
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 100, 0.01, 8, keys).ok());
  const testing_util::Snapshot full = testing_util::Snap<A>(f);
  f.Clear();
  typename A::Filter empty;
  ASSERT_TRUE(A::Create(&empty, 100, 0.01, 8, {}).ok());
  EXPECT_EQ(f.size(), 0u) << A::kName;
  EXPECT_EQ(f.seed(), testing_util::SeedOf<A>(8)) << A::kName;
  EXPECT_EQ(testing_util::Snap<A>(f), testing_util::Snap<A>(empty)) << A::kName;
  uint64_t hits = 0;
  for (const auto& k : keys) hits += testing_util::Has(f, k) ? 1 : 0;
  EXPECT_EQ(hits, 0u) << A::kName;
  if constexpr (testing_util::IsDynamic<A>::value) {
    EXPECT_TRUE(A::Insert(&f, testing_util::HashIn(f, keys[0]))) << A::kName;
    for (size_t i = 1; i < keys.size(); ++i) A::Insert(&f, testing_util::HashIn(f, keys[i]));
    EXPECT_EQ(testing_util::Snap<A>(f), full) << A::kName << ": refilled after Clear";
  }
}

// A filter sized for (capacity, error_rate) reports both as it was given them (a filter that
// keeps them: not the fuse filter, sized by its keys).
TYPED_TEST_P(Conformance, ReportsTheSizingItWasGiven) {
  using A = TypeParam;
  if constexpr (!testing_util::KeepsItsSizing<typename A::Filter>(0)) {
    GTEST_SKIP() << A::kName << " keeps no capacity or error rate";
  } else {
    typename A::Filter f;
    ASSERT_TRUE(A::Create(&f, 1000000, 0.01, kDefaultSeed, {}).ok()) << A::kName;
    EXPECT_EQ(f.capacity(), 1000000u) << A::kName;
    EXPECT_EQ(f.error_rate(), 0.01) << A::kName;
  }
}

// A batch query answers what single queries answer, key for key (half the keys present).
TYPED_TEST_P(Conformance, BatchMatchesSingle) {
  using A = TypeParam;
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 2000, 0.01, kDefaultSeed, testing_util::MakeKeys("b", 2000)).ok());
  const auto probe = testing_util::MakeKeys("b", 4000);
  testing_util::PackedKeys packed(probe);
  std::vector<uint8_t> out(probe.size(), 7);
  f.ContainsBatch(packed.batch(), out.data());
  for (size_t i = 0; i < probe.size(); ++i) {
    EXPECT_EQ(out[i], testing_util::Has(f, probe[i]) ? 1 : 0) << A::kName << " " << probe[i];
    if (i < 2000) {
      EXPECT_EQ(out[i], 1) << A::kName << " " << probe[i];
    }
  }
}

// Serialize to a sink and Deserialize from a source move the same bytes as the buffer versions,
// in pieces of at most internal::kBytePieceSize; a sink or source that fails part way makes them
// fail cleanly (the target unchanged).
TYPED_TEST_P(Conformance, StreamsInPiecesAndFailsCleanly) {
  using A = TypeParam;
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 20000, 0.001, 9, testing_util::MakeKeys("st:", 20000)).ok());
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
    EXPECT_EQ(f.Serialize(failing).code(), StatusCode::kInvalidArgument)
        << A::kName << " write " << k;
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

REGISTER_TYPED_TEST_SUITE_P(Conformance, MovedFromFilterIsUninitialised,
                            NoFalseNegativesAndFprWithinBound, TinySizes, DuplicateKeysAreFine,
                            SeedChangesHashesButNotCorrectness, SerializeRoundTrip,
                            CorruptBytesAreRejected, StreamsInPiecesAndFailsCleanly,
                            EveryTruncationIsRefused, OtherKindsAreRefused,
                            HandBuiltBodiesAreJudged, BadOptionsAreRefusedByName,
                            DefaultConstructedIsSafe, ClearEmptiesAndKeepsTheShape,
                            ReportsTheSizingItWasGiven, BatchMatchesSingle);

// ---------------------------------------------------------------------------------------------
// BloomFamily: Bloom, blocked Bloom and counting Bloom (bool Add, size_t AddBatch, estimates).

BLOOMCUCKOO_ADAPTER_SUITE(BloomFamily);

// AddBatch is Add key by key: the same filter, and it returns how many of those Adds reported a
// new key; a second pass finds nothing new; size() counts every key given; all are present.
TYPED_TEST_P(BloomFamily, AddBatchIsAddKeyByKey) {
  using A = TypeParam;
  const auto keys = testing_util::MakeKeys("bb:", 3000);
  testing_util::PackedKeys packed(keys);
  typename A::Filter f, g;
  ASSERT_TRUE(A::Create(&f, 3000, 0.01, kDefaultSeed, {}).ok());
  ASSERT_TRUE(A::Create(&g, 3000, 0.01, kDefaultSeed, {}).ok());
  size_t new_one_by_one = 0;
  for (const auto& k : keys) new_one_by_one += g.Add(testing_util::HashIn(g, k)) ? 1 : 0;
  const size_t added = f.AddBatch(packed.batch());
  EXPECT_EQ(added, new_one_by_one) << A::kName;
  EXPECT_GE(added, 2980u) << A::kName;  // a few collide with earlier keys (false positives)
  EXPECT_LE(added, 3000u) << A::kName;
  EXPECT_EQ(f.size(), 3000u) << A::kName;
  EXPECT_EQ(testing_util::Snap<A>(f), testing_util::Snap<A>(g)) << A::kName;
  EXPECT_EQ(f.AddBatch(packed.batch()), 0u) << A::kName;  // all already present
  EXPECT_EQ(f.size(), 6000u) << A::kName;
  std::vector<uint8_t> out(keys.size());
  f.ContainsBatch(packed.batch(), out.data());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(out[i], 1) << A::kName << " " << i;
}

// EstimatedSize follows the keys added (within 2% at half and at full capacity) and the estimated
// error rate meets the target at capacity; an empty filter estimates 0, a saturated one a finite
// size and a rate of 1.
TYPED_TEST_P(BloomFamily, EstimatesTrackTheFill) {
  using A = TypeParam;
  typename A::Filter f;
  ASSERT_TRUE(A::Create(&f, 100000, 0.01, kDefaultSeed, {}).ok());
  EXPECT_EQ(f.EstimatedSize(), 0.0) << A::kName;
  EXPECT_EQ(f.EstimatedErrorRate(), 0.0) << A::kName;
  for (const auto& k : testing_util::MakeKeys("e:", 50000)) f.Add(testing_util::HashIn(f, k));
  EXPECT_NEAR(f.EstimatedSize(), 50000.0, 50000.0 * 0.02) << A::kName;
  for (const auto& k : testing_util::MakeKeys("f:", 50000)) f.Add(testing_util::HashIn(f, k));
  EXPECT_NEAR(f.EstimatedSize(), 100000.0, 100000.0 * 0.02) << A::kName;
  EXPECT_NEAR(f.EstimatedErrorRate(), 0.01, 0.002) << A::kName;

  typename A::Filter full;
  A::Saturate(&full);
  EXPECT_EQ(full.fill_ratio(), 1.0) << A::kName;
  EXPECT_TRUE(std::isfinite(full.EstimatedSize())) << A::kName;
  EXPECT_EQ(full.EstimatedErrorRate(), 1.0) << A::kName;
}

REGISTER_TYPED_TEST_SUITE_P(BloomFamily, AddBatchIsAddKeyByKey, EstimatesTrackTheFill);

// ---------------------------------------------------------------------------------------------
// BitUnion: Union and Intersect of Bloom and blocked Bloom filters of one shape.

BLOOMCUCKOO_ADAPTER_SUITE(BitUnion);

TYPED_TEST_P(BitUnion, UnionAndIntersect) {
  using A = TypeParam;
  const auto a_keys = testing_util::MakeKeys("a:", 2000);
  const auto b_keys = testing_util::MakeKeys("b:", 2000);
  const auto both = testing_util::MakeKeys("both:", 500);
  auto with_both = [&](std::vector<std::string> v) {
    v.insert(v.end(), both.begin(), both.end());
    return v;
  };
  typename A::Filter a, b, u, in;
  for (typename A::Filter* f : {&a, &u, &in})
    ASSERT_TRUE(A::Create(f, 5000, 0.01, 3, with_both(a_keys)).ok());
  ASSERT_TRUE(A::Create(&b, 5000, 0.01, 3, with_both(b_keys)).ok());

  ASSERT_TRUE(u.Union(b).ok()) << A::kName;
  EXPECT_EQ(u.size(), 5000u) << A::kName;
  for (const auto* set : {&a_keys, &b_keys, &both}) {
    for (const auto& k : *set) EXPECT_TRUE(testing_util::Has(u, k)) << A::kName << " " << k;
  }
  EXPECT_NEAR(u.EstimatedSize(), 4500.0, 4500.0 * 0.05) << A::kName;

  ASSERT_TRUE(in.Intersect(b).ok()) << A::kName;
  EXPECT_EQ(in.size(), 2500u) << A::kName;
  for (const auto& k : both) EXPECT_TRUE(testing_util::Has(in, k)) << A::kName << " " << k;
  size_t only_a = 0;
  for (const auto& k : a_keys) only_a += testing_util::Has(in, k) ? 1 : 0;
  EXPECT_LT(only_a, 400u) << A::kName;  // mostly gone
  EXPECT_LE(in.set_bits(), a.set_bits()) << A::kName;

  // Union with itself changes nothing in the bits.
  const uint64_t set_before = a.set_bits();
  const std::vector<uint8_t> bytes = testing_util::SerializeToVector(a);
  typename A::Filter a2;
  ASSERT_TRUE(a2.Deserialize(bytes.data(), bytes.size()).ok());
  ASSERT_TRUE(a.Union(a2).ok()) << A::kName;
  EXPECT_EQ(a.set_bits(), set_before) << A::kName;
}

// Filters of another shape or seed, or un-initialised, are refused by both, naming the rule, and
// the filter stays as it was.
TYPED_TEST_P(BitUnion, OtherShapesAreRefused) {
  using A = TypeParam;
  typename A::Filter a;
  ASSERT_TRUE(A::Create(&a, 1000, 0.01, 1, {"k"}).ok());
  std::vector<typename A::Filter> others;
  for (const typename A::Options& o : A::OtherShapes(a)) {
    others.emplace_back();
    ASSERT_TRUE(A::Init(&others.back(), o).ok()) << A::kName << " other " << others.size() - 1;
  }
  others.emplace_back();  // un-initialised
  EXPECT_GE(others.size(), 3u) << A::kName;
  const testing_util::Snapshot before = testing_util::Snap<A>(a);
  for (size_t i = 0; i < others.size(); ++i) {
    for (const Status& s : {a.Union(others[i]), a.Intersect(others[i])}) {
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << A::kName << " other " << i;
      EXPECT_NE(std::string(s.message()).find(A::kShapeMessage), std::string::npos)
          << A::kName << " other " << i << ": " << s.message();
    }
    EXPECT_EQ(testing_util::Snap<A>(a), before) << A::kName << " other " << i;
  }
}

REGISTER_TYPED_TEST_SUITE_P(BitUnion, UnionAndIntersect, OtherShapesAreRefused);

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_TESTS_CPP_CONFORMANCE_H_
