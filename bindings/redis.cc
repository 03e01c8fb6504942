// Embind adapters for the RedisBloom-compatible filters. Thin: argument conversion and
// Status → int only. Keys are hashed by each class's own policy (RedisBfHashing, RedisCfHashing);
// the verbs every filter shares come from BindFilter (binding_util.h).
#include <emscripten/bind.h>

#include "binding_util.h"
#include "bloomcuckoo/redis_bloom_filter.h"
#include "bloomcuckoo/redis_cuckoo_filter.h"

namespace bloomcuckoo {
namespace bindings {
namespace {

using RB = RedisBloomFilter;
using RC = RedisCuckooFilter;

// The parts a dump's data chunks carry: a BF's links, a CF's sub-filters.
uint32_t Parts(const RB& f) { return f.num_links(); }
uint32_t Parts(const RC& f) { return f.num_filters(); }
uint64_t PartBytes(const RB& f, uint32_t i) { return f.link_bytes(i); }
uint64_t PartBytes(const RC& f, uint32_t i) { return f.filter_bytes(i); }
const uint8_t* PartData(const RB& f, uint32_t i) { return f.link_data(i); }
const uint8_t* PartData(const RC& f, uint32_t i) { return f.filter_data(i); }
// info() of part i: capacity, errorRate, bits, hashes, items, bytes of a link; buckets, bytes of
// a sub-filter.
void PartInfo(const RB& f, uint32_t i, uintptr_t out) {
  WriteInfoValues(out, f.link_entries(i), f.link_error(i), f.link_bits(i), f.link_hashes(i),
                  f.link_size(i), f.link_bytes(i));
}
void PartInfo(const RC& f, uint32_t i, uintptr_t out) {
  WriteInfoValues(out, f.filter_buckets(i), f.filter_bytes(i));
}

// What SCANDUMP and LOADCHUNK need of either class, by the same JS names (js/main/redis-core.js):
// the header, the parts, and loading a dump chunk by chunk; and each part's info().
template <typename F>
struct Dump {
  static double HeaderSize(const F& f) { return static_cast<double>(f.DumpHeaderSize()); }
  static void WriteHeader(const F& f, uintptr_t out) { f.WriteDumpHeader(Ptr<uint8_t>(out)); }
  static uint32_t PartCount(const F& f) { return Parts(f); }
  static double Bytes(const F& f, uint32_t i) { return static_cast<double>(PartBytes(f, i)); }
  static uintptr_t Data(const F& f, uint32_t i) {
    return reinterpret_cast<uintptr_t>(PartData(f, i));
  }
  static int LoadHeader(F& f, uintptr_t header, uint32_t len, double data_bytes) {
    return Report(
        f.LoadDumpHeader(Ptr<const uint8_t>(header), len, static_cast<uint64_t>(data_bytes)));
  }
  static double ChunkTarget(F& f, double iterator, uint32_t len) {
    Status s;
    const uint8_t* p = f.DumpChunkTarget(static_cast<uint64_t>(iterator), len, &s);
    return ReportTarget(s, p);
  }
  static int Finish(F& f) { return Report(f.FinishDumpLoad()); }
  static void Info(const F& f, uint32_t i, uintptr_t out) { PartInfo(f, i, out); }
};

// BindFilter plus the dump verbs.
template <typename F>
emscripten::class_<F> BindRedis(const char* name) {
  using D = Dump<F>;
  return BindFilter<F>(name)
      .function("dumpHeaderSize", &D::HeaderSize)
      .function("writeDumpHeader", &D::WriteHeader)
      .function("parts", &D::PartCount)
      .function("partBytes", &D::Bytes)
      .function("partData", &D::Data)
      .function("loadDumpHeader", &D::LoadHeader)
      .function("dumpChunkTarget", &D::ChunkTarget)
      .function("finishDumpLoad", &D::Finish)
      .function("partInfo", &D::Info);
}

// `server`: a row of kRedisServers (redis_server.h), which js/main/options.js names.
int RBInit(RB& f, double capacity, double error_rate, uint32_t expansion, bool non_scaling,
           uint32_t server) {
  auto o = Sized<RedisBloomOptions>(capacity, error_rate);
  o.server = static_cast<RedisServer>(server);
  o.expansion = expansion;
  o.non_scaling = non_scaling;
  return Report(f.Init(o));
}
int RBSetServer(RB& f, uint32_t server) {
  return Report(f.set_server(static_cast<RedisServer>(server)));
}
// 1 added, 0 may already exist, or -code.
int RBAdd(RB& f, uint32_t len) {
  bool added = false;
  const Status s = f.Add(KeyHash(f, len), &added);
  return Report(s, added ? 1 : 0);
}
// The core writes 1/0 per key handled to `out`; their sum is the batch's added count.
size_t SumAdded(size_t handled, uintptr_t out) {
  size_t added = 0;
  for (size_t i = 0; i < handled; ++i) added += Ptr<uint8_t>(out)[i];
  return added;
}
int RBAddBatch(RB& f, uintptr_t data, uintptr_t offsets, uint32_t count, uintptr_t out) {
  return OnReportingBatch(data, offsets, count, out, [&](const KeyBatch& b, size_t* n, size_t* a) {
    const Status s = f.AddBatch(b, Ptr<uint8_t>(out), n);
    *a = SumAdded(*n, out);
    return s;
  });
}
// The filter's values; returns the link count (partInfo reads each).
uint32_t RBInfo(const RB& f, uintptr_t out) {
  WriteInfo(f, out, f.capacity(), f.info_size(), f.num_links(), f.expansion(), f.non_scaling());
  return f.num_links();
}

int RCInit(RC& f, double capacity, uint32_t bucket_size, uint32_t max_iterations,
           uint32_t expansion, uint32_t server) {
  RedisCuckooOptions o;
  o.server = static_cast<RedisServer>(server);
  o.capacity = static_cast<uint64_t>(capacity);
  o.bucket_size = bucket_size;
  o.max_iterations = max_iterations;
  o.expansion = expansion;
  return Report(f.Init(o));
}
// 1 inserted, 0 exists (unique), 2 no space ("Filter is full"), or -code.
int RCAdd(RC& f, uint32_t len, bool unique) {
  RC::Insert r = RC::Insert::kNoSpace;
  const Status s = f.Add(KeyHash(f, len), unique, &r);
  return Report(s, r == RC::Insert::kInserted ? 1 : r == RC::Insert::kExists ? 0 : 2);
}
// `first`: the command's first batch (where the sub-filter limit is checked).
int RCAddBatch(RC& f, uintptr_t data, uintptr_t offsets, uint32_t count, uintptr_t out, bool unique,
               bool first) {
  return OnReportingBatch(data, offsets, count, out, [&](const KeyBatch& b, size_t* n, size_t* a) {
    const Status s = f.AddBatch(b, unique, first, Ptr<uint8_t>(out), n);
    *a = SumAdded(*n, out);
    return s;
  });
}
double RCCount(const RC& f, uint32_t len) { return static_cast<double>(f.Count(KeyHash(f, len))); }
bool RCDelete(RC& f, uint32_t len) { return f.Delete(KeyHash(f, len)); }
// The filter's values; returns the sub-filter count (partInfo reads each).
uint32_t RCInfo(const RC& f, uintptr_t out) {
  WriteInfo(f, out, f.info_size(), f.num_buckets(), f.num_filters(), f.num_deletes(),
            f.bucket_size(), f.expansion(), f.max_iterations());
  return f.num_filters();
}
double RCFirstBuckets(double capacity, uint32_t bucket_size) {
  return static_cast<double>(
      RC::FirstSubFilterBuckets(static_cast<uint64_t>(capacity), bucket_size));
}
void RCCompact(RC& f) { f.Compact(true); }

}  // namespace

EMSCRIPTEN_BINDINGS(bloomcuckoo_redis) {
  emscripten::function("redisCuckooBuckets", &RCFirstBuckets);
  BindRedis<RC>("RedisCuckooFilterCore")
      .function("init", &RCInit)
      .function("add", &RCAdd)
      .function("addBatch", &RCAddBatch)
      .function("count", &RCCount)
      .function("remove", &RCDelete)
      .function("compact", &RCCompact)
      .function("info", &RCInfo);
  BindRedis<RB>("RedisBloomFilterCore")
      .function("init", &RBInit)
      .function("add", &RBAdd)
      .function("addBatch", &RBAddBatch)
      .function("setServer", &RBSetServer)
      .function("info", &RBInfo);
}

}  // namespace bindings
}  // namespace bloomcuckoo
