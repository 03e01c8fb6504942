// Embind adapters for the cuckoo filter. Thin: argument conversion and Status → int only.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/cuckoo_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

int CuckooInit(CuckooFilter& f, double capacity, double error_rate, uint32_t fingerprint_bits,
               uint32_t bucket_size, uint32_t max_iterations, uint32_t expansion, uint32_t seed) {
  auto o = Sized<CuckooOptions>(capacity, error_rate, seed);
  o.fingerprint_bits = fingerprint_bits;
  o.bucket_size = bucket_size;
  o.max_iterations = max_iterations;
  o.expansion = expansion;
  return Report(f.Init(o));
}
bool CuckooAddUnique(CuckooFilter& f, uint32_t len) { return f.AddUnique(KeyHash(f, len)); }
int CuckooAddBatch(CuckooFilter& f, uintptr_t data, uintptr_t offsets, uint32_t count,
                   uintptr_t results) {
  return OnBatch(data, offsets, count,
                 [&](const KeyBatch& b) { return f.AddBatch(b, Ptr<uint8_t>(results)); });
}
void CuckooInfo(const CuckooFilter& f, uintptr_t out) {
  WriteInfo(f, out, f.buckets(), f.filters(), f.items_inserted(), f.items_deleted(),
            f.bucket_size(), f.fingerprint_bits(), f.expansion(), f.max_iterations(), f.capacity(),
            f.error_rate(), f.LoadFactor(), f.EstimatedFpr());
}
// Writes 2 * filters() bucket indices as doubles at `out`; returns the fingerprint.
uint32_t CuckooLocate(const CuckooFilter& f, uint32_t len, uintptr_t out) {
  uint64_t buckets[2 * CuckooFilter::kMaxFilters];
  const uint32_t fp = f.Locate(KeyHash(f, len), buckets);
  for (uint32_t i = 0; i < 2 * f.filters(); ++i)
    Ptr<double>(out)[i] = static_cast<double>(buckets[i]);
  return fp;
}

// The first sub-filter of these options as [buckets, fingerprintBits, byteLength] at `out`;
// returns Report(s).
int CuckooShape(double capacity, double error_rate, uint32_t bucket_size, uint32_t fingerprint_bits,
                uintptr_t out) {
  auto o = Sized<CuckooOptions>(capacity, error_rate);
  o.bucket_size = bucket_size;
  o.fingerprint_bits = fingerprint_bits;
  uint64_t buckets = 0, bytes = 0;
  uint32_t f = 0;
  const Status s = CuckooFilter::OptimalShape(o, &buckets, &f, &bytes);
  WriteInfoValues(out, buckets, f, bytes);
  return Report(s);
}

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_cuckoo) {
  emscripten::function("cuckooShape", &CuckooShape);
  BindFilter<CuckooFilter>("CuckooFilterCore")
      .function("init", &CuckooInit)
      .function("addUnique", &CuckooAddUnique)
      .function("compact", &CuckooFilter::Compact)
      .function("addBatch", &CuckooAddBatch)
      .function("loadFactor", &CuckooFilter::LoadFactor)
      .function("estimatedErrorRate", &CuckooFilter::EstimatedFpr)
      .function("filters", &CuckooFilter::filters)
      .function("info", &CuckooInfo)
      .function("locate", &CuckooLocate);
}

}  // namespace bindings
}  // namespace bloomcuckoo
