// Bytes anywhere: transfer to a worker, and untrusted bytes (every kind, every corruption).
import { Worker } from 'node:worker_threads';
import { init, deserialize, deserializeFrom, kindOf, getWasmModule, FilterError } from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import { FILTERS } from './filters.js';

beforeAll(() => init());

const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** Rewrites the trailing CRC so only the deliberate change is wrong. */
function fixCrc(u8) {
  new DataView(u8.buffer, u8.byteOffset).setUint32(u8.length - 4, crc32(u8.subarray(0, u8.length - 4)), true);
  return u8;
}
function errorCode(fn) {
  try { const f = fn(); f?.free?.(); } catch (e) {
    if (!(e instanceof FilterError)) throw e;
    return e.code;
  }
  return 'OK';
}
// Every reader judges n bytes in O(n) time (docs/FORMAT.md): no input of these tests (a few MB at
// most) may take this long, however large the counts its header claims (issue 34: 5-41 s).
const CEILING_MS = 1000;
/** errorCode(fn), and [what, 'slow', ms] instead when the verdict took over the ceiling. */
function judged(what, fn) {
  const start = performance.now();
  const code = errorCode(fn);
  const ms = performance.now() - start;
  return ms < CEILING_MS ? code : [what, 'slow', Math.round(ms)];
}
const keysOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe.each(FILTERS)('$name bytes', (F) => {
  let bytes;
  let filter;
  beforeAll(() => {
    filter = F.create(keysOf('s:', 500), 500, 0.01, 3);
    bytes = new Uint8Array(filter.serialize());
  });
  afterAll(() => filter.free());

  test('header fields are as docs/FORMAT.md says', () => {
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0x42, 0x43, 0x46, 0x4c]); // "BCFL"
    const dv = new DataView(bytes.buffer);
    expect(dv.getUint16(4, true)).toBe(1);
    // hash id 1 = MurmurHash3_x64_128 with the frame's seed; 2 = RedisBloom's scheme, seed always 0
    const seeded = F.seeded !== false;
    expect(dv.getUint8(7)).toBe(seeded ? 1 : 2);
    expect(dv.getUint32(8, true)).toBe(seeded ? 3 : 0);
    expect(Number(dv.getBigUint64(12, true))).toBe(bytes.length - 24);
    expect(dv.getUint32(bytes.length - 4, true)).toBe(crc32(bytes.subarray(0, bytes.length - 4)));
    expect(kindOf(bytes)).toBe(filter.info().kind);
  });

  test('accepts ArrayBuffer, Uint8Array, DataView and a Node Buffer slice with an offset', () => {
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 7);
    const nodeBuf = Buffer.from(padded.buffer, 7, bytes.length);
    for (const input of [bytes.slice().buffer, bytes, new DataView(padded.buffer, 7, bytes.length), nodeBuf, padded.subarray(7)]) {
      const g = F.Cls.deserialize(input);
      expect(g.hasAll(keysOf('s:', 500)).every((v) => v === 1)).toBe(true);
      g.free();
    }
    expect(() => F.Cls.deserialize('not bytes')).toThrow(TypeError);
  });

  test('empty, every truncation, trailing bytes → CORRUPT_DATA', () => {
    expect(errorCode(() => deserialize(new Uint8Array(0)))).toBe('CORRUPT_DATA');
    for (let n = 0; n < bytes.length; n += n < 128 ? 1 : 13) {
      expect([n, errorCode(() => F.Cls.deserialize(bytes.subarray(0, n)))]).toEqual([n, 'CORRUPT_DATA']);
    }
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(errorCode(() => deserialize(longer))).toBe('CORRUPT_DATA');
  });

  test('wrong magic, unknown kind → CORRUPT_DATA; future version → UNSUPPORTED_VERSION', () => {
    const magic = bytes.slice(); magic[0] = 0x58;
    expect(errorCode(() => deserialize(fixCrc(magic)))).toBe('CORRUPT_DATA');
    const version = bytes.slice(); version[4] = 2;
    expect(errorCode(() => deserialize(fixCrc(version)))).toBe('UNSUPPORTED_VERSION');
    const hash = bytes.slice(); hash[7] = 9;
    expect(errorCode(() => deserialize(fixCrc(hash)))).toBe('UNSUPPORTED_VERSION');
    const kind = bytes.slice(); kind[6] = 99;
    expect(errorCode(() => deserialize(fixCrc(kind)))).toBe('CORRUPT_DATA');
  });

  test('another kind → INVALID_ARGUMENT from Class.deserialize', () => {
    const other = FILTERS.find((G) => G.Cls !== F.Cls);
    if (!other) return;
    expect(errorCode(() => other.Cls.deserialize(bytes))).toBe('INVALID_ARGUMENT');
  });

  test('every flipped bit in the first 256 bytes is rejected', () => {
    // The version is read before the checksum (a future version may checksum differently), so a
    // flip in the version field reads as UNSUPPORTED_VERSION; everywhere else CORRUPT_DATA.
    for (let i = 0; i < Math.min(256, bytes.length); i++) {
      for (let bit = 0; bit < 8; bit += 3) {
        const b = bytes.slice(); b[i] ^= 1 << bit;
        const want = (i === 4 || i === 5) && b[4] + 256 * b[5] > 1 ? 'UNSUPPORTED_VERSION' : 'CORRUPT_DATA';
        expect([i, bit, judged(`bit ${bit} of byte ${i}`, () => deserialize(b))]).toEqual([i, bit, want]);
      }
    }
  });

  test('huge declared sizes (up to 2^63) with a valid checksum: an error, never a giant allocation', () => {
    const mem = () => requireWasm().HEAPU8.buffer.byteLength;
    const before = mem();
    const body = bytes.length - 24;
    // 65535: the most sub-filters a RedisBloom CF may claim (issue 34's quadratic header)
    const values = [2n ** 63n, 2n ** 64n - 1n, 2n ** 32n - 1n, 2n ** 31n, 65535n, 0n];
    let outcomes = { OK: 0 };
    // the body-length field, then every 8-byte (and 4-byte) window in the body's first 96 bytes
    for (const v of values) {
      const b = bytes.slice();
      new DataView(b.buffer).setBigUint64(12, v, true);
      expect(errorCode(() => deserialize(fixCrc(b)))).toBe('CORRUPT_DATA');
    }
    for (let off = 20; off < 20 + Math.min(96, body); off++) {
      for (const v of values) {
        for (const width of [8, 4]) {
          if (off + width > bytes.length - 4) continue;
          const b = bytes.slice();
          const dv = new DataView(b.buffer);
          if (width === 8) dv.setBigUint64(off, v, true); else dv.setUint32(off, Number(v & 0xffffffffn), true);
          const code = judged(`${v} at ${off} (${width} bytes)`, () => deserialize(fixCrc(b)));
          outcomes[code] = (outcomes[code] ?? 0) + 1;
          expect(['OK', 'CORRUPT_DATA', 'UNSUPPORTED_VERSION']).toContain(code);
        }
      }
    }
    expect(outcomes.CORRUPT_DATA).toBeGreaterThan(0);
    // wasm memory never grows by more than a small multiple of the input
    expect(mem() - before).toBeLessThanOrEqual(Math.max(16 << 20, 8 * bytes.length));
  });
});

describe.each(FILTERS)('$name streamed bytes', (F) => {
  const keys = keysOf('big:', 300000);
  let f;
  let whole;
  beforeAll(() => {
    f = F.create(keys, 300000, 0.01, 11);
    whole = new Uint8Array(f.serialize());
  });
  afterAll(() => f.free());

  test('serializeTo hands out the serialize() bytes in order, in pieces of at most 256 KiB', () => {
    const chunks = [];
    expect(f.serializeTo((c) => chunks.push(c.slice()))).toBe(whole.length);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(256 * 1024);
    expect(Buffer.concat(chunks).equals(Buffer.from(whole))).toBe(true);
  });

  test('deserializeFrom reads the bytes front to back in pieces of at most 256 KiB into the same filter', () => {
    const reads = [];
    const g = deserializeFrom(whole.length, (target, offset) => {
      reads.push([offset, target.length]);
      target.set(whole.subarray(offset, offset + target.length));
    });
    // the header once to pick the class, then every byte once, in order
    const start = reads.findLastIndex(([offset]) => offset === 0);
    expect(start).toBeGreaterThan(0);
    let at = 0;
    for (const [offset, length] of reads.slice(start)) {
      expect(offset).toBe(at);
      expect(length).toBeLessThanOrEqual(256 * 1024);
      at += length;
    }
    expect(at).toBe(whole.length);
    expect(Buffer.from(g.serialize()).equals(Buffer.from(whole))).toBe(true);
    expect(g.hasAll(keys).every((v) => v === 1)).toBe(true);
    g.free();
  });

  test('an error thrown by write or read is rethrown, and the filter and the module stay usable', () => {
    const boom = new Error('disk full');
    let writes = 0;
    expect(() => f.serializeTo(() => { if (++writes === 2) throw boom; })).toThrow(boom);
    expect(writes).toBe(2);
    let reads = 0;
    expect(() => deserializeFrom(whole.length, (target, offset) => {
      if (++reads === 3) throw boom;
      target.set(whole.subarray(offset, offset + target.length));
    })).toThrow(boom);
    expect(() => deserializeFrom(whole.length, () => { throw boom; })).toThrow(boom);
    expect(() => deserializeFrom(-1, () => {})).toThrow(TypeError);
    expect(() => deserializeFrom(whole.length, null)).toThrow(TypeError);
    expect(() => f.serializeTo('file.bin')).toThrow(TypeError);
    expect(Buffer.from(f.serialize()).equals(Buffer.from(whole))).toBe(true);
    const g = deserialize(whole);
    expect(g.hasAll(keys.slice(0, 1000)).every((v) => v === 1)).toBe(true);
    g.free();
  });

  test('a corrupt byte anywhere reads as a checksum failure, streamed or not', () => {
    for (const at of [20, 100, whole.length >> 1, whole.length - 5]) {
      const b = whole.slice();
      b[at] ^= 0x40;
      expect(() => deserializeFrom(b.length, (t, o) => t.set(b.subarray(o, o + t.length)))).toThrow(/checksum/);
      expect(() => deserialize(b)).toThrow(/checksum/);
    }
  });
});

test('a filter transferred to a worker_threads worker answers 10^5 queries identically', async () => {
  const F = FILTERS[FILTERS.length - 1];
  const keys = keysOf('w:', 20000);
  const f = F.create(keys, 20000, 0.01);
  const queries = [...keys.slice(0, 50000), ...keysOf('nope:', 80000)];
  const bytes = f.serialize();
  const worker = new Worker(new URL('./fixtures/filter-worker.mjs', import.meta.url),
    { workerData: { module: getWasmModule(), bytes, queries }, transferList: [bytes] });
  expect(bytes.byteLength).toBe(0); // transferred: the source buffer is detached
  const reply = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await worker.terminate();
  expect(reply.kind).toBe(f.info().kind);
  expect(queries.length).toBeGreaterThanOrEqual(1e5);
  expect(Buffer.from(reply.answers).equals(Buffer.from(f.hasAll(queries)))).toBe(true);
  f.free();
});
