// Issue 14, target 1: wasm memory up to 4 GiB. A 2.5 GiB blocked Bloom filter is created,
// filled, queried, serialized and deserialized (the serialized bytes never need a second copy
// inside wasm memory, which could not hold one), and what cannot fit is a clear OUT_OF_MEMORY.
// Runs in its own Jest file so the module starts small; about 20 s and 5.5 GB of RSS.
import { BlockedBloomFilter, BloomFilter, FilterError, deserialize, init } from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';

beforeAll(() => init());

const GiB = 2 ** 30;
const code = (fn) => {
  try { fn().free(); } catch (e) {
    if (!(e instanceof FilterError)) throw e;
    return e.code;
  }
  return 'OK';
};

test('a 2.5 GiB blocked Bloom filter: created, filled, queried, serialized and deserialized', () => {
  const blocks = (2.5 * GiB) / 32;
  const f = new BlockedBloomFilter({ blocks });
  expect(f.byteLength).toBe(2.5 * GiB);
  expect(requireWasm().HEAPU8.length).toBeGreaterThan(2.5 * GiB);
  // the key scratch is allocated now, above the filter: addresses past 2^31 are read unsigned
  const keys = Array.from({ length: 1e6 }, (_, i) => `big:${i}`);
  f.addAll(keys);
  expect(f.hasAll(keys).every((v) => v === 1)).toBe(true);
  expect(f.has('big:0')).toBe(true);
  const absent = f.hasAll(Array.from({ length: 1e5 }, (_, i) => `absent:${i}`)).reduce((a, b) => a + b, 0);
  expect(absent).toBeLessThan(10);   // 1e6 keys in 2.5 GiB: the false-positive rate is ~0

  // what does not fit next to it is refused clearly, and the filter is untouched
  expect(code(() => new BlockedBloomFilter({ blocks: (2 * GiB) / 32 }))).toBe('OUT_OF_MEMORY');
  expect(code(() => new BloomFilter({ capacity: 4e9, errorRate: 0.01 }))).toBe('OUT_OF_MEMORY');
  expect(f.has('big:1')).toBe(true);

  const bytes = f.serialize();
  expect(bytes.byteLength).toBe(20 + 32 + 2.5 * GiB + 4);
  f.free();
  const g = deserialize(bytes);
  expect(g).toBeInstanceOf(BlockedBloomFilter);
  expect(g.hasAll(keys).every((v) => v === 1)).toBe(true);
  // the same bytes back, compared piece by piece (no third 2.5 GiB buffer)
  const expected = new Uint8Array(bytes);
  let at = 0;
  let same = true;
  g.serializeTo((chunk) => {
    same &&= Buffer.compare(chunk, expected.subarray(at, at + chunk.length)) === 0;
    at += chunk.length;
  });
  expect(at).toBe(bytes.byteLength);
  expect(same).toBe(true);
  g.free();
}, 300_000);
