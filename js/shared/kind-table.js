// The filter kinds, one row each: the number in the frame, the name (in messages, the JS layer and
// docs/FORMAT.md), the class's name (the same in C++ and JS) and the hash id its bytes carry
// (docs/FORMAT.md: 1 MurmurHash3 x64-128, 2 RedisBloom's MurmurHash64A; the C++ class's
// KeyHashing::kId). The one table of kinds: the C++ table BLOOMCUCKOO_FILTER_KINDS is generated
// from these lines (CMakeLists.txt and scripts/build-checker.mjs write bloomcuckoo/kind_table.h,
// enumerator k<class name without "Filter">), and as data only it is read by the checker
// (js/check/index.js) and the build scripts without loading the library; js/main/kinds.js puts
// the classes beside it. Keep a row on one line, as below: the C++ builds read it with a pattern.
// tests/js/kinds.test.js checks that everything that lists kinds derives from it
// (docs/CONTRIBUTING.md, "Adding a filter kind").
/** [number, name, class name, hash id] per kind, by number. */
export const KIND_TABLE = [
  [1, 'bloom', 'BloomFilter', 1],
  [2, 'blocked', 'BlockedBloomFilter', 1],
  [3, 'counting', 'CountingBloomFilter', 1],
  [4, 'scalable', 'ScalableBloomFilter', 1],
  [5, 'cuckoo', 'CuckooFilter', 1],
  [6, 'fuse', 'BinaryFuseFilter', 1],
  [7, 'redis-bloom', 'RedisBloomFilter', 2],
  [8, 'redis-cuckoo', 'RedisCuckooFilter', 2],
];

/** The kinds' names, by number. */
export const KIND_NAMES = KIND_TABLE.map((row) => row[1]);

/** The name of kind `number`, or undefined. */
export const kindName = (number) => KIND_TABLE.find((row) => row[0] === number)?.[1];
