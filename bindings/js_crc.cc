// The CRC-32 of large pieces computed by the JS runtime when it has a native one of the same
// definition (Node's zlib.crc32: js/main/filter.js installs Module.bcCrc32 where it exists;
// browsers keep the wasm tables). Module.bcCrc32(crc, ptr, len) returns the extended CRC-32.
#include <emscripten/emscripten.h>

#include "crc32.h"

// -1 when no runtime CRC is installed (or it is switched off: null); else the CRC as a number.
// Addresses arrive as i32 and may be past 2 GiB: read them unsigned.
EM_JS(double, bloomcuckoo_js_crc32, (uint32_t crc, const uint8_t* data, size_t size), {
  var f = Module["bcCrc32"];
  return f ? f(crc >>> 0, data >>> 0, size >>> 0) : -1;
});

namespace bloomcuckoo {
namespace bindings {
namespace {

bool JsCrc32(uint32_t crc, const uint8_t* data, size_t size, uint32_t* out) {
  const double v = bloomcuckoo_js_crc32(crc, data, size);
  if (!(v >= 0 && v <= 4294967295.0)) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

// Installed when the module starts (this file is linked only into the wasm module with glue).
[[maybe_unused]] const bool kInstalled = (internal::SetCrc32Accelerator(&JsCrc32), true);

}  // namespace
}  // namespace bindings
}  // namespace bloomcuckoo
