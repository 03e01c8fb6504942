// Reading the RedisBloom fixtures (tests/fixtures/redis/*.txt, captured from a live server by
// scripts/capture-redis-{bf,cf}.mjs) and the checks the BF and CF tests share.
#ifndef BLOOMCUCKOO_TESTS_CPP_REDIS_FIXTURES_H_
#define BLOOMCUCKOO_TESTS_CPP_REDIS_FIXTURES_H_

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bloomcuckoo/serialization.h"
#include "fixture_files.h"

namespace bloomcuckoo {
namespace testing_util {

// Full paths of the fixture files whose names start with `prefix` ("bf-", "cf-"), sorted.
inline std::vector<std::string> RedisFixtureFiles(const std::string& prefix) {
  const std::string dir = BLOOMCUCKOO_FIXTURES_DIR "/redis";
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.rfind(prefix, 0) == 0) names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  for (std::string& n : names) n = dir + "/" + n;
  return names;
}

// The first keys every fixture probes: "probe:0" .. "probe:999".
inline std::vector<std::vector<uint8_t>> NumberedProbes() {
  std::vector<std::vector<uint8_t>> probes;
  for (int i = 0; i < 1000; ++i) {
    const std::string s = "probe:" + std::to_string(i);
    probes.emplace_back(s.begin(), s.end());
  }
  return probes;
}

// What a BF and a CF fixture both hold besides their operations: the server's dump (SCANDUMP's
// chunks, the final [0, empty] left out) and its EXISTS answers to the probes.
struct RedisFixture {
  std::string name;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> chunks;
  std::string answers;
  // The dump's data: every chunk after the header (chunk 1).
  std::vector<uint8_t> DumpData() const {
    std::vector<uint8_t> data;
    for (size_t i = 1; i < chunks.size(); ++i) {
      data.insert(data.end(), chunks[i].second.begin(), chunks[i].second.end());
    }
    return data;
  }
};

// Reads every fixture file whose name starts with `prefix` into a T (a RedisFixture): the chunk
// and probes lines here, every other line by read_line(fixture, tag, rest of the line).
template <typename T, typename ReadLine>
std::vector<T> ReadRedisFixtures(const std::string& prefix, ReadLine read_line) {
  std::vector<T> out;
  for (const std::string& n : RedisFixtureFiles(prefix)) {
    T f;
    f.name = n;
    std::vector<std::string> lines;
    EXPECT_TRUE(ReadDataLines(n, &lines)) << n;
    for (const std::string& line : lines) {
      std::istringstream ss(line);
      std::string tag;
      ss >> tag;
      if (tag == "chunk") {
        uint64_t it;
        std::string hex;
        ss >> it >> hex;
        if (it != 0) f.chunks.emplace_back(it, FromHex(hex));
      } else if (tag == "probes") {
        size_t count;
        ss >> count >> f.answers;
      } else {
        read_line(f, tag, ss);
      }
    }
    out.push_back(std::move(f));
  }
  return out;
}

// Replays every fixture (at least `at_least` of them): replay(fixture, filter) on a Filter
// initialised from the fixture's options, under a trace of the fixture's name.
template <typename Filter, typename Fixture, typename Replay>
void ReplayEach(const std::vector<Fixture>& fixtures, size_t at_least, Replay replay) {
  ASSERT_GE(fixtures.size(), at_least);
  for (const Fixture& fx : fixtures) {
    SCOPED_TRACE(fx.name);
    Filter f;
    ASSERT_TRUE(f.Init(fx.options).ok());
    replay(fx, f);
  }
}

// `f` dumps what the server dumped: its header is chunk 1, `data` (its tables in order) the
// chunks after it.
template <typename F>
void ExpectTheServersDump(const F& f, const RedisFixture& fx, const std::vector<uint8_t>& data) {
  ASSERT_FALSE(fx.chunks.empty());
  std::vector<uint8_t> header(f.DumpHeaderSize());
  f.WriteDumpHeader(header.data());
  EXPECT_EQ(fx.chunks[0].first, 1u);
  EXPECT_EQ(header, fx.chunks[0].second);
  EXPECT_EQ(data, fx.DumpData());
}

// Loads the server's dump into *g chunk by chunk, as LOADCHUNK does.
template <typename F>
void LoadTheServersDump(F* g, const RedisFixture& fx) {
  ASSERT_FALSE(fx.chunks.empty());
  const std::vector<uint8_t>& header = fx.chunks[0].second;
  ASSERT_TRUE(g->LoadDumpHeader(header.data(), header.size(), fx.DumpData().size()).ok());
  for (size_t i = 1; i < fx.chunks.size(); ++i) {
    Status s;
    uint8_t* target = g->DumpChunkTarget(fx.chunks[i].first, fx.chunks[i].second.size(), &s);
    ASSERT_NE(target, nullptr) << s.message();
    std::copy(fx.chunks[i].second.begin(), fx.chunks[i].second.end(), target);
  }
  ASSERT_TRUE(g->FinishDumpLoad().ok());
}

// The dump header of `f` (into *header) describes exactly `data_bytes` of data: an
// un-initialised filter refuses it with one byte fewer or 2^30 bytes, before allocating anything.
template <typename F>
void ExpectHeaderWantsExactly(const F& f, uint64_t data_bytes, std::vector<uint8_t>* header) {
  header->resize(f.DumpHeaderSize());
  f.WriteDumpHeader(header->data());
  F g;
  EXPECT_EQ(g.LoadDumpHeader(header->data(), header->size(), data_bytes - 1).code(),
            StatusCode::kCorruptData);
  EXPECT_EQ(g.LoadDumpHeader(header->data(), header->size(), 1u << 30).code(),
            StatusCode::kCorruptData);
  EXPECT_FALSE(g.initialized());
}

// Kinds 7 and 8 hash as RedisBloom, with no seed: a file whose seed field is not 0 is not one we
// wrote (reading it would silently drop the seed, and the bytes would not round-trip). The bytes
// of `f` read back; with the seed field 1 (and the CRC mended) they are refused.
template <typename F>
void ExpectANonZeroSeedRefused(const F& f) {
  std::vector<uint8_t> bytes(f.SerializedSize());
  ASSERT_TRUE(f.Serialize(bytes.data(), bytes.size()).ok());
  F g;
  ASSERT_TRUE(g.Deserialize(bytes.data(), bytes.size()).ok());
  bytes[8] = 1;  // the seed field
  const uint32_t crc = Crc32(bytes.data(), bytes.size() - kTrailerSize);
  for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = static_cast<uint8_t>(crc >> (8 * i));
  EXPECT_EQ(g.Deserialize(bytes.data(), bytes.size()).code(), StatusCode::kCorruptData);
}

}  // namespace testing_util
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_TESTS_CPP_REDIS_FIXTURES_H_
