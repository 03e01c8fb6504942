// internal (not part of the API): a filter class that declares its options and its info values
// as data, so that one generic binding (bindings/declared.cc), one golden builder
// (tests/cpp/golden_test.cc) and one conformance adapter (tests/cpp/declared_conformance_test.cc)
// serve it, and a new kind needs no binding file, no golden branch and no test file of its own
// (docs/CONTRIBUTING.md, "Adding a filter kind"). A declared class F has
//   Status Init(const O& options);  one overload, O its options struct, where O has
//   static constexpr auto Fields();  a std::tuple of {name, &O::member} pairs: the options by
//                                    the names the JS class, the CLI and the golden recipes use,
//                                    in the order the JS class passes them to its core's init
//   auto InfoValues() const;         a std::tuple of its info() values after size, byteLength
//                                    and seed, in the order of the JS class's info names.
#ifndef BLOOMCUCKOO_INTERNAL_DECLARED_H_
#define BLOOMCUCKOO_INTERNAL_DECLARED_H_

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "bloomcuckoo/status.h"

namespace bloomcuckoo {
namespace internal {

template <typename F, typename O>
O OptionsArg(Status (F::*)(const O&));

// The options struct F::Init takes.
template <typename F>
using OptionsOf = decltype(OptionsArg(&F::Init));

// Whether F declares its options and info values (above).
template <typename F, typename = void>
struct IsDeclared : std::false_type {};
template <typename F>
struct IsDeclared<F, std::void_t<decltype(OptionsOf<F>::Fields()),
                                 decltype(std::declval<const F&>().InfoValues())>>
    : std::true_type {};

// The number of F's declared options.
template <typename F>
constexpr size_t kFieldCount = std::tuple_size_v<decltype(OptionsOf<F>::Fields())>;

// The type of option I of O (its member's type).
template <typename O, size_t I>
using FieldType =
    std::remove_reference_t<decltype(std::declval<O&>().*(std::get<I>(O::Fields()).second))>;

// The type a binding takes option I of O as: the member's own type where a JS number converts to
// it exactly (bool, integers of up to 32 bits), else double (64-bit integers, floating point).
template <typename O, size_t I, typename T = FieldType<O, I>>
using ArgType =
    std::conditional_t<std::is_same_v<T, bool> || (std::is_integral_v<T> && sizeof(T) <= 4), T,
                       double>;

// Sets option `i` of `o` (of type O) from a value, converted to the member's type.
template <size_t I, typename O, typename V>
void SetField(O* o, V value) {
  o->*(std::get<I>(O::Fields()).second) = static_cast<FieldType<O, I>>(value);
}

// Calls get(name) for each option of `o` by its declared name; where it returns true it wrote
// the value into its double*, which becomes the option.
template <typename O, typename Get, size_t... I>
void ReadFields(O* o, Get&& get, std::index_sequence<I...>) {
  constexpr auto fields = O::Fields();
  double v = 0;
  ((get(std::string(std::get<I>(fields).first), &v) ? SetField<I>(o, v) : void()), ...);
}
template <typename O, typename Get>
void ReadFields(O* o, Get&& get) {
  ReadFields(o, get, std::make_index_sequence<std::tuple_size_v<decltype(O::Fields())>>());
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_INTERNAL_DECLARED_H_
