// The serialized form shared by every filter (docs/FORMAT.md is the byte-level spec):
//   magic "BCFL" | u16 format version | u8 kind | u8 hash id | u32 seed | u64 body length |
//   body (kind-specific) | u32 CRC-32 of everything before it.
// All integers little-endian, written field by field.
#ifndef BLOOMCUCKOO_SERIALIZATION_H_
#define BLOOMCUCKOO_SERIALIZATION_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/kind_table.h"  // generated: BLOOMCUCKOO_FILTER_KINDS, below
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {

// The format version this build writes. It reads every version from 1 up to this one.
inline constexpr uint16_t kFormatVersion = 1;
inline constexpr size_t kHeaderSize = 20;  // magic .. body length
inline constexpr size_t kTrailerSize = 4;  // CRC-32

// Every kind of filter, one row each: BLOOMCUCKOO_FILTER_KINDS(X) calls X(number in the frame,
// enumerator, name (in messages, the JS layer and docs/FORMAT.md), class, hash id its bytes carry
// (the class's KeyHashing::kId)). Generated from the one table of kinds, js/shared/kind-table.js,
// by the builds (CMakeLists.txt, scripts/build-checker.mjs) into bloomcuckoo/kind_table.h.
// Everything in C++ that dispatches on a kind reads it. A kind needs more than its row:
// docs/CONTRIBUTING.md, "Adding a filter kind", lists every file, and
// tests/cpp/kind_table_test.cc and tests/js/kinds.test.js fail until each has it.

enum class FilterKind : uint8_t {
#define BLOOMCUCKOO_KIND_ENUMERATOR(number, enumerator, name, cls, hash_id) enumerator = number,
  BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_KIND_ENUMERATOR)
#undef BLOOMCUCKOO_KIND_ENUMERATOR
};

// Where a filter's serialized bytes go, front to back, in pieces (a buffer, a file, JS memory).
// Write returns false to stop: the filter's Serialize then returns kInvalidArgument.
class ByteSink {
 public:
  virtual bool Write(const uint8_t* data, size_t size) = 0;

 protected:
  ~ByteSink() = default;
};

// Where serialized bytes come from, front to back, in pieces. size() is the total length (known
// before reading, as for a buffer or a file); Read fills `out` with the next `size` bytes and
// returns false when it cannot (the filter's Deserialize then returns kCorruptData).
class ByteSource {
 public:
  virtual uint64_t size() const = 0;
  virtual bool Read(uint8_t* out, size_t size) = 0;

 protected:
  ~ByteSource() = default;
};

// Name of a kind as used in messages and by the JS layer ("bloom", "cuckoo", ...).
const char* FilterKindName(FilterKind kind);
// True for a number the kind table has; the hash id its bytes carry (0 for an unknown kind).
bool IsFilterKind(uint8_t number);
uint8_t FilterKindHashId(uint8_t number);

// Checks the frame of `data` (magic, version, body length, checksum, known kind) and reports its
// kind. Used to pick the class to deserialize into. Reads nothing past `size`.
Status PeekFilterKind(const uint8_t* data, size_t size, FilterKind* kind);

// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF),
// the checksum of the trailer. Check value: Crc32("123456789") == 0xCBF43926.
uint32_t Crc32(const uint8_t* data, size_t size);
// The CRC-32 of a message continued by `size` more bytes, given the CRC-32 of what came before
// (0 for nothing): Crc32Extend(Crc32(a), b) == Crc32(a followed by b).
uint32_t Crc32Extend(uint32_t crc, const uint8_t* data, size_t size);

}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SERIALIZATION_H_
