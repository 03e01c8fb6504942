#include "bloomcuckoo/scalable_bloom_filter.h"

#include <cmath>
#include <limits>
#include <utility>

#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "checks.h"
#include "filter_base_impl.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

// Fixed part of the body: capacity u64, error_rate f64, expansion u32, non_scaling u8,
// layer count u32.
constexpr size_t kBodyFixedSize = 8 + 8 + 4 + 1 + 4;

}  // namespace

bool ScalableBloomFilter::LayerParameters(uint32_t index, uint64_t* capacity,
                                          double* error_rate) const {
  uint64_t cap = capacity_;
  // Exact: halving a double is exact until it becomes subnormal (far beyond 64 layers).
  double p = non_scaling_ ? error_rate_ : error_rate_ * kTighteningRatio;
  for (uint32_t i = 0; i < index; ++i) {
    if (expansion_ != 0 && cap > std::numeric_limits<uint64_t>::max() / expansion_) return false;
    cap *= expansion_;
    p *= kTighteningRatio;
  }
  *capacity = cap;
  *error_rate = p;
  return true;
}

Status ScalableBloomFilter::Init(const ScalableBloomOptions& options) {
  if (options.capacity == 0) {
    return Status(StatusCode::kInvalidArgument, "capacity must be a positive integer");
  }
  if (!internal::ValidErrorRate(options.error_rate)) {
    return Status(StatusCode::kInvalidArgument,
                  "errorRate must be a number greater than 0 and less than 1");
  }
  if (options.expansion < 1) {
    return Status(StatusCode::kInvalidArgument, "expansion must be a positive integer");
  }
  ScalableBloomFilter tmp;
  tmp.capacity_ = options.capacity;
  tmp.error_rate_ = options.error_rate;
  tmp.expansion_ = options.expansion;
  tmp.non_scaling_ = options.non_scaling;
  tmp.seed_ = options.seed;
  BloomOptions first;
  first.seed = options.seed;
  (void)tmp.LayerParameters(0, &first.capacity, &first.error_rate);
  BLOOMCUCKOO_RETURN_IF_ERROR(tmp.layers_[0].Init(first));
  tmp.num_layers_ = 1;
  *this = std::move(tmp);
  return Status::Ok();
}

Status ScalableBloomFilter::AddLayer() {
  if (num_layers_ >= kMaxLayers) {
    return Status(StatusCode::kFull, "scalable filter is full: it reached its 64-layer limit");
  }
  BloomOptions o;
  o.seed = seed_;
  if (!LayerParameters(num_layers_, &o.capacity, &o.error_rate)) {
    return Status(StatusCode::kFull,
                  "scalable filter is full: the next layer's capacity would overflow");
  }
  BloomFilter next;
  Status s = next.Init(o);
  if (s.code() == StatusCode::kOutOfMemory) {
    return Status(StatusCode::kOutOfMemory,
                  "out of memory: the scalable filter's next layer cannot be allocated");
  }
  if (!s.ok()) {
    return Status(StatusCode::kFull,
                  "scalable filter is full: the next layer's error rate is too small");
  }
  layers_[num_layers_] = std::move(next);
  ++num_layers_;
  return Status::Ok();
}

Status ScalableBloomFilter::Add(Hash128 h, bool* added) {
  *added = false;
  if (num_layers_ == 0) return Status(StatusCode::kInvalidArgument, "filter is not initialised");
  if (Contains(h)) return Status::Ok();
  const BloomFilter& newest = layers_[num_layers_ - 1];
  if (newest.size() >= newest.capacity()) {
    if (non_scaling_) {
      return Status(StatusCode::kFull, "filter is full (nonScaling: it may not add a layer)");
    }
    BLOOMCUCKOO_RETURN_IF_ERROR(AddLayer());
  }
  layers_[num_layers_ - 1].Add(h);
  *added = true;
  return Status::Ok();
}

Status ScalableBloomFilter::AddBatch(const KeyBatch& keys, size_t* added, size_t* processed) {
  *added = 0;
  *processed = 0;
  for (size_t i = 0; i < keys.count; ++i) {
    bool fresh = false;
    BLOOMCUCKOO_RETURN_IF_ERROR(Add(HashOf(keys.key(i), keys.length(i)), &fresh));
    *added += fresh ? 1 : 0;
    ++*processed;
  }
  return Status::Ok();
}

bool ScalableBloomFilter::Contains(Hash128 h) const {
  // Newest first: it holds the most keys.
  for (uint32_t i = num_layers_; i > 0; --i) {
    if (layers_[i - 1].Contains(h)) return true;
  }
  return false;
}

void ScalableBloomFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  ForEachHash(keys, seed_, [&](size_t i, Hash128 h) { out[i] = Contains(h) ? 1 : 0; });
}

void ScalableBloomFilter::Clear() {
  if (num_layers_ == 0) return;
  for (uint32_t i = 1; i < num_layers_; ++i) layers_[i] = BloomFilter();
  num_layers_ = 1;
  layers_[0].Clear();
}

double ScalableBloomFilter::EstimatedSize() const {
  double sum = 0.0;
  for (uint32_t i = 0; i < num_layers_; ++i) sum += layers_[i].EstimatedSize();
  return sum;
}

double ScalableBloomFilter::EstimatedErrorRate() const {
  double pass = 1.0;
  for (uint32_t i = 0; i < num_layers_; ++i) pass *= 1.0 - layers_[i].EstimatedErrorRate();
  return 1.0 - pass;
}

uint64_t ScalableBloomFilter::size() const {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < num_layers_; ++i) {
    const uint64_t next = sum + layers_[i].size();
    sum = next < sum ? std::numeric_limits<uint64_t>::max() : next;
  }
  return sum;
}

size_t ScalableBloomFilter::byte_length() const {
  size_t sum = 0;
  for (uint32_t i = 0; i < num_layers_; ++i) sum += layers_[i].byte_length();
  return sum;
}

// Body layout (little-endian):
//   u64 capacity | f64 error_rate | u32 expansion | u8 non_scaling (0/1) | u32 layer count L |
//   L layers, oldest first, each exactly a BloomFilter body:
//     u64 bits | u32 hashes | u64 capacity | f64 error_rate | u64 size | u64 words[ceil(bits/64)]
size_t ScalableBloomFilter::BodySize() const {
  size_t sum = kBodyFixedSize;
  for (uint32_t i = 0; i < num_layers_; ++i) sum += layers_[i].BodySize();
  return sum;
}

void ScalableBloomFilter::WriteBody(internal::ByteWriter& w) const {
  w.U64(capacity_);
  w.F64(error_rate_);
  w.U32(expansion_);
  w.U8(non_scaling_ ? 1 : 0);
  w.U32(num_layers_);
  for (uint32_t i = 0; i < num_layers_; ++i) {
    layers_[i].WriteBody(w);
  }
}

Status ScalableBloomFilter::ReadBody(internal::ByteReader& r, const internal::FrameInfo& info) {
  capacity_ = r.U64();
  error_rate_ = r.F64();
  expansion_ = r.U32();
  const uint8_t non_scaling = r.U8();
  const uint32_t layers = r.U32();
  seed_ = info.seed;
  if (!r.ok()) return Status(StatusCode::kCorruptData, "serialized scalable filter is truncated");
  if (capacity_ == 0 || !internal::ValidErrorRate(error_rate_) || expansion_ == 0 ||
      non_scaling > 1) {
    return Status(StatusCode::kCorruptData, "serialized scalable filter has invalid parameters");
  }
  non_scaling_ = non_scaling == 1;
  if (layers == 0 || layers > kMaxLayers || (non_scaling_ && layers != 1)) {
    return Status(StatusCode::kCorruptData,
                  "serialized scalable filter has an invalid layer count");
  }
  for (uint32_t i = 0; i < layers; ++i) {
    BloomFilter& layer = layers_[i];
    BLOOMCUCKOO_RETURN_IF_ERROR(layer.ReadBody(r, info.seed));
    uint64_t cap = 0;
    double p = 0;
    if (!LayerParameters(i, &cap, &p) || layer.capacity() != cap || layer.error_rate() != p) {
      return Status(StatusCode::kCorruptData,
                    "serialized scalable filter has a layer of the wrong capacity or errorRate");
    }
    if (layer.size() > layer.capacity()) {
      return Status(StatusCode::kCorruptData,
                    "serialized scalable filter has a layer holding more than its capacity");
    }
    num_layers_ = i + 1;
  }
  if (!r.AtEnd()) {
    return Status(StatusCode::kCorruptData, "serialized scalable filter has trailing bytes");
  }
  return Status::Ok();
}

template class internal::FilterBase<ScalableBloomFilter, internal::ScalableBloomFields>;

}  // namespace bloomcuckoo
