// Native benchmarks of the C++ core (Google Benchmark), the limit the wasm build is compared to.
//
// Two groups, both over n keys (BC_BENCH_NS, default "1000000,10000000"):
//  - batch/<filter>/<keys>/<n>/<op>: the library's own path, the one the wasm build runs: keys
//    packed in one buffer (KeyBatch), hashed with Murmur3KeyHash (MurmurHash3_x64_128) inside
//    AddBatch/ContainsBatch/Build. keys: u64 (8-byte little-endian random 64-bit integers,
//    splitmix64) or str ("key:" + i). tests/bench/wasm-core.mjs does the same work in wasm.
//  - mix/<filter>/u64/<n>/<op>: the shape of FastFilter's bulk-insert-and-query: random 64-bit
//    keys, each turned into a Hash128 by two 64-bit mixers inside the timed loop (as FastFilter's
//    SimpleMixSplit hashes its keys), one Add/Contains call per key; no MurmurHash3, no batch.
// ops: insert (empty filter sized for n, then n adds; for fuse: build from n keys), query0 (n
// keys never added), query100 (the n added keys). Each iteration is timed by hand over the whole
// pass in thread CPU time (SetIterationTime); tests/bench/run.mjs turns real_time / n into ns/op.
// Counters: n, bits_per_key, fpr (query0) and hits (query100, must equal 1).
#include <benchmark/benchmark.h>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bloomcuckoo/binary_fuse_filter.h"
#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "bloomcuckoo/counting_bloom_filter.h"
#include "bloomcuckoo/cuckoo_filter.h"
#include "bloomcuckoo/hashing.h"
#include "bloomcuckoo/scalable_bloom_filter.h"

namespace bloomcuckoo {
namespace {

constexpr double kErrorRate = 0.01;

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The Hash128 of the "mix" group: two mixers of the key (FastFilter hashes with one), each
// MurmurHash3's 64-bit finalizer.
inline Hash128 MixHash(uint64_t x) {
  return Hash128{MurmurHash3Fmix64(x + 0x9747b28cULL),
                 MurmurHash3Fmix64(x ^ 0x5bd1e9955bd1e995ULL)};
}

// Keys packed back to back with u32 offsets, as they cross the JS→wasm boundary.
struct Keys {
  std::vector<uint8_t> data;
  std::vector<uint32_t> offsets;
  std::vector<uint64_t> ints;  // u64 keys only
  KeyBatch batch() const { return KeyBatch{data.data(), offsets.data(), offsets.size() - 1}; }
  size_t size() const { return offsets.size() - 1; }
};

// u64: random 64-bit keys from splitmix64 seeded with `stream` (1: added, 2: never added).
// str: "key:" + i for i in [first, first + n).
Keys MakeKeys(bool strings, size_t n, uint64_t stream) {
  Keys k;
  k.offsets.reserve(n + 1);
  k.offsets.push_back(0);
  if (strings) {
    const size_t first = stream == 1 ? 0 : n;
    k.data.reserve(n * 12);
    char buf[32];
    for (size_t i = 0; i < n; ++i) {
      const int len = std::snprintf(buf, sizeof buf, "key:%zu", first + i);
      k.data.insert(k.data.end(), buf, buf + len);
      k.offsets.push_back(static_cast<uint32_t>(k.data.size()));
    }
  } else {
    uint64_t state = stream * 0x1234567ULL;
    k.data.resize(n * 8);
    k.ints.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t x = SplitMix64(&state);
      k.ints[i] = x;
      for (int b = 0; b < 8; ++b) k.data[8 * i + b] = static_cast<uint8_t>(x >> (8 * b));
      k.offsets.push_back(static_cast<uint32_t>(8 * (i + 1)));
    }
  }
  return k;
}

// One filter behind the verbs the benchmark needs.
class Bench {
 public:
  virtual ~Bench() = default;
  virtual bool Init(size_t n) = 0;
  virtual void InsertBatch(const KeyBatch& keys) = 0;
  virtual void QueryBatch(const KeyBatch& keys, uint8_t* out) const = 0;
  virtual void InsertMix(const uint64_t* keys, size_t n) = 0;
  virtual size_t QueryMix(const uint64_t* keys, size_t n) const = 0;
  virtual size_t Bytes() const = 0;
};

// A filter sized from (capacity, error_rate) options (for n / capacity_divisor keys) and queried
// with Contains(Hash128) and ContainsBatch: every filter here but the fuse filter. How it is
// filled is the filter's own.
template <typename F, typename O>
class SizedBench : public Bench {
 public:
  explicit SizedBench(size_t capacity_divisor = 1) : capacity_divisor_(capacity_divisor) {}
  bool Init(size_t n) override {
    O o;
    o.capacity = n / capacity_divisor_;
    o.error_rate = kErrorRate;
    return f_.Init(o).ok();
  }
  void QueryBatch(const KeyBatch& k, uint8_t* out) const override { f_.ContainsBatch(k, out); }
  size_t QueryMix(const uint64_t* k, size_t n) const override {
    size_t hits = 0;
    for (size_t i = 0; i < n; ++i) hits += f_.Contains(MixHash(k[i])) ? 1 : 0;
    return hits;
  }
  size_t Bytes() const override { return f_.byte_length(); }

 protected:
  F f_;

 private:
  size_t capacity_divisor_;
};

// Filled with bool Add(Hash128) and size_t AddBatch(const KeyBatch&): Bloom, blocked and counting.
template <typename F, typename O>
class AddingBench : public SizedBench<F, O> {
 public:
  void InsertBatch(const KeyBatch& k) override { benchmark::DoNotOptimize(this->f_.AddBatch(k)); }
  void InsertMix(const uint64_t* k, size_t n) override {
    for (size_t i = 0; i < n; ++i) this->f_.Add(MixHash(k[i]));
  }
};

using BloomBench = AddingBench<BloomFilter, BloomOptions>;
using BlockedBench = AddingBench<BlockedBloomFilter, BlockedBloomOptions>;
using CountingBench = AddingBench<CountingBloomFilter, CountingBloomOptions>;

// Sized for n / 4 keys, so inserting n keys adds layers (expansion 2) as it grows in use.
class ScalableBench : public SizedBench<ScalableBloomFilter, ScalableBloomOptions> {
 public:
  ScalableBench() : SizedBench(4) {}
  void InsertBatch(const KeyBatch& k) override {
    size_t added = 0, processed = 0;
    if (!f_.AddBatch(k, &added, &processed).ok()) std::abort();
  }
  void InsertMix(const uint64_t* k, size_t n) override {
    bool added = false;
    for (size_t i = 0; i < n; ++i) {
      if (!f_.Add(MixHash(k[i]), &added).ok()) std::abort();
    }
  }
};

// errorRate 1% gives 12-bit fingerprints in buckets of 4 (FastFilter's Cuckoo12 shape).
class CuckooBench : public SizedBench<CuckooFilter, CuckooOptions> {
 public:
  bool Init(size_t n) override {
    results_.resize(n);
    return SizedBench::Init(n);
  }
  void InsertBatch(const KeyBatch& k) override {
    if (f_.AddBatch(k, results_.data()) != k.count) std::abort();
  }
  void InsertMix(const uint64_t* k, size_t n) override {
    for (size_t i = 0; i < n; ++i) {
      if (!f_.Add(MixHash(k[i]))) std::abort();
    }
  }

 private:
  std::vector<uint8_t> results_;
};

class FuseBench : public Bench {
 public:
  explicit FuseBench(uint32_t bits) : bits_(bits) {}
  bool Init(size_t) override { return true; }
  void InsertBatch(const KeyBatch& k) override {
    BinaryFuseOptions o;
    o.fingerprint_bits = bits_;
    if (!f_.Build(k, o).ok()) std::abort();
  }
  void QueryBatch(const KeyBatch& k, uint8_t* out) const override { f_.ContainsBatch(k, out); }
  // The hashes are made inside the timed build, as FastFilter's build hashes its keys.
  void InsertMix(const uint64_t* k, size_t n) override {
    std::vector<uint64_t> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = MixHash(k[i]).h1;
    BinaryFuseOptions o;
    o.fingerprint_bits = bits_;
    if (!f_.BuildFromHashes(h.data(), n, o).ok()) std::abort();
  }
  size_t QueryMix(const uint64_t* k, size_t n) const override {
    size_t hits = 0;
    for (size_t i = 0; i < n; ++i) hits += f_.ContainsHash64(MixHash(k[i]).h1) ? 1 : 0;
    return hits;
  }
  size_t Bytes() const override { return f_.byte_length(); }

 private:
  uint32_t bits_;
  BinaryFuseFilter f_;
};

struct FilterKind {
  const char* name;
  std::function<std::unique_ptr<Bench>()> make;
};

const std::vector<FilterKind>& Filters() {
  static const std::vector<FilterKind> kinds = {
      {"bloom", [] { return std::unique_ptr<Bench>(new BloomBench); }},
      {"blocked", [] { return std::unique_ptr<Bench>(new BlockedBench); }},
      {"counting", [] { return std::unique_ptr<Bench>(new CountingBench); }},
      {"scalable", [] { return std::unique_ptr<Bench>(new ScalableBench); }},
      {"cuckoo", [] { return std::unique_ptr<Bench>(new CuckooBench); }},
      {"fuse8", [] { return std::unique_ptr<Bench>(new FuseBench(8)); }},
      {"fuse16", [] { return std::unique_ptr<Bench>(new FuseBench(16)); }},
  };
  return kinds;
}

// Keys of the current (kind, n) only, so n = 10^7 does not hold every set at once.
struct KeyCache {
  bool strings = false;
  size_t n = 0;
  std::unique_ptr<Keys> pos, neg;
  const Keys& Pos(bool s, size_t count) {
    Load(s, count);
    return *pos;
  }
  const Keys& Neg(bool s, size_t count) {
    Load(s, count);
    return *neg;
  }
  void Load(bool s, size_t count) {
    if (pos && strings == s && n == count) return;
    pos.reset();
    neg.reset();
    pos.reset(new Keys(MakeKeys(s, count, 1)));
    neg.reset(new Keys(MakeKeys(s, count, 2)));
    strings = s;
    n = count;
  }
};
KeyCache& Cache() {
  static KeyCache cache;
  return cache;
}

// The filter query0 built, reused by query100 of the same (group, filter, keys, n).
std::unique_ptr<Bench>& Built(const std::string& id) {
  static std::string current;
  static std::unique_ptr<Bench> built;
  if (id != current) {
    built.reset();
    current = id;
  }
  return built;
}

// CPU time of this thread: the machines are shared, and wall time would include the time the
// thread waited for a core. (The wasm side measures process CPU time the same way.)
double CpuNow() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The body both groups share, over the keys of (strings, n). `id` names the filter query0 builds
// and query100 reuses. Timed: fill(bench, keys) (insert) and query(bench, keys) (query0/100);
// not timed: hits(), how many of the keys last queried were found.
template <typename Fill, typename Query, typename Hits>
void RunBench(benchmark::State& state, const FilterKind& kind, const std::string& id, bool strings,
              size_t n, int op, Fill fill, Query query, Hits hits_of_last_query) {
  const Keys& pos = Cache().Pos(strings, n);
  const Keys& neg = Cache().Neg(strings, n);
  std::unique_ptr<Bench>& built = Built(id);
  if (op != 0 && !built) {
    built = kind.make();
    if (!built->Init(n)) std::abort();
    fill(*built, pos);
  }
  size_t bytes = built ? built->Bytes() : 0;
  size_t hits = 0;
  for (auto _ : state) {
    if (op == 0) {
      std::unique_ptr<Bench> f = kind.make();
      if (!f->Init(n)) std::abort();
      const double t0 = CpuNow();
      fill(*f, pos);
      const double t1 = CpuNow();
      state.SetIterationTime(t1 - t0);
      bytes = f->Bytes();
    } else {
      const Keys& q = op == 1 ? neg : pos;
      const double t0 = CpuNow();
      query(*built, q);
      const double t1 = CpuNow();
      state.SetIterationTime(t1 - t0);
      hits = hits_of_last_query();
    }
  }
  state.counters["n"] = static_cast<double>(n);
  state.counters["bits_per_key"] = 8.0 * static_cast<double>(bytes) / static_cast<double>(n);
  if (op == 1) state.counters["fpr"] = static_cast<double>(hits) / static_cast<double>(n);
  if (op == 2) state.counters["hits"] = static_cast<double>(hits) / static_cast<double>(n);
}

void BenchBatch(benchmark::State& state, const FilterKind& kind, bool strings, size_t n, int op) {
  std::vector<uint8_t> out(n);
  RunBench(
      state, kind,
      std::string("batch/") + kind.name + (strings ? "/str/" : "/u64/") + std::to_string(n),
      strings, n, op, [](Bench& f, const Keys& k) { f.InsertBatch(k.batch()); },
      [&out](const Bench& f, const Keys& k) { f.QueryBatch(k.batch(), out.data()); },
      [&out, n] {
        size_t hits = 0;
        for (size_t i = 0; i < n; ++i) hits += out[i];
        return hits;
      });
}

void BenchMix(benchmark::State& state, const FilterKind& kind, size_t n, int op) {
  size_t hits = 0;
  RunBench(
      state, kind, std::string("mix/") + kind.name + "/" + std::to_string(n), false, n, op,
      [n](Bench& f, const Keys& k) { f.InsertMix(k.ints.data(), n); },
      [&hits, n](const Bench& f, const Keys& k) { hits = f.QueryMix(k.ints.data(), n); },
      [&hits] { return hits; });
}

std::vector<size_t> Sizes() {
  std::vector<size_t> sizes;
  const char* env = std::getenv("BC_BENCH_NS");
  std::string s = env != nullptr ? env : "1000000,10000000";
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    sizes.push_back(std::stoull(s.substr(start, end - start)));
    start = end + 1;
  }
  return sizes;
}

void RegisterAll() {
  const char* kOps[] = {"insert", "query0", "query100"};
  // Per n: u64 keys (batch, then mix: same keys), then strings, so one key set is held at a time.
  for (size_t n : Sizes()) {
    for (int group = 0; group < 3; ++group) {
      const bool mix = group == 1;
      const bool strings = group == 2;
      for (const FilterKind& kind : Filters()) {
        for (int op = 0; op < 3; ++op) {
          const std::string name = std::string(mix ? "mix/" : "batch/") + kind.name + "/" +
                                   (strings ? "str" : "u64") + "/" + std::to_string(n) + "/" +
                                   kOps[op];
          benchmark::RegisterBenchmark(name.c_str(),
                                       [&kind, mix, strings, n, op](benchmark::State& st) {
                                         if (mix) {
                                           BenchMix(st, kind, n, op);
                                         } else {
                                           BenchBatch(st, kind, strings, n, op);
                                         }
                                       })
              ->UseManualTime()
              ->Unit(benchmark::kMillisecond);
        }
      }
    }
  }
}

}  // namespace
}  // namespace bloomcuckoo

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bloomcuckoo::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
