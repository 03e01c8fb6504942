// internal (not part of the API; every filter class derives from it): what the filter
// classes share in their shape, written once.
//
// Moves. A filter keeps its data members in a plain struct `Fields`, whose default member
// initialisers are the un-initialised filter. The class declares no copy or move of its own: its
// implicit moves move the fields member by member, then FilterBase resets the source's fields to
// Fields(), so a moved-from filter is exactly a default-constructed one (no storage, not the
// shape of the filter it gave its storage to). Copies are deleted: a filter may hold gigabytes.
//
// Bytes. Serialize and Deserialize, to a buffer or a stream, and SerializedSize are written once
// over three hooks of the class (private, declared by BLOOMCUCKOO_FILTER_BODY_HOOKS below, which
// also makes FilterBase a friend), inside the frame of serialization.h (kind F::kKind, hash id
// F::KeyHashing::kId, the seed F::seed()):
//   size_t BodySize() const;                           exact body length
//   void WriteBody(internal::ByteWriter& w) const;     writes BodySize() bytes
//   Status ReadBody(internal::ByteReader& r, const internal::FrameInfo& info);
//       parses a body (untrusted) straight into *this, which is always a default-constructed
//       filter (Deserialize's temporary, moved into place only when the whole frame is good);
//       kCorruptData names the fault.
// The definitions are in cpp/src/filter_base_impl.h; each class's .cc instantiates them.
#ifndef BLOOMCUCKOO_INTERNAL_FILTER_BASE_H_
#define BLOOMCUCKOO_INTERNAL_FILTER_BASE_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "bloomcuckoo/serialization.h"
#include "bloomcuckoo/status.h"

namespace bloomcuckoo {
namespace internal {

class ByteReader;
class ByteWriter;
struct FrameInfo;

template <typename F, typename Fields>
class FilterBase : protected Fields {
 public:
  FilterBase() = default;
  FilterBase(FilterBase&& other) noexcept : Fields(static_cast<Fields&&>(other)) {
    static_cast<Fields&>(other) = Fields();
  }
  FilterBase& operator=(FilterBase&& other) noexcept {
    if (this != &other) {
      static_cast<Fields&>(*this) = static_cast<Fields&&>(other);
      static_cast<Fields&>(other) = Fields();
    }
    return *this;
  }
  FilterBase(const FilterBase&) = delete;
  FilterBase& operator=(const FilterBase&) = delete;

  // The hash of a key under the class's hash policy (F::KeyHashing): what Contains/Add take.
  auto HashOf(const void* key, size_t len) const {
    return F::KeyHashing::Of(key, len, self().seed());
  }

  // Exact serialized size (frame included); 0 for an un-initialised filter.
  size_t SerializedSize() const;
  // Writes SerializedSize() bytes to `out`. kInvalidArgument if `capacity` is too small or the
  // filter is not initialised.
  Status Serialize(uint8_t* out, size_t capacity) const;
  // Replaces *this with the filter serialized in `data` (untrusted). On failure *this is
  // unchanged: kCorruptData, kUnsupportedVersion, kInvalidArgument (another filter kind) or
  // kOutOfMemory.
  Status Deserialize(const uint8_t* data, size_t size);
  // The same bytes streamed: written to `sink` or read from `source` front to back, with no
  // second copy of the filter in memory (the buffer versions above use these).
  Status Serialize(ByteSink& sink) const;
  Status Deserialize(ByteSource& source);

 protected:
  ~FilterBase() = default;

 private:
  const F& self() const { return static_cast<const F&>(*this); }
  F& self() { return static_cast<F&>(*this); }
};

}  // namespace internal
}  // namespace bloomcuckoo

// Declares, in a filter class's private part, the three body hooks FilterBase calls.
#define BLOOMCUCKOO_FILTER_BODY_HOOKS                           \
  friend FilterBase;                                            \
  size_t BodySize() const;                                      \
  void WriteBody(::bloomcuckoo::internal::ByteWriter& w) const; \
  Status ReadBody(::bloomcuckoo::internal::ByteReader& r,       \
                  const ::bloomcuckoo::internal::FrameInfo& info)

#endif  // BLOOMCUCKOO_INTERNAL_FILTER_BASE_H_
