// The wasm build has no RTTI (-fno-rtti, EMSCRIPTEN_HAS_UNBOUND_TYPE_NAMES=0; the link then takes
// Emscripten's libembind built the same way): no type_info names or C++ ABI type_info code in the
// binary. Without RTTI, Embind can name a type nobody bound only by its id: __getTypeName formats
// it with sprintf("%p"), which the compiler turns into siprintf, and that one call links musl's
// whole printf. This siprintf writes exactly what that call needs, the id in hex, and aborts on any
// other format. If other code ever calls sprintf, musl's sprintf.c (which also defines siprintf)
// is linked too and the link fails on the duplicate siprintf, so this cannot silently replace it.
// Measured: RTTI off with this, 2.2 KB less gzipped wasm; RTTI off with musl's printf, 0.1 KB more.
#include <cstdarg>
#include <cstdint>
#include <cstdlib>

extern "C" int siprintf(char* out, const char* format, ...) {
  if (format[0] != '%' || format[1] != 'p' || format[2] != '\0') abort();
  va_list args;
  va_start(args, format);
  const auto id = reinterpret_cast<uintptr_t>(va_arg(args, void*));
  va_end(args);
  char* p = out;
  *p++ = '0';
  *p++ = 'x';
  int shift = 4 * (2 * sizeof id - 1);
  while (shift > 0 && ((id >> shift) & 0xF) == 0) shift -= 4;  // no leading zeros, as %p
  for (; shift >= 0; shift -= 4) *p++ = "0123456789abcdef"[(id >> shift) & 0xF];
  *p = '\0';
  return static_cast<int>(p - out);
}
