#include "js_stream.h"

#include <emscripten/emscripten.h>

// Addresses arrive as i32 and may be past 2 GiB: read them unsigned.
EM_JS(int, bloomcuckoo_js_sink, (const uint8_t* data, size_t size),
      { return Module["bcSink"](data >>> 0, size >>> 0); });
EM_JS(int, bloomcuckoo_js_source, (uint8_t * out, double offset, size_t size),
      { return Module["bcSource"](out >>> 0, offset, size >>> 0); });

namespace bloomcuckoo {
namespace bindings {

bool JsSink::Write(const uint8_t* data, size_t size) {
  return size == 0 || bloomcuckoo_js_sink(data, size) == 1;
}

bool JsSource::Read(uint8_t* out, size_t size) {
  if (size > size_ - position_) return false;
  if (size != 0 && bloomcuckoo_js_source(out, static_cast<double>(position_), size) != 1)
    return false;
  position_ += size;
  return true;
}

}  // namespace bindings
}  // namespace bloomcuckoo
