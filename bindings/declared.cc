// Embind classes of the kinds that declare their options and info values as data
// (cpp/include/bloomcuckoo/internal/declared.h): one row of the kind table each, bound as
// "<class>Core" by BindFilter (every shared verb and each usual one the class has) plus a generic
// init (the declared options as numbers, in their declared order) and info (the declared values).
// A kind whose binding is written by hand (bloom.cc, cuckoo.cc, fuse.cc, redis.cc) declares none.
#include "bloomcuckoo/internal/declared.h"

#include <emscripten/bind.h>

#include <cstddef>
#include <tuple>
#include <utility>

#include "binding_util.h"
#include "bloomcuckoo/bloomcuckoo.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

template <typename F, typename Seq = std::make_index_sequence<internal::kFieldCount<F>>>
struct Declared;
template <typename F, size_t... I>
struct Declared<F, std::index_sequence<I...>> {
  // init(option, …) in Fields() order (each as internal::ArgType: the signature of a hand-written
  // init of the same options, so binaryen merges their identical Embind invokers): 0, or minus the
  // code.
  static int Init(F& f, internal::ArgType<internal::OptionsOf<F>, I>... values) {
    internal::OptionsOf<F> o;
    (internal::SetField<I>(&o, values), ...);
    return Report(f.Init(o));
  }
  static void Info(const F& f, uintptr_t out) {
    std::apply([&](auto... v) { WriteInfo(f, out, v...); }, f.InfoValues());
  }
};

template <typename F>
void BindDeclared(const char* core_name) {
  if constexpr (internal::IsDeclared<F>::value) {
    BindFilter<F>(core_name)
        .function("init", &Declared<F>::Init)
        .function("info", &Declared<F>::Info);
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_declared) {
#define BLOOMCUCKOO_BIND_ROW(number, enumerator, name, cls, hash_id) BindDeclared<cls>(#cls "Core");
  BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_BIND_ROW)
#undef BLOOMCUCKOO_BIND_ROW
}

}  // namespace bindings
}  // namespace bloomcuckoo
