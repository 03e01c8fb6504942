// The filter kinds, one row each: the number in the frame, the name, the class. The JS twin of
// BLOOMCUCKOO_FILTER_KINDS (cpp/include/bloomcuckoo/serialization.h); tests/js/kinds.test.js
// checks the two agree and that everything that lists kinds (the CLI, the conformance list, the
// docs) lists these.
import { BloomFilter } from './bloom.js';
import { BlockedBloomFilter } from './blocked-bloom.js';
import { CountingBloomFilter } from './counting-bloom.js';
import { ScalableBloomFilter } from './scalable-bloom.js';
import { CuckooFilter } from './cuckoo.js';
import { BinaryFuseFilter } from './binary-fuse.js';
import { RedisBloomFilter } from './redis-bloom.js';
import { RedisCuckooFilter } from './redis-cuckoo.js';

/** [number, name, class] per kind. */
export const KINDS = [
  [1, 'bloom', BloomFilter],
  [2, 'blocked', BlockedBloomFilter],
  [3, 'counting', CountingBloomFilter],
  [4, 'scalable', ScalableBloomFilter],
  [5, 'cuckoo', CuckooFilter],
  [6, 'fuse', BinaryFuseFilter],
  [7, 'redis-bloom', RedisBloomFilter],
  [8, 'redis-cuckoo', RedisCuckooFilter],
];

/** The [number, name, class] row of kind `number`, or undefined. */
export const kindByNumber = (number) => KINDS.find((k) => k[0] === number);
