// The CRC-32 accelerator hook (cpp/src/crc32.h): pieces of at least kCrc32AcceleratedMin bytes go
// to it, smaller ones and a declined piece to the tables, and a frame written through it has the
// same bytes as one written by the tables alone.
#include "crc32.h"

#include <gtest/gtest.h>

#include <vector>

#include "bloomcuckoo/serialization.h"
#include "frame.h"

namespace bloomcuckoo {
namespace {

int g_calls = 0;
bool g_decline = false;
bool CountingTables(uint32_t crc, const uint8_t* data, size_t size, uint32_t* out) {
  ++g_calls;
  if (g_decline) return false;
  *out = internal::Crc32ExtendTables(crc, data, size);
  return true;
}
bool Wrong(uint32_t crc, const uint8_t* data, size_t size, uint32_t* out) {
  *out = internal::Crc32ExtendTables(crc, data, size) ^ 1u;
  return true;
}

std::vector<uint8_t> Bytes(size_t n) {
  std::vector<uint8_t> data(n);
  uint32_t x = 12345;
  for (auto& b : data) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 16);
  }
  return data;
}

std::vector<uint8_t> Frame(const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  internal::MemorySink sink(out.data(), out.size());
  EXPECT_TRUE(
      internal::WriteFrame(sink, FilterKind::kBloom, 7, 1, body.size(),
                           [&](internal::ByteWriter& w) { w.Bytes(body.data(), body.size()); })
          .ok());
  return out;
}

class Crc32Accelerator : public ::testing::Test {
 protected:
  void SetUp() override {
    g_calls = 0;
    g_decline = false;
  }
  void TearDown() override { internal::SetCrc32Accelerator(nullptr); }
};

TEST_F(Crc32Accelerator, LargePiecesGoToItSmallOnesDoNot) {
  const std::vector<uint8_t> data = Bytes(3 * internal::kCrc32AcceleratedMin);
  const uint32_t want = Crc32(data.data(), data.size());
  const uint32_t small = Crc32(data.data(), internal::kCrc32AcceleratedMin - 1);
  internal::SetCrc32Accelerator(&CountingTables);
  EXPECT_EQ(Crc32(data.data(), internal::kCrc32AcceleratedMin - 1), small);
  EXPECT_EQ(g_calls, 0);
  EXPECT_EQ(Crc32(data.data(), data.size()), want);
  EXPECT_EQ(g_calls, 1);
  g_decline = true;  // a declined piece is computed by the tables
  EXPECT_EQ(Crc32(data.data(), data.size()), want);
  EXPECT_EQ(g_calls, 2);
}

TEST_F(Crc32Accelerator, FramesHaveTheSameBytes) {
  const std::vector<uint8_t> body = Bytes(600000);  // pieces of 256 KiB and a tail
  const std::vector<uint8_t> tables = Frame(body);
  internal::SetCrc32Accelerator(&CountingTables);
  EXPECT_EQ(Frame(body), tables);
  EXPECT_GE(g_calls, 3);
  internal::SetCrc32Accelerator(&Wrong);  // what the comparison above would catch
  EXPECT_NE(Frame(body), tables);
}

}  // namespace
}  // namespace bloomcuckoo
