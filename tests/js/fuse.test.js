import { init, BinaryFuseFilter, FilterError, deserialize } from '../../js/main/index.js';

beforeAll(() => init());
const keysOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

test('sizes 0, 1, 2, 3, 100 and every n from 11,400 to 11,600 build, with no false negatives', () => {
  const all = keysOf('f', 11600);
  for (const n of [0, 1, 2, 3, 100]) {
    const f = BinaryFuseFilter.build(all.slice(0, n));
    expect(f.size).toBe(n);
    expect(f.hasAll(all.slice(0, n)).every((v) => v === 1)).toBe(true);
    f.free();
  }
  for (let n = 11400; n <= 11600; n++) {
    const f = BinaryFuseFilter.build(all.slice(0, n), { fingerprintBits: n % 2 ? 8 : 16 });
    expect([n, f.hasAll(all.slice(0, n)).indexOf(0)]).toEqual([n, -1]);
    f.free();
  }
});

test('duplicates: size counts distinct keys; all-duplicates input', () => {
  const f = BinaryFuseFilter.build(new Array(1000).fill('same'));
  expect(f.size).toBe(1);
  expect(f.has('same')).toBe(true);
  f.free();
  const g = BinaryFuseFilter.build(['a', 'b', 'a', new TextEncoder().encode('b'), 'c']);
  expect(g.size).toBe(3);
  g.free();
});

test.each([5000, 40000])('deterministic for a seed: same bytes whatever the key order (n = %i); any iterable works', (n) => {
  // 40,000 is above the 32,768 keys where construction switches to sorting hashes into buckets
  const keys = keysOf('d', n);
  const a = BinaryFuseFilter.build(keys, { seed: 5 });
  const b = BinaryFuseFilter.build(new Set([...keys].reverse()), { seed: 5 });
  const shuffled = [...keys];
  for (let i = shuffled.length - 1, x = 7; i > 0; i--) {
    x = (x * 1103515245 + 12345) >>> 0;
    const j = x % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const s = BinaryFuseFilter.build([...shuffled, ...shuffled.slice(0, 100)], { seed: 5 });   // and duplicates
  expect(new Uint8Array(a.serialize())).toEqual(new Uint8Array(b.serialize()));
  expect(new Uint8Array(s.serialize())).toEqual(new Uint8Array(a.serialize()));
  const c = deserialize(a.serialize());
  expect(c).toBeInstanceOf(BinaryFuseFilter);
  expect(c.info()).toEqual(a.info());
  for (const x of [a, b, c, s]) x.free();
});

test('bits/key at 10^6: <= 9.1 (8-bit) and <= 18.2 (16-bit)', () => {
  const keys = keysOf('m', 1e6);
  for (const [bits, bound] of [[8, 9.1], [16, 18.2]]) {
    const f = BinaryFuseFilter.build(keys, { fingerprintBits: bits });
    expect((8 * f.byteLength) / 1e6).toBeLessThanOrEqual(bound);
    expect(f.info().bitsPerKey).toBeLessThanOrEqual(bound);
    f.free();
  }
});

test('bad options and static use', () => {
  let e;
  try { BinaryFuseFilter.build(['a'], { fingerprintBits: 12 }); } catch (err) { e = err; }
  expect(e).toBeInstanceOf(FilterError);
  expect(e.message).toMatch(/fingerprintBits must be 8 or 16, got 12/);
  expect(() => new BinaryFuseFilter()).toThrow(/build/);
  expect(() => BinaryFuseFilter.build(['a', 5])).toThrow(TypeError);
  expect(BinaryFuseFilter.peakBuildBytes(1e6)).toBeGreaterThan(0);
});

test('builder.reserve: the same filter whether reserved, under-reserved or not; bad counts refused', async () => {
  const { requireWasm } = await import('../../js/main/loader.js');
  const keys = keysOf('r', 40000);
  const bytesOf = (reserve) => {
    const b = BinaryFuseFilter.builder({ seed: 9 });
    if (reserve !== undefined) expect(b.reserve(reserve)).toBe(b);
    for (let i = 0; i < keys.length; i += 9000) b.addAll(keys.slice(i, i + 9000));
    const f = b.build();
    const out = new Uint8Array(f.serialize());
    f.free();
    return out;
  };
  const plain = bytesOf();
  expect(bytesOf(keys.length)).toEqual(plain);
  expect(bytesOf(100)).toEqual(plain);              // more keys than reserved are still taken
  expect(bytesOf(0)).toEqual(plain);
  // a reserve of exactly n keys allocates 8n bytes once: no growth while they arrive
  const m = requireWasm();
  const b = BinaryFuseFilter.builder().reserve(keys.length);
  const at = b._ptr;
  b.addAll(keys);
  expect(b._ptr).toBe(at);
  b.free();
  for (const bad of [-1, 1.5, NaN, '10', 2 ** 53]) {
    expect(() => BinaryFuseFilter.builder().reserve(bad)).toThrow(TypeError);
  }
  const huge = BinaryFuseFilter.builder();
  expect(() => huge.reserve(2 ** 31)).toThrow(expect.objectContaining({ code: 'OUT_OF_MEMORY' }));
  huge.free();
  expect(() => huge.reserve(10)).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  expect(m.HEAPU8.length).toBeLessThan(2 ** 32);
});

test('builder: keys in many addAll calls give the same filter as one build', () => {
  const keys = keysOf('b', 50000);
  const b = BinaryFuseFilter.builder({ seed: 3 });
  for (let i = 0; i < keys.length; i += 7000) b.addAll(keys.slice(i, i + 7000));
  expect(b.size).toBe(50000);
  const f = b.build();
  const g = BinaryFuseFilter.build(keys, { seed: 3 });
  expect(new Uint8Array(f.serialize())).toEqual(new Uint8Array(g.serialize()));
  expect(() => b.addAll(['late'])).toThrow(/already used/);
  f.free(); g.free();
  const empty = BinaryFuseFilter.builder();
  empty.free();
  empty.free();
  expect(() => empty.build()).toThrow(FilterError);
});
