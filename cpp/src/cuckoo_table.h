// internal: the storage of one cuckoo sub-filter, a power-of-two number of buckets of b slots
// of f-bit fingerprints (b in {1, 2, 4, 8}, f in {8, 12, 16}); fingerprint 0 means empty.
//
// Layout (private to this class, but it is also the serialized payload, so it is fixed):
// one little-endian bit stream, slot j of bucket i occupying bits [(i*b + j)*f, (i*b + j + 1)*f),
// bit k of the stream being bit (k % 8) of byte k / 8. 12-bit fingerprints are packed (two slots
// in three bytes); unused high bits of the last byte are zero. The buffer has 8 bytes of zeroed
// slack after the payload so every bucket can be read with one or two unaligned 64-bit loads.
//
// Lookups read a bucket as one 64-bit word (two for b = 8 with f > 8) and compare all lanes at
// once with a SWAR zero-lane test on (word XOR fp*0x..0101), so a lookup is two to four loads.
#ifndef BLOOMCUCKOO_SRC_CUCKOO_TABLE_H_
#define BLOOMCUCKOO_SRC_CUCKOO_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {
namespace internal {

class CuckooTable {
 public:
  CuckooTable() = default;
  CuckooTable(const CuckooTable&) = delete;
  CuckooTable& operator=(const CuckooTable&) = delete;
  CuckooTable(CuckooTable&&) noexcept = default;
  CuckooTable& operator=(CuckooTable&&) noexcept = default;

  // Bytes of payload for this shape (ceil(num_buckets * b * f / 8)); callers validate the shape.
  static uint64_t PayloadBytes(uint64_t num_buckets, uint32_t bucket_size, uint32_t fp_bits) {
    return (num_buckets * bucket_size * fp_bits + 7) / 8;
  }

  // Allocates num_buckets (a power of two, >= 1) empty buckets. b in {1,2,4,8}, f in {8,12,16}
  // (the caller validated them). kOutOfMemory leaves *this unchanged.
  Status Init(uint64_t num_buckets, uint32_t bucket_size, uint32_t fp_bits);

  // True if fp is in bucket i1 or bucket i2.
  bool FindInBuckets(uint64_t i1, uint64_t i2, uint32_t fp) const {
    return FindInBucket(i1, fp) || FindInBucket(i2, fp);
  }
  bool FindInBucket(uint64_t i, uint32_t fp) const {
    const uint64_t pattern = lane_ones_ * fp;
    for (uint32_t g = 0; g < groups_; ++g) {
      if (ZeroLanes(LoadGroup(i, g) ^ pattern) != 0) return true;
    }
    return false;
  }
  // Number of slots of bucket i holding fp (fp = 0 counts empty slots).
  uint32_t CountInBucket(uint64_t i, uint32_t fp) const {
    const uint64_t pattern = lane_ones_ * fp;
    uint32_t n = 0;
    for (uint32_t g = 0; g < groups_; ++g) {
      n += static_cast<uint32_t>(__builtin_popcountll(ZeroLanes(LoadGroup(i, g) ^ pattern)));
    }
    return n;
  }
  bool HasEmptySlot(uint64_t i) const { return FindInBucket(i, 0); }
  // Puts fp (nonzero) into the first empty slot of bucket i; false if the bucket is full.
  bool InsertIntoBucket(uint64_t i, uint32_t fp) { return ReplaceFirst(i, 0, fp); }
  // Empties one slot of bucket i holding fp (nonzero); false if there is none.
  bool DeleteFromBucket(uint64_t i, uint32_t fp) { return ReplaceFirst(i, fp, 0); }

  uint32_t ReadSlot(uint64_t i, uint32_t j) const {
    const uint64_t bit = (i * bucket_size_ + j) * fp_bits_;
    return static_cast<uint32_t>((Load64(bytes() + static_cast<size_t>(bit >> 3)) >> (bit & 7)) &
                                 fp_mask_);
  }
  void WriteSlot(uint64_t i, uint32_t j, uint32_t fp) {
    const uint64_t bit = (i * bucket_size_ + j) * fp_bits_;
    uint8_t* p = bytes() + static_cast<size_t>(bit >> 3);
    const unsigned shift = static_cast<unsigned>(bit & 7);
    uint64_t w = Load64(p);
    w &= ~(static_cast<uint64_t>(fp_mask_) << shift);
    w |= static_cast<uint64_t>(fp) << shift;
    Store64(p, w);
  }

  // Number of nonzero slots (a full scan).
  uint64_t CountOccupied() const;
  // True if the bits after the last slot in the last payload byte are zero.
  bool PaddingIsZero() const;
  // Empties every slot.
  void Clear() { data_.Clear(); }
  // Frees the storage (num_buckets() becomes 0).
  void Reset() { *this = CuckooTable(); }

  bool initialized() const { return num_buckets_ != 0; }
  uint64_t num_buckets() const { return num_buckets_; }
  uint64_t mask() const { return num_buckets_ - 1; }
  uint32_t bucket_size() const { return bucket_size_; }
  uint32_t fp_bits() const { return fp_bits_; }
  // The packed payload (payload_bytes() bytes, the serialized form).
  const uint8_t* payload() const { return data_.data(); }
  uint8_t* mutable_payload() { return data_.data(); }
  size_t payload_bytes() const { return payload_bytes_; }

 private:
  static uint64_t Load64(const uint8_t* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= static_cast<uint64_t>(p[k]) << (8 * k);
    return v;
#else
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
#endif
  }
  static void Store64(uint8_t* p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (int k = 0; k < 8; ++k) p[k] = static_cast<uint8_t>(v >> (8 * k));
#else
    std::memcpy(p, &v, 8);
#endif
  }
  uint8_t* bytes() { return data_.data(); }
  const uint8_t* bytes() const { return data_.data(); }

  // Group g (of groups_) of bucket i: lanes_ slots in the low lanes_*f bits, higher bits zero.
  uint64_t LoadGroup(uint64_t i, uint32_t g) const {
    const uint64_t bit = i * bucket_bits_ + g * group_bits_;
    return (Load64(bytes() + static_cast<size_t>(bit >> 3)) >> (bit & 7)) & group_mask_;
  }
  // The top bit of every lane of x (a group) that is zero, exactly (no borrow false positives).
  uint64_t ZeroLanes(uint64_t x) const {
    return ~(((x & lane_low_) + lane_low_) | x | lane_low_) & lane_high_;
  }
  // Replaces the first slot of bucket i holding `from` by `to`; false if none holds `from`.
  bool ReplaceFirst(uint64_t i, uint32_t from, uint32_t to) {
    const uint64_t pattern = lane_ones_ * from;
    for (uint32_t g = 0; g < groups_; ++g) {
      const uint64_t z = ZeroLanes(LoadGroup(i, g) ^ pattern);
      if (z != 0) {
        const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(z)) / fp_bits_;
        WriteSlot(i, g * lanes_ + lane, to);
        return true;
      }
    }
    return false;
  }

  Buffer<uint8_t> data_;
  uint64_t num_buckets_ = 0;
  size_t payload_bytes_ = 0;
  uint32_t bucket_size_ = 0;
  uint32_t fp_bits_ = 0;
  uint32_t fp_mask_ = 0;
  uint32_t bucket_bits_ = 0;  // b * f
  uint32_t lanes_ = 0;        // slots per 64-bit group: b, or 4 when b * f > 64
  uint32_t groups_ = 0;       // b / lanes_ (1 or 2)
  uint32_t group_bits_ = 0;   // lanes_ * f
  uint64_t group_mask_ = 0;   // low group_bits_ bits
  uint64_t lane_ones_ = 0;    // 1 in the lowest bit of every lane
  uint64_t lane_high_ = 0;    // the top bit of every lane
  uint64_t lane_low_ = 0;     // every lane bit except the top one
};

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_CUCKOO_TABLE_H_
