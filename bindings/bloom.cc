// Embind adapters for the Bloom family. Thin: argument conversion and Status → int only.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/counting_bloom_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

// Verbs shared by BloomFilter and BlockedBloomFilter.
template <typename F>
struct BloomLike {
  static bool Add(F& f, uintptr_t key, uint32_t len) { return f.Add(HashAt(key, len, f.seed())); }
  static uint32_t AddBatch(F& f, uintptr_t data, uintptr_t offsets, uint32_t count) {
    return static_cast<uint32_t>(f.AddBatch(Batch(data, offsets, count)));
  }
  static int Union(F& f, const F& other) { return Report(f.Union(other)); }
  static int Intersect(F& f, const F& other) { return Report(f.Intersect(other)); }
  static double Bits(const F& f) { return static_cast<double>(f.bits()); }
  static double SetBits(const F& f) { return static_cast<double>(f.set_bits()); }
  static double Capacity(const F& f) { return static_cast<double>(f.capacity()); }

  static emscripten::class_<F> Bind(const char* name) {
    return BindFilter<F>(name)
        .function("add", &Add)
        .function("addBatch", &AddBatch)
        .function("union", &Union)
        .function("intersect", &Intersect)
        .function("estimatedSize", &F::EstimatedSize)
        .function("estimatedErrorRate", &F::EstimatedErrorRate)
        .function("fillRatio", &F::fill_ratio)
        .function("bits", &Bits)
        .function("setBits", &SetBits)
        .function("capacity", &Capacity)
        .function("errorRate", &F::error_rate);
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
double BlockedBlocks(const BlockedBloomFilter& f) { return static_cast<double>(f.blocks()); }

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
bool CountingAdd(CountingBloomFilter& f, uintptr_t key, uint32_t len) {
  return f.Add(HashAt(key, len, f.seed()));
}
uint32_t CountingAddBatch(CountingBloomFilter& f, uintptr_t data, uintptr_t offsets,
                          uint32_t count) {
  return static_cast<uint32_t>(f.AddBatch(Batch(data, offsets, count)));
}
bool CountingRemove(CountingBloomFilter& f, uintptr_t key, uint32_t len) {
  return f.Remove(HashAt(key, len, f.seed()));
}
uint32_t CountingRemoveBatch(CountingBloomFilter& f, uintptr_t data, uintptr_t offsets,
                             uint32_t count) {
  return static_cast<uint32_t>(f.RemoveBatch(Batch(data, offsets, count)));
}
uint32_t CountingCount(const CountingBloomFilter& f, uintptr_t key, uint32_t len) {
  return f.Count(HashAt(key, len, f.seed()));
}
double CountingCounters(const CountingBloomFilter& f) { return static_cast<double>(f.counters()); }
double CountingNonzero(const CountingBloomFilter& f) {
  return static_cast<double>(f.nonzero_counters());
}
double CountingSaturated(const CountingBloomFilter& f) {
  return static_cast<double>(f.SaturatedCounters());
}
double CountingCapacity(const CountingBloomFilter& f) { return static_cast<double>(f.capacity()); }

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_bloom) {
  BloomLike<BloomFilter>::Bind("BloomFilterCore")
      .function("init", &BloomInit)
      .function("hashes", &BloomFilter::hashes);
  BloomLike<BlockedBloomFilter>::Bind("BlockedBloomFilterCore")
      .function("init", &BlockedInit)
      .function("blocks", &BlockedBlocks);
  BindFilter<CountingBloomFilter>("CountingBloomFilterCore")
      .function("init", &CountingInit)
      .function("add", &CountingAdd)
      .function("addBatch", &CountingAddBatch)
      .function("remove", &CountingRemove)
      .function("removeBatch", &CountingRemoveBatch)
      .function("count", &CountingCount)
      .function("estimatedSize", &CountingBloomFilter::EstimatedSize)
      .function("estimatedErrorRate", &CountingBloomFilter::EstimatedErrorRate)
      .function("fillRatio", &CountingBloomFilter::fill_ratio)
      .function("counters", &CountingCounters)
      .function("hashes", &CountingBloomFilter::hashes)
      .function("nonzeroCounters", &CountingNonzero)
      .function("saturatedCounters", &CountingSaturated)
      .function("capacity", &CountingCapacity)
      .function("errorRate", &CountingBloomFilter::error_rate);
}

}  // namespace bindings
}  // namespace bloomcuckoo
