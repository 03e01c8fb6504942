// internal (not part of the API; public headers hold it as a member): a zero-initialised,
// 64-byte aligned array that is allocated without throwing.
#ifndef BLOOMCUCKOO_INTERNAL_BUFFER_H_
#define BLOOMCUCKOO_INTERNAL_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "bloomcuckoo/status.h"

namespace bloomcuckoo {
namespace internal {

// The largest single allocation any filter makes: on wasm32 the 4 GiB address space less 64 MiB
// for the module's own data, stack and key buffers; 64 GiB natively. Larger requests get
// kOutOfMemory before malloc is asked (a request below it may still fail in malloc, also as
// kOutOfMemory). Deserializers check sizes against the input's length before allocating.
inline constexpr uint64_t kMaxAllocationBytes =
    sizeof(void*) == 4 ? (uint64_t{1} << 32) - (uint64_t{1} << 26) : (uint64_t{1} << 36);

template <typename T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    Buffer(std::move(other)).swap(*this);
    return *this;
  }
  ~Buffer() { std::free(raw_); }

  // Replaces the contents with `count` zeroed elements (left unset with zeroed = false, for a
  // caller about to overwrite all of them, e.g. from serialized bytes). On failure nothing changes.
  Status Allocate(uint64_t count, bool zeroed = true) {
    if (count > kMaxAllocationBytes / sizeof(T)) {
      return Status(StatusCode::kOutOfMemory, "filter too large to allocate");
    }
    const size_t bytes = static_cast<size_t>(count) * sizeof(T);
    void* raw = zeroed ? std::calloc(bytes + 64, 1) : std::malloc(bytes + 64);
    if (raw == nullptr) return Status(StatusCode::kOutOfMemory, "out of memory allocating filter");
    std::free(raw_);
    raw_ = raw;
    const uintptr_t p = (reinterpret_cast<uintptr_t>(raw) + 63) & ~uintptr_t{63};
    data_ = reinterpret_cast<T*>(p);
    size_ = static_cast<size_t>(count);
    return Status::Ok();
  }
  // Copies `other` (same element type); kOutOfMemory leaves *this unchanged.
  Status CopyFrom(const Buffer& other) {
    Buffer tmp;
    BLOOMCUCKOO_RETURN_IF_ERROR(tmp.Allocate(other.size_));
    if (other.size_ != 0) std::memcpy(tmp.data_, other.data_, other.size_ * sizeof(T));
    swap(tmp);
    return Status::Ok();
  }
  void Clear() {
    if (size_ != 0) std::memset(data_, 0, size_ * sizeof(T));
  }
  void Reset() { Buffer().swap(*this); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

  void swap(Buffer& other) noexcept {
    std::swap(raw_, other.raw_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }

 private:
  void* raw_ = nullptr;
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_INTERNAL_BUFFER_H_
