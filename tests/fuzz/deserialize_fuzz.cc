// libFuzzer target: untrusted bytes → Deserialize into every filter kind; when accepted, query
// it and serialize it again (must give the same bytes). ASan + UBSan catch what a crash would.
// Build: cmake -B build/fuzz -S . -DBLOOMCUCKOO_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bloomcuckoo/bloomcuckoo.h"
#include "bloomcuckoo/hashing.h"

namespace {

using namespace bloomcuckoo;  // NOLINT: a test program, not a header

template <typename F>
void Exercise(const uint8_t* data, size_t size) {
  F f;
  if (!f.Deserialize(data, size).ok()) return;
  // Accepted bytes describe a usable filter: queries work and it re-serializes identically.
  const char* keys[] = {"", "a", "fuzz", "https://bad.example/"};
  for (const char* k : keys) (void)f.Contains(f.HashOf(k, std::strlen(k)));
  const uint8_t packed[] = {'a', 'b', 'c'};
  const uint32_t offsets[] = {0, 1, 3};
  uint8_t out[2];
  f.ContainsBatch(KeyBatch{packed, offsets, 2}, out);
  std::vector<uint8_t> again(f.SerializedSize());
  if (!f.Serialize(again.data(), again.size()).ok()) std::abort();
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
}

// Adds a key the way each RedisBloom-compatible class adds (an error is fine; a crash is not).
void AddKey(RedisBloomFilter& f, RedisBloomFilter::Hash h) {
  bool added = false;
  (void)f.Add(h, &added);
}
void AddKey(RedisCuckooFilter& f, uint64_t h) {
  RedisCuckooFilter::Insert r;
  (void)f.Add(h, false, &r);
  (void)f.Delete(h);
}

// RedisBloom's own dumps (BF/CF.SCANDUMP chunks): the first two bytes give the header chunk's
// length, the rest is sent as data chunks of up to 64 bytes with the iterators SCANDUMP would use.
template <typename F>
void ExerciseRedisDump(const uint8_t* data, size_t size) {
  if (size < 2) return;
  const size_t header_len = std::min<size_t>(data[0] | (data[1] << 8), size - 2);
  const uint8_t* header = data + 2;
  const uint8_t* rest = header + header_len;
  const size_t rest_len = size - 2 - header_len;
  F f;
  if (!f.LoadDumpHeader(header, header_len, rest_len).ok()) return;
  size_t at = 0;
  while (at < rest_len) {
    const size_t len = std::min<size_t>(64, rest_len - at);
    Status s;
    uint8_t* target = f.DumpChunkTarget(1 + at + len, len, &s);
    if (target == nullptr) return;
    std::memcpy(target, rest + at, len);
    at += len;
  }
  if (!f.FinishDumpLoad().ok()) return;
  for (const char* k : {"", "a", "fuzz"}) {
    const auto h = f.HashOf(k, std::strlen(k));
    (void)f.Contains(h);
    AddKey(f, h);
  }
}

}  // namespace

void ExerciseAll(const uint8_t* data, size_t size) {
  FilterKind kind;
  (void)PeekFilterKind(data, size, &kind);
#define BLOOMCUCKOO_EXERCISE(number, enumerator, name, cls, hash_id) Exercise<cls>(data, size);
  BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_EXERCISE)
#undef BLOOMCUCKOO_EXERCISE
}

// Random mutations almost never pass the CRC, so each input is also tried with its body-length
// field and CRC rewritten to match: that way mutations reach every body parser.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ExerciseAll(data, size);
  ExerciseRedisDump<RedisBloomFilter>(data, size);
  ExerciseRedisDump<RedisCuckooFilter>(data, size);
  if (size >= kHeaderSize + kTrailerSize) {
    std::vector<uint8_t> fixed(data, data + size);
    const uint64_t body = size - kHeaderSize - kTrailerSize;
    for (int i = 0; i < 8; ++i) fixed[12 + i] = static_cast<uint8_t>(body >> (8 * i));
    const uint32_t crc = Crc32(fixed.data(), size - kTrailerSize);
    for (int i = 0; i < 4; ++i) fixed[size - 4 + i] = static_cast<uint8_t>(crc >> (8 * i));
    ExerciseAll(fixed.data(), size);
  }
  return 0;
}
