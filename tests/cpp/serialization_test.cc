#include "bloomcuckoo/serialization.h"

#include <gtest/gtest.h>

#include <vector>

#include "frame.h"

namespace bloomcuckoo {
namespace {

TEST(Crc32, CheckValue) {
  const uint8_t s[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(Crc32(s, 9), 0xCBF43926u);
  EXPECT_EQ(Crc32(nullptr, 0), 0u);
}

// The sliced implementation against the textbook bit-by-bit definition, at every length up to
// 100 and every alignment (the 8-byte blocks and the byte-wise tail both exercised).
TEST(Crc32, MatchesTheBitwiseDefinition) {
  auto reference = [](const uint8_t* p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
      c ^= p[i];
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
  };
  std::vector<uint8_t> data(4096 + 16);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& b : data) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<uint8_t>(x >> 24);
  }
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n <= 100; ++n) {
      ASSERT_EQ(Crc32(data.data() + offset, n), reference(data.data() + offset, n)) << offset << " " << n;
    }
  }
  EXPECT_EQ(Crc32(data.data(), 4096), reference(data.data(), 4096));
}

std::vector<uint8_t> Frame(FilterKind kind, const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  Status s = internal::WriteFrame(out.data(), out.size(), kind, 1234, 1, body.size(),
                                  [&](internal::ByteWriter& w) { w.Bytes(body.data(), body.size()); });
  EXPECT_TRUE(s.ok());
  return out;
}

TEST(Frame, RoundTrip) {
  const std::vector<uint8_t> body = {1, 2, 3, 4, 5};
  std::vector<uint8_t> bytes = Frame(FilterKind::kCuckoo, body);
  ASSERT_EQ(bytes.size(), kHeaderSize + 5 + kTrailerSize);
  EXPECT_EQ(bytes[0], 'B');
  EXPECT_EQ(bytes[4], 1);  // version, little-endian
  EXPECT_EQ(bytes[6], 5);  // kind
  internal::FrameInfo info{};
  internal::ByteReader r(nullptr, 0);
  ASSERT_TRUE(internal::OpenFrame(bytes.data(), bytes.size(), FilterKind::kCuckoo, &info, &r).ok());
  EXPECT_EQ(info.seed, 1234u);
  EXPECT_EQ(r.remaining(), 5u);
  FilterKind kind;
  ASSERT_TRUE(PeekFilterKind(bytes.data(), bytes.size(), &kind).ok());
  EXPECT_EQ(kind, FilterKind::kCuckoo);
  EXPECT_EQ(internal::OpenFrame(bytes.data(), bytes.size(), FilterKind::kBloom, &info, &r).code(),
            StatusCode::kInvalidArgument);
}

TEST(Frame, RejectsEveryTruncationAndBitFlip) {
  std::vector<uint8_t> bytes = Frame(FilterKind::kBloom, {9, 8, 7, 6});
  internal::FrameInfo info{};
  internal::ByteReader r(nullptr, 0);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(internal::OpenFrame(bytes.data(), n, FilterKind::kBloom, &info, &r).code(),
              StatusCode::kCorruptData) << n;
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> b = bytes;
      b[i] ^= static_cast<uint8_t>(1u << bit);
      const Status s = internal::OpenFrame(b.data(), b.size(), FilterKind::kBloom, &info, &r);
      EXPECT_FALSE(s.ok()) << i << ":" << bit;
    }
  }
}

TEST(Frame, FutureVersionIsUnsupported) {
  std::vector<uint8_t> bytes = Frame(FilterKind::kBloom, {1});
  bytes[4] = 2;
  const uint32_t crc = Crc32(bytes.data(), bytes.size() - 4);
  for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = static_cast<uint8_t>(crc >> (8 * i));
  internal::FrameInfo info{};
  internal::ByteReader r(nullptr, 0);
  EXPECT_EQ(internal::OpenFrame(bytes.data(), bytes.size(), FilterKind::kBloom, &info, &r).code(),
            StatusCode::kUnsupportedVersion);
}

TEST(ByteReader, NeverReadsPastEnd) {
  const uint8_t data[3] = {1, 2, 3};
  internal::ByteReader r(data, 3);
  EXPECT_EQ(r.U16(), 0x0201u);
  EXPECT_EQ(r.U32(), 0u);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.U8(), 0u);
  uint64_t words[2];
  internal::ByteReader r2(data, 3);
  EXPECT_FALSE(r2.Words(words, 1));
}

}  // namespace
}  // namespace bloomcuckoo
