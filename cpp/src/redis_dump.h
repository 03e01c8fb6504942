// internal: what RedisBloomFilter and RedisCuckooFilter share when a dump is loaded chunk by chunk
// (BF.LOADCHUNK / CF.LOADCHUNK after the header): where each data chunk's bytes go.
#ifndef BLOOMCUCKOO_SRC_REDIS_DUMP_H_
#define BLOOMCUCKOO_SRC_REDIS_DUMP_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/status.h"

namespace bloomcuckoo {
namespace internal {

// What a refused data chunk is told, per class.
struct DumpChunkFaults {
  const char* out_of_order;  // missing, repeated or out of order
  const char* spans_two;     // straddles two parts
  const char* past_end;      // runs past the last part
};

// The data of a dump is the parts' bytes back to back (a BF's link bitmaps, a CF's sub-filters'
// slots), and SCANDUMP numbers each data chunk with the iterator after it: 1 + the offset of its
// end. A chunk must be non-empty, come next (its start is *next), and lie within one part.
// `parts` is the parts in order (a vector); bytes_of(part) is a part's length, part.data its
// storage. *part and *part_start are where the search starts: a part and its offset, at or before
// *next (0 and 0 for a new load). Chunks only move forward, so the search resumes where the last
// ended, and a whole dump costs O(chunks + parts), not O(chunks * parts).
// Returns where the chunk's `len` bytes go and moves *next past them; else nullptr, *next
// unchanged and *status kCorruptData with the fault's message.
template <typename Parts, typename BytesOf>
uint8_t* DumpChunkTarget(Parts& parts, BytesOf bytes_of, uint64_t iterator, size_t len,
                         uint64_t* next, size_t* part, uint64_t* part_start,
                         const DumpChunkFaults& faults, Status* status) {
  const uint64_t n = len;
  if (n == 0 || iterator < 1 + n || iterator - 1 - n != *next || *part_start > *next) {
    *status = Status(StatusCode::kCorruptData, faults.out_of_order);
    return nullptr;
  }
  for (; *part < parts.size(); ++*part) {
    const uint64_t bytes = bytes_of(parts[*part]);
    const uint64_t offset = *next - *part_start;
    if (offset < bytes) {
      if (n > bytes - offset) {
        *status = Status(StatusCode::kCorruptData, faults.spans_two);
        return nullptr;
      }
      *next += n;
      *status = Status::Ok();
      return parts[*part].data.data() + offset;
    }
    *part_start += bytes;
  }
  *status = Status(StatusCode::kCorruptData, faults.past_end);
  return nullptr;
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_REDIS_DUMP_H_
