// The read-only checker (bloomcuckoo/check): deserialize + has for every kind, and nothing else,
// as a wasm module of its own with plain C exports (no Embind, no Emscripten JS glue), for a
// page that only checks keys against a filter it was shipped. The filters are the core's own
// classes (cpp/src), so the bytes accepted, the errors and every answer are the main library's;
// the linker keeps only what Deserialize and Contains reach. js/check/index.js is its loader.
#include <cstdint>
#include <cstdlib>
#include <new>

#include "bloomcuckoo/bloomcuckoo.h"

namespace bloomcuckoo {
namespace {

// A loaded filter: its kind, then the object of that kind's class.
struct Loaded {
  uint8_t kind;
  void* filter;
};

// A filter of class F read from the bytes at `*filter`, or nullptr there and the status why.
template <typename F>
Status LoadAs(const uint8_t* data, size_t size, void** filter) {
  *filter = nullptr;
  void* at = std::malloc(sizeof(F));
  if (at == nullptr) return Status(StatusCode::kOutOfMemory, "no memory for the filter object");
  F* f = new (at) F();
  const Status s = f->Deserialize(data, size);
  if (s.ok()) {
    *filter = f;
    return s;
  }
  f->~F();
  std::free(at);
  return s;
}

// The one convention of every wasm export that can fail (as bindings/binding_util.h's Report
// and ReportTarget): the result, here an address (a double: addresses reach 4 GiB), or minus the
// status code.
double Report(Status s, const void* result) {
  return s.ok() ? static_cast<double>(reinterpret_cast<uintptr_t>(result))
                : -static_cast<double>(static_cast<uint8_t>(s.code()));
}

template <typename F>
void Destroy(void* p) {
  static_cast<F*>(p)->~F();
  std::free(p);
}

template <typename F>
bool Has(const void* p, const uint8_t* key, uint32_t len) {
  const F& f = *static_cast<const F*>(p);
  return f.Contains(f.HashOf(key, len));
}

template <typename F>
double ByteLength(const void* p) {
  return static_cast<double>(static_cast<const F*>(p)->byte_length());
}

}  // namespace
}  // namespace bloomcuckoo

using namespace bloomcuckoo;  // NOLINT: the C exports below dispatch over the kind table

// The kinds this module reads: every kind, or only BC_KIND (one module per kind, so a page
// downloads the code of its own filter's kind alone). A kind that is off is never instantiated.
#ifndef BC_KIND
#define BC_KIND 0
#endif
constexpr bool On(int number) { return BC_KIND == 0 || BC_KIND == number; }

extern "C" {

// The handle of a filter read from `size` bytes at `data` (> 0), or minus the status code.
__attribute__((export_name("bc_load"))) double bc_load(const uint8_t* data, uint32_t size) {
  FilterKind kind;
  Status s = PeekFilterKind(data, size, &kind);
  if (!s.ok()) return Report(s, nullptr);
  void* filter = nullptr;
  switch (static_cast<uint8_t>(kind)) {
#define BC_LOAD(number, enumerator, name, cls, hash_id)                            \
  case number:                                                                     \
    if constexpr (On(number)) {                                                    \
      s = LoadAs<cls>(data, size, &filter);                                        \
    } else {                                                                       \
      s = Status(StatusCode::kInvalidArgument, "another kind than this module's"); \
    }                                                                              \
    break;
    BLOOMCUCKOO_FILTER_KINDS(BC_LOAD)
#undef BC_LOAD
    default:
      s = Status(StatusCode::kUnsupportedVersion, "filter kind not supported by this build");
  }
  if (filter == nullptr) return Report(s, nullptr);
  Loaded* h = static_cast<Loaded*>(std::malloc(sizeof(Loaded)));
  if (h == nullptr) {
    switch (static_cast<uint8_t>(kind)) {
#define BC_DROP(number, enumerator, name, cls, hash_id) \
  case number:                                          \
    if constexpr (On(number)) Destroy<cls>(filter);     \
    break;
      BLOOMCUCKOO_FILTER_KINDS(BC_DROP)
#undef BC_DROP
    }
    return Report(Status(StatusCode::kOutOfMemory, "no memory for the filter object"), nullptr);
  }
  h->kind = static_cast<uint8_t>(kind);
  h->filter = filter;
  return Report(Status::Ok(), h);
}

__attribute__((export_name("bc_has"))) uint32_t bc_has(const Loaded* h, const uint8_t* key,
                                                       uint32_t len) {
  switch (h->kind) {
#define BC_HAS(number, enumerator, name, cls, hash_id)                      \
  case number:                                                              \
    if constexpr (On(number)) return Has<cls>(h->filter, key, len) ? 1 : 0; \
    break;
    BLOOMCUCKOO_FILTER_KINDS(BC_HAS)
#undef BC_HAS
  }
  return 0;
}

// out[i] = has(key i) for `count` keys packed at `data` with count + 1 u32 `offsets`: one call
// per batch from JS, a key at a time here (the core's batch paths are bigger code, and a page
// that checks keys is not bound by this loop).
__attribute__((export_name("bc_has_batch"))) void bc_has_batch(const Loaded* h, const uint8_t* data,
                                                               const uint32_t* offsets,
                                                               uint32_t count, uint8_t* out) {
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = static_cast<uint8_t>(bc_has(h, data + offsets[i], offsets[i + 1] - offsets[i]));
  }
}

__attribute__((export_name("bc_byte_length"))) double bc_byte_length(const Loaded* h) {
  switch (h->kind) {
#define BC_BYTES(number, enumerator, name, cls, hash_id)         \
  case number:                                                   \
    if constexpr (On(number)) return ByteLength<cls>(h->filter); \
    break;
    BLOOMCUCKOO_FILTER_KINDS(BC_BYTES)
#undef BC_BYTES
  }
  return 0;
}

__attribute__((export_name("bc_free"))) void bc_free(Loaded* h) {
  switch (h->kind) {
#define BC_FREE(number, enumerator, name, cls, hash_id) \
  case number:                                          \
    if constexpr (On(number)) Destroy<cls>(h->filter);  \
    break;
    BLOOMCUCKOO_FILTER_KINDS(BC_FREE)
#undef BC_FREE
  }
  std::free(h);
}

__attribute__((export_name("bc_malloc"))) void* bc_malloc(uint32_t size) {
  return std::malloc(size);
}
__attribute__((export_name("bc_free_bytes"))) void bc_free_bytes(void* p) { std::free(p); }

}  // extern "C"
