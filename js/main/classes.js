// The filter classes, one export each: js/main/index.js exports them all, and js/main/kinds.js finds the
// class of each row of js/shared/kind-table.js here by its name, so a new kind's class is one line here.
export { BloomFilter } from './bloom.js';
export { BlockedBloomFilter } from './blocked-bloom.js';
export { CountingBloomFilter } from './counting-bloom.js';
export { ScalableBloomFilter } from './scalable-bloom.js';
export { CuckooFilter } from './cuckoo.js';
export { BinaryFuseFilter } from './binary-fuse.js';
export { RedisBloomFilter } from './redis-bloom.js';
export { RedisCuckooFilter } from './redis-cuckoo.js';
