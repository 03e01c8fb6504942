import fc from 'fast-check';
import { init, CuckooFilter, FilterError } from '../../js/main/index.js';

beforeAll(() => init());

const keysOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const errorOf = (fn) => { try { fn(); } catch (e) { return e; } return null; };

test('the seeds experiment: one key 15 times into a fixed-size filter', () => {
  const f = new CuckooFilter({ capacity: 100000, bucketSize: 4, expansion: 0 });
  const others = keysOf('other:', 50000);
  expect(f.addAll(others)).toBe(50000);
  const results = [];
  for (let i = 0; i < 15; i++) {
    results.push(f.add('geeky ogre'));
    expect(f.info().maxIterations).toBe(500);
  }
  expect(results).toEqual([...new Array(8).fill(true), ...new Array(7).fill(false)]);
  expect(f.count('geeky ogre')).toBe(8);   // exactly the 2·b copies that fit
  expect(f.hasAll(others).every((v) => v === 1)).toBe(true);
  expect(f.size).toBe(50008);
  expect(f.info().filters).toBe(1);
  f.free();
});

test('with growth, duplicates beyond 2b go to new sub-filters', () => {
  const f = new CuckooFilter({ capacity: 1000, bucketSize: 2, expansion: 1 });
  for (let i = 0; i < 12; i++) expect(f.add('dup')).toBe(true);
  expect(f.count('dup')).toBeGreaterThanOrEqual(12);
  expect(f.info().filters).toBeGreaterThan(1);
  for (let i = 0; i < 12; i++) expect(f.remove('dup')).toBe(true);
  expect(f.has('dup')).toBe(false);
  f.free();
});

test('capacity N with default options takes N distinct keys without growing; fills to >= 95% before failing', () => {
  for (const n of [1, 10, 1000, 100000]) {
    const f = new CuckooFilter({ capacity: n });
    expect(f.addAll(keysOf(`n${n}:`, n))).toBe(n);
    expect(f.info().filters).toBe(1);
    f.free();
  }
  const g = new CuckooFilter({ capacity: 100000, expansion: 0 });
  let i = 0;
  while (g.add(`fill:${i}`)) i++;
  expect(g.loadFactor).toBeGreaterThanOrEqual(0.95);
  expect(g.size).toBe(i);
  expect(g.hasAll(keysOf('fill:', i)).every((v) => v === 1)).toBe(true);
  // measured FPR <= 2·b·load/2^f (+ binomial slack)
  const { bucketSize, fingerprintBits } = g.info();
  const bound = (2 * bucketSize * g.loadFactor) / 2 ** fingerprintBits;
  expect(g.estimatedErrorRate()).toBeGreaterThan(0);
  expect(g.estimatedErrorRate()).toBeLessThanOrEqual(bound);
  expect(g.info().estimatedErrorRate).toBe(g.estimatedErrorRate());
  const probes = 200000;
  const fp = g.hasAll(keysOf('absent:', probes)).reduce((a, b) => a + b, 0) / probes;
  expect(fp).toBeLessThanOrEqual(bound + 5 * Math.sqrt(bound / probes));
  g.free();
});

// remove's contract (false for a key never added, one remove per add): conformance.test.js
test('addUnique, a repeated add stores a copy, info fields (CF.INFO)', () => {
  const f = new CuckooFilter({ capacity: 1000, fingerprintBits: 16 });
  expect(f.addUnique('a')).toBe(true);
  expect(f.addUnique('a')).toBe(false);
  expect(f.add('a')).toBe(true);
  expect(f.count('a')).toBe(2);
  expect(f.remove('a')).toBe(true);
  expect(f.info()).toMatchObject({ kind: 'cuckoo', size: 1, itemsInserted: 2, itemsDeleted: 1, bucketSize: 4,
    fingerprintBits: 16, expansion: 1, maxIterations: 500, filters: 1, capacity: 1000 });
  expect(f.info().buckets & (f.info().buckets - 1)).toBe(0); // a power of two
  f.clear();
  expect(f.size).toBe(0);
  expect(f.has('a')).toBe(false);
  f.free();
});

test('fingerprintBits is chosen from errorRate: smallest f with 2b/2^f <= errorRate', () => {
  const bits = (o) => { const f = new CuckooFilter({ capacity: 100, ...o }); const b = f.info().fingerprintBits; f.free(); return b; };
  expect(bits({ errorRate: 0.04 })).toBe(8);
  expect(bits({ errorRate: 0.01 })).toBe(12);
  expect(bits({})).toBe(12);
  expect(bits({ errorRate: 0.001 })).toBe(16);
  expect(bits({ errorRate: 0.01, bucketSize: 1 })).toBe(12);   // b = 1 needs at least 12 bits
  expect(bits({ errorRate: 0.05, bucketSize: 1 })).toBe(12);
  expect(errorOf(() => bits({ bucketSize: 1, fingerprintBits: 8 })).message).toMatch(/bucketSize 1/);
  expect(errorOf(() => bits({ errorRate: 1e-6 })).code).toBe('INVALID_ARGUMENT');
});

test.each([
  [{ capacity: 100, bucketSize: 3 }, /bucketSize must be 1, 2, 4 or 8, got 3/],
  [{ capacity: 100, fingerprintBits: 10 }, /fingerprintBits must be 8, 12 or 16, got 10/],
  [{ capacity: 0 }, /capacity must be a positive safe integer, got 0/],
  [{ capacity: 100, maxIterations: 0 }, /maxIterations .* got 0/],
  [{ capacity: 100, expansion: -1 }, /expansion .* got -1/],
  [{ capacity: 100, errorRate: 2 }, /errorRate .* got 2/],
  [{ capacity: 100, bucketsize: 4 }, /unknown option "bucketsize"/],
])('bad options %j → INVALID_ARGUMENT naming the option', (options, message) => {
  const e = errorOf(() => new CuckooFilter(options));
  expect(e).toBeInstanceOf(FilterError);
  expect(e.code).toBe('INVALID_ARGUMENT');
  expect(e.message).toMatch(message);
});

test('absurd capacity is OUT_OF_MEMORY, not a crash', () => {
  expect(errorOf(() => new CuckooFilter({ capacity: 2 ** 50 })).code).toBe('OUT_OF_MEMORY');
});

// Property test: random add / addUnique / remove / has / count sequences on a small key space
// against an exact multiset oracle; remove only keys the oracle holds.
test('property: never a false negative, count >= true count, size == oracle total', () => {
  const op = fc.oneof(
    fc.record({ t: fc.constant('add'), k: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ t: fc.constant('addUnique'), k: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ t: fc.constant('remove'), k: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ t: fc.constant('roundTrip'), k: fc.constant(0) }),
    fc.record({ t: fc.constant('compact'), k: fc.constant(0) }),
  );
  const options = fc.record({
    capacity: fc.integer({ min: 1, max: 64 }),
    bucketSize: fc.constantFrom(1, 2, 4, 8),
    fingerprintBits: fc.constantFrom(8, 12, 16),
    expansion: fc.constantFrom(0, 1, 2),
    maxIterations: fc.constantFrom(1, 20, 500),
  }).map((o) => (o.bucketSize === 1 && o.fingerprintBits === 8 ? { ...o, fingerprintBits: 12 } : o));  // refused shape
  fc.assert(fc.property(options, fc.array(op, { maxLength: 300 }), (opts, ops) => {
    let f = new CuckooFilter(opts);
    const oracle = new Map();
    let total = 0;
    try {
      for (const { t, k } of ops) {
        const key = `k${k}`;
        if (t === 'add') {
          if (f.add(key)) { oracle.set(key, (oracle.get(key) ?? 0) + 1); total++; }
        } else if (t === 'addUnique') {
          const had = f.has(key);
          const added = f.addUnique(key);
          if (added) { oracle.set(key, (oracle.get(key) ?? 0) + 1); total++; }
          if (had && added) return false;
        } else if (t === 'remove') {
          if ((oracle.get(key) ?? 0) > 0) {
            if (!f.remove(key)) return false;
            oracle.set(key, oracle.get(key) - 1);
            total--;
          }
        } else if (t === 'compact') {
          const before = f.info().filters;
          f.compact();
          if (f.info().filters > before) return false;
        } else {
          const g = CuckooFilter.deserialize(f.serialize());
          f.free();
          f = g;
        }
        for (const [held, n] of oracle) {
          if (n > 0 && (!f.has(held) || f.count(held) < n)) return false;
        }
        if (f.size !== total) return false;
      }
      return true;
    } finally {
      f.free();
    }
  }), { numRuns: 1000, seed: 20261122 });
});

test('compact() gives a filter that grew and then shrank its memory (and lookup work) back', () => {
  const f = new CuckooFilter({ capacity: 1000, bucketSize: 4, fingerprintBits: 8, expansion: 1 });
  const keys = Array.from({ length: 5000 }, (_, i) => `grow:${i}`);
  expect(f.addAll(keys)).toBe(5000);
  const grown = f.info();
  expect(grown.filters).toBeGreaterThanOrEqual(3);
  for (const k of keys.slice(500)) expect(f.remove(k)).toBe(true);   // 500 keys are left
  const probes = Array.from({ length: 200000 }, (_, i) => `probe:${i}`);
  const fpBefore = f.hasAll(probes).reduce((a, b) => a + b, 0);
  expect(f.info().filters).toBe(grown.filters);   // removing alone keeps every sub-filter
  f.compact();
  const after = f.info();
  expect(after.filters).toBe(1);
  expect(f.byteLength).toBe(grown.byteLength / grown.filters);   // equal sub-filters (expansion 1): one is left
  expect(f.size).toBe(500);
  expect(Array.from(f.hasAll(keys.slice(0, 500))).every((v) => v === 1)).toBe(true);
  // the false-positive rate follows the fingerprints stored, not where they are: unchanged
  const fpAfter = f.hasAll(probes).reduce((a, b) => a + b, 0);
  expect(Math.abs(fpAfter - fpBefore)).toBeLessThan(5 * Math.sqrt(fpBefore) + 5);
  // and the compacted filter round-trips and keeps growing when needed
  const g = CuckooFilter.deserialize(f.serialize());
  expect(g.addAll(keys.slice(500))).toBe(4500);
  expect(Array.from(g.hasAll(keys)).every((v) => v === 1)).toBe(true);
  f.free();
  g.free();
});
