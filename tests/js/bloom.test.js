import { init, BloomFilter, FilterError } from '../../js/main/index.js';

beforeAll(() => init());

const codeOf = (fn) => { try { fn(); } catch (e) { expect(e).toBeInstanceOf(FilterError); return [e.code, e.message]; } return null; };

test('sizing follows m = ceil(-n ln p / ln^2 2), k = round(m/n ln 2)', () => {
  const f = new BloomFilter({ capacity: 1_000_000, errorRate: 0.01 });
  expect(f.info().bits).toBe(9585059);
  expect(f.info().hashes).toBe(7);
  expect(f.byteLength).toBe(Math.ceil(9585059 / 64) * 8);
  f.free();
  const g = new BloomFilter({ bits: 1000, hashes: 3 });
  expect(g.info()).toMatchObject({ bits: 1000, hashes: 3, capacity: 0 });
  g.free();
});

test('add returns true only when the key was certainly new; addAll counts those', () => {
  const f = new BloomFilter({ capacity: 1000, errorRate: 0.001 });
  expect(f.add('a')).toBe(true);
  expect(f.add('a')).toBe(false);
  expect(f.addAll(['a', 'b', 'c', 'b'])).toBe(2);
  expect(f.size).toBe(6);
  f.clear();
  expect(f.size).toBe(0);
  expect(f.has('a')).toBe(false);
  f.free();
});

test('estimatedSize and estimatedErrorRate follow the fill', () => {
  const f = new BloomFilter({ capacity: 10000, errorRate: 0.01 });
  expect(f.estimatedSize()).toBe(0);
  f.addAll(Array.from({ length: 5000 }, (_, i) => `k${i}`));
  expect(Math.abs(f.estimatedSize() - 5000) / 5000).toBeLessThan(0.05);
  const e = f.estimatedErrorRate();
  const { bits, hashes } = f.info();
  expect(e).toBeCloseTo((1 - Math.exp(-hashes * 5000 / bits)) ** hashes, 3);
  f.free();
});

test('union and intersect need the same shape and seed', () => {
  const a = new BloomFilter({ capacity: 1000, errorRate: 0.01 });
  const b = new BloomFilter({ capacity: 1000, errorRate: 0.01 });
  a.addAll(['x', 'both']);
  b.addAll(['y', 'both']);
  const u = BloomFilter.deserialize(a.serialize()).union(b);
  expect(Array.from(u.hasAll(['x', 'y', 'both']))).toEqual([1, 1, 1]);
  const i = BloomFilter.deserialize(a.serialize()).intersect(b);
  expect(i.has('both')).toBe(true);
  // the intersection is the AND of the bits: exactly the bits both have, so keys of one side only
  // are (almost always) gone, and its bytes are the bitwise AND of the two bodies
  expect(Array.from(i.hasAll(['x', 'y']))).toEqual([0, 0]);
  const [ab, bb, ib] = [a, b, i].map((f) => new Uint8Array(f.serialize()));
  const header = 20;
  let anded = 0;
  for (let j = header; j < ib.length - 4; j++) if (ib[j] !== ab[j]) anded += (ab[j] & bb[j]) === ib[j] ? 1 : 0;
  expect(anded).toBeGreaterThan(0);
  expect(i.info().setBits).toBeLessThan(Math.min(a.info().setBits, b.info().setBits));
  expect(i.info().setBits).toBeGreaterThanOrEqual(7);   // 'both' keeps its k bits
  const other = new BloomFilter({ capacity: 1000, errorRate: 0.01, seed: 1 });
  expect(codeOf(() => a.union(other))[0]).toBe('INVALID_ARGUMENT');
  const bigger = new BloomFilter({ capacity: 2000, errorRate: 0.01 });
  expect(codeOf(() => a.intersect(bigger))[0]).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => a.union({}))[0]).toBe('INVALID_ARGUMENT');
  for (const f of [a, b, u, i, other, bigger]) f.free();
});

test.each([
  [{ capacity: 0, errorRate: 0.01 }, /capacity must be a positive safe integer, got 0/],
  [{ capacity: 1.5, errorRate: 0.01 }, /capacity .* got 1.5/],
  [{ capacity: '100', errorRate: 0.01 }, /capacity .* got "100"/],
  [{ capacity: 2 ** 53, errorRate: 0.01 }, /capacity/],
  [{ capacity: 100, errorRate: 0 }, /errorRate must be a number strictly between 0 and 1, got 0/],
  [{ capacity: 100, errorRate: 1 }, /errorRate .* got 1/],
  [{ capacity: 100, errorRate: NaN }, /errorRate .* got NaN/],
  [{ capacity: 100 }, /errorRate .* got undefined/],
  [{ bits: 100, hashes: 0 }, /hashes must be an integer from 1 to 64, got 0/],
  [{ bits: 100, hashes: 65 }, /hashes .* got 65/],
  [{ bits: -1, hashes: 3 }, /bits .* got -1/],
  [{ capacity: 100, errorRate: 0.1, bits: 10 }, /either/],
  [{}, /either/],
  [{ capacity: 100, errorRate: 0.1, seed: -1 }, /seed .* got -1/],
  [{ capacity: 100, errorrate: 0.1 }, /unknown option "errorrate"/],
  [null, /options must be an object/],
])('bad options %j → INVALID_ARGUMENT naming the option', (options, message) => {
  const [code, msg] = codeOf(() => new BloomFilter(options));
  expect(code).toBe('INVALID_ARGUMENT');
  expect(msg).toMatch(message);
});

test('a filter too large to allocate is OUT_OF_MEMORY, and the module still works', () => {
  const [code, msg] = codeOf(() => new BloomFilter({ capacity: 2 ** 40, errorRate: 0.01 }));
  expect(code).toBe('OUT_OF_MEMORY');
  expect(msg).toMatch(/capacity/);
  expect(codeOf(() => new BloomFilter({ bits: 2 ** 50, hashes: 3 }))[0]).toBe('OUT_OF_MEMORY');
  const f = new BloomFilter({ capacity: 10, errorRate: 0.1 });
  f.add('still fine');
  expect(f.has('still fine')).toBe(true);
  f.free();
});

test('serialized bytes are stable for the same keys, options and seed', () => {
  const make = () => { const f = new BloomFilter({ capacity: 100, errorRate: 0.01, seed: 9 }); f.addAll(['a', 'b']); return f; };
  const a = make();
  const b = make();
  expect(new Uint8Array(a.serialize())).toEqual(new Uint8Array(b.serialize()));
  a.free(); b.free();
});
