#include <gtest/gtest.h>

#include <cstdint>

#include "bloomcuckoo/hashing.h"

namespace bloomcuckoo {
namespace {

TEST(KeyBatch, OffsetsWithinChecksOrderAndTheLastEnd) {
  const uint8_t data[8] = {};
  const uint32_t good[] = {0, 2, 2, 8};
  EXPECT_TRUE((KeyBatch{data, good, 3}.OffsetsWithin(8)));
  EXPECT_FALSE((KeyBatch{data, good, 3}.OffsetsWithin(7)));  // runs past the bytes
  const uint32_t down[] = {0, 4, 3, 8};
  EXPECT_FALSE((KeyBatch{data, down, 3}.OffsetsWithin(8)));  // decreases
  const uint32_t huge[] = {0, 4, 0xFFFFFFF0u};
  EXPECT_FALSE((KeyBatch{data, huge, 2}.OffsetsWithin(8)));
  const uint32_t empty[] = {5};
  EXPECT_TRUE((KeyBatch{data, empty, 0}.OffsetsWithin(8)));
  EXPECT_FALSE((KeyBatch{data, empty, 0}.OffsetsWithin(4)));
}

}  // namespace
}  // namespace bloomcuckoo
