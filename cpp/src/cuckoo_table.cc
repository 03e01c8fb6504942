#include "cuckoo_table.h"

namespace bloomcuckoo {
namespace internal {

Status CuckooTable::Init(uint64_t num_buckets, uint32_t bucket_size, uint32_t fp_bits) {
  if (num_buckets == 0 || (num_buckets & (num_buckets - 1)) != 0 ||
      num_buckets > (uint64_t{1} << 40)) {
    return Status(StatusCode::kOutOfMemory, "cuckoo sub-filter too large to allocate");
  }
  const uint64_t payload = PayloadBytes(num_buckets, bucket_size, fp_bits);
  if (payload > kMaxAllocationBytes) {
    return Status(StatusCode::kOutOfMemory, "cuckoo sub-filter too large to allocate");
  }
  CuckooTable t;
  // 8 bytes of slack so that every 64-bit load and store stays inside the buffer.
  BLOOMCUCKOO_RETURN_IF_ERROR(t.data_.Allocate(payload + 8));
  t.num_buckets_ = num_buckets;
  t.payload_bytes_ = static_cast<size_t>(payload);
  t.bucket_size_ = bucket_size;
  t.fp_bits_ = fp_bits;
  t.fp_mask_ = (1u << fp_bits) - 1;
  t.bucket_bits_ = bucket_size * fp_bits;
  t.lanes_ = t.bucket_bits_ > 64 ? 4 : bucket_size;
  t.groups_ = bucket_size / t.lanes_;
  t.group_bits_ = t.lanes_ * fp_bits;
  t.group_mask_ = t.group_bits_ == 64 ? ~uint64_t{0} : (uint64_t{1} << t.group_bits_) - 1;
  t.lane_ones_ = 0;
  for (uint32_t k = 0; k < t.lanes_; ++k) t.lane_ones_ |= uint64_t{1} << (k * fp_bits);
  t.lane_high_ = t.lane_ones_ << (fp_bits - 1);
  t.lane_low_ = t.group_mask_ & ~t.lane_high_;
  *this = std::move(t);
  return Status::Ok();
}

uint64_t CuckooTable::CountOccupied() const {
  uint64_t n = 0;
  for (uint64_t i = 0; i < num_buckets_; ++i) n += bucket_size_ - CountInBucket(i, 0);
  return n;
}

bool CuckooTable::PaddingIsZero() const {
  const uint64_t used_bits = num_buckets_ * bucket_bits_;
  const unsigned tail = static_cast<unsigned>(used_bits & 7);
  if (tail == 0 || payload_bytes_ == 0) return true;
  return (data_[payload_bytes_ - 1] >> tail) == 0;
}

}  // namespace internal
}  // namespace bloomcuckoo
