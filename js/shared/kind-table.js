// The filter kinds, one row each: the number in the frame, the name, the class's name. The JS twin
// of BLOOMCUCKOO_FILTER_KINDS (cpp/include/bloomcuckoo/serialization.h), as data only, so that
// the checker (js/check/index.js) and the build scripts read it without loading the library;
// js/main/kinds.js puts the classes beside it. tests/js/kinds.test.js checks it against the C++ table
// and checks that everything that lists kinds derives from it (docs/CONTRIBUTING.md, "Adding a
// filter kind").
/** [number, name, class name] per kind, by number. */
export const KIND_TABLE = [
  [1, 'bloom', 'BloomFilter'],
  [2, 'blocked', 'BlockedBloomFilter'],
  [3, 'counting', 'CountingBloomFilter'],
  [4, 'scalable', 'ScalableBloomFilter'],
  [5, 'cuckoo', 'CuckooFilter'],
  [6, 'fuse', 'BinaryFuseFilter'],
  [7, 'redis-bloom', 'RedisBloomFilter'],
  [8, 'redis-cuckoo', 'RedisCuckooFilter'],
];

/** The kinds' names, by number. */
export const KIND_NAMES = KIND_TABLE.map((row) => row[1]);

/** The name of kind `number`, or undefined. */
export const kindName = (number) => KIND_TABLE.find((row) => row[0] === number)?.[1];
