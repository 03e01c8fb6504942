import { init, PackedKeys, BloomFilter, CuckooFilter, ScalableBloomFilter, BinaryFuseFilter, CountingBloomFilter } from '../../js/index.js';

beforeAll(() => init());

function pack(keys) {
  const enc = new TextEncoder();
  const parts = keys.map((k) => enc.encode(k));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length; });
  const bytes = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return { bytes, offsets };
}

test('packed keys are the same keys as strings, for every batch verb (across chunk boundaries)', () => {
  const keys = Array.from({ length: 40000 }, (_, i) => `key:${i}:${'x'.repeat(i % 50)}`);
  const { bytes, offsets } = pack(keys);
  const packed = new PackedKeys(bytes, offsets);
  expect(packed.length).toBe(40000);
  const a = new BloomFilter({ capacity: 40000, errorRate: 0.01 });
  const b = new BloomFilter({ capacity: 40000, errorRate: 0.01 });
  expect(a.addAll(packed)).toBe(b.addAll(keys));
  expect(new Uint8Array(a.serialize())).toEqual(new Uint8Array(b.serialize()));
  expect(a.hasAll(packed)).toEqual(b.hasAll(keys));
  const c = new CuckooFilter({ capacity: 40000 });
  expect(c.addAll(packed)).toBe(40000);
  expect(c.hasAll(keys).every((v) => v === 1)).toBe(true);
  const s = new ScalableBloomFilter({ capacity: 1000, errorRate: 0.01 });
  s.addAll(packed);
  expect(s.hasAll(keys).every((v) => v === 1)).toBe(true);
  const n = new CountingBloomFilter({ capacity: 40000, errorRate: 0.01 });
  n.addAll(packed);
  expect(n.removeAll(packed)).toBe(40000);
  const f = BinaryFuseFilter.build(packed);
  const g = BinaryFuseFilter.build(keys);
  expect(new Uint8Array(f.serialize())).toEqual(new Uint8Array(g.serialize()));
  expect([...packed].length).toBe(40000);
  for (const x of [a, b, c, s, n, f, g]) x.free();
});

test('offsets are checked once, up front', () => {
  const bytes = new Uint8Array(10);
  expect(() => new PackedKeys(bytes, [0, 5])).toThrow(TypeError);
  expect(() => new PackedKeys(bytes, new Uint32Array([]))).toThrow(RangeError);
  expect(() => new PackedKeys(bytes, new Uint32Array([0, 6, 5]))).toThrow(/must not decrease/);
  expect(() => new PackedKeys(bytes, new Uint32Array([0, 11]))).toThrow(/past the 10 bytes/);
  expect(new PackedKeys(bytes.buffer, new Uint32Array([0, 3, 10])).length).toBe(2);
});
