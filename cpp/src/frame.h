// internal: writing and opening the common frame around every filter's body.
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

// Writes a whole frame into `out` (capacity FramedSize(body_size)): the header, then calls
// write_body(ByteWriter&) which must write exactly body_size bytes, then the CRC.
// Returns kInvalidArgument if out is too small or the body size was wrong (a bug).
template <typename WriteBody>
Status WriteFrame(uint8_t* out, size_t capacity, FilterKind kind, uint32_t seed, uint8_t hash_id,
                  size_t body_size, WriteBody&& write_body);

// Validates the frame of untrusted `data` and, when it is sound and of kind `expected`,
// returns a reader over the body and the stored seed and version.
//  - too short, bad magic, version 0, body length != actual, bad CRC, unknown kind: kCorruptData
//  - version newer than kFormatVersion, unknown hash id: kUnsupportedVersion
//  - a sound frame of another kind: kInvalidArgument
struct FrameInfo {
  uint16_t version;
  FilterKind kind;
  uint8_t hash_id;
  uint32_t seed;
};
// Checks the frame (length, magic, version, body length, CRC, known kind and its hash id) without
// caring which kind it is; *kind is the kind byte. PeekFilterKind and OpenFrame use it.
Status CheckFrame(const uint8_t* data, size_t size, uint8_t* kind);
Status OpenFrame(const uint8_t* data, size_t size, FilterKind expected, FrameInfo* info,
                 ByteReader* body);

// Writes the 20-byte header.
void WriteHeader(ByteWriter& w, FilterKind kind, uint32_t seed, uint8_t hash_id,
                 uint64_t body_size);

template <typename WriteBody>
Status WriteFrame(uint8_t* out, size_t capacity, FilterKind kind, uint32_t seed, uint8_t hash_id,
                  size_t body_size, WriteBody&& write_body) {
  if (capacity < FramedSize(body_size)) {
    return Status(StatusCode::kInvalidArgument, "serialize buffer too small");
  }
  ByteWriter w(out, capacity);
  WriteHeader(w, kind, seed, hash_id, body_size);
  write_body(w);
  if (!w.ok() || w.position() != kHeaderSize + body_size) {
    return Status(StatusCode::kInvalidArgument, "internal error: body size mismatch");
  }
  w.U32(Crc32(out, w.position()));
  return Status::Ok();
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_FRAME_H_
