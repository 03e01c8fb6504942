// The core's status codes by value (StatusCode in cpp/include/bloomcuckoo/status.h), the one
// code→name table of the JS side: the main entry (js/main/loader.js) and the checker (js/check/index.js)
// name a code through it, and tests/js/status-codes.test.js checks it against the C++ enum.
/** Name of each code, by value; 'UNKNOWN' where the enum has no code. */
export const STATUS_NAMES = ['OK', 'INVALID_ARGUMENT', 'FULL', 'UNKNOWN', 'OUT_OF_MEMORY', 'CORRUPT_DATA', 'UNSUPPORTED_VERSION'];

/** Name of a numeric status code from the core: the FilterError `code` it is thrown with. */
export const statusName = (status) => STATUS_NAMES[status] ?? 'UNKNOWN';
