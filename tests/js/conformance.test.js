// One suite over every filter class, the two RedisBloom ones included (tests/js/filters.js): no
// false negatives, FPR within a binomial bound, bits/key, tiny sizes, duplicates, string/bytes
// agreement, serialization round trip, and ownership (free / dispose / DISPOSED).
import { init, FilterError, deserialize } from '../../js/main/index.js';
import { FILTERS } from './filters.js';

beforeAll(() => init());

const keysOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const upperBound = (p, trials) => p + 5 * Math.sqrt((p * (1 - p)) / trials) + 2 / trials;

// The classes that remove (counting Bloom, cuckoo, RedisBloom's cuckoo): one contract, whatever
// add returns of a repeat (a counting filter's "certainly new" is false, a cuckoo filter stores a
// second copy)
const REMOVABLE = FILTERS.filter((F) => typeof F.Cls.prototype.remove === 'function');

test('the removable classes are the three that remove', () => {
  expect(REMOVABLE.map((F) => F.name).sort()).toEqual(['CountingBloomFilter', 'CuckooFilter', 'RedisCuckooFilter']);
});

describe.each(REMOVABLE)('$name', (F) => {
  test('remove: false for a key never added; one remove per add; absent after the last, size 0', () => {
    const f = F.create([], 1000, 0.001);
    try {
      expect(f.remove('x')).toBe(false);
      f.add('x');
      f.add('x');
      expect(f.count('x')).toBe(2);
      expect(f.remove('x')).toBe(true);
      expect(f.has('x')).toBe(true);
      expect(f.count('x')).toBe(1);
      expect(f.remove('x')).toBe(true);
      expect(f.has('x')).toBe(false);
      expect(f.size).toBe(0);
    } finally {
      f.free();
    }
  });
});

describe.each(FILTERS)('$name', (F) => {
  test.each([[1e4, 0.01], [1e5, 0.001], [1e6, 0.01]])('n=%d p=%d: no false negatives, FPR within bound, bits/key', (n, p) => {
    const keys = keysOf('key:', n);
    const f = F.create(keys, n, p, undefined);
    try {
      const found = f.hasAll(keys);
      expect(found.length).toBe(n);
      expect(found.indexOf(0)).toBe(-1);
      for (let i = 0; i < n; i += 997) expect(f.has(keys[i])).toBe(true);
      const probes = 1e6;
      const hits = f.hasAll(keysOf('absent:', probes)).reduce((a, b) => a + b, 0);
      const measured = hits / probes;
      const expected = F.expectedFpr(f, p, n);
      const bitsPerKey = (8 * f.byteLength) / n;
      console.log(`${F.name} n=${n} p=${p}: expected FPR ${expected.toExponential(3)}, measured ${measured.toExponential(3)}, ${bitsPerKey.toFixed(2)} bits/key`);
      expect(measured).toBeLessThanOrEqual(upperBound(expected, probes));
      expect(bitsPerKey).toBeLessThanOrEqual(F.maxBitsPerKey(p, n));
    } finally {
      f.free();
    }
  });

  test('sizes 0, 1, 2 and an empty batch', () => {
    for (const n of [0, 1, 2]) {
      const keys = keysOf('tiny:', n);
      const f = F.create(keys, Math.max(1, n), 0.01);
      expect(Array.from(f.hasAll(keys))).toEqual(keys.map(() => 1));
      expect(f.hasAll([]).length).toBe(0);
      f.free();
    }
  });

  test('duplicate keys are fine', () => {
    const once = keysOf('dup:', 100);
    const f = F.create([...once, ...once, ...once], 1000, 0.01);
    expect(f.hasAll(once).every((v) => v === 1)).toBe(true);
    f.free();
  });

  test("string keys and their UTF-8 bytes are the same key; every binary view agrees", () => {
    const strings = ['abc', 'héllo', '日本語', '😀', '', 'a\u0000b'];
    const f = F.create(strings, 100, 0.01);
    const enc = new TextEncoder();
    for (const s of strings) {
      const bytes = enc.encode(s);
      expect(f.has(bytes)).toBe(true);
      expect(f.has(bytes.buffer)).toBe(true);
      const padded = new Uint8Array(bytes.length + 5);
      padded.set(bytes, 5);
      expect(f.has(new DataView(padded.buffer, 5, bytes.length))).toBe(true);
      expect(f.has(padded.subarray(5))).toBe(true);
    }
    expect(Array.from(f.hasAll(strings.map((s) => enc.encode(s))))).toEqual(strings.map(() => 1));
    expect(() => f.has(42)).toThrow(TypeError);
    expect(() => f.hasAll(['ok', {}])).toThrow(/got Object/);
    f.free();
  });

  test('serialize → deserialize round trip (class and top-level)', () => {
    const keys = keysOf('rt:', 5000);
    const f = F.create(keys, 5000, 0.01, 77);
    const bytes = f.serialize();
    expect(bytes).toBeInstanceOf(ArrayBuffer);
    const g = F.Cls.deserialize(bytes);
    const h = deserialize(new Uint8Array(bytes));
    expect(h).toBeInstanceOf(F.Cls);
    expect(g.seed).toBe(F.seeded === false ? 0 : 77);
    expect(new Uint8Array(g.serialize())).toEqual(new Uint8Array(bytes));
    const others = keysOf('other:', 20000);
    expect(g.hasAll(keys).every((v) => v === 1)).toBe(true);
    expect(g.hasAll(others)).toEqual(f.hasAll(others));
    expect(h.hasAll(others)).toEqual(f.hasAll(others));
    expect(g.size).toBe(f.size);
    for (const x of [f, g, h]) x.free();
  });

  test('free() is idempotent; use after it throws DISPOSED; Symbol.dispose frees', () => {
    const f = F.create(['a'], 10, 0.01);
    expect(f.freed).toBe(false);
    f.free();
    f.free();
    expect(f.freed).toBe(true);
    for (const use of [() => f.has('a'), () => f.hasAll(['a']), () => f.serialize(), () => f.size, () => f.info()]) {
      let err;
      try { use(); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(FilterError);
      expect(err.code).toBe('DISPOSED');
    }
    const g = F.create(['a'], 10, 0.01);
    const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');
    g[dispose]();
    expect(g.freed).toBe(true);
  });
});
