// The filter kinds with their classes: js/kind-table.js (the JS twin of the C++ kind table), each
// row with the class it names. `deserialize` and `kindOf` read it; tests/js/kinds.test.js checks
// the table against the C++ one and everything that lists kinds against the table.
import { KIND_TABLE } from './kind-table.js';
import { BloomFilter } from './bloom.js';
import { BlockedBloomFilter } from './blocked-bloom.js';
import { CountingBloomFilter } from './counting-bloom.js';
import { ScalableBloomFilter } from './scalable-bloom.js';
import { CuckooFilter } from './cuckoo.js';
import { BinaryFuseFilter } from './binary-fuse.js';
import { RedisBloomFilter } from './redis-bloom.js';
import { RedisCuckooFilter } from './redis-cuckoo.js';

const CLASSES = {
  BloomFilter, BlockedBloomFilter, CountingBloomFilter, ScalableBloomFilter, CuckooFilter, BinaryFuseFilter,
  RedisBloomFilter, RedisCuckooFilter,
};

/** [number, name, class] per kind. */
// (a row whose class is not in CLASSES has undefined here: tests/js/kinds.test.js names the fix,
// so the shipped code carries no message for a mistake it cannot make)
export const KINDS = KIND_TABLE.map(([number, name, className]) => [number, name, CLASSES[className]]);

/** The [number, name, class] row of kind `number`, or undefined. */
export const kindByNumber = (number) => KINDS.find((k) => k[0] === number);
