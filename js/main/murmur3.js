// MurmurHash3 utilities, computed by the same C++ code the filters use.
import { requireWasm } from './loader.js';
import { encodeKey, outPointer } from './keys.js';

function checkSeed(seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`bloomcuckoo: seed must be an integer in [0, 2^32), got ${String(seed)}`);
  }
  return seed;
}

export const murmur3 = Object.freeze({
  /** MurmurHash3_x86_32 of a key (string as UTF-8, or bytes) → uint32. */
  x86_32(key, seed = 0) {
    checkSeed(seed);
    return requireWasm().murmur3_x86_32(encodeKey(key), seed) >>> 0;
  },
  /** MurmurHash3_x64_128 → the 16 bytes the reference writes to its `out` (h1 LE, h2 LE). */
  x64_128(key, seed = 0) {
    checkSeed(seed);
    const m = requireWasm();
    const len = encodeKey(key);
    const out = outPointer();
    m.murmur3_x64_128(len, seed, out);
    return m.HEAPU8.slice(out, out + 16);
  },
});
