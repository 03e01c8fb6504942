// The byte methods of internal::FilterBase (include/bloomcuckoo/internal/filter_base.h), over the
// class's hooks BodySize, WriteBody and ReadBody. A filter's .cc includes this and instantiates
// them once: template class internal::FilterBase<Filter, internal::FilterFields>;
#ifndef BLOOMCUCKOO_SRC_FILTER_BASE_IMPL_H_
#define BLOOMCUCKOO_SRC_FILTER_BASE_IMPL_H_

#include <utility>

#include "bloomcuckoo/internal/filter_base.h"
#include "byte_io.h"
#include "frame.h"

namespace bloomcuckoo {
namespace internal {

template <typename F, typename Fields>
size_t FilterBase<F, Fields>::SerializedSize() const {
  return self().initialized() ? FramedSize(self().BodySize()) : 0;
}

template <typename F, typename Fields>
Status FilterBase<F, Fields>::Serialize(uint8_t* out, size_t capacity) const {
  return SerializeToBuffer(self(), out, capacity);
}

template <typename F, typename Fields>
Status FilterBase<F, Fields>::Serialize(ByteSink& sink) const {
  const F& f = self();
  if (!f.initialized()) return Status(StatusCode::kInvalidArgument, "filter is not initialised");
  return WriteFrame(sink, F::kKind, f.seed(), F::KeyHashing::kId, f.BodySize(),
                    [&](ByteWriter& w) { f.WriteBody(w); });
}

template <typename F, typename Fields>
Status FilterBase<F, Fields>::Deserialize(const uint8_t* data, size_t size) {
  return DeserializeFromBuffer(self(), data, size);
}

// The body is parsed into a temporary, which replaces *this only once the whole frame (checksum
// included, known at its end) is good.
template <typename F, typename Fields>
Status FilterBase<F, Fields>::Deserialize(ByteSource& source) {
  F result;
  BLOOMCUCKOO_RETURN_IF_ERROR(ReadFrame(
      source, F::kKind,
      [&](ByteReader& body, const FrameInfo& info) { return result.ReadBody(body, info); }));
  self() = std::move(result);
  return Status::Ok();
}

}  // namespace internal
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_SRC_FILTER_BASE_IMPL_H_
