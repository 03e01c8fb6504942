// The conformance suite (conformance.h) for every row of the kind table whose class declares its
// options and info values (cpp/include/bloomcuckoo/internal/declared.h) and is sized by
// (capacity, error_rate, seed) and filled by bool Add(hash): the typed list is derived from
// BLOOMCUCKOO_FILTER_KINDS, so such a kind is tested with no test file of its own. What the
// generic adapter cannot know it leaves to a kind's own test file, where it has one: hand-built
// bodies beyond the empty and the cut ones, its exact false-positive formula (here the rate asked
// for is the promise) and its bits per key (tests/kinds/<name>.mjs bounds them in JS).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "bloomcuckoo/bloomcuckoo.h"
#include "bloomcuckoo/internal/declared.h"
#include "conformance.h"

namespace bloomcuckoo {
namespace {

// Whether the generic adapter fits F: declared, sized by (capacity, error_rate, seed), filled by
// bool Add(hash).
template <typename F, typename = void>
struct Fits : std::false_type {};
template <typename F>
struct Fits<
    F, std::enable_if_t<
           internal::IsDeclared<F>::value &&
               std::is_same_v<decltype(std::declval<F&>().Add(testing_util::HashType<F>{})), bool>,
           std::void_t<decltype(internal::OptionsOf<F>{}.capacity),
                       decltype(internal::OptionsOf<F>{}.error_rate),
                       decltype(internal::OptionsOf<F>{}.seed)>>> : std::true_type {};

// The name of a kind, at compile time (the typed tests are named while statics initialise).
constexpr const char* NameOf(FilterKind kind) {
#define BLOOMCUCKOO_NAME_OF_ROW(number, enumerator, name, cls, hash_id) \
  if (kind == FilterKind::enumerator) return name;
  BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_NAME_OF_ROW)
#undef BLOOMCUCKOO_NAME_OF_ROW
  return "?";
}

template <typename F>
struct DeclaredAdapter : InitAdapter<F, internal::OptionsOf<F>> {
  using O = internal::OptionsOf<F>;
  static constexpr const char* kName = NameOf(F::kKind);
  static O Sized(uint64_t capacity, double error_rate, uint32_t seed = kDefaultSeed) {
    return testing_util::Sized<O>(capacity, error_rate, seed);
  }
  static bool Insert(F* f, testing_util::HashType<F> h) { return f->Add(h); }
  static Status Create(F* f, uint64_t capacity, double error_rate, uint32_t seed,
                       const std::vector<std::string>& keys) {
    BLOOMCUCKOO_RETURN_IF_ERROR(f->Init(Sized(capacity, error_rate, seed)));
    for (const auto& k : keys) f->Add(testing_util::HashIn(*f, k));
    return Status::Ok();
  }
  // What every kind sized this way refuses: no capacity, an error rate outside (0, 1).
  static std::vector<testing_util::OptionCase<O>> InvalidOptions() {
    std::vector<testing_util::OptionCase<O>> cases = {{O{}, nullptr}, {Sized(0, 0.01), nullptr}};
    for (double e : {0.0, 1.0, -0.1, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
      cases.push_back({Sized(100, e), nullptr});
    }
    return cases;
  }
  static std::vector<testing_util::OptionCase<O>> OutOfMemoryOptions() {
    return {{Sized(uint64_t{1} << 62, 0.01), nullptr}};
  }
  // An empty body, and a sound body a byte short and 8 bytes long.
  static std::vector<testing_util::BodyCase> BadBodies() {
    F f;
    EXPECT_TRUE(Create(&f, 100, 0.01, 7, MakeKeys("body:", 50)).ok());
    const std::vector<uint8_t> sound = testing_util::BodyOf(SerializeToVector(f));
    std::vector<uint8_t> longer = sound;
    longer.resize(sound.size() + 8);
    return {{{}, "empty body"},
            {std::vector<uint8_t>(sound.begin(), sound.end() - 1), "a byte short"},
            {longer, "8 bytes too many"}};
  }
  static std::vector<testing_util::GoodBody<F>> GoodBodies() { return {}; }
  // Whether it is initialised, then its declared info values (a NaN as -1: two equal filters
  // must compare equal).
  static std::vector<double> State(const F& f) {
    std::vector<double> state = {static_cast<double>(f.initialized())};
    std::apply(
        [&](auto... v) {
          for (double d : {static_cast<double>(v)...}) state.push_back(std::isnan(d) ? -1 : d);
        },
        f.InfoValues());
    return state;
  }
  static double ExpectedFpr(const F&, double error_rate, uint64_t) { return error_rate; }
  static double MaxBitsPerKey(double) { return std::numeric_limits<double>::infinity(); }
};

// The adapters of the table's rows that fit, as ::testing::Types.
template <typename F>
using AdapterIf = std::conditional_t<Fits<F>::value, std::tuple<DeclaredAdapter<F>>, std::tuple<>>;
template <typename T>
struct ToTypes;
template <typename... A>
struct ToTypes<std::tuple<A...>> {
  using type = ::testing::Types<A...>;
};
#define BLOOMCUCKOO_ADAPTER_OF_ROW(number, enumerator, name, cls, hash_id) \
  std::declval<AdapterIf<cls>>(),
using DeclaredAdapters = ToTypes<decltype(std::tuple_cat(
    BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_ADAPTER_OF_ROW) std::tuple<>{}))>::type;
#undef BLOOMCUCKOO_ADAPTER_OF_ROW

// Each instantiation named by its kind ("Declared/Conformance/counting").
struct KindName {
  template <typename A>
  static std::string GetName(int) {
    std::string name = A::kName;
    for (char& c : name) c = c == '-' ? '_' : c;
    return name;
  }
};

}  // namespace

INSTANTIATE_TYPED_TEST_SUITE_P(Declared, Conformance, DeclaredAdapters, KindName);

}  // namespace bloomcuckoo
