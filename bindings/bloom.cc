// Embind adapters for the Bloom family. Thin: argument conversion and Status → int only.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/counting_bloom_filter.h"
#include "bloomcuckoo/scalable_bloom_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

// Verbs shared by BloomFilter and BlockedBloomFilter.
template <typename F>
struct BloomLike {
  static bool Add(F& f, uint32_t len) { return f.Add(KeyHash(f, len)); }
  static uint32_t AddBatch(F& f, uintptr_t data, uintptr_t offsets, uint32_t count) {
    return static_cast<uint32_t>(f.AddBatch(Batch(data, offsets, count)));
  }
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
    return BindFilter<F>(name)
        .function("add", &Add)
        .function("addBatch", &AddBatch)
        .function("union", &Union)
        .function("intersect", &Intersect)
        .function("estimatedSize", &F::EstimatedSize)
        .function("estimatedErrorRate", &F::EstimatedErrorRate)
        .function("positions", &Inspect<F>::Positions)
        .function("fillMap", &Inspect<F>::FillMap);
  }
};

int BloomInit(BloomFilter& f, double capacity, double error_rate, double bits, uint32_t hashes,
              uint32_t seed) {
  BloomOptions o;
  o.capacity = static_cast<uint64_t>(capacity);
  o.error_rate = error_rate;
  o.bits = static_cast<uint64_t>(bits);
  o.hashes = hashes;
  o.seed = seed;
  return Report(f.Init(o));
}

int BlockedInit(BlockedBloomFilter& f, double capacity, double error_rate, double blocks,
                uint32_t seed) {
  BlockedBloomOptions o;
  o.capacity = static_cast<uint64_t>(capacity);
  o.error_rate = error_rate;
  o.blocks = static_cast<uint64_t>(blocks);
  o.seed = seed;
  return Report(f.Init(o));
}
void BloomInfo(const BloomFilter& f, uintptr_t out) {
  BloomLike<BloomFilter>::Info(f, out, f.hashes());
}
void BlockedInfo(const BlockedBloomFilter& f, uintptr_t out) {
  BloomLike<BlockedBloomFilter>::Info(f, out, f.blocks());
}

int CountingInit(CountingBloomFilter& f, double capacity, double error_rate, double counters,
                 uint32_t hashes, uint32_t seed) {
  CountingBloomOptions o;
  o.capacity = static_cast<uint64_t>(capacity);
  o.error_rate = error_rate;
  o.counters = static_cast<uint64_t>(counters);
  o.hashes = hashes;
  o.seed = seed;
  return Report(f.Init(o));
}
bool CountingAdd(CountingBloomFilter& f, uint32_t len) { return f.Add(KeyHash(f, len)); }
uint32_t CountingAddBatch(CountingBloomFilter& f, uintptr_t data, uintptr_t offsets,
                          uint32_t count) {
  return static_cast<uint32_t>(f.AddBatch(Batch(data, offsets, count)));
}
bool CountingRemove(CountingBloomFilter& f, uint32_t len) { return f.Remove(KeyHash(f, len)); }
uint32_t CountingRemoveBatch(CountingBloomFilter& f, uintptr_t data, uintptr_t offsets,
                             uint32_t count) {
  return static_cast<uint32_t>(f.RemoveBatch(Batch(data, offsets, count)));
}
uint32_t CountingCount(const CountingBloomFilter& f, uint32_t len) {
  return f.Count(KeyHash(f, len));
}
void CountingInfo(const CountingBloomFilter& f, uintptr_t out) {
  WriteInfo(f, out, f.capacity(), f.error_rate(), f.counters(), f.hashes(), f.nonzero_counters(),
            f.SaturatedCounters(), f.fill_ratio(), f.EstimatedSize(), f.EstimatedErrorRate());
}

int ScalableInit(ScalableBloomFilter& f, double capacity, double error_rate, uint32_t expansion,
                 bool non_scaling, uint32_t seed) {
  ScalableBloomOptions o;
  o.capacity = static_cast<uint64_t>(capacity);
  o.error_rate = error_rate;
  o.expansion = expansion;
  o.non_scaling = non_scaling;
  o.seed = seed;
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
  size_t added = 0, processed = 0;
  const Status s = f.AddBatch(Batch(data, offsets, count), &added, &processed);
  return ReportBatch(s, processed, added, out);
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
  BindFilter<CountingBloomFilter>("CountingBloomFilterCore")
      .function("init", &CountingInit)
      .function("add", &CountingAdd)
      .function("addBatch", &CountingAddBatch)
      .function("remove", &CountingRemove)
      .function("removeBatch", &CountingRemoveBatch)
      .function("count", &CountingCount)
      .function("estimatedSize", &CountingBloomFilter::EstimatedSize)
      .function("estimatedErrorRate", &CountingBloomFilter::EstimatedErrorRate)
      .function("info", &CountingInfo)
      .function("positions", &Inspect<CountingBloomFilter>::Positions)
      .function("fillMap", &Inspect<CountingBloomFilter>::FillMap);
  BindFilter<ScalableBloomFilter>("ScalableBloomFilterCore")
      .function("init", &ScalableInit)
      .function("add", &ScalableAdd)
      .function("addBatch", &ScalableAddBatch)
      .function("estimatedSize", &ScalableBloomFilter::EstimatedSize)
      .function("estimatedErrorRate", &ScalableBloomFilter::EstimatedErrorRate)
      .function("info", &ScalableInfo);
}

}  // namespace bindings
}  // namespace bloomcuckoo
