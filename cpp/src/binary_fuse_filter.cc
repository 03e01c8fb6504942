#include "bloomcuckoo/binary_fuse_filter.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "bloomcuckoo/internal/buffer.h"
#include "bloomcuckoo/serialization.h"
#include "byte_io.h"
#include "checks.h"
#include "filter_base_impl.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

// fmix64 is a bijection, so distinct key hashes stay distinct.
inline uint64_t Remix(uint64_t key_hash, uint64_t construction_seed) {
  return MurmurHash3Fmix64(key_hash + construction_seed);
}

// The three slots of remixed hash h (one per consecutive segment; always distinct).
struct Slots {
  size_t p[3];
};
inline Slots Locate(uint64_t h, uint64_t segment_count_length, uint64_t segment_length) {
  const uint64_t mask = segment_length - 1;
  const uint64_t p0 = MulHi64By32(h, segment_count_length);
  Slots s;
  s.p[0] = static_cast<size_t>(p0);
  s.p[1] = static_cast<size_t>((p0 + segment_length) ^ ((h >> 18) & mask));
  s.p[2] = static_cast<size_t>((p0 + 2 * segment_length) ^ (h & mask));
  return s;
}

inline uint64_t Fingerprint(uint64_t h) { return h ^ (h >> 32); }

// The construction seed of attempt `attempt`: a fixed sequence derived from the user seed.
inline uint64_t ConstructionSeed(uint32_t seed, uint32_t attempt) {
  return MurmurHash3Fmix64((uint64_t{seed} << 32 | 0x5bd1e995u) +
                           (uint64_t{attempt} + 1) * 0x9e3779b97f4a7c15ULL);
}

// log2(n) for n >= 1 in 32.32 fixed point, by repeated squaring (integer only, so native and
// wasm builds compute identical layouts; libm's log may differ in the last bit).
uint64_t Log2Fixed32(uint64_t n) {
  int ip = 63;
  while ((n >> ip) == 0) --ip;
  // y = n / 2^ip in [1, 2) as a Q62 number (< 2^63). y * y < 2^126, and (y * y) >> 62 is
  // built from the exact high and low halves of the product: no 128-bit type needed.
  uint64_t y = ip <= 62 ? n << (62 - ip) : n >> 1;
  uint64_t frac = 0;
  for (int i = 31; i >= 0; --i) {
    y = (MulHi64(y, y) << 2) | ((y * y) >> 62);
    if (y >= (uint64_t{1} << 63)) {
      y >>= 1;
      frac |= uint64_t{1} << i;
    }
  }
  return (static_cast<uint64_t>(ip) << 32) | frac;
}

struct Layout {
  uint32_t segment_length = 0;
  uint32_t segment_count = 0;
  uint32_t array_length = 0;
};

// n >= kSegmentLengthThreshold[k] <=> floor(log(n) / log(3.33) + 2.25) >= k + 3, i.e. the
// ceilings of 3.33^(k + 3 - 2.25), computed with 50-digit arithmetic. The formula
// (segment length 2^floor(log_3.33(n) + 2.25), at most 2^18) is the paper's (Graf & Lemire 2022,
// section 5 and its reference implementation).
constexpr uint64_t kSegmentLengthThreshold[] = {
    3,     9,      28,     92,      304,     1010,     3362,     11193,
    37273, 124118, 413310, 1376322, 4583150, 15261887, 50822082, 169237530};

// The paper's layout for n >= 1 keys: segment length from the formula above, array of at least
// n * max(1.125, 0.875 + 0.25 * ln(10^6) / ln(n)) slots (n < 2 counts as 2), rounded up to
// whole segments, with at least one segment plus the two trailing ones.
// Returns false when the array would not fit 32-bit slot numbers.
// Not inlined: the build, PeakBuildBytes and LayoutFor share one copy.
__attribute__((noinline)) bool PrimaryLayout(uint64_t n, Layout* out) {
  uint32_t log_len = 2;
  for (uint64_t t : kSegmentLengthThreshold) {
    if (n >= t) ++log_len;
  }
  const uint64_t len = uint64_t{1} << log_len;
  const double log2_n = static_cast<double>(Log2Fixed32(n < 2 ? 2 : n)) / 4294967296.0;
  const double kLog2Million = 19.931568569324174;  // log2(10^6)
  double factor = 0.875 + 0.25 * kLog2Million / log2_n;
  if (factor < 1.125) factor = 1.125;
  const double cap = static_cast<double>(n) * factor + 0.5;
  if (cap >= 4294967296.0) return false;
  const uint64_t capacity = static_cast<uint64_t>(cap);
  const uint64_t total = (capacity + len - 1) / len;
  const uint64_t count = total > 2 ? total - 2 : 1;
  const uint64_t array = (count + 2) * len;
  if (array > 0xffffffffULL) return false;
  out->segment_length = static_cast<uint32_t>(len);
  out->segment_count = static_cast<uint32_t>(count);
  out->array_length = static_cast<uint32_t>(array);
  return true;
}

Status TooManyKeys() {
  return Status(StatusCode::kInvalidArgument, "too many keys for a binary fuse filter");
}

// Right after the segment length doubles (n ~ 11.2k, 37k) the primary layout has few, long
// segments, and its peel fails for most seeds at n ~ 11,300..11,520 (12 segments of 1024; the
// failure reported in FastFilter/xor_singleheader#77 and FastFilter/xorfilter#23), for ~55% at
// n ~ 14k (15 segments) and ~60% at n ~ 37.3k (20 segments of 2048), measured over 100 random
// key sets each. The same array cut into segments of half the length (2 * count + 2 of them
// plus the two trailing ones: same array_length and bits per key) peels for 93-100% of seeds
// at all of these sizes.
// So attempts alternate between the two cuts, starting with the half-length one when the
// primary cut has segments of >= 1024 slots and fewer than 24 of them (where we measured it to be
// the better first choice); smaller segments keep the primary cut first.
Layout LayoutForAttempt(const Layout& primary, uint32_t attempt) {
  if (primary.segment_length < 8) return primary;
  const bool half_first = primary.segment_length >= 1024 && primary.segment_count < 24;
  const bool half = ((attempt & 1) == 0) == half_first;
  if (!half) return primary;
  Layout l;
  l.segment_length = primary.segment_length / 2;
  l.segment_count = primary.segment_count * 2 + 2;
  l.array_length = primary.array_length;
  return l;
}

// Bits of the remixed hash used to bucket keys by their first slot before counting (so the
// counting pass walks the slot arrays nearly in order). 0: no bucketing (small n).
uint32_t BucketBits(uint64_t n) {
  if (n < (uint64_t{1} << 15)) return 0;
  uint32_t bits = 0;
  while ((uint64_t{1} << (bits + 1)) <= n) ++bits;
  bits -= 7;
  return bits > 12 ? 12 : bits;
}

// Temporary arrays of one build, sized for n input keys and array_length slots.
struct Scratch {
  internal::Buffer<uint64_t> order_hash;  // remixed hashes, then the peeling order
  internal::Buffer<uint8_t> order_slot;   // which of its 3 slots each peeled key was alone in
  internal::Buffer<uint64_t> xors;        // per slot: xor of the remixed hashes of its keys
  internal::Buffer<uint8_t> counts;       // per slot: count << 2 | xor of the keys' slot indices
  internal::Buffer<uint32_t> stack;       // slots to peel
  internal::Buffer<uint32_t> histogram;   // bucket offsets

  Status Allocate(uint64_t n, uint64_t array_length) {
    BLOOMCUCKOO_RETURN_IF_ERROR(order_hash.Allocate(n));
    BLOOMCUCKOO_RETURN_IF_ERROR(order_slot.Allocate(n));
    BLOOMCUCKOO_RETURN_IF_ERROR(xors.Allocate(array_length));
    BLOOMCUCKOO_RETURN_IF_ERROR(counts.Allocate(array_length));
    BLOOMCUCKOO_RETURN_IF_ERROR(stack.Allocate(array_length));
    const uint32_t bits = BucketBits(n);
    return histogram.Allocate(bits == 0 ? 0 : (uint64_t{1} << bits) + 1);
  }
};

// One peel attempt over n distinct-or-not key hashes. On success fills the peeling order
// (scratch.order_hash/order_slot[0, n)) and returns true. Fails when the peel gets stuck
// (including whenever a key hash occurs twice) or a slot count would overflow.
bool Peel(const uint64_t* keys, size_t n, const Layout& layout, uint64_t construction_seed,
          Scratch& scratch, bool first_use) {
  const uint64_t len = layout.segment_length;
  const uint64_t scl = uint64_t{layout.segment_count} * len;
  const size_t array_length = layout.array_length;
  uint64_t* hashes = scratch.order_hash.data();
  uint8_t* order_slot = scratch.order_slot.data();
  uint64_t* xors = scratch.xors.data();
  uint8_t* counts = scratch.counts.data();
  uint32_t* stack = scratch.stack.data();
  if (!first_use) {
    scratch.xors.Clear();
    scratch.counts.Clear();
  }

  // Remix; bucket by the top bits (the first slot grows with h) when n is large.
  const uint32_t bits = BucketBits(n);
  if (bits == 0) {
    for (size_t i = 0; i < n; ++i) hashes[i] = Remix(keys[i], construction_seed);
  } else {
    uint32_t* start = scratch.histogram.data();
    const size_t buckets = size_t{1} << bits;
    std::memset(start, 0, (buckets + 1) * sizeof(uint32_t));
    const int shift = 64 - static_cast<int>(bits);
    for (size_t i = 0; i < n; ++i) ++start[(Remix(keys[i], construction_seed) >> shift) + 1];
    for (size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
    for (size_t i = 0; i < n; ++i) {
      const uint64_t h = Remix(keys[i], construction_seed);
      hashes[start[h >> shift]++] = h;
    }
  }

  // Count: per slot the number of keys (<< 2), the xor of their slot indices and of their hashes.
  bool overflow = false;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t h = hashes[i];
    const Slots s = Locate(h, scl, len);
    overflow |= (counts[s.p[0]] >= 252) | (counts[s.p[1]] >= 252) | (counts[s.p[2]] >= 252);
    counts[s.p[0]] = static_cast<uint8_t>(counts[s.p[0]] + 4);
    counts[s.p[1]] = static_cast<uint8_t>((counts[s.p[1]] + 4) ^ 1);
    counts[s.p[2]] = static_cast<uint8_t>((counts[s.p[2]] + 4) ^ 2);
    xors[s.p[0]] ^= h;
    xors[s.p[1]] ^= h;
    xors[s.p[2]] ^= h;
  }
  if (overflow) return false;

  // Peel: a slot with one key names that key (its hash is the slot's xor, its index the low
  // bits); record it and remove it from its other two slots. Slots are visited in order and the
  // slots they free are followed depth-first, which keeps the working set small.
  size_t peeled = 0;
  for (size_t i = 0; i < array_length; ++i) {
    if ((counts[i] >> 2) != 1) continue;
    size_t top = 0;
    stack[top++] = static_cast<uint32_t>(i);
    while (top != 0) {
      const size_t slot = stack[--top];
      if ((counts[slot] >> 2) != 1) continue;
      const uint64_t h = xors[slot];
      const uint32_t index = counts[slot] & 3u;
      if (index > 2 || peeled == n) return false;  // impossible without overflow; be safe
      hashes[peeled] = h;
      order_slot[peeled] = static_cast<uint8_t>(index);
      ++peeled;
      counts[slot] = 0;
      xors[slot] = 0;
      const Slots s = Locate(h, scl, len);
      for (uint32_t j = 0; j < 3; ++j) {
        if (j == index) continue;
        const size_t p = s.p[j];
        counts[p] = static_cast<uint8_t>((counts[p] - 4) ^ j);
        xors[p] ^= h;
        if ((counts[p] >> 2) == 1) stack[top++] = static_cast<uint32_t>(p);
      }
    }
  }
  return peeled == n;
}

// Assigns fingerprints in reverse peeling order: each key's lone slot gets the value that makes
// the xor of its three slots equal its fingerprint. `fp` starts zeroed.
template <typename F>
void Assign(const Scratch& scratch, size_t n, const Layout& layout, F* fp) {
  const uint64_t len = layout.segment_length;
  const uint64_t scl = uint64_t{layout.segment_count} * len;
  const uint64_t* hashes = scratch.order_hash.data();
  const uint8_t* order_slot = scratch.order_slot.data();
  for (size_t k = n; k-- > 0;) {
    const uint64_t h = hashes[k];
    const Slots s = Locate(h, scl, len);
    // fp[s.p[order_slot[k]]] is still 0, so xoring all three gives the other two.
    fp[s.p[order_slot[k]]] =
        static_cast<F>(static_cast<F>(Fingerprint(h)) ^ fp[s.p[0]] ^ fp[s.p[1]] ^ fp[s.p[2]]);
  }
}

template <typename F>
inline bool Query(const F* fp, uint64_t h, uint64_t scl, uint64_t len) {
  const Slots s = Locate(h, scl, len);
  return static_cast<F>(static_cast<F>(Fingerprint(h)) ^ fp[s.p[0]] ^ fp[s.p[1]] ^ fp[s.p[2]]) == 0;
}

constexpr size_t kBodyHeaderSize = 4 + 4 + 4 + 4 + 8 + 8;

}  // namespace

namespace {

// The build proper over `keys` (owned scratch copy of the n key hashes; may be sorted).
struct Built {
  internal::Buffer<uint8_t> fp8;
  internal::Buffer<uint16_t> fp16;
  Layout layout;
  uint64_t construction_seed = 0;
  uint64_t size = 0;
};

// Peels the n key hashes at `keys` with the construction seeds of attempts [first, last), each
// with its layout (LayoutForAttempt), until one peel works; then assigns the fingerprints into
// *out and sets *built. All stuck: Ok with *built false.
Status Attempt(const uint64_t* keys, size_t n, uint32_t fingerprint_bits, uint32_t seed,
               uint32_t first, uint32_t last, Built* out, bool* built) {
  Layout primary;
  if (!PrimaryLayout(n, &primary)) return TooManyKeys();
  Scratch scratch;
  BLOOMCUCKOO_RETURN_IF_ERROR(scratch.Allocate(n, primary.array_length));
  for (uint32_t attempt = first; attempt < last; ++attempt) {
    const Layout layout = LayoutForAttempt(primary, attempt);
    const uint64_t cseed = ConstructionSeed(seed, attempt);
    if (!Peel(keys, n, layout, cseed, scratch, attempt == first)) continue;
    if (fingerprint_bits == 8) {
      BLOOMCUCKOO_RETURN_IF_ERROR(out->fp8.Allocate(layout.array_length));
      Assign(scratch, n, layout, out->fp8.data());
    } else {
      BLOOMCUCKOO_RETURN_IF_ERROR(out->fp16.Allocate(layout.array_length));
      Assign(scratch, n, layout, out->fp16.data());
    }
    out->layout = layout;
    out->construction_seed = cseed;
    out->size = n;
    *built = true;
    return Status::Ok();
  }
  *built = false;
  return Status::Ok();
}

Status BuildCore(uint64_t* keys, size_t n, uint32_t fingerprint_bits, uint32_t seed, Built* out) {
  if (n == 0) return Status::Ok();
  bool built = false;
  BLOOMCUCKOO_RETURN_IF_ERROR(Attempt(keys, n, fingerprint_bits, seed, 0, 1, out, &built));
  if (built) return Status::Ok();
  // A stuck peel may be caused by repeated key hashes: they are removed once, after the first
  // attempt. When some were, the attempts start over with the smaller n, exactly as for distinct
  // keys; otherwise they go on from the second.
  std::sort(keys, keys + n);
  const size_t distinct = static_cast<size_t>(std::unique(keys, keys + n) - keys);
  const uint32_t next = distinct != n ? 0 : 1;
  BLOOMCUCKOO_RETURN_IF_ERROR(Attempt(keys, distinct, fingerprint_bits, seed, next,
                                      BinaryFuseFilter::kMaxAttempts, out, &built));
  if (built) return Status::Ok();
  static_assert(BinaryFuseFilter::kMaxAttempts == 100, "keep the message in sync");
  return Status(StatusCode::kInvalidArgument,
                "binary fuse filter construction failed with all 100 construction seeds");
}

}  // namespace

namespace {

Status CheckFuseOptions(const BinaryFuseOptions& options) {
  if (options.fingerprint_bits != 8 && options.fingerprint_bits != 16) {
    return Status(StatusCode::kInvalidArgument, "fingerprintBits must be 8 or 16");
  }
  return Status::Ok();
}

}  // namespace

Status BinaryFuseFilter::BuildFromHashes(const uint64_t* hashes, size_t n,
                                         const BinaryFuseOptions& options) {
  BLOOMCUCKOO_RETURN_IF_ERROR(CheckFuseOptions(options));
  internal::Buffer<uint64_t> keys;
  BLOOMCUCKOO_RETURN_IF_ERROR(keys.Allocate(n, /*zeroed=*/false));
  if (n != 0) std::memcpy(keys.data(), hashes, n * sizeof(uint64_t));
  return BuildFrom(keys.data(), n, options);
}

Status BinaryFuseFilter::BuildFromHashesInPlace(uint64_t* hashes, size_t n,
                                                const BinaryFuseOptions& options) {
  BLOOMCUCKOO_RETURN_IF_ERROR(CheckFuseOptions(options));
  return BuildFrom(hashes, n, options);
}

Status BinaryFuseFilter::Build(const KeyBatch& keys, const BinaryFuseOptions& options) {
  BLOOMCUCKOO_RETURN_IF_ERROR(CheckFuseOptions(options));
  internal::Buffer<uint64_t> hashes;
  BLOOMCUCKOO_RETURN_IF_ERROR(hashes.Allocate(keys.count, /*zeroed=*/false));
  uint64_t* h = hashes.data();
  ForEachHash(keys, options.seed, [h](size_t i, Hash128 hash) { h[i] = hash.h1; });
  return BuildFrom(h, keys.count, options);
}

Status BinaryFuseFilter::BuildFrom(uint64_t* keys, size_t n, const BinaryFuseOptions& options) {
  Built built;
  BLOOMCUCKOO_RETURN_IF_ERROR(BuildCore(keys, n, options.fingerprint_bits, options.seed, &built));
  fp8_ = std::move(built.fp8);
  fp16_ = std::move(built.fp16);
  size_ = built.size;
  construction_seed_ = built.construction_seed;
  fingerprint_bits_ = options.fingerprint_bits;
  seed_ = options.seed;
  segment_length_ = built.layout.segment_length;
  segment_count_ = built.layout.segment_count;
  array_length_ = built.layout.array_length;
  segment_count_length_ = uint64_t{segment_count_} * segment_length_;
  return Status::Ok();
}

bool BinaryFuseFilter::ContainsHash64(uint64_t key_hash) const {
  if (array_length_ == 0) return false;
  const uint64_t h = Remix(key_hash, construction_seed_);
  if (fingerprint_bits_ == 8) return Query(fp8_.data(), h, segment_count_length_, segment_length_);
  return Query(fp16_.data(), h, segment_count_length_, segment_length_);
}

void BinaryFuseFilter::ContainsBatch(const KeyBatch& keys, uint8_t* out) const {
  if (array_length_ == 0) {
    if (keys.count != 0) std::memset(out, 0, keys.count);
    return;
  }
  const uint64_t scl = segment_count_length_;
  const uint64_t len = segment_length_;
  const uint64_t cseed = construction_seed_;
  if (fingerprint_bits_ == 8) {
    const uint8_t* fp = fp8_.data();
    ForEachHash(keys, seed_, [&](size_t i, Hash128 h) {
      out[i] = Query(fp, Remix(h.h1, cseed), scl, len) ? 1 : 0;
    });
  } else {
    const uint16_t* fp = fp16_.data();
    ForEachHash(keys, seed_, [&](size_t i, Hash128 h) {
      out[i] = Query(fp, Remix(h.h1, cseed), scl, len) ? 1 : 0;
    });
  }
}

void BinaryFuseFilter::Clear() {
  // The default fields (no fingerprints, no layout) but this filter's width and seed.
  internal::BinaryFuseFields empty;
  empty.fingerprint_bits_ = fingerprint_bits_;
  empty.seed_ = seed_;
  static_cast<internal::BinaryFuseFields&>(*this) = std::move(empty);
}

double BinaryFuseFilter::bits_per_key() const {
  if (size_ == 0) return 0;
  return 8.0 * static_cast<double>(byte_length()) / static_cast<double>(size_);
}

double BinaryFuseFilter::expected_fpr() const {
  if (size_ == 0) return 0;
  return fingerprint_bits_ == 8 ? 1.0 / 256.0 : 1.0 / 65536.0;
}

Status BinaryFuseFilter::LayoutFor(uint64_t n, uint32_t* segment_length, uint32_t* segment_count,
                                   uint32_t* array_length) {
  Layout layout{};
  if (n != 0) {
    Layout primary;
    if (!PrimaryLayout(n, &primary)) return TooManyKeys();
    layout = LayoutForAttempt(primary, 0);
  }
  *segment_length = layout.segment_length;
  *segment_count = layout.segment_count;
  *array_length = layout.array_length;
  return Status::Ok();
}

uint64_t BinaryFuseFilter::PeakBuildBytes(uint64_t n, bool in_place) {
  if (n == 0) return 0;
  Layout primary;
  if (!PrimaryLayout(n, &primary)) return UINT64_MAX;
  const uint64_t bits = BucketBits(n);
  const uint64_t histogram = bits == 0 ? 0 : ((uint64_t{1} << bits) + 1) * 4;
  const uint64_t slack = 6 * 64;  // alignment slack of each buffer
  const uint64_t copy = in_place ? 0 : 8 * n;
  return copy + 9 * n + 13 * uint64_t{primary.array_length} + histogram + slack;
}

uint64_t BinaryFuseFilter::PeakBuildBytesPerKey(uint64_t n) {
  if (n == 0) return 0;
  const uint64_t total = PeakBuildBytes(n);
  if (total == UINT64_MAX) return UINT64_MAX;
  return (total + n - 1) / n;
}

size_t BinaryFuseFilter::BodySize() const { return kBodyHeaderSize + byte_length(); }

// Body: u32 fingerprint_bits | u32 segment_length | u32 segment_count | u32 array_length |
//       u64 size | u64 construction_seed | array_length fingerprints (u8 or u16 LE).
void BinaryFuseFilter::WriteBody(internal::ByteWriter& w) const {
  w.U32(fingerprint_bits_);
  w.U32(segment_length_);
  w.U32(segment_count_);
  w.U32(array_length_);
  w.U64(size_);
  w.U64(construction_seed_);
  if (fingerprint_bits_ == 8) {
    w.Bytes(fp8_.data(), array_length_);
  } else {
    w.Words(fp16_.data(), array_length_);
  }
}

Status BinaryFuseFilter::ReadBody(internal::ByteReader& r, const internal::FrameInfo& info) {
  const uint32_t bits = r.U32();
  const uint32_t segment_length = r.U32();
  const uint32_t segment_count = r.U32();
  const uint32_t array_length = r.U32();
  const uint64_t count = r.U64();
  const uint64_t cseed = r.U64();
  if (!r.ok()) return Status(StatusCode::kCorruptData, "binary fuse filter body is truncated");
  if (bits != 8 && bits != 16) {
    return Status(StatusCode::kCorruptData, "binary fuse filter has bad fingerprint bits");
  }
  fingerprint_bits_ = bits;
  seed_ = info.seed;
  if (array_length == 0) {
    if (segment_length != 0 || segment_count != 0 || count != 0 || cseed != 0) {
      return Status(StatusCode::kCorruptData, "empty binary fuse filter has a nonzero layout");
    }
  } else {
    if (!internal::IsPowerOfTwo(segment_length) || segment_length > kMaxSegmentLength) {
      return Status(StatusCode::kCorruptData,
                    "binary fuse segment length is not a power of two within bounds");
    }
    if (segment_count == 0 ||
        (uint64_t{segment_count} + 2) * segment_length != uint64_t{array_length}) {
      return Status(StatusCode::kCorruptData,
                    "binary fuse array length != (segment count + 2) * segment length");
    }
    if (count == 0 || count > array_length) {
      return Status(StatusCode::kCorruptData, "binary fuse key count is inconsistent");
    }
    const uint64_t payload = uint64_t{array_length} * (bits / 8);
    if (payload != r.remaining()) {
      return Status(StatusCode::kCorruptData, "binary fuse payload length is wrong");
    }
    if (bits == 8) {
      BLOOMCUCKOO_RETURN_IF_ERROR(fp8_.Allocate(array_length, false));
      if (!r.Words(fp8_.data(), array_length)) {
        return Status(StatusCode::kCorruptData, "binary fuse payload is truncated");
      }
    } else {
      BLOOMCUCKOO_RETURN_IF_ERROR(fp16_.Allocate(array_length, false));
      if (!r.Words(fp16_.data(), array_length)) {
        return Status(StatusCode::kCorruptData, "binary fuse payload is truncated");
      }
    }
    size_ = count;
    construction_seed_ = cseed;
    segment_length_ = segment_length;
    segment_count_ = segment_count;
    array_length_ = array_length;
    segment_count_length_ = uint64_t{segment_count} * segment_length;
  }
  if (!r.AtEnd()) {
    return Status(StatusCode::kCorruptData, "serialized binary fuse filter has trailing bytes");
  }
  return Status::Ok();
}

template class internal::FilterBase<BinaryFuseFilter, internal::BinaryFuseFields>;

}  // namespace bloomcuckoo
