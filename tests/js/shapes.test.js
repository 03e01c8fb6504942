// Sizing is the same in every build: the wasm build still chooses the shapes recorded in
// tests/fixtures/shapes.txt (the native build checks the same file in tests/cpp/shapes_test.cc),
// and optimalShape() is what the constructors allocate.
import { readFileSync } from 'node:fs';
import { BlockedBloomFilter, BloomFilter, CountingBloomFilter, FilterError, init } from '../../js/main/index.js';

beforeAll(() => init());

test('the wasm build chooses the recorded shapes for 3,000 random (capacity, errorRate) pairs', () => {
  const text = readFileSync(new URL('../fixtures/shapes.txt', import.meta.url), 'utf8');
  const rows = text.split('\n').filter((l) => l && !l.startsWith('#'));
  expect(rows).toHaveLength(3000);
  const view = new DataView(new ArrayBuffer(8));
  let mismatches = 0;
  for (const row of rows) {
    const [cap, rateHex, bits, hashes, blocks] = row.split(' ');
    view.setBigUint64(0, BigInt(`0x${rateHex}`));
    const o = { capacity: Number(cap), errorRate: view.getFloat64(0) };
    const b = BloomFilter.optimalShape(o);
    if (b.bits !== Number(bits) || b.hashes !== Number(hashes)) mismatches++;
    if (blocks !== '-' && BlockedBloomFilter.optimalShape(o).blocks !== Number(blocks)) mismatches++;
  }
  expect(mismatches).toBe(0);
});

test('optimalShape() is the shape and byte length the constructor allocates', () => {
  for (const o of [{ capacity: 1, errorRate: 0.5 }, { capacity: 1000, errorRate: 0.01 }, { capacity: 12345, errorRate: 1e-4 }]) {
    const pairs = [
      [BloomFilter, (f) => ({ bits: f.info().bits, hashes: f.info().hashes, byteLength: f.byteLength })],
      [BlockedBloomFilter, (f) => ({ blocks: f.info().blocks, bits: f.info().bits, byteLength: f.byteLength })],
      [CountingBloomFilter, (f) => ({ counters: f.info().counters, hashes: f.info().hashes, byteLength: f.byteLength })],
    ];
    for (const [Cls, shapeOf] of pairs) {
      const f = new Cls(o);
      expect(Cls.optimalShape(o)).toEqual(shapeOf(f));
      f.free();
    }
  }
});

test('optimalShape() rejects what the constructor rejects, with the same codes', () => {
  const code = (fn) => { try { fn(); } catch (e) { return e instanceof FilterError ? e.code : e.name; } return 'no error'; };
  expect(code(() => BloomFilter.optimalShape({ capacity: 0, errorRate: 0.01 }))).toBe('INVALID_ARGUMENT');
  expect(code(() => BloomFilter.optimalShape({ capacity: 10, errorRate: 1 }))).toBe('INVALID_ARGUMENT');
  expect(code(() => BloomFilter.optimalShape({ capacity: 10, errorRate: 1e-30 }))).toBe('INVALID_ARGUMENT');
  expect(code(() => BloomFilter.optimalShape({ capacity: 10 }))).toBe('INVALID_ARGUMENT');
  expect(code(() => BloomFilter.optimalShape({ capacity: 10, errorRate: 0.1, bits: 5 }))).toBe('INVALID_ARGUMENT');
  expect(code(() => BlockedBloomFilter.optimalShape({ capacity: 1e15, errorRate: 0.01 }))).toBe('OUT_OF_MEMORY');
  expect(code(() => CountingBloomFilter.optimalShape({ capacity: 1e15, errorRate: 0.01 }))).toBe('OUT_OF_MEMORY');
});
