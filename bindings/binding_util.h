// Shared by the binding files: pointers from JS and the last failing Status's message.
#ifndef BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_
#define BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_

#include <emscripten/bind.h>

#include <cstdint>

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

// A batch that can stop part-way (BF.MADD, CF.INSERT, a scalable filter that fills) reports its
// counts in one out-struct at the start of the out area: u32 handled, u32 added. Returns Report(s).
inline int ReportBatch(Status s, size_t handled, size_t added, uintptr_t out) {
  Ptr<uint32_t>(out)[0] = static_cast<uint32_t>(handled);
  Ptr<uint32_t>(out)[1] = static_cast<uint32_t>(added);
  return Report(s);
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
// refused as an empty batch (nothing is read, written or added), so no mistake in JS can make
// the core read outside the batch.
inline KeyBatch Batch(uintptr_t data, uintptr_t offsets, uint32_t count) {
  const KeyRegion& r = RegisteredKeyRegion();
  KeyBatch batch{Ptr<const uint8_t>(data), Ptr<const uint32_t>(offsets), count};
  const bool inside = r.data != 0 && data == r.data && offsets >= r.offsets &&
                      (offsets - r.offsets) % 4 == 0 &&
                      (offsets - r.offsets) / 4 + uint64_t{count} + 1 <= r.offsets_count;
  if (!inside || !batch.OffsetsWithin(static_cast<size_t>(r.data_size))) {
    LastMessage() = "key batch outside the registered key region or with invalid offsets";
    batch.count = 0;
  }
  return batch;
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
  static void ContainsBatch(const F& f, uintptr_t data, uintptr_t offsets, uint32_t count,
                            uintptr_t out) {
    f.ContainsBatch(Batch(data, offsets, count), Ptr<uint8_t>(out));
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
};

// Visualisation helpers: positions as doubles (exact below 2^53) and fill maps as floats.
template <typename F>
struct Inspect {
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

template <typename F>
emscripten::class_<F> BindFilter(const char* name) {
  using C = Common<F>;
  return emscripten::class_<F>(name)
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
}

}  // namespace bindings
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_
