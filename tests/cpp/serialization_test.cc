#include "bloomcuckoo/serialization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
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
      ASSERT_EQ(Crc32(data.data() + offset, n), reference(data.data() + offset, n))
          << offset << " " << n;
    }
  }
  EXPECT_EQ(Crc32(data.data(), 4096), reference(data.data(), 4096));
}

std::vector<uint8_t> Frame(FilterKind kind, const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out(internal::FramedSize(body.size()));
  internal::MemorySink sink(out.data(), out.size());
  Status s = internal::WriteFrame(sink, kind, 1234, 1, body.size(), [&](internal::ByteWriter& w) {
    w.Bytes(body.data(), body.size());
  });
  EXPECT_TRUE(s.ok());
  return out;
}

// Reads a frame of `kind` from bytes[0, n) with a parser that only notes the seed and body
// length (and skips the body).
Status Open(const std::vector<uint8_t>& bytes, size_t n, FilterKind kind, uint32_t* seed = nullptr,
            uint64_t* body = nullptr) {
  internal::MemorySource source(bytes.data(), n);
  return internal::ReadFrame(source, kind,
                             [&](internal::ByteReader& r, const internal::FrameInfo& info) {
                               if (seed != nullptr) *seed = info.seed;
                               if (body != nullptr) *body = r.remaining();
                               r.Drain();
                               return Status::Ok();
                             });
}

TEST(Frame, RoundTrip) {
  const std::vector<uint8_t> body = {1, 2, 3, 4, 5};
  std::vector<uint8_t> bytes = Frame(FilterKind::kCuckoo, body);
  ASSERT_EQ(bytes.size(), kHeaderSize + 5 + kTrailerSize);
  EXPECT_EQ(bytes[0], 'B');
  EXPECT_EQ(bytes[4], 1);  // version, little-endian
  EXPECT_EQ(bytes[6], 5);  // kind
  uint32_t seed = 0;
  uint64_t body_len = 0;
  ASSERT_TRUE(Open(bytes, bytes.size(), FilterKind::kCuckoo, &seed, &body_len).ok());
  EXPECT_EQ(seed, 1234u);
  EXPECT_EQ(body_len, 5u);
  FilterKind kind;
  ASSERT_TRUE(PeekFilterKind(bytes.data(), bytes.size(), &kind).ok());
  EXPECT_EQ(kind, FilterKind::kCuckoo);
  EXPECT_EQ(Open(bytes, bytes.size(), FilterKind::kBloom).code(), StatusCode::kInvalidArgument);
}

TEST(Frame, RejectsEveryTruncationAndBitFlip) {
  std::vector<uint8_t> bytes = Frame(FilterKind::kBloom, {9, 8, 7, 6});
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(Open(bytes, n, FilterKind::kBloom).code(), StatusCode::kCorruptData) << n;
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> b = bytes;
      b[i] ^= static_cast<uint8_t>(1u << bit);
      EXPECT_FALSE(Open(b, b.size(), FilterKind::kBloom).ok()) << i << ":" << bit;
    }
  }
}

// Whatever the parser trips on first, corrupt bytes read as a checksum failure: a wrong kind
// byte, an unknown kind and a parser error all give way to the checksum.
TEST(Frame, ChecksumTakesPrecedenceOverWhatFollowsTheHeader) {
  std::vector<uint8_t> bytes = Frame(FilterKind::kBloom, {9, 8, 7, 6});
  std::vector<uint8_t> other_kind = bytes;
  other_kind[6] = static_cast<uint8_t>(FilterKind::kCuckoo);
  const Status a = Open(other_kind, other_kind.size(), FilterKind::kBloom);
  EXPECT_EQ(a.code(), StatusCode::kCorruptData);
  EXPECT_NE(std::string(a.message()).find("checksum"), std::string::npos) << a.message();
  std::vector<uint8_t> unknown = bytes;
  unknown[6] = 99;
  EXPECT_NE(
      std::string(Open(unknown, unknown.size(), FilterKind::kBloom).message()).find("checksum"),
      std::string::npos);
  std::vector<uint8_t> flipped = bytes;
  flipped[kHeaderSize] ^= 1;
  internal::MemorySource source(flipped.data(), flipped.size());
  const Status c = internal::ReadFrame(
      source, FilterKind::kBloom, [](internal::ByteReader& r, const internal::FrameInfo&) {
        r.U8();
        return Status(StatusCode::kCorruptData, "the parser disliked the first byte");
      });
  EXPECT_NE(std::string(c.message()).find("checksum"), std::string::npos) << c.message();
  // With a sound checksum the parser's own error stands.
  internal::MemorySource sound(bytes.data(), bytes.size());
  const Status d = internal::ReadFrame(
      sound, FilterKind::kBloom, [](internal::ByteReader& r, const internal::FrameInfo&) {
        r.U8();
        return Status(StatusCode::kCorruptData, "the parser disliked the first byte");
      });
  EXPECT_STREQ(d.message(), "the parser disliked the first byte");
}

TEST(Frame, FutureVersionIsUnsupported) {
  std::vector<uint8_t> bytes = Frame(FilterKind::kBloom, {1});
  bytes[4] = 2;
  const uint32_t crc = Crc32(bytes.data(), bytes.size() - 4);
  for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = static_cast<uint8_t>(crc >> (8 * i));
  EXPECT_EQ(Open(bytes, bytes.size(), FilterKind::kBloom).code(), StatusCode::kUnsupportedVersion);
}

TEST(Crc32, ExtendEqualsOneCall) {
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  for (size_t cut : {0u, 1u, 7u, 8u, 9u, 500u, 999u, 1000u}) {
    EXPECT_EQ(Crc32Extend(Crc32(data.data(), cut), data.data() + cut, data.size() - cut),
              Crc32(data.data(), data.size()))
        << cut;
  }
}

// A reader over a source that hands out bytes one at a time and a writer over a sink that takes
// them one at a time see the same fields as over whole buffers.
TEST(ByteStreams, FieldsSurviveAnyPieceSizes) {
  std::vector<uint8_t> buf(8 + 4 + 1 + 3000);
  {
    internal::ByteWriter w(buf.data(), buf.size());
    w.U64(0x0102030405060708ull);
    w.U32(0xA0B0C0D0u);
    w.U8(7);
    std::vector<uint16_t> words(1500);
    for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<uint16_t>(i * 31);
    w.Words(words.data(), words.size());
    EXPECT_EQ(w.position(), buf.size());
  }
  struct Trickle final : ByteSource {
    const std::vector<uint8_t>& b;
    size_t pos = 0, calls = 0;
    explicit Trickle(const std::vector<uint8_t>& v) : b(v) {}
    uint64_t size() const override { return b.size(); }
    bool Read(uint8_t* out, size_t n) override {
      ++calls;
      if (n > b.size() - pos) return false;
      std::copy(b.begin() + static_cast<long>(pos), b.begin() + static_cast<long>(pos + n), out);
      pos += n;
      return true;
    }
  } source(buf);
  internal::ByteReader r(source, buf.size(), /*checksum=*/true);
  EXPECT_EQ(r.U64(), 0x0102030405060708ull);
  EXPECT_EQ(r.U32(), 0xA0B0C0D0u);
  EXPECT_EQ(r.U8(), 7u);
  std::vector<uint16_t> words(1500);
  ASSERT_TRUE(r.Words(words.data(), words.size()));
  for (size_t i = 0; i < words.size(); ++i) ASSERT_EQ(words[i], static_cast<uint16_t>(i * 31)) << i;
  EXPECT_TRUE(r.AtEnd());
  EXPECT_EQ(r.crc(), Crc32(buf.data(), buf.size()));
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
