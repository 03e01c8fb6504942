// internal: the CRC-32 of the frame's trailer (Crc32, Crc32Extend in bloomcuckoo/serialization.h)
// and a hook through which a runtime with a faster CRC-32 of the same definition computes the
// large pieces instead (the wasm build: zlib.crc32 in Node, bindings/js_crc.cc).
#ifndef BLOOMCUCKOO_SRC_CRC32_H_
#define BLOOMCUCKOO_SRC_CRC32_H_

#include <cstddef>
#include <cstdint>

namespace bloomcuckoo {
namespace internal {

// Computes Crc32Extend(crc, data, size) into *out and returns true, or returns false (and
// Crc32Extend computes it itself) when it cannot.
using Crc32Accelerator = bool (*)(uint32_t crc, const uint8_t* data, size_t size, uint32_t* out);

// Pieces of at least this many bytes go to the accelerator (a call out of wasm costs about as
// much as the table CRC of a few hundred bytes).
inline constexpr size_t kCrc32AcceleratedMin = 4096;

// Installs `accelerator` (nullptr: none, the default), for every later Crc32Extend.
void SetCrc32Accelerator(Crc32Accelerator accelerator);

// Crc32Extend by the tables alone, never the accelerator (for tests and benchmarks).
uint32_t Crc32ExtendTables(uint32_t crc, const uint8_t* data, size_t size);

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_CRC32_H_
