// Embind: module-wide functions (hash utilities, status messages, kind detection).
// Filters bind themselves in bindings/<family>.cc. Adapters only; no algorithms here.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/murmur3.h"
#include "bloomcuckoo/serialization.h"
#include "frame.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

// MurmurHash3 of the one key (binding_util.h OneKey).
uint32_t Murmur3X86_32(uint32_t len, uint32_t seed) {
  return MurmurHash3_x86_32(OneKey(), len, seed);
}
void Murmur3X64_128(uint32_t len, uint32_t seed, uintptr_t out) {
  MurmurHash3_x64_128_Bytes(OneKey(), len, seed, Ptr<uint8_t>(out));
}
// The address of the last failing Status's message (NUL-terminated ASCII, static storage): JS
// reads it from memory (js/main/loader.js lastStatusMessage), so no std::string crosses the
// boundary and the glue needs no std::string support (bindings/embind_unused_types.js).
uintptr_t LastStatusPointer() { return reinterpret_cast<uintptr_t>(LastMessage()); }
void SetKeyRegion(uintptr_t data, double data_size, uintptr_t offsets, double offsets_count) {
  RegisteredKeyRegion() = KeyRegion{data, static_cast<uint64_t>(data_size), offsets,
                                    static_cast<uint64_t>(offsets_count)};
}
// The kind (a number of the kind table) named by the header of the JS source's `size` bytes (or
// -code); the class's deserialize checks the rest.
int HeaderKind(double size) {
  JsSource source(size);
  FilterKind kind{};
  const Status s = internal::PeekHeaderKind(source, &kind);
  return Report(s, static_cast<int>(kind));
}
// The same after checking the whole frame, checksum included.
int CheckedKind(double size) {
  JsSource source(size);
  FilterKind kind{};
  const Status s = internal::CheckFrame(source, &kind);
  return Report(s, static_cast<int>(kind));
}

uint32_t DefaultSeed() { return kDefaultSeed; }

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_core) {
  emscripten::function("murmur3_x86_32", &Murmur3X86_32);
  emscripten::function("murmur3_x64_128", &Murmur3X64_128);
  emscripten::function("lastStatusPointer", &LastStatusPointer);
  emscripten::function("setKeyRegion", &SetKeyRegion);
  emscripten::function("headerKind", &HeaderKind);
  emscripten::function("checkedKind", &CheckedKind);
  emscripten::function("defaultSeed", &DefaultSeed);
}

}  // namespace bindings
}  // namespace bloomcuckoo
