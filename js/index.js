// bloomcuckoo: Bloom, Cuckoo and Binary Fuse filters in WebAssembly. Public exports.
export { init, initSync, getWasmModule } from './loader.js';
export { FilterError } from './errors.js';
export { PackedKeys } from './keys.js';
export { murmur3 } from './murmur3.js';
export { BloomFilter } from './bloom.js';
export { BlockedBloomFilter } from './blocked-bloom.js';
export { CountingBloomFilter } from './counting-bloom.js';
export { ScalableBloomFilter } from './scalable-bloom.js';
export { CuckooFilter } from './cuckoo.js';
export { BinaryFuseFilter } from './binary-fuse.js';
export { RedisBloomFilter } from './redis-bloom.js';
export { RedisCuckooFilter } from './redis-cuckoo.js';
export { fromRedisDump } from './redis.js';
export { deserialize, deserializeFrom, kindOf } from './deserialize.js';
