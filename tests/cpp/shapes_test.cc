// The native build chooses exactly the shapes the wasm build chose (tests/fixtures/shapes.txt,
// written by scripts/gen-shapes.mjs from the wasm build) for 3,000 random (capacity, errorRate)
// pairs: sizing does not depend on the platform's libm (cpp/src/exact_math.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bloomcuckoo/blocked_bloom_filter.h"
#include "bloomcuckoo/bloom_filter.h"
#include "fixture_files.h"

namespace bloomcuckoo {
namespace {

TEST(Shapes, NativeChoosesTheShapesTheWasmBuildChose) {
  std::vector<std::string> lines;
  ASSERT_TRUE(testing_util::ReadDataLines(BLOOMCUCKOO_FIXTURES_DIR "/shapes.txt", &lines));
  for (const std::string& line : lines) {
    std::istringstream ss(line);
    uint64_t capacity = 0, bits = 0, error_bits = 0;
    uint32_t hashes = 0;
    std::string rate_hex, blocks_text;
    ss >> capacity >> rate_hex >> bits >> hashes >> blocks_text;
    ASSERT_FALSE(ss.fail()) << line;
    error_bits = std::stoull(rate_hex, nullptr, 16);
    double error_rate;
    std::memcpy(&error_rate, &error_bits, sizeof error_rate);

    uint64_t got_bits = 0;
    uint32_t got_hashes = 0;
    ASSERT_TRUE(BloomFilter::OptimalShape(capacity, error_rate, &got_bits, &got_hashes).ok())
        << line;
    EXPECT_EQ(got_bits, bits) << line;
    EXPECT_EQ(got_hashes, hashes) << line;
    if (blocks_text != "-") {
      uint64_t got_blocks = 0;
      ASSERT_TRUE(BlockedBloomFilter::BlocksFor(capacity, error_rate, &got_blocks).ok()) << line;
      EXPECT_EQ(got_blocks, std::stoull(blocks_text)) << line;
    }
  }
  EXPECT_EQ(lines.size(), 3000u);
}

}  // namespace
}  // namespace bloomcuckoo
