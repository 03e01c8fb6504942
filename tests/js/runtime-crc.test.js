// The frame's CRC-32 computed by the runtime (Node's zlib.crc32, installed as Module.bcCrc32 by
// js/main/filter.js; bindings/js_crc.cc hands it the pieces of at least 4 KiB) gives the same bytes as
// the wasm tables (Module.bcCrc32 = null) and as the bitwise definition, for every kind; corrupt
// bytes still fail their checksum, and a runtime CRC that answers wrong is caught by the tests
// below (they compare against the tables and the definition, not against themselves).
import { init, deserialize, kindOf } from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import { FILTERS } from './filters.js';

beforeAll(() => init());

/** The CRC-32 of the definition (IEEE 802.3, reflected 0xEDB88320), bit by bit. */
function crc32Bitwise(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) {
    c ^= bytes[i];
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Runs fn with Module.bcCrc32 set to `crc` (null: the wasm tables), restoring it after. */
function withCrc(crc, fn) {
  const m = requireWasm();
  const saved = m.bcCrc32;
  m.bcCrc32 = crc;
  try {
    return fn();
  } finally {
    m.bcCrc32 = saved;
  }
}

const keys = Array.from({ length: 20000 }, (_, i) => `crc:${i}`);

test('Node has a runtime CRC-32 and serialize() installs it', () => {
  const f = FILTERS[0].create(keys.slice(0, 10), 100, 0.01, 1);
  f.serialize();
  f.free();
  expect(typeof requireWasm().bcCrc32).toBe('function');
});

test.each(FILTERS.map((e) => [e.name, e]))('%s: runtime CRC, wasm tables and the definition give the same bytes', (_name, e) => {
  const f = e.create(keys, keys.length, 0.01, 7);
  const m = requireWasm();
  let calls = 0;
  let pieceBytes = 0;
  const runtime = m.bcCrc32;
  const counted = (crc, ptr, len) => { calls++; pieceBytes += len; return runtime(crc, ptr, len); };
  const viaRuntime = new Uint8Array(withCrc(counted, () => f.serialize()));
  const viaTables = new Uint8Array(withCrc(null, () => f.serialize()));
  expect(calls).toBeGreaterThan(0);                    // the runtime did compute the pieces...
  expect(pieceBytes).toBeGreaterThan(viaRuntime.length / 2);   // ...most of the bytes
  expect(Buffer.from(viaRuntime).equals(Buffer.from(viaTables))).toBe(true);
  const body = viaRuntime.subarray(0, viaRuntime.length - 4);
  const trailer = new DataView(viaRuntime.buffer).getUint32(viaRuntime.length - 4, true);
  expect(trailer).toBe(crc32Bitwise(body));
  // read back with each CRC; a flipped bit in the body fails the checksum with each
  for (const crc of [counted, null]) {
    withCrc(crc, () => {
      const g = deserialize(viaRuntime);
      expect(Buffer.from(g.serialize()).equals(Buffer.from(viaRuntime))).toBe(true);
      g.free();
      const bad = viaRuntime.slice();
      bad[bad.length >> 1] ^= 0x10;
      expect(() => deserialize(bad)).toThrow(expect.objectContaining({ code: 'CORRUPT_DATA' }));
      expect(() => kindOf(bad)).toThrow(/checksum/);
    });
  }
  f.free();
});

test('a runtime CRC that answers wrong is what the checks above would catch', () => {
  const e = FILTERS[0];
  const f = e.create(keys, keys.length, 0.01, 7);
  const runtime = requireWasm().bcCrc32;
  const wrong = (crc, ptr, len) => (runtime(crc, ptr, len) ^ 1) >>> 0;
  const viaWrong = new Uint8Array(withCrc(wrong, () => f.serialize()));
  const viaTables = new Uint8Array(withCrc(null, () => f.serialize()));
  expect(Buffer.from(viaWrong).equals(Buffer.from(viaTables))).toBe(false);
  f.free();
});
