// Shared by the binding files: pointers from JS and the last failing Status's message.
#ifndef BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_
#define BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_

#include <cstdint>

#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {
namespace bindings {

// The message of the last non-ok Status returned to JS (wasm is single-threaded).
inline const char*& LastMessage() {
  static const char* message = "ok";
  return message;
}

// Returns the status code as an int for JS and keeps the message for lastStatusMessage().
inline int Report(Status s) {
  if (!s.ok()) LastMessage() = s.message();
  return static_cast<int>(s.code());
}

template <typename T>
inline T* Ptr(uintptr_t p) { return reinterpret_cast<T*>(p); }

// Keys packed by the JS layer: `count` + 1 u32 offsets at `offsets`, bytes at `data`.
inline KeyBatch Batch(uintptr_t data, uintptr_t offsets, uint32_t count) {
  return KeyBatch{Ptr<const uint8_t>(data), Ptr<const uint32_t>(offsets), count};
}

inline Hash128 HashAt(uintptr_t key, uint32_t len, uint32_t seed) {
  return HashKey(Ptr<const uint8_t>(key), len, seed);
}

}  // namespace bindings
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BINDINGS_BINDING_UTIL_H_
