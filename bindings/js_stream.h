// A ByteSink and a ByteSource backed by JS callbacks, so serialized bytes move straight between
// a filter's memory and a JS ArrayBuffer or file (js/main/filter.js installs the callbacks around
// each call: Module.bcSink(ptr, len) and Module.bcSource(ptr, offset, len), each returning 1, or
// 0 to stop after a JS error, which js/main/filter.js then rethrows).
#ifndef BLOOMCUCKOO_BINDINGS_JS_STREAM_H_
#define BLOOMCUCKOO_BINDINGS_JS_STREAM_H_

#include <cstddef>
#include <cstdint>

#include "bloomcuckoo/serialization.h"

namespace bloomcuckoo {
namespace bindings {

class JsSink final : public ByteSink {
 public:
  bool Write(const uint8_t* data, size_t size) override;
};

class JsSource final : public ByteSource {
 public:
  explicit JsSource(double size) : size_(size < 0 ? 0 : static_cast<uint64_t>(size)) {}
  uint64_t size() const override { return size_; }
  bool Read(uint8_t* out, size_t size) override;

 private:
  uint64_t size_;
  uint64_t position_ = 0;
};

}  // namespace bindings
}  // namespace bloomcuckoo

#endif  // BLOOMCUCKOO_BINDINGS_JS_STREAM_H_
