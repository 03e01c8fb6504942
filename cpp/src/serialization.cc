#include "bloomcuckoo/serialization.h"

#include <array>

#include "bloomcuckoo/hashing.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

constexpr uint8_t kMagic[4] = {'B', 'C', 'F', 'L'};

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

}  // namespace

const char* FilterKindName(FilterKind kind) {
  switch (kind) {
#define BLOOMCUCKOO_KIND_NAME(number, enumerator, name, cls, hash_id) \
  case FilterKind::enumerator:                                        \
    return name;
    BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_KIND_NAME)
#undef BLOOMCUCKOO_KIND_NAME
  }
  return "unknown";
}

uint8_t FilterKindHashId(uint8_t number) {
  switch (number) {
#define BLOOMCUCKOO_KIND_HASH_ID(number, enumerator, name, cls, hash_id) \
  case number:                                                           \
    return hash_id;
    BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_KIND_HASH_ID)
#undef BLOOMCUCKOO_KIND_HASH_ID
  }
  return 0;
}

bool IsFilterKind(uint8_t number) { return FilterKindHashId(number) != 0; }

uint32_t Crc32Extend(uint32_t crc, const uint8_t* data, size_t size) {
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

uint32_t Crc32(const uint8_t* data, size_t size) { return Crc32Extend(0, data, size); }

namespace internal {

void WriteHeader(ByteWriter& w, FilterKind kind, uint32_t seed, uint8_t hash_id,
                 uint64_t body_size) {
  w.Bytes(kMagic, 4);
  w.U16(kFormatVersion);
  w.U8(static_cast<uint8_t>(kind));
  w.U8(hash_id);
  w.U32(seed);
  w.U64(body_size);
}

Status ReadHeader(ByteReader& r, const ByteSource& source, FrameInfo* info) {
  const uint64_t total = source.size();
  if (total < kHeaderSize + kTrailerSize) {
    return Status(StatusCode::kCorruptData,
                  "serialized filter is truncated (shorter than its header)");
  }
  uint8_t magic[4] = {0, 0, 0, 0};
  r.Read(magic, 4);
  for (int i = 0; i < 4; ++i) {
    if (magic[i] != kMagic[i]) {
      return Status(StatusCode::kCorruptData, "not a bloomcuckoo filter (bad magic bytes)");
    }
  }
  const uint16_t version = r.U16();
  const uint8_t kind = r.U8();
  const uint8_t hash_id = r.U8();
  const uint32_t seed = r.U32();
  const uint64_t body_size = r.U64();
  if (!r.ok()) {
    return Status(StatusCode::kCorruptData,
                  "serialized filter is truncated (shorter than its header)");
  }
  if (version == 0) return Status(StatusCode::kCorruptData, "format version 0 is invalid");
  if (version > kFormatVersion) {
    return Status(StatusCode::kUnsupportedVersion,
                  "serialized filter uses a newer format version than this build reads");
  }
  if (body_size != total - kHeaderSize - kTrailerSize) {
    return Status(StatusCode::kCorruptData,
                  "serialized filter is truncated or has trailing bytes (body length mismatch)");
  }
  info->version = version;
  info->kind = static_cast<FilterKind>(kind);
  info->hash_id = hash_id;
  info->seed = seed;
  return Status::Ok();
}

Status CheckKind(const FrameInfo& info, FilterKind expected, bool any_kind) {
  const uint8_t kind = static_cast<uint8_t>(info.kind);
  if (!IsFilterKind(kind)) return Status(StatusCode::kCorruptData, "unknown filter kind");
  if (info.hash_id != FilterKindHashId(kind)) {
    return Status(StatusCode::kUnsupportedVersion, "unknown hash function id");
  }
  if (!any_kind && info.kind != expected) {
    return Status(StatusCode::kInvalidArgument, "serialized filter is of another kind");
  }
  return Status::Ok();
}

Status CloseFrame(ByteReader& r, ByteSource& source, Status status) {
  uint8_t trailer[kTrailerSize];
  if (!r.Drain() || !source.Read(trailer, kTrailerSize)) {
    return Status(StatusCode::kCorruptData,
                  "serialized filter could not be read (the source failed)");
  }
  if (LoadLE(trailer, kTrailerSize) != r.crc()) {
    return Status(StatusCode::kCorruptData, "serialized filter fails its checksum (corrupt bytes)");
  }
  return status;
}

// Checks the whole frame (the body is read only for its checksum) and reports its kind.
Status CheckFrame(ByteSource& source, FilterKind* kind) {
  ByteReader r(source, FrameLimit(source), /*checksum=*/true);
  FrameInfo info{};
  BLOOMCUCKOO_RETURN_IF_ERROR(ReadHeader(r, source, &info));
  BLOOMCUCKOO_RETURN_IF_ERROR(CloseFrame(r, source, CheckKind(info, info.kind, /*any_kind=*/true)));
  *kind = info.kind;
  return Status::Ok();
}

Status PeekHeaderKind(ByteSource& source, FilterKind* kind) {
  ByteReader r(source, FrameLimit(source), /*checksum=*/true);
  FrameInfo info{};
  BLOOMCUCKOO_RETURN_IF_ERROR(ReadHeader(r, source, &info));
  const Status s = CheckKind(info, info.kind, /*any_kind=*/true);
  if (!s.ok()) return CloseFrame(r, source, s);
  *kind = info.kind;
  return Status::Ok();
}

}  // namespace internal

Status PeekFilterKind(const uint8_t* data, size_t size, FilterKind* kind) {
  internal::MemorySource source(data, size);
  return internal::CheckFrame(source, kind);
}

}  // namespace bloomcuckoo
