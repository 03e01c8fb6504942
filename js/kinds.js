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
export const KINDS = KIND_TABLE.map(([number, name, className]) => {
  const Cls = CLASSES[className];
  if (typeof Cls !== 'function') {
    throw new Error(`js/kind-table.js: kind ${number} ('${name}') names the class ${className}, which js/kinds.js does not import: import it there and add it to CLASSES`);
  }
  return [number, name, Cls];
});

/** The [number, name, class] row of kind `number`, or undefined. */
export const kindByNumber = (number) => KINDS.find((k) => k[0] === number);
