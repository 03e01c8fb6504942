// Golden files (tests/fixtures/golden, their recipes in the kinds' test files, tests/kinds/): the
// native build rebuilds every recipe to exactly the committed bytes (written by the wasm build) and
// reads every file back.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/bloomcuckoo.h"
#include "bloomcuckoo/internal/declared.h"
#include "conformance.h"
#include "fixture_files.h"

namespace bloomcuckoo {
namespace {

struct Recipe {
  std::string file, kind;
  std::map<std::string, double> opt;
  uint64_t n = 0, remove = 0;
  double Get(const std::string& k, double fallback = 0) const {
    auto it = opt.find(k);
    return it == opt.end() ? fallback : it->second;
  }
};

std::vector<Recipe> Recipes() {
  std::vector<Recipe> out;
  for (const std::string& line : testing_util::GoldenRecipeLines(BLOOMCUCKOO_FIXTURES_DIR)) {
    std::istringstream fields(line);
    Recipe r;
    fields >> r.file >> r.kind;
    std::string f;
    while (fields >> f) {
      const size_t eq = f.find('=');
      const std::string k = f.substr(0, eq);
      const double v = std::stod(f.substr(eq + 1));
      if (k == "n")
        r.n = static_cast<uint64_t>(v);
      else if (k == "remove")
        r.remove = static_cast<uint64_t>(v);
      else
        r.opt[k] = v;
    }
    out.push_back(r);
  }
  return out;
}

std::vector<uint8_t> ReadFile(const std::string& name) {
  std::ifstream in(std::string(BLOOMCUCKOO_FIXTURES_DIR "/golden/") + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

Hash128 H(const std::string& k, uint32_t seed) { return Murmur3KeyHash(k.data(), k.size(), seed); }

// Builds the recipe natively, then checks rebuilt bytes == golden and golden reads back.
template <typename F, typename Fill>
void Check(const Recipe& r, F& f, Fill&& fill) {
  const std::vector<uint8_t> golden = ReadFile(r.file);
  ASSERT_FALSE(golden.empty()) << r.file;
  const auto keys = testing_util::MakeKeys("golden:", r.n);
  fill(keys);
  EXPECT_EQ(testing_util::SerializeToVector(f), golden) << r.file;
  F g;
  ASSERT_TRUE(g.Deserialize(golden.data(), golden.size()).ok()) << r.file;
  EXPECT_EQ(testing_util::SerializeToVector(g), golden) << r.file;
  for (uint64_t i = r.remove; i < r.n; ++i) EXPECT_TRUE(testing_util::Has(g, keys[i]));
}

// A recipe of a declared kind (internal/declared.h), by its class: the options from the recipe by
// their declared names, every key added, then the first `remove` removed (where the class has
// Remove). False when F is not declared.
template <typename F>
bool BuildDeclared(const Recipe& r) {
  if constexpr (internal::IsDeclared<F>::value) {
    internal::OptionsOf<F> o;
    std::set<std::string> used;
    internal::ReadFields(&o, [&](const std::string& name, double* v) {
      const auto it = r.opt.find(name);
      if (it == r.opt.end()) return false;
      used.insert(name);
      *v = it->second;
      return true;
    });
    for (const auto& [name, value] : r.opt) {
      EXPECT_TRUE(used.count(name)) << r.file << ": '" << name << "' is not an option of " << r.kind
                                    << " (its Options::Fields())";
    }
    F f;
    const Status s = f.Init(o);
    EXPECT_TRUE(s.ok()) << r.file << ": " << s.message();
    if (!s.ok()) return true;
    Check(r, f, [&](const auto& keys) {
      for (const auto& k : keys) f.Add(testing_util::HashIn(f, k));
      if constexpr (testing_util::HasRemoveAndCount<F>::value) {
        for (uint64_t i = 0; i < r.remove; ++i) f.Remove(testing_util::HashIn(f, keys[i]));
      }
    });
    return true;
  } else {
    return false;
  }
}

// Whether the recipe's kind is a declared row of the kind table (then built by BuildDeclared).
bool BuiltAsDeclared(const Recipe& r) {
#define BLOOMCUCKOO_DECLARED_ROW(number, enumerator, name, cls, hash_id) \
  if (r.kind == name) return BuildDeclared<cls>(r);
  BLOOMCUCKOO_FILTER_KINDS(BLOOMCUCKOO_DECLARED_ROW)
#undef BLOOMCUCKOO_DECLARED_ROW
  return false;
}

TEST(Golden, EveryRecipeMatchesItsFileByteForByte) {
  const std::vector<Recipe> recipes = Recipes();
  ASSERT_GE(recipes.size(), 10u);
  for (const Recipe& r : recipes) {
    SCOPED_TRACE(r.file);
    const uint32_t seed = static_cast<uint32_t>(r.Get("seed"));
    if (BuiltAsDeclared(r)) continue;
    if (r.kind == "bloom") {
      BloomFilter f;
      ASSERT_TRUE(f.Init({static_cast<uint64_t>(r.Get("capacity")), r.Get("errorRate"),
                          static_cast<uint64_t>(r.Get("bits")),
                          static_cast<uint32_t>(r.Get("hashes")), seed})
                      .ok());
      Check(r, f, [&](const auto& keys) {
        for (const auto& k : keys) f.Add(H(k, seed));
      });
    } else if (r.kind == "blocked") {
      BlockedBloomFilter f;
      ASSERT_TRUE(
          f.Init({static_cast<uint64_t>(r.Get("capacity")), r.Get("errorRate"), 0, seed}).ok());
      Check(r, f, [&](const auto& keys) {
        for (const auto& k : keys) f.Add(H(k, seed));
      });
    } else if (r.kind == "scalable") {
      ScalableBloomFilter f;
      ScalableBloomOptions o;
      o.capacity = static_cast<uint64_t>(r.Get("capacity"));
      o.error_rate = r.Get("errorRate");
      o.expansion = static_cast<uint32_t>(r.Get("expansion", 2));
      o.seed = seed;
      ASSERT_TRUE(f.Init(o).ok());
      Check(r, f, [&](const auto& keys) {
        bool added;
        for (const auto& k : keys) ASSERT_TRUE(f.Add(H(k, seed), &added).ok());
      });
    } else if (r.kind == "cuckoo") {
      CuckooFilter f;
      CuckooOptions o;
      o.capacity = static_cast<uint64_t>(r.Get("capacity"));
      o.fingerprint_bits = static_cast<uint32_t>(r.Get("fingerprintBits"));
      o.bucket_size = static_cast<uint32_t>(r.Get("bucketSize", 4));
      o.max_iterations = static_cast<uint32_t>(r.Get("maxIterations", 500));
      o.expansion = static_cast<uint32_t>(r.Get("expansion", 1));
      o.error_rate = 0.01;
      o.seed = seed;
      ASSERT_TRUE(f.Init(o).ok());
      Check(r, f, [&](const auto& keys) {
        for (const auto& k : keys) ASSERT_TRUE(f.Add(H(k, seed)));
        for (uint64_t i = 0; i < r.remove; ++i) ASSERT_TRUE(f.Remove(H(keys[i], seed)));
      });
    } else if (r.kind == "fuse") {
      BinaryFuseFilter f;
      Check(r, f, [&](const auto& keys) {
        testing_util::PackedKeys packed(keys);
        ASSERT_TRUE(
            f.Build(packed.batch(), {static_cast<uint32_t>(r.Get("fingerprintBits")), seed}).ok());
      });
    } else if (r.kind == "redis-bloom") {
      RedisBloomFilter f;
      RedisBloomOptions o;
      o.capacity = static_cast<uint64_t>(r.Get("capacity"));
      o.error_rate = r.Get("errorRate");
      o.expansion = static_cast<uint32_t>(r.Get("expansion"));
      ASSERT_TRUE(f.Init(o).ok());
      const auto keys = testing_util::MakeKeys("golden:", r.n);
      for (const auto& k : keys) {
        bool added = false;
        ASSERT_TRUE(
            f.Add(RedisBfHashing::Of(reinterpret_cast<const uint8_t*>(k.data()), k.size()), &added)
                .ok());
      }
      const std::vector<uint8_t> golden = ReadFile(r.file);
      EXPECT_EQ(testing_util::SerializeToVector(f), golden);
      RedisBloomFilter g;
      ASSERT_TRUE(g.Deserialize(golden.data(), golden.size()).ok());
      EXPECT_EQ(testing_util::SerializeToVector(g), golden);
      for (const auto& k : keys) {
        EXPECT_TRUE(
            g.Contains(RedisBfHashing::Of(reinterpret_cast<const uint8_t*>(k.data()), k.size())));
      }
    } else if (r.kind == "redis-cuckoo") {
      RedisCuckooFilter f;
      RedisCuckooOptions o;
      o.capacity = static_cast<uint64_t>(r.Get("capacity"));
      o.bucket_size = static_cast<uint32_t>(r.Get("bucketSize"));
      o.max_iterations = static_cast<uint32_t>(r.Get("maxIterations"));
      o.expansion = static_cast<uint32_t>(r.Get("expansion"));
      ASSERT_TRUE(f.Init(o).ok());
      const auto keys = testing_util::MakeKeys("golden:", r.n);
      const auto hash = [](const std::string& k) {
        return RedisCfHashing::Of(reinterpret_cast<const uint8_t*>(k.data()), k.size());
      };
      for (const auto& k : keys) {
        RedisCuckooFilter::Insert result;
        ASSERT_TRUE(f.Add(hash(k), false, &result).ok());
        ASSERT_EQ(result, RedisCuckooFilter::Insert::kInserted);
      }
      for (uint64_t i = 0; i < r.remove; ++i) ASSERT_TRUE(f.Delete(hash(keys[i])));
      const std::vector<uint8_t> golden = ReadFile(r.file);
      EXPECT_EQ(testing_util::SerializeToVector(f), golden);
      RedisCuckooFilter g;
      ASSERT_TRUE(g.Deserialize(golden.data(), golden.size()).ok());
      EXPECT_EQ(testing_util::SerializeToVector(g), golden);
      for (uint64_t i = r.remove; i < keys.size(); ++i) EXPECT_TRUE(g.Contains(hash(keys[i])));
    } else {
      ADD_FAILURE() << r.file << ": kind " << r.kind
                    << " has no builder: declare its options and info values "
                       "(cpp/include/bloomcuckoo/internal/declared.h), or add a branch for its "
                       "class to tests/cpp/golden_test.cc";
    }
  }
}

}  // namespace
}  // namespace bloomcuckoo
