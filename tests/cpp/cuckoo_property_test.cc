// Randomized property test of CuckooFilter against an exact multiset oracle: random sequences of
// Add / AddUnique / Remove / Contains / Count over a small key space on tiny filters of every
// shape, including fixed-size filters driven far past full. Invariants: never a false negative,
// Count >= the oracle's count, size() == the oracle's total, a failed Add changes no byte, and a
// serialize -> deserialize copy taken mid-sequence behaves identically from then on.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bloomcuckoo/cuckoo_filter.h"

namespace bloomcuckoo {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
  uint64_t Next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(Next() % n); }

 private:
  uint64_t s_;
};

std::vector<uint8_t> Bytes(const CuckooFilter& f) {
  std::vector<uint8_t> out(f.SerializedSize());
  EXPECT_TRUE(f.Serialize(out.data(), out.size()).ok());
  return out;
}

constexpr uint32_t kKeySpace = 200;

struct Stats {
  uint64_t ops = 0, adds_ok = 0, adds_failed = 0, unique_refused = 0, removes = 0, grown = 0;
  uint64_t compactions = 0, shrunk = 0;
};

// Runs one random sequence; returns false (after recording failures) on the first violation.
void RunSequence(uint64_t seed, Stats* stats) {
  Rng rng(seed);
  const uint32_t bucket_sizes[] = {1, 2, 4, 8};
  const uint32_t fp_bits[] = {8, 12, 16};
  const uint32_t expansions[] = {0, 0, 1, 2};
  const uint32_t iterations[] = {1, 8, 50, 500};
  CuckooOptions o;
  o.capacity = 16 + rng.Below(49);
  o.bucket_size = bucket_sizes[rng.Below(4)];
  o.fingerprint_bits = fp_bits[rng.Below(3)];
  if (o.bucket_size == 1 && o.fingerprint_bits == 8) o.fingerprint_bits = 12;  // refused shape
  o.expansion = expansions[rng.Below(4)];
  o.max_iterations = iterations[rng.Below(4)];
  o.seed = static_cast<uint32_t>(seed);
  SCOPED_TRACE(::testing::Message()
               << "seed=" << seed << " capacity=" << o.capacity << " b=" << o.bucket_size
               << " f=" << o.fingerprint_bits << " expansion=" << o.expansion
               << " maxIterations=" << o.max_iterations);
  CuckooFilter f;
  ASSERT_TRUE(f.Init(o).ok());
  // Growth by 2 doubles each sub-filter: cap duplicates of one key so that the number of
  // sub-filters (and memory) stays small; with expansion 0 and 1 duplicates are unbounded.
  const uint32_t max_copies = o.expansion == 2 ? 2 * o.bucket_size : 1000;
  // A hot set of 8 keys gets half of the operations, so duplicates pile up.
  auto pick = [&]() { return rng.Below(2) == 0 ? rng.Below(8) : rng.Below(kKeySpace); };

  std::vector<std::string> keys;
  for (uint32_t i = 0; i < kKeySpace; ++i) keys.push_back("prop:" + std::to_string(i));
  std::vector<uint32_t> oracle(kKeySpace, 0);
  uint64_t total = 0;
  auto hash = [&](uint32_t k) { return Murmur3KeyHash(keys[k].data(), keys[k].size(), o.seed); };

  CuckooFilter copy;  // the deserialized twin, once taken
  bool have_copy = false;
  const uint32_t num_ops = 300 + rng.Below(400);
  const uint32_t copy_at = rng.Below(num_ops);

  for (uint32_t step = 0; step < num_ops; ++step) {
    if (step == copy_at) {
      const std::vector<uint8_t> b = Bytes(f);
      ASSERT_TRUE(copy.Deserialize(b.data(), b.size()).ok());
      have_copy = true;
    }
    const uint32_t op = rng.Below(11);
    const uint32_t k = pick();
    const Hash128 h = hash(k);
    ++stats->ops;
    if (op <= 3) {  // Add (sometimes AddUnique)
      const bool unique = op == 3;
      if (!unique && oracle[k] >= max_copies) continue;
      const std::vector<uint8_t> before = Bytes(f);
      const uint32_t filters_before = f.filters();
      const bool ok = unique ? f.AddUnique(h) : f.Add(h);
      if (have_copy) {
        ASSERT_EQ(unique ? copy.AddUnique(h) : copy.Add(h), ok) << "step " << step;
      }
      ASSERT_LE(f.last_kicks(), o.max_iterations);
      if (unique && oracle[k] > 0) {
        ASSERT_FALSE(ok) << "AddUnique of a present key";
      }
      if (ok) {
        ++oracle[k];
        ++total;
        ++stats->adds_ok;
        if (f.filters() > filters_before) ++stats->grown;
      } else {
        ASSERT_EQ(Bytes(f), before) << "a refused Add changed the filter, step " << step;
        if (unique) {
          ++stats->unique_refused;
        } else {
          ++stats->adds_failed;
          ASSERT_TRUE(o.expansion == 0 || f.filters() == CuckooFilter::kMaxFilters);
        }
      }
    } else if (op <= 5) {  // Remove a key the oracle holds
      uint32_t r = k;
      for (uint32_t tries = 0; tries < kKeySpace && oracle[r] == 0; ++tries)
        r = (r + 1) % kKeySpace;
      if (oracle[r] == 0) continue;
      const Hash128 hr = hash(r);
      ASSERT_TRUE(f.Remove(hr)) << "Remove of a held key failed, step " << step;
      if (have_copy) {
        ASSERT_TRUE(copy.Remove(hr));
      }
      --oracle[r];
      --total;
      ++stats->removes;
    } else if (op <= 7) {  // Contains
      const bool c = f.Contains(h);
      if (oracle[k] > 0) {
        ASSERT_TRUE(c) << "false negative, step " << step;
      }
      if (have_copy) {
        ASSERT_EQ(copy.Contains(h), c);
      }
    } else if (op == 10) {  // Compact: nothing is lost, the twin compacts identically
      const uint32_t filters_before = f.filters();
      f.Compact();
      if (have_copy) copy.Compact();
      ASSERT_LE(f.filters(), filters_before);
      ++stats->compactions;
      if (f.filters() < filters_before) ++stats->shrunk;
    } else {  // Count
      const uint32_t c = f.Count(h);
      ASSERT_GE(c, oracle[k]) << "step " << step;
      if (have_copy) {
        ASSERT_EQ(copy.Count(h), c);
      }
    }
    ASSERT_EQ(f.size(), total);
    if (step % 64 == 0) {
      for (uint32_t i = 0; i < kKeySpace; ++i) {
        if (oracle[i] > 0) {
          ASSERT_TRUE(f.Contains(hash(i))) << "false negative in sweep, step " << step;
          ASSERT_GE(f.Count(hash(i)), oracle[i]);
        }
      }
    }
  }
  // Final sweep and the twin's bytes.
  uint64_t held = 0;
  for (uint32_t i = 0; i < kKeySpace; ++i) {
    held += oracle[i];
    if (oracle[i] > 0) {
      ASSERT_TRUE(f.Contains(hash(i)));
    }
    ASSERT_GE(f.Count(hash(i)), oracle[i]);
  }
  ASSERT_EQ(held, f.size());
  ASSERT_EQ(f.items_inserted() - f.items_deleted(), held);
  if (have_copy) {
    ASSERT_EQ(Bytes(copy), Bytes(f));
  }
  // Per-sub-filter counts tracked by Add/Remove agree with a fresh scan (Deserialize counts).
  {
    const std::vector<uint8_t> b = Bytes(f);
    CuckooFilter scanned;
    ASSERT_TRUE(scanned.Deserialize(b.data(), b.size()).ok());
    uint64_t sum = 0;
    for (uint32_t i = 0; i < f.filters(); ++i) {
      ASSERT_EQ(scanned.sub_filter_items(i), f.sub_filter_items(i)) << i;
      sum += f.sub_filter_items(i);
    }
    ASSERT_EQ(sum, f.size());
  }
  // Removing everything the oracle holds empties the filter.
  for (uint32_t i = 0; i < kKeySpace; ++i) {
    while (oracle[i] > 0) {
      ASSERT_TRUE(f.Remove(hash(i)));
      --oracle[i];
    }
  }
  ASSERT_EQ(f.size(), 0u);
  ASSERT_EQ(f.LoadFactor(), 0.0);
}

TEST(CuckooProperty, RandomSequencesAgainstMultisetOracle) {
  Stats stats;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    RunSequence(seed, &stats);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf(
      "[cuckoo-property] ops=%llu adds=%llu failed-adds=%llu addUnique-refused=%llu "
      "removes=%llu growths=%llu\n",
      static_cast<unsigned long long>(stats.ops), static_cast<unsigned long long>(stats.adds_ok),
      static_cast<unsigned long long>(stats.adds_failed),
      static_cast<unsigned long long>(stats.unique_refused),
      static_cast<unsigned long long>(stats.removes), static_cast<unsigned long long>(stats.grown));
  // The sequences must actually reach the interesting states.
  EXPECT_GT(stats.adds_failed, 1000u);
  EXPECT_GT(stats.grown, 100u);
  EXPECT_GT(stats.removes, 10000u);
  EXPECT_GT(stats.shrunk, 50u) << "compactions that dropped a sub-filter, of " << stats.compactions;
}

// Fixed-size filters driven far past full with distinct keys: everything accepted stays.
TEST(CuckooProperty, FixedSizeFiltersPastFullLoseNothing) {
  for (uint32_t b : {1u, 2u, 4u, 8u}) {
    for (uint32_t f_bits : {8u, 12u, 16u}) {
      if (b == 1 && f_bits == 8) continue;  // refused by Init (b = 1 needs 12+ bits)
      CuckooOptions o;
      o.capacity = 40;
      o.bucket_size = b;
      o.fingerprint_bits = f_bits;
      o.expansion = 0;
      o.max_iterations = 100;
      CuckooFilter f;
      ASSERT_TRUE(f.Init(o).ok());
      std::vector<std::string> stored;
      uint64_t refused = 0;
      for (int i = 0; i < 2000; ++i) {
        const std::string k = "full:" + std::to_string(i);
        const Hash128 h = Murmur3KeyHash(k.data(), k.size(), o.seed);
        if (f.Add(h)) {
          stored.push_back(k);
        } else {
          ++refused;
        }
        if (i % 100 == 0) {
          for (const auto& s : stored) {
            ASSERT_TRUE(f.Contains(Murmur3KeyHash(s.data(), s.size(), o.seed)))
                << "b=" << b << " i=" << i;
          }
        }
      }
      EXPECT_GT(refused, 1000u);
      EXPECT_EQ(f.size(), stored.size());
      EXPECT_LE(stored.size(), f.buckets() * b);
      for (const auto& s : stored)
        ASSERT_TRUE(f.Contains(Murmur3KeyHash(s.data(), s.size(), o.seed)));
    }
  }
}

}  // namespace
}  // namespace bloomcuckoo
