import { init, PackedKeys, BloomFilter, CuckooFilter, ScalableBloomFilter, BinaryFuseFilter, CountingBloomFilter } from '../../js/main/index.js';

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

describe('PackedKeys changed after it was validated', () => {
  test('lowering an offset later is a RangeError, not a wasm memory fault; the filter is unchanged', () => {
    const keys = Array.from({ length: 50000 }, (_, i) => `k${i}`);
    const { bytes, offsets } = pack(keys);
    const packed = new PackedKeys(bytes, offsets);
    offsets[20000] = 0;                  // now offsets[20000] < offsets[19999]
    const f = new BloomFilter({ capacity: 50000, errorRate: 0.01 });
    const before = new Uint8Array(f.serialize());
    expect(() => f.addAll(packed)).toThrow(RangeError);
    expect(() => f.hasAll(packed)).toThrow(RangeError);
    expect(new Uint8Array(f.serialize())).toEqual(before);   // validated before anything is added
    f.free();
  });

  test('raising an offset past the bytes later is a RangeError (no hashing of unrelated memory)', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `k${i}`);
    const { bytes, offsets } = pack(keys);
    const packed = new PackedKeys(bytes, offsets);
    offsets[100] = 50_000_000;
    offsets[99] = 40_000_000;
    const c = new CuckooFilter({ capacity: 1000 });
    expect(() => c.addAll(packed)).toThrow(RangeError);
    expect(c.size).toBe(0);
    c.free();
  });
});

test('the core refuses a batch whose offsets are not inside the key scratch (no out-of-bounds read)', async () => {
  const { requireWasm } = await import('../../js/main/loader.js');
  const m = requireWasm();
  const f = new BloomFilter({ capacity: 1000, errorRate: 0.01 });
  f.add('warm');                                           // makes the key scratch
  const offsets = m._malloc(4 * 3);
  const data = m._malloc(16);
  const out = m._malloc(2);
  const u32 = new Uint32Array(m.HEAPU8.buffer, offsets, 3);
  u32.set([0, 4, 0xfffffff0]);                              // key 1 runs ~4 GiB past its start
  m.HEAPU8.fill(7, out, out + 2);
  expect(f._core.containsBatch(data, offsets, 2, out)).toBe(-1);        // minus INVALID_ARGUMENT
  expect(Array.from(m.HEAPU8.subarray(out, out + 2))).toEqual([7, 7]);   // nothing was read or written
  expect(f._core.addBatch(data, offsets, 2)).toBe(-1);
  expect(f.size).toBe(1);
  m._free(offsets); m._free(data); m._free(out);
  f.free();
});

test('a batch whose work grows wasm memory packs its later chunks into the new memory', async () => {
  const { requireWasm } = await import('../../js/main/loader.js');
  const { forEachChunk } = await import('../../js/main/keys.js');
  const m = requireWasm();
  const keys = Array.from({ length: 3 * 16384 + 5 }, (_, i) => `grow:${i}`);
  const grown = [];
  let chunks = 0;
  forEachChunk(keys, (data, offsets, count, out, start) => {
    const heap = m.HEAPU8;
    const offs = new Uint32Array(heap.buffer, offsets, count + 1);
    for (const i of [0, count - 1]) {
      const bytes = heap.subarray(data + offs[i], data + offs[i + 1]);
      expect(new TextDecoder().decode(bytes)).toBe(keys[start + i]);
    }
    if (chunks++ === 0) {
      // what a filter growing inside addBatch does: memory grows and HEAPU8 is a new view
      const before = m.HEAPU8.buffer;
      grown.push(m._malloc(m.HEAPU8.length));
      expect(m.HEAPU8.buffer).not.toBe(before);
    }
  });
  expect(chunks).toBe(4);
  grown.forEach((p) => m._free(p));
});

test('one key at a time after wasm memory grew: the key is written into the new memory', async () => {
  const { requireWasm } = await import('../../js/main/loader.js');
  const m = requireWasm();
  for (const f of [new BloomFilter({ capacity: 100, errorRate: 0.001 }), new CuckooFilter({ capacity: 100 })]) {
    f.add('aaaa');
    expect(f.has('aaaa')).toBe(true);   // 'aaaa' is now the scratch's bytes
    const before = m.HEAPU8.buffer;
    const p = m._malloc(m.HEAPU8.length);   // grows the memory: HEAPU8 is a new view
    expect(m.HEAPU8.buffer).not.toBe(before);
    // a write lost to the old view would leave 'aaaa' in place and answer true
    expect(f.has('bbbb')).toBe(false);
    expect(f.has('aaaa')).toBe(true);
    m._free(p);
    f.free();
  }
});
