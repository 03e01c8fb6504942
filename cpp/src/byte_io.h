// internal: little-endian field-by-field writing and bounds-checked reading of serialized bytes.
#ifndef BLOOMCUCKOO_SRC_BYTE_IO_H_
#define BLOOMCUCKOO_SRC_BYTE_IO_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bloomcuckoo {
namespace internal {

// An n-byte little-endian unsigned integer (n <= 8) at p, read or written in place (for the
// packed headers of RedisBloom's dumps, which are not read front to back).
inline uint64_t LoadLE(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline void StoreLE(uint8_t* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Writes into a buffer the caller sized exactly (via the filter's SerializedSize()).
class ByteWriter {
 public:
  ByteWriter(uint8_t* out, size_t capacity) : out_(out), capacity_(capacity) {}

  void U8(uint8_t v) { Put(v, 1); }
  void U16(uint16_t v) { Put(v, 2); }
  void U32(uint32_t v) { Put(v, 4); }
  void U64(uint64_t v) { Put(v, 8); }
  void F64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    U64(bits);
  }
  void Bytes(const uint8_t* data, size_t n) {
    if (!Fits(n)) return;
    if (n != 0) std::memcpy(out_ + pos_, data, n);
    pos_ += n;
  }
  // Arrays of words, each written little-endian.
  template <typename T>
  void Words(const T* words, size_t n) {
    for (size_t i = 0; i < n; ++i) Put(static_cast<uint64_t>(words[i]), sizeof(T));
  }

  size_t position() const { return pos_; }
  // False when a write went past the capacity (a bug in SerializedSize()).
  bool ok() const { return ok_; }

 private:
  bool Fits(size_t n) {
    if (!ok_ || capacity_ - pos_ < n) ok_ = false;
    return ok_;
  }
  void Put(uint64_t v, size_t n) {
    if (!Fits(n)) return;
    for (size_t i = 0; i < n; ++i) out_[pos_ + i] = static_cast<uint8_t>(v >> (8 * i));
    pos_ += n;
  }

  uint8_t* out_;
  size_t capacity_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// Reads from untrusted bytes. Every read checks the remaining length first; after the first
// short read ok() is false and every later read yields zero.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t U8() { return static_cast<uint8_t>(Get(1)); }
  uint16_t U16() { return static_cast<uint16_t>(Get(2)); }
  uint32_t U32() { return static_cast<uint32_t>(Get(4)); }
  uint64_t U64() { return Get(8); }
  double F64() {
    const uint64_t bits = U64();
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  // Returns a pointer to the next n bytes (and skips them), or nullptr if fewer remain.
  const uint8_t* Bytes(size_t n) {
    if (!Has(n)) return nullptr;
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  // Reads n little-endian words into `out`; false (and nothing read) if fewer bytes remain.
  template <typename T>
  bool Words(T* out, size_t n) {
    if (n > remaining() / sizeof(T)) {
      ok_ = false;
      return false;
    }
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<T>(Get(sizeof(T)));
    return ok_;
  }

  bool Has(size_t n) {
    if (!ok_ || size_ - pos_ < n) ok_ = false;
    return ok_;
  }
  size_t remaining() const { return ok_ ? size_ - pos_ : 0; }
  size_t position() const { return pos_; }
  bool ok() const { return ok_; }
  bool AtEnd() const { return ok_ && pos_ == size_; }

 private:
  uint64_t Get(size_t n) {
    if (!Has(n)) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += n;
    return v;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_BYTE_IO_H_
