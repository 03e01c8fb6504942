// Embind adapters for the Bloom family. Thin: argument conversion and Status → int only.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/bloom_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

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
bool BloomAdd(BloomFilter& f, uintptr_t key, uint32_t len) {
  return f.Add(HashAt(key, len, f.seed()));
}
uint32_t BloomAddBatch(BloomFilter& f, uintptr_t data, uintptr_t offsets, uint32_t count) {
  return static_cast<uint32_t>(f.AddBatch(Batch(data, offsets, count)));
}
int BloomUnion(BloomFilter& f, const BloomFilter& other) { return Report(f.Union(other)); }
int BloomIntersect(BloomFilter& f, const BloomFilter& other) { return Report(f.Intersect(other)); }
double BloomBits(const BloomFilter& f) { return static_cast<double>(f.bits()); }
double BloomSetBits(const BloomFilter& f) { return static_cast<double>(f.set_bits()); }
double BloomCapacity(const BloomFilter& f) { return static_cast<double>(f.capacity()); }

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_bloom) {
  BindFilter<BloomFilter>("BloomFilterCore")
      .function("init", &BloomInit)
      .function("add", &BloomAdd)
      .function("addBatch", &BloomAddBatch)
      .function("union", &BloomUnion)
      .function("intersect", &BloomIntersect)
      .function("estimatedSize", &BloomFilter::EstimatedSize)
      .function("estimatedErrorRate", &BloomFilter::EstimatedErrorRate)
      .function("fillRatio", &BloomFilter::fill_ratio)
      .function("bits", &BloomBits)
      .function("hashes", &BloomFilter::hashes)
      .function("setBits", &BloomSetBits)
      .function("capacity", &BloomCapacity)
      .function("errorRate", &BloomFilter::error_rate);
}

}  // namespace bindings
}  // namespace bloomcuckoo
