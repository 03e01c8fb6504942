// Embind adapters for the binary fuse filter. Thin: argument conversion and Status → int only.
// JS hashes keys chunk by chunk into one array of 64-bit key hashes (HashKeysForFuse), then
// builds once from it, so the keys themselves never have to be in wasm memory all at once.
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/binary_fuse_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

// Writes the 64-bit key hash BinaryFuseFilter::Build uses (Murmur3KeyHash(...).h1) of each key to
// out[i]; 0, or minus the code of a refused batch.
int HashKeysForFuse(uintptr_t data, uintptr_t offsets, uint32_t count, uint32_t seed,
                    uintptr_t out) {
  uint64_t* hashes = Ptr<uint64_t>(out);
  return OnBatch(data, offsets, count, [&](const KeyBatch& b) {
    ForEachHash(b, seed, [&](size_t i, Hash128 h) { hashes[i] = h.h1; });
    return 0;
  });
}
int FuseBuild(BinaryFuseFilter& f, uintptr_t hashes, uint32_t n, uint32_t fingerprint_bits,
              uint32_t seed) {
  BinaryFuseOptions o;
  o.fingerprint_bits = fingerprint_bits;
  o.seed = seed;
  // the builder's hashes (js/main/binary-fuse.js) are its own, freed right after: build in them
  return Report(f.BuildFromHashesInPlace(Ptr<uint64_t>(hashes), n, o));
}
void FuseInfo(const BinaryFuseFilter& f, uintptr_t out) {
  WriteInfo(f, out, f.fingerprint_bits(), f.segment_length(), f.segment_count(), f.array_length(),
            f.bits_per_key(), f.expected_fpr());
}
// [segmentLength, segmentCount, arrayLength] of a build of n keys at `out`, or -code.
int FuseLayout(double n, uintptr_t out) {
  uint32_t len = 0, count = 0, array = 0;
  const Status s = BinaryFuseFilter::LayoutFor(static_cast<uint64_t>(n), &len, &count, &array);
  WriteInfoValues(out, len, count, array);
  return Report(s);
}
double FusePeakBuildBytes(double n) {
  return static_cast<double>(
      BinaryFuseFilter::PeakBuildBytes(static_cast<uint64_t>(n), /*in_place=*/true));
}

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_fuse) {
  emscripten::function("hashKeysForFuse", &HashKeysForFuse);
  emscripten::function("fusePeakBuildBytes", &FusePeakBuildBytes);
  emscripten::function("fuseLayout", &FuseLayout);
  BindFilter<BinaryFuseFilter>("BinaryFuseFilterCore")
      .function("buildFromHashes", &FuseBuild)
      .function("info", &FuseInfo);
}

}  // namespace bindings
}  // namespace bloomcuckoo
