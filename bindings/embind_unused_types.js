// A JS library for the wasm link (CMakeLists.txt passes it with --js-library). At start-up Embind
// registers every builtin C++ type it knows, and the glue carries the JS half of each: wide
// strings (std::wstring, u16string, u32string), std::string, emscripten::val, typed_memory_view
// and 64-bit integers (as BigInt). The bindings use none of these (keys and bytes cross as
// addresses into HEAPU8, 64-bit counts as doubles; the one string, a status message, is read from
// memory by js/main/loader.js), so their registrations are replaced by no-ops here, which leaves
// their code out of the glue: 0.6 KB less gzipped, 0.4 KB more for std::string, 0.15 KB more for
// the 64-bit integers. A binding that used one of these types would throw Embind's
// UnboundTypeError ("Cannot call ... due to unbound types: 0x...") when called (tried).
/* global mergeInto, LibraryManager */
mergeInto(LibraryManager.library, {
  _embind_register_std_wstring: function () {},
  _embind_register_std_string: function () {},
  _embind_register_emval: function () {},
  _embind_register_memory_view: function () {},
  _embind_register_bigint: function () {},
});
