import fc from 'fast-check';
import { init, CountingBloomFilter, BlockedBloomFilter, FilterError } from '../../js/main/index.js';

beforeAll(() => init());

// remove's contract (false for a key never added, one remove per add): conformance.test.js
test('add says whether the key was certainly new; removeAll counts the keys it removed', () => {
  const f = new CountingBloomFilter({ capacity: 1000, errorRate: 0.001 });
  expect(f.add('x')).toBe(true);
  expect(f.add('x')).toBe(false);
  expect(f.addAll(['a', 'b', 'c'])).toBe(3);
  expect(f.removeAll(['a', 'b', 'zzz'])).toBe(2);
  expect(Array.from(f.hasAll(['a', 'b', 'c']))).toEqual([0, 0, 1]);
  f.free();
});

test('counters saturate at 15 and are never decremented once saturated', () => {
  const f = new CountingBloomFilter({ counters: 64, hashes: 2 });
  for (let i = 0; i < 20; i++) f.add('hot');
  expect(f.count('hot')).toBe(15);
  expect(f.info().saturatedCounters).toBeGreaterThan(0);
  for (let i = 0; i < 20; i++) f.remove('hot');
  expect(f.has('hot')).toBe(true); // saturated counters stay: no false negative is possible
  f.free();
});

test('property: removing only what was added never gives a false negative', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 40 })), { maxLength: 200 }), (ops) => {
    const f = new CountingBloomFilter({ counters: 256, hashes: 3 });
    const oracle = new Map();
    try {
      for (const [add, k] of ops) {
        const key = `k${k}`;
        if (add) { f.add(key); oracle.set(key, (oracle.get(key) ?? 0) + 1); } else if ((oracle.get(key) ?? 0) > 0) {
          if (!f.remove(key)) return false;
          oracle.set(key, oracle.get(key) - 1);
        }
        for (const [held, n] of oracle) if (n > 0 && !f.has(held)) return false;
      }
      return true;
    } finally { f.free(); }
  }), { numRuns: 300, seed: 7 });
});

test.each([
  [{ counters: 10, hashes: 99 }, /hashes .* got 99/],
  [{ counters: 0, hashes: 3 }, /counters/],
  [{ counters: 10.5, hashes: 3 }, /counters/],
  [{ counters: 10 }, /hashes/],
  [{ capacity: 100 }, /errorRate/],
  [{ capacity: 100, errorRate: 1 }, /errorRate .* got 1/],
  [{ capacity: -5, errorRate: 0.01 }, /capacity .* got -5/],
  [{ capacity: 100, errorRate: 0.01, counters: 64, hashes: 3 }, /either/],
  [{ capacity: 100, errorRate: 0.01, seed: -1 }, /seed/],
  [{ capacity: 100, errorRate: 0.01, bits: 64 }, /bits/],
])('bad options name the option: %j', (options, message) => {
  const e = (() => { try { new CountingBloomFilter(options); } catch (err) { return err; } return null; })();
  expect(e).toBeInstanceOf(FilterError);
  expect(e.code).toBe('INVALID_ARGUMENT');
  expect(e.message).toMatch(message);
});

test('BlockedBloomFilter: ≤ 10.7 bits/key at 1%, union/intersect, blocks form', () => {
  const f = new BlockedBloomFilter({ capacity: 1_000_000, errorRate: 0.01 });
  expect((8 * f.byteLength) / 1e6).toBeLessThanOrEqual(10.7);
  expect(f.info().bits).toBe(f.info().blocks * 256);
  f.free();
  const a = new BlockedBloomFilter({ blocks: 64 });
  const b = new BlockedBloomFilter({ blocks: 64 });
  a.add('x'); b.add('y');
  a.union(b);
  expect(Array.from(a.hasAll(['x', 'y']))).toEqual([1, 1]);
  const c = new BlockedBloomFilter({ blocks: 32 });
  expect(() => a.union(c)).toThrow(/.+/);
  for (const x of [a, b, c]) x.free();
});
