// wasm only: malloc and friends over Emscripten's emmalloc, refusing any block that would end
// past the 4 GiB address space.
//
// Why: emmalloc (Emscripten 3.1.6) checks whether a request fits a free region with
// `payloadStart + size > payloadEnd` in 32-bit arithmetic. For a free region high in a memory that
// has grown towards 4 GiB, `payloadStart + size` wraps, the test passes, and it hands out the
// (smaller) region as if it held `size` bytes: calloc's memset then traps with "memory access out
// of bounds", and writes through a malloc'd block wrap to low addresses (static data, the stack,
// other filters). Measured with a 2 GiB filter held, a 1.5 GiB one freed, then 2 GiB asked for.
//
// The fix, here rather than in the build: emmalloc's public entry points are weak symbols, so
// these strong definitions replace them and call its internal emmalloc_memalign. A block whose
// end would lie past 4 GiB is the only kind the wrapped check can wrongly return (a block that
// ends below 4 GiB was checked without wrapping), so it is held (keeping emmalloc from offering
// the same region again) while emmalloc is asked once more, then every held block is freed. The
// result is a block that really holds `size` bytes, or null: the callers report kOutOfMemory.
// Another allocator (dlmalloc) would add about 4 KB of gzipped wasm for the same guarantee.
#ifdef __EMSCRIPTEN__

#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" {
void* emmalloc_memalign(size_t alignment, size_t size);
void emmalloc_free(void* ptr);
size_t emmalloc_usable_size(void* ptr);
}

namespace {

constexpr uint64_t kAddressSpace = uint64_t{1} << 32;
// emmalloc rounds a size up to a multiple of 4 before it looks for room (8 leaves a margin).
constexpr uint64_t kSizeRounding = 8;
// malloc's alignment, as emmalloc's own malloc gives.
constexpr size_t kMallocAlignment = alignof(std::max_align_t);
// How many wrongly fitting regions are set aside before giving up (each try takes one region out
// of the search; a heap has few regions large enough to be picked for a multi-MiB request).
constexpr int kMaxTries = 64;

bool EndsPastAddressSpace(const void* p, size_t size) {
  return reinterpret_cast<uintptr_t>(p) + uint64_t{size} + kSizeRounding > kAddressSpace;
}

void* CheckedMemalign(size_t alignment, size_t size) {
  void* held[kMaxTries];
  int count = 0;
  void* p = emmalloc_memalign(alignment, size);
  while (p != nullptr && EndsPastAddressSpace(p, size)) {
    if (count == kMaxTries) {
      emmalloc_free(p);
      p = nullptr;
      break;
    }
    held[count++] = p;
    p = emmalloc_memalign(alignment, size);
  }
  while (count > 0) emmalloc_free(held[--count]);
  return p;
}

}  // namespace

extern "C" {

void* malloc(size_t size) { return CheckedMemalign(kMallocAlignment, size); }

void* memalign(size_t alignment, size_t size) { return CheckedMemalign(alignment, size); }

void* aligned_alloc(size_t alignment, size_t size) { return CheckedMemalign(alignment, size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return 22;  // EINVAL
  void* p = CheckedMemalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}

void* calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  const size_t bytes = count * size;
  void* p = CheckedMemalign(kMallocAlignment, bytes);
  if (p != nullptr) std::memset(p, 0, bytes);
  return p;
}

// emmalloc's realloc may move a block through the same wrapped check; ours grows by a checked
// allocation and a copy (nothing in the library reallocates on a hot path).
void* realloc(void* ptr, size_t size) {
  if (ptr == nullptr) return malloc(size);
  if (size == 0) {
    emmalloc_free(ptr);
    return nullptr;
  }
  const size_t have = emmalloc_usable_size(ptr);
  if (size <= have) return ptr;
  void* p = malloc(size);
  if (p == nullptr) return nullptr;
  std::memcpy(p, ptr, have);
  emmalloc_free(ptr);
  return p;
}

}  // extern "C"

#endif  // __EMSCRIPTEN__
