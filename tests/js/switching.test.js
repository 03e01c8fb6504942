// What users of bloom-filters / bloomfilter reach for first: Class.from(keys, options) and
// filter.equals(other), on every class (README "Coming from bloom-filters or bloomfilter").
import {
  BinaryFuseFilter, BlockedBloomFilter, BloomFilter, CountingBloomFilter, CuckooFilter, init, PackedKeys,
  RedisBloomFilter, RedisCuckooFilter, ScalableBloomFilter,
} from '../../js/index.js';

const CLASSES = [BloomFilter, BlockedBloomFilter, CountingBloomFilter, ScalableBloomFilter, CuckooFilter,
  BinaryFuseFilter, RedisBloomFilter, RedisCuckooFilter];
const keys = (n, tag = 'k') => Array.from({ length: n }, (_, i) => `${tag}:${i}`);

beforeAll(() => init());

describe.each(CLASSES.map((C) => [C.name, C]))('%s', (_name, C) => {
  test('from(keys) holds every key, from an array, a Set, a generator or PackedKeys', () => {
    const list = keys(5000);
    const packed = new PackedKeys(new TextEncoder().encode(list.join('')),
      Uint32Array.from({ length: list.length + 1 }, (_, i) => list.slice(0, i).join('').length));
    function* gen() { yield* list; }
    for (const input of [list, new Set(list), gen(), packed]) {
      const f = C.from(input);
      try {
        expect(f).toBeInstanceOf(C);
        expect(f.hasAll(list).every((b) => b === 1)).toBe(true);
        // sized for the keys: the measured false-positive rate stays near the 1% default
        const absent = f.hasAll(keys(20000, 'absent')).reduce((a, b) => a + b, 0) / 20000;
        expect(absent).toBeLessThan(0.03);
      } finally {
        f.free();
      }
    }
  });

  test('from: the capacity is the key count; options pass through; one string is a TypeError', () => {
    const f = C.from(keys(1000), C === RedisCuckooFilter || C === BinaryFuseFilter ? {} : { errorRate: 0.001 });
    const info = f.info();
    if ('capacity' in info && C !== RedisBloomFilter && C !== RedisCuckooFilter) expect(info.capacity).toBe(1000);
    if (info.errorRate !== undefined) expect(info.errorRate).toBe(0.001);
    f.free();
    expect(() => C.from('https://bad.example/')).toThrow(TypeError);
    expect(() => C.from(['a', 42])).toThrow(TypeError);
    const empty = C.from([]);
    expect(empty.hasAll(['x']).length).toBe(1);
    empty.free();
  });

  test('equals: same class and bytes; not after one more key, not another class, and both must be live', () => {
    const a = C.from(keys(300));
    const b = C.from(keys(300));
    const other = (C === BloomFilter ? BlockedBloomFilter : BloomFilter).from(keys(300));
    try {
      expect(a.equals(b)).toBe(true);
      expect(b.equals(a)).toBe(true);
      expect(a.equals(a)).toBe(true);
      expect(a.equals(other)).toBe(false);
      expect(a.equals(null)).toBe(false);
      const c = C.from(keys(301));
      expect(a.equals(c)).toBe(false);
      c.free();
      b.free();
      expect(() => a.equals(b)).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
    } finally {
      a.free();
      other.free();
    }
  });
});
