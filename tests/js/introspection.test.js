import { init, BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter } from '../../js/main/index.js';

beforeAll(() => init());

test.each([
  ['BloomFilter', () => new BloomFilter({ bits: 1024, hashes: 5 }), 1024, 5],
  ['BlockedBloomFilter', () => new BlockedBloomFilter({ blocks: 4 }), 1024, 8],
  ['CountingBloomFilter', () => new CountingBloomFilter({ counters: 512, hashes: 4 }), 512, 4],
])('%s: positions(key) are exactly the slots fillMap shows as used', (_name, make, slots, k) => {
  const f = make();
  f.add('visual');
  const pos = f.positions('visual');
  expect(pos).toBeInstanceOf(Float64Array);
  expect(pos.length).toBe(k);
  const map = f.fillMap(slots);
  const used = new Set(pos);
  map.forEach((v, i) => expect(v).toBe(used.has(i) ? 1 : 0));
  expect(f.fillMap(8).reduce((a, b) => a + b, 0) * (slots / 8)).toBeCloseTo(used.size, 3);
  expect(() => f.fillMap(0)).toThrow(RangeError);
  f.free();
});

test('CuckooFilter: locate gives the fingerprint and the two buckets per sub-filter', () => {
  const f = new CuckooFilter({ capacity: 60, bucketSize: 4, fingerprintBits: 8, expansion: 1 });
  f.add('visual');
  const { fingerprint, buckets } = f.locate('visual');
  expect(fingerprint).toBeGreaterThanOrEqual(1);
  expect(fingerprint).toBeLessThanOrEqual(255);
  expect(buckets.length).toBe(1);
  const [i1, i2] = buckets[0];
  expect(i1).not.toBe(i2);
  const map = f.fillMap(f.info().buckets * 4);
  const occupied = [...map.keys()].filter((i) => map[i] === 1);
  expect(occupied.length).toBe(1);
  expect([i1, i2]).toContain(Math.floor(occupied[0] / 4));
  f.free();
});
