// internal: writing and reading the common frame around every filter's body, as a stream.
#ifndef BLOOMCUCKOO_SRC_FRAME_H_
#define BLOOMCUCKOO_SRC_FRAME_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"
#include "byte_io.h"

namespace bloomcuckoo {
namespace internal {

// Total serialized size for a body of `body_size` bytes.
inline constexpr size_t FramedSize(size_t body_size) {
  return kHeaderSize + body_size + kTrailerSize;
}

// What the header of a frame says.
struct FrameInfo {
  uint16_t version;
  FilterKind kind;
  uint8_t hash_id;
  uint32_t seed;
};

// Writes the 20-byte header.
void WriteHeader(ByteWriter& w, FilterKind kind, uint32_t seed, uint8_t hash_id,
                 uint64_t body_size);

// How much of `source` a frame's reader reads: all but the trailer (0 when shorter than a frame).
inline uint64_t FrameLimit(const ByteSource& source) {
  return source.size() < kHeaderSize + kTrailerSize ? 0 : source.size() - kTrailerSize;
}

// Reads the header of the frame `r` reads (a reader over FrameLimit(source) bytes with checksum
// on) and checks what can be checked before the body: the length (kCorruptData if shorter than a
// frame), magic (kCorruptData), version (0: kCorruptData; newer than kFormatVersion:
// kUnsupportedVersion) and the body length (kCorruptData unless it is what the frame holds).
Status ReadHeader(ByteReader& r, const ByteSource& source, FrameInfo* info);

// The checks of a sound header that a corrupt checksum takes precedence over: a known kind
// (kCorruptData) with its hash id (kUnsupportedVersion), and, unless `any_kind`, the kind
// `expected` (another sound kind: kInvalidArgument).
Status CheckKind(const FrameInfo& info, FilterKind expected, bool any_kind);

// Ends a frame whose body was parsed with `status`: reads (and checksums) any body bytes the
// parser left, then the trailer. A checksum mismatch is reported in preference to `status`, so
// corrupt bytes always read as "fails its checksum", whatever the parser tripped on first.
Status CloseFrame(ByteReader& r, ByteSource& source, Status status);

// Checks a whole frame (magic, version, body length, known kind and hash id, checksum; the body
// is read only for its checksum) and reports its kind.
Status CheckFrame(ByteSource& source, FilterKind* kind);

// Reads only the header and reports the kind it names, for picking the class to deserialize
// into (whose Deserialize then checks everything). A header naming an unknown kind or hash id is
// read to the end for its checksum first (CloseFrame's precedence).
Status PeekHeaderKind(ByteSource& source, FilterKind* kind);

// Writes a whole frame to `sink`: the header, then write_body(ByteWriter&), which must write
// exactly body_size bytes, then the CRC. kInvalidArgument if the sink refused a write (or on
// a body size mismatch, a bug).
template <typename WriteBody>
Status WriteFrame(ByteSink& sink, FilterKind kind, uint32_t seed, uint8_t hash_id,
                  uint64_t body_size, WriteBody&& write_body) {
  ByteWriter w(sink, /*checksum=*/true);
  WriteHeader(w, kind, seed, hash_id, body_size);
  write_body(w);
  if (w.position() != kHeaderSize + body_size) {
    return Status(StatusCode::kInvalidArgument, "internal error: body size mismatch");
  }
  w.U32(w.crc());
  w.Flush();
  if (!w.ok()) {
    return Status(StatusCode::kInvalidArgument,
                  "serialize: the destination did not take the bytes (too small, or it failed)");
  }
  return Status::Ok();
}

// Reads one frame of kind `expected` from untrusted `source`: the header, then
// read_body(ByteReader&, const FrameInfo&) -> Status, which parses the body (and must consume
// it exactly), then the checksum (see CloseFrame). The parser should build into a temporary and
// the caller commit it only when this returns Ok: the checksum is known only at the end.
template <typename ReadBody>
Status ReadFrame(ByteSource& source, FilterKind expected, ReadBody&& read_body) {
  ByteReader r(source, FrameLimit(source), /*checksum=*/true);
  FrameInfo info{};
  BLOOMCUCKOO_RETURN_IF_ERROR(ReadHeader(r, source, &info));
  Status s = CheckKind(info, expected, /*any_kind=*/false);
  if (s.ok()) s = read_body(r, info);
  if (s.ok() && !r.AtEnd()) {
    s = Status(StatusCode::kCorruptData, "serialized filter has trailing bytes");
  }
  return CloseFrame(r, source, s);
}

// Serialize/Deserialize of a filter into and from a caller's buffer, via its stream versions.
template <typename F>
Status SerializeToBuffer(const F& f, uint8_t* out, size_t capacity) {
  if (capacity < f.SerializedSize()) {
    return Status(StatusCode::kInvalidArgument, "serialize buffer too small");
  }
  MemorySink sink(out, capacity);
  return f.Serialize(sink);
}
template <typename F>
Status DeserializeFromBuffer(F& f, const uint8_t* data, size_t size) {
  MemorySource source(data, size);
  return f.Deserialize(source);
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_FRAME_H_
