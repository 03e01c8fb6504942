#include "bloomcuckoo/serialization.h"

#include "bloomcuckoo/hashing.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

constexpr uint8_t kMagic[4] = {'B', 'C', 'F', 'L'};

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
