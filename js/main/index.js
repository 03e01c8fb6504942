// bloomcuckoo: Bloom, Cuckoo and Binary Fuse filters in WebAssembly. Public exports.
export { init, initSync, getWasmModule } from './loader.js';
export { FilterError } from './errors.js';
export { PackedKeys } from './keys.js';
export { murmur3 } from './murmur3.js';
export * from './classes.js';
export { fromRedisDump } from './from-redis-dump.js';
export { deserialize, deserializeFrom, kindOf } from './deserialize.js';
