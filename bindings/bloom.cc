// Embind adapters for the Bloom family (the counting filter is declared: bindings/declared.cc).
// Thin: argument conversion and Status → int only.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/scalable_bloom_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

// Verbs shared by BloomFilter and BlockedBloomFilter beyond BindFilter's.
template <typename F>
struct BloomLike {
  static int Union(F& f, const F& other) { return Report(f.Union(other)); }
  static int Intersect(F& f, const F& other) { return Report(f.Intersect(other)); }
  // size, byteLength, seed, capacity, errorRate, setBits, fillRatio, estimatedSize,
  // estimatedErrorRate, bits, then the class's own shape value (hashes or blocks)
  template <typename S>
  static void Info(const F& f, uintptr_t out, S shape) {
    WriteInfo(f, out, f.capacity(), f.error_rate(), f.set_bits(), f.fill_ratio(), f.EstimatedSize(),
              f.EstimatedErrorRate(), f.bits(), shape);
  }

  static emscripten::class_<F> Bind(const char* name) {
    return BindFilter<F>(name).function("union", &Union).function("intersect", &Intersect);
  }
};

int BloomInit(BloomFilter& f, double capacity, double error_rate, double bits, uint32_t hashes,
              uint32_t seed) {
  auto o = Sized<BloomOptions>(capacity, error_rate, seed);
  o.bits = static_cast<uint64_t>(bits);
  o.hashes = hashes;
  return Report(f.Init(o));
}

int BlockedInit(BlockedBloomFilter& f, double capacity, double error_rate, double blocks,
                uint32_t seed) {
  auto o = Sized<BlockedBloomOptions>(capacity, error_rate, seed);
  o.blocks = static_cast<uint64_t>(blocks);
  return Report(f.Init(o));
}
void BloomInfo(const BloomFilter& f, uintptr_t out) {
  BloomLike<BloomFilter>::Info(f, out, f.hashes());
}
void BlockedInfo(const BlockedBloomFilter& f, uintptr_t out) {
  BloomLike<BlockedBloomFilter>::Info(f, out, f.blocks());
}

int ScalableInit(ScalableBloomFilter& f, double capacity, double error_rate, uint32_t expansion,
                 bool non_scaling, uint32_t seed) {
  auto o = Sized<ScalableBloomOptions>(capacity, error_rate, seed);
  o.expansion = expansion;
  o.non_scaling = non_scaling;
  return Report(f.Init(o));
}
// 1 added, 0 may already be present, or -code.
int ScalableAdd(ScalableBloomFilter& f, uint32_t len) {
  bool added = false;
  const Status s = f.Add(KeyHash(f, len), &added);
  return Report(s, added ? 1 : 0);
}
int ScalableAddBatch(ScalableBloomFilter& f, uintptr_t data, uintptr_t offsets, uint32_t count,
                     uintptr_t out) {
  return OnReportingBatch(data, offsets, count, out,
                          [&](const KeyBatch& b, size_t* handled, size_t* added) {
                            return f.AddBatch(b, added, handled);
                          });
}
// The filter's values, then per layer capacity, errorRate, size, bits, hashes (as many layers as
// fit in the out area's 2,048 doubles; a layer has at least twice the last one's capacity, so
// there are at most kMaxLayers = 64). Returns the layer count.
uint32_t ScalableInfo(const ScalableBloomFilter& f, uintptr_t out) {
  WriteInfo(f, out, f.capacity(), f.error_rate(), f.expansion(), f.non_scaling(), f.EstimatedSize(),
            f.EstimatedErrorRate());
  double* o = Ptr<double>(out) + 9;
  for (size_t i = 0; i < f.num_layers(); ++i) {
    const BloomFilter& l = f.layer(i);
    for (double v :
         {static_cast<double>(l.capacity()), l.error_rate(), static_cast<double>(l.size()),
          static_cast<double>(l.bits()), static_cast<double>(l.hashes())}) {
      *o++ = v;
    }
  }
  return static_cast<uint32_t>(f.num_layers());
}

// Sizing without allocating: the shape Init would choose, as doubles at `out` ([bits, hashes];
// [blocks]). Returns Report(s).
int BloomShape(double capacity, double error_rate, uintptr_t out) {
  uint64_t bits = 0;
  uint32_t hashes = 0;
  const Status s =
      BloomFilter::OptimalShape(static_cast<uint64_t>(capacity), error_rate, &bits, &hashes);
  WriteInfoValues(out, bits, hashes);
  return Report(s);
}
int BlockedShape(double capacity, double error_rate, uintptr_t out) {
  uint64_t blocks = 0;
  const Status s =
      BlockedBloomFilter::BlocksFor(static_cast<uint64_t>(capacity), error_rate, &blocks);
  WriteInfoValues(out, blocks);
  return Report(s);
}

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_bloom) {
  emscripten::function("bloomShape", &BloomShape);
  emscripten::function("blockedShape", &BlockedShape);
  BloomLike<BloomFilter>::Bind("BloomFilterCore")
      .function("init", &BloomInit)
      .function("info", &BloomInfo);
  BloomLike<BlockedBloomFilter>::Bind("BlockedBloomFilterCore")
      .function("init", &BlockedInit)
      .function("info", &BlockedInfo);
  BindFilter<ScalableBloomFilter>("ScalableBloomFilterCore")
      .function("init", &ScalableInit)
      .function("add", &ScalableAdd)
      .function("addBatch", &ScalableAddBatch)
      .function("info", &ScalableInfo);
}

}  // namespace bindings
}  // namespace bloomcuckoo
