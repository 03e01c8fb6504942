import mm from 'murmurhash3js-revisited';
import { init, murmur3 } from '../../js/main/index.js';
import { refX64Bytes } from '../../scripts/gen-murmur-vectors.mjs';

beforeAll(() => init());

// Deterministic pseudo-random generator (xorshift32) so failures reproduce.
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
}

test('x86_32 and x64_128 match murmurhash3js-revisited on 10,000 random inputs', () => {
  const next = rng(12345);
  let checked = 0;
  for (let i = 0; i < 10000; i++) {
    const len = next() % 70;
    const key = Uint8Array.from({ length: len }, () => next() & 0xff);
    const seed = i % 3 === 0 ? 0 : next();
    expect(murmur3.x86_32(key, seed)).toBe(mm.x86.hash32(key, seed) >>> 0);
    expect(Array.from(murmur3.x64_128(key, seed))).toEqual(Array.from(refX64Bytes(key, seed)));
    checked++;
  }
  expect(checked).toBe(10000);
});

test('SMHasher verification values', () => {
  const verify = (hash, n) => {
    const key = new Uint8Array(256);
    const all = new Uint8Array(256 * n);
    for (let i = 0; i < 256; i++) { key[i] = i; all.set(hash(key.subarray(0, i), 256 - i), i * n); }
    const f = hash(all, 0);
    return (f[0] | (f[1] << 8) | (f[2] << 16) | (f[3] << 24)) >>> 0;
  };
  const x86 = (k, s) => { const h = murmur3.x86_32(k, s); return Uint8Array.of(h & 255, (h >>> 8) & 255, (h >>> 16) & 255, h >>> 24); };
  expect(verify(x86, 4)).toBe(0xb0f57ee3);
  expect(verify((k, s) => murmur3.x64_128(k, s), 16)).toBe(0x6384ba69);
});

test('strings are hashed as their UTF-8 bytes; every view of the same bytes agrees', () => {
  const s = 'héllo wörld 日本 😀';
  const bytes = new TextEncoder().encode(s);
  expect(murmur3.x86_32(s, 7)).toBe(murmur3.x86_32(bytes, 7));
  expect(murmur3.x64_128(s)).toEqual(murmur3.x64_128(bytes.buffer));
  const padded = new Uint8Array(bytes.length + 8);
  padded.set(bytes, 3);
  expect(murmur3.x86_32(new DataView(padded.buffer, 3, bytes.length))).toBe(murmur3.x86_32(s));
  expect(murmur3.x86_32('abc')).toBe(mm.x86.hash32(new TextEncoder().encode('abc'), 0) >>> 0);
  const long = 'x'.repeat(3_000_000) + 'é';
  expect(murmur3.x86_32(long)).toBe(murmur3.x86_32(new TextEncoder().encode(long)));
});

test('x64_128 returns a fresh 16-byte Uint8Array; known vector for the empty key', () => {
  const a = murmur3.x64_128('');
  expect(a).toBeInstanceOf(Uint8Array);
  expect(a.length).toBe(16);
  expect(Array.from(a)).toEqual(new Array(16).fill(0));
  expect(murmur3.x86_32('', 0)).toBe(0);
});

test('bad keys are a TypeError naming the type; bad seeds a RangeError', () => {
  expect(() => murmur3.x86_32(42)).toThrow(/got number/);
  expect(() => murmur3.x86_32({})).toThrow(TypeError);
  expect(() => murmur3.x86_32(null)).toThrow(/got null/);
  expect(() => murmur3.x64_128([1, 2])).toThrow(/got Array/);
  expect(() => murmur3.x86_32('a', -1)).toThrow(RangeError);
  expect(() => murmur3.x86_32('a', 2 ** 32)).toThrow(RangeError);
  expect(() => murmur3.x86_32('a', 1.5)).toThrow(RangeError);
});
