#include "crc32.h"

#include <array>

#include "bloomcuckoo/serialization.h"

namespace bloomcuckoo {
namespace {

// CRC-32 (IEEE, reflected 0xEDB88320) by slicing-by-16: table[k][b] is the CRC of byte b followed
// by k zero bytes, so sixteen input bytes are folded with sixteen independent lookups instead of
// sixteen dependent rounds of the byte-wise loop (same values).
constexpr int kSlices = 16;
using CrcTables = std::array<std::array<uint32_t, 256>, kSlices>;
CrcTables MakeCrcTables() {  // not constexpr: computed at run time, not stored in the binary
  CrcTables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; ++i) {
    for (int k = 1; k < kSlices; ++k) t[k][i] = t[0][t[k - 1][i] & 0xFFu] ^ (t[k - 1][i] >> 8);
  }
  return t;
}
// Built on first use rather than stored: 16 KiB of table data would add about 14 KB to the
// gzipped wasm.
const CrcTables& Crc() {
  static const CrcTables tables = MakeCrcTables();
  return tables;
}

internal::Crc32Accelerator g_accelerator = nullptr;

}  // namespace

namespace internal {

void SetCrc32Accelerator(Crc32Accelerator accelerator) { g_accelerator = accelerator; }

uint32_t Crc32ExtendTables(uint32_t crc, const uint8_t* data, size_t size) {
  const CrcTables& kCrc = Crc();
  uint32_t c = ~crc;
  size_t i = 0;
  const auto word = [data](size_t at) {  // little-endian, byte by byte (any alignment and host)
    return uint32_t{data[at]} | uint32_t{data[at + 1]} << 8 | uint32_t{data[at + 2]} << 16 |
           uint32_t{data[at + 3]} << 24;
  };
  const auto fold = [&kCrc](uint32_t w, int t) {  // the four bytes of w at tables t..t-3
    return kCrc[t][w & 0xFFu] ^ kCrc[t - 1][(w >> 8) & 0xFFu] ^ kCrc[t - 2][(w >> 16) & 0xFFu] ^
           kCrc[t - 3][w >> 24];
  };
  for (; i + 16 <= size; i += 16) {
    c = fold(c ^ word(i), 15) ^ fold(word(i + 4), 11) ^ fold(word(i + 8), 7) ^
        fold(word(i + 12), 3);
  }
  for (; i < size; ++i) c = kCrc[0][(c ^ data[i]) & 0xFFu] ^ (c >> 8);
  return ~c;
}

}  // namespace internal

uint32_t Crc32Extend(uint32_t crc, const uint8_t* data, size_t size) {
  uint32_t out = 0;
  if (size >= internal::kCrc32AcceleratedMin && g_accelerator != nullptr &&
      g_accelerator(crc, data, size, &out)) {
    return out;
  }
  return internal::Crc32ExtendTables(crc, data, size);
}

uint32_t Crc32(const uint8_t* data, size_t size) { return Crc32Extend(0, data, size); }

}  // namespace bloomcuckoo
