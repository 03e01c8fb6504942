// Shared by the binding files: pointers from JS and the last failing Status's message.
#ifndef BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_
#define BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_

#include <emscripten/bind.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/status.h"
#include "js_stream.h"

namespace bloomcuckoo {
namespace bindings {

// The message of the last non-ok Status returned to JS (wasm is single-threaded).
inline const char*& LastMessage() {
  static const char* message = "ok";
  return message;
}

// The one status convention of the wasm boundary: a call that can fail returns an int, its result
// (>= 0: an outcome or a count) or minus the status code; the message waits for
// lastStatusMessage(). js/main/loader.js throwIfError is its one reader. Report gives 0 or -code.
inline int Report(Status s) {
  if (s.ok()) return 0;
  LastMessage() = s.message();
  return -static_cast<int>(s.code());
}
// `result` when `s` is ok, else -code.
inline int Report(Status s, int result) { return s.ok() ? result : Report(s); }

template <typename T>
inline T* Ptr(uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

// Where a dump chunk's bytes go, as a wasm address (a double: addresses reach 4 GiB), or -code.
inline double ReportTarget(Status s, const uint8_t* target) {
  return target != nullptr ? static_cast<double>(reinterpret_cast<uintptr_t>(target)) : Report(s);
}

// The key scratch of the JS layer (js/main/keys.js registers it with setKeyRegion whenever it makes
// or moves it): one key's bytes, or a batch's bytes back to back, at `data` (data_size bytes);
// a batch's u32 offsets from `offsets` (offsets_count entries).
struct KeyRegion {
  uintptr_t data = 0;
  uint64_t data_size = 0;
  uintptr_t offsets = 0;
  uint64_t offsets_count = 0;
};
inline KeyRegion& RegisteredKeyRegion() {
  static KeyRegion region;
  return region;
}

// Keys packed by the JS layer: `count` + 1 u32 offsets at `offsets`, bytes at `data`. A batch
// that is not inside the registered region, or whose offsets decrease or run past its bytes, is
// kInvalidArgument (nothing is read, written or added), so no mistake in JS can make the core
// read outside the batch.
inline Status Batch(uintptr_t data, uintptr_t offsets, uint32_t count, KeyBatch* batch) {
  const KeyRegion& r = RegisteredKeyRegion();
  *batch = KeyBatch{Ptr<const uint8_t>(data), Ptr<const uint32_t>(offsets), count};
  const bool inside = r.data != 0 && data == r.data && offsets >= r.offsets &&
                      (offsets - r.offsets) % 4 == 0 &&
                      (offsets - r.offsets) / 4 + uint64_t{count} + 1 <= r.offsets_count;
  if (inside && batch->OffsetsWithin(static_cast<size_t>(r.data_size))) return Status::Ok();
  return Status(StatusCode::kInvalidArgument,
                "key batch outside the registered key region or with invalid offsets");
}

// A batch verb: fn(batch)'s count (>= 0; a chunk is at most 16,384 keys), or minus the code of
// a batch Batch refuses.
template <typename Fn>
inline int OnBatch(uintptr_t data, uintptr_t offsets, uint32_t count, Fn fn) {
  KeyBatch batch;
  const Status s = Batch(data, offsets, count, &batch);
  return s.ok() ? static_cast<int>(fn(batch)) : Report(s);
}

// A batch that can stop part-way (BF.MADD, CF.INSERT, a scalable filter that fills):
// fn(batch, &handled, &added) returns its Status. Returns the keys added (>= 0), or minus the
// code with the counts at the start of the out area (u32 handled, u32 added: read on the error
// path only).
template <typename Fn>
inline int OnReportingBatch(uintptr_t data, uintptr_t offsets, uint32_t count, uintptr_t out,
                            Fn fn) {
  KeyBatch batch;
  size_t handled = 0, added = 0;
  Status s = Batch(data, offsets, count, &batch);
  if (s.ok()) s = fn(batch, &handled, &added);
  if (s.ok()) return static_cast<int>(added);
  Ptr<uint32_t>(out)[0] = static_cast<uint32_t>(handled);
  Ptr<uint32_t>(out)[1] = static_cast<uint32_t>(added);
  return Report(s);
}

// The one key js/main/keys.js encodeKey wrote: its bytes start the key region, and its length
// (which encodeKey made fit the region) is the one-key call's argument.
inline const uint8_t* OneKey() { return Ptr<const uint8_t>(RegisteredKeyRegion().data); }
// Its hash under filter f's own hash policy (F::KeyHashing).
template <typename F>
inline auto KeyHash(const F& f, uint32_t len) {
  return f.HashOf(OneKey(), len);
}

// The verbs every filter shares, as Embind methods with the same JS names on every class
// (js/main/filter.js relies on them): contains, containsBatch, size, byteLength, seed, clear,
// serializedSize, serialize, deserialize.
template <typename F>
struct Common {
  static bool Contains(const F& f, uint32_t len) { return f.Contains(KeyHash(f, len)); }
  // 0, or minus the code of a refused batch.
  static int ContainsBatch(const F& f, uintptr_t data, uintptr_t offsets, uint32_t count,
                           uintptr_t out) {
    return OnBatch(data, offsets, count, [&](const KeyBatch& b) {
      f.ContainsBatch(b, Ptr<uint8_t>(out));
      return 0;
    });
  }
  static double Size(const F& f) { return static_cast<double>(f.size()); }
  static double ByteLength(const F& f) { return static_cast<double>(f.byte_length()); }
  static uint32_t Seed(const F& f) { return f.seed(); }
  static void Clear(F& f) { f.Clear(); }
  static double SerializedSize(const F& f) { return static_cast<double>(f.SerializedSize()); }
  // Streams through the JS callbacks of js_stream.h.
  static int Serialize(const F& f) {
    JsSink sink;
    return Report(f.Serialize(sink));
  }
  static int Deserialize(F& f, double size) {
    JsSource source(size);
    return Report(f.Deserialize(source));
  }

  // The verbs a class may have with the usual signature (BindFilter binds each one it has).
  static bool Add(F& f, uint32_t len) { return f.Add(KeyHash(f, len)); }
  static bool Remove(F& f, uint32_t len) { return f.Remove(KeyHash(f, len)); }
  static uint32_t Count(const F& f, uint32_t len) { return f.Count(KeyHash(f, len)); }
  // The keys it added (removed), or minus the code of a refused batch.
  static int AddBatch(F& f, uintptr_t data, uintptr_t offsets, uint32_t count) {
    return OnBatch(data, offsets, count, [&](const KeyBatch& b) { return f.AddBatch(b); });
  }
  static int RemoveBatch(F& f, uintptr_t data, uintptr_t offsets, uint32_t count) {
    return OnBatch(data, offsets, count, [&](const KeyBatch& b) { return f.RemoveBatch(b); });
  }
  // Visualisation: positions as doubles (exact below 2^53) and fill maps as floats.
  static uint32_t Positions(const F& f, uint32_t len, uintptr_t out) {
    uint64_t pos[64];
    f.Positions(KeyHash(f, len), pos);
    const uint32_t n = PositionCount(f, 0);
    for (uint32_t i = 0; i < n; ++i) Ptr<double>(out)[i] = static_cast<double>(pos[i]);
    return n;
  }
  static void FillMap(const F& f, uint32_t cells, uintptr_t out) {
    f.FillMap(cells, Ptr<float>(out));
  }
  // k probes for filters with hashes(); 8 (one per word of a block) for the blocked filter.
  template <typename G>
  static auto PositionCount(const G& g, int) -> decltype(g.hashes()) {
    return g.hashes();
  }
  template <typename G>
  static uint32_t PositionCount(const G&, long) {
    return 8;
  }
};

// True when op(f) compiles and has type R: whether class F has a verb with the usual signature.
template <typename R, typename F, typename Op>
constexpr bool Has(Op) {
  if constexpr (std::is_invocable_v<Op, F&>) {
    return std::is_same_v<std::invoke_result_t<Op, F&>, R>;
  } else {
    return false;
  }
}

// The options of a filter sized by capacity and error rate, as init() passes them (JS numbers as
// doubles); the binding sets the rest.
template <typename O>
inline O Sized(double capacity, double error_rate) {
  O o;
  o.capacity = static_cast<uint64_t>(capacity);
  o.error_rate = error_rate;
  return o;
}
template <typename O>
inline O Sized(double capacity, double error_rate, uint32_t seed) {
  O o = Sized<O>(capacity, error_rate);
  o.seed = seed;
  return o;
}

// info() in one call: the values as doubles at `out` (the key scratch's out area, room for 2,048),
// in the order the JS class names them (its INFO list); the shared tail (size, byteLength, seed)
// comes first, so every class's list starts the same way.
template <typename... V>
inline void WriteInfoValues(uintptr_t out, V... values) {
  double* o = Ptr<double>(out);
  ((*o++ = static_cast<double>(values)), ...);
}
template <typename F, typename... V>
inline void WriteInfo(const F& f, uintptr_t out, V... values) {
  WriteInfoValues(out, f.size(), f.byte_length(), f.seed(), values...);
}

// A filter class with the verbs every filter shares, and each of these it has with the usual
// signature (as a member of F): bool Add(hash), bool Remove(hash), uint32_t Count(hash),
// size_t AddBatch(batch), size_t RemoveBatch(batch), double EstimatedSize(),
// double EstimatedErrorRate(), void Positions(hash, uint64_t*), void FillMap(cells, float*).
// A binding adds only what differs (init, info, verbs with a Status or an out-struct).
template <typename F>
emscripten::class_<F> BindFilter(const char* name) {
  using C = Common<F>;
  using H = decltype(std::declval<const F&>().HashOf(nullptr, 0));
  const auto c = emscripten::class_<F>(name)
                     .template constructor<>()
                     .function("contains", &C::Contains)
                     .function("containsBatch", &C::ContainsBatch)
                     .function("size", &C::Size)
                     .function("byteLength", &C::ByteLength)
                     .function("seed", &C::Seed)
                     .function("clear", &C::Clear)
                     .function("serializedSize", &C::SerializedSize)
                     .function("serialize", &C::Serialize)
                     .function("deserialize", &C::Deserialize);
  if constexpr (Has<bool, F>([](auto& f) -> decltype(f.Add(H{})) { return f.Add(H{}); })) {
    c.function("add", &C::Add);
  }
  if constexpr (Has<bool, F>([](auto& f) -> decltype(f.Remove(H{})) { return f.Remove(H{}); })) {
    c.function("remove", &C::Remove);
  }
  if constexpr (Has<uint32_t, F>([](auto& f) -> decltype(f.Count(H{})) { return f.Count(H{}); })) {
    c.function("count", &C::Count);
  }
  if constexpr (Has<size_t, F>(
                    [](auto& f) -> decltype(f.AddBatch(KeyBatch{})) { return f.AddBatch({}); })) {
    c.function("addBatch", &C::AddBatch);
  }
  if constexpr (Has<size_t, F>([](auto& f) -> decltype(f.RemoveBatch(KeyBatch{})) {
                  return f.RemoveBatch({});
                })) {
    c.function("removeBatch", &C::RemoveBatch);
  }
  if constexpr (Has<double, F>(
                    [](auto& f) -> decltype(f.EstimatedSize()) { return f.EstimatedSize(); })) {
    c.function("estimatedSize", &F::EstimatedSize);
  }
  if constexpr (Has<double, F>([](auto& f) -> decltype(f.EstimatedErrorRate()) {
                  return f.EstimatedErrorRate();
                })) {
    c.function("estimatedErrorRate", &F::EstimatedErrorRate);
  }
  if constexpr (Has<void, F>([](auto& f) -> decltype(f.Positions(H{}, nullptr)) {})) {
    c.function("positions", &C::Positions);
  }
  if constexpr (Has<void, F>([](auto& f) -> decltype(f.FillMap(0, nullptr)) {})) {
    c.function("fillMap", &C::FillMap);
  }
  return c;
}

}  // namespace bindings
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_
