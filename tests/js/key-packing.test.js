// The bytes js/main/keys.js writes into wasm memory for string keys are exactly TextEncoder's UTF-8
// (lone surrogates as U+FFFD), whichever path packs them: the charCodeAt loop, the joined
// encodeInto of an all-ASCII chunk of long keys, or the key-by-key exact path; for batches
// (forEachChunk) and for one key (encodeKey). Random strings: ASCII around the lengths where the
// paths change, non-ASCII, lone surrogates (also split across two keys), empty strings, binary
// keys among them, and batches around the 16,384-key chunk and the scratch's capacity.
import fc from 'fast-check';
import { init, BlockedBloomFilter, BloomFilter, PackedKeys } from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import {
  encodeKey, forEachChunk, JOINED_MIN_CHARS, ONE_KEY_ENCODE_MIN_CHARS, setPackingThresholds,
} from '../../js/main/keys.js';

beforeAll(() => init());

const CHUNK = 16384;
const enc = new TextEncoder();
const expected = (k) => (typeof k === 'string' ? enc.encode(k) : k);

/** What forEachChunk wrote: each key's bytes (copied out), in order. */
function packedBytes(keys) {
  const out = [];
  forEachChunk(keys, (dataPtr, offsetsPtr, count, _out, start) => {
    const heap = requireWasm().HEAPU8;
    const offs = new Uint32Array(heap.buffer, offsetsPtr, count + 1);
    expect(start).toBe(out.length);
    if (start === 0) expect(offs[0]).toBe(0);
    for (let i = 0; i < count; i++) out.push(heap.slice(dataPtr + offs[i], dataPtr + offs[i + 1]));
  });
  return out;
}

/** The index of the first key whose packed bytes differ from TextEncoder's, or -1. */
function firstMismatch(keys) {
  const got = packedBytes(keys);
  if (got.length !== keys.length) return got.length;
  for (let i = 0; i < keys.length; i++) {
    const want = expected(keys[i]);
    const g = got[i];
    if (g.length !== want.length) return i;
    for (let j = 0; j < g.length; j++) if (g[j] !== want[j]) return i;
  }
  return -1;
}

/** The bytes encodeKey wrote for one key (at the start of the scratch). */
function oneKeyBytes(key) {
  const n = encodeKey(key);
  let dataPtr = 0;
  forEachChunk([''], (d) => { dataPtr = d; });   // the scratch's start; packs nothing
  return requireWasm().HEAPU8.slice(dataPtr, dataPtr + n);
}

/** TextEncoder's packing of `keys` as PackedKeys (the reference for answers). */
function referencePacked(keys) {
  const parts = keys.map(expected);
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length; });
  const bytes = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return new PackedKeys(bytes, offsets);
}

const asciiChar = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
const ascii = (minLength, maxLength) => fc.array(asciiChar, { minLength, maxLength }).map((a) => a.join(''));
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }),             // any UTF-16 unit: lone surrogates included
  fc.integer({ min: 0xd800, max: 0xdfff }),        // surrogates, more often
  fc.integer({ min: 0x80, max: 0x7ff }),
);
const utf16 = (maxLength) => fc.array(unit, { maxLength }).map((a) => String.fromCharCode(...a));
const edge = JOINED_MIN_CHARS;
const stringKey = fc.oneof(
  { weight: 3, arbitrary: ascii(edge - 4, edge + 4) },   // around the crossover
  { weight: 3, arbitrary: ascii(30, 140) },
  { weight: 1, arbitrary: ascii(0, 8) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: utf16(40) },
  // a long ASCII key with one unit past ASCII somewhere (the joined path must notice it)
  { weight: 2, arbitrary: fc.tuple(ascii(20, 80), unit, fc.nat()).map(([s, u, at]) => {
    const p = at % (s.length + 1);
    return s.slice(0, p) + String.fromCharCode(u) + s.slice(p);
  }) },
  // ends in a high surrogate or starts with a low one: joined, two keys would make a pair
  { weight: 1, arbitrary: ascii(20, 40).map((s) => `${s}\ud83d`) },
  { weight: 1, arbitrary: ascii(20, 40).map((s) => `\ude00${s}`) },
);
const anyKey = fc.oneof({ weight: 9, arbitrary: stringKey },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 50 }) });
// batches whose first keys decide the path: mostly long ASCII with a few others, or any mix
const batch = fc.oneof(
  fc.array(fc.oneof({ weight: 12, arbitrary: ascii(edge, 120) }, { weight: 1, arbitrary: anyKey }), { maxLength: 300 }),
  fc.array(anyKey, { maxLength: 300 }),
);

// each path on its own at every length (0: always encodeInto; Infinity: always the loop), and the
// crossovers as shipped
describe.each([
  ['as shipped', { joined: JOINED_MIN_CHARS, oneKey: ONE_KEY_ENCODE_MIN_CHARS }],
  ['always encodeInto', { joined: 0, oneKey: 0 }],
  ['always the loop', { joined: Infinity, oneKey: Infinity }],
])('%s', (_name, thresholds) => {
  let previous;
  beforeAll(() => { previous = setPackingThresholds(thresholds); });
  afterAll(() => setPackingThresholds(previous));

  test('a batch of strings is packed as TextEncoder encodes each key', () => {
    fc.assert(fc.property(batch, (keys) => firstMismatch(keys) === -1), { numRuns: 400 });
  });

  test('batches around the chunk boundary and the scratch capacity are packed exactly', () => {
    const special = fc.oneof(utf16(30), fc.constant(''), ascii(0, 5), fc.uint8Array({ maxLength: 20 }),
      ascii(20, 40).map((s) => `${s}\ud800`));
    const arb = fc.record({
      count: fc.oneof(fc.integer({ min: CHUNK - 3, max: CHUNK + 3 }), fc.integer({ min: 2 * CHUNK - 2, max: 2 * CHUNK + 40 })),
      length: fc.integer({ min: edge - 2, max: 200 }),   // at 200 a chunk is past the 1 MiB scratch
      specials: fc.array(fc.tuple(fc.integer({ min: -40, max: 40 }), special), { maxLength: 4 }),
    });
    fc.assert(fc.property(arb, ({ count, length, specials }) => {
      const keys = Array.from({ length: count }, (_, i) => `https://host-${i}.example.com/`.padEnd(length, `p${i % 10}/`));
      for (const [delta, key] of specials) keys[(CHUNK + delta + count) % count] = key;
      return firstMismatch(keys) === -1;
    }), { numRuns: 8 });
  });

  test('a key longer than the scratch, inside a batch of long keys, is packed exactly', () => {
    const huge = 'u'.repeat(1_500_000);
    const keys = Array.from({ length: 100 }, (_, i) => `https://host-${i}.example.com/some/path/`);
    keys.splice(50, 0, huge, `${huge}\u00e9`);
    expect(firstMismatch(keys)).toBe(-1);
  });

  test('a short key with one unit past ASCII anywhere is packed exactly (four characters a store)', () => {
    const keys = [];
    for (let n = 1; n <= 13; n++) {
      for (let p = 0; p < n; p++) {
        for (const u of [0x80, 0xff, 0x100, 0x7ff, 0x800, 0xd800, 0xdfff, 0xffff]) {
          const rest = 'abcdefghijklm'.slice(0, n - 1);
          keys.push(rest.slice(0, p) + String.fromCharCode(u) + rest.slice(p));
        }
      }
    }
    expect(firstMismatch(keys)).toBe(-1);
    for (const k of keys) expect(Array.from(oneKeyBytes(k))).toEqual(Array.from(enc.encode(k)));
    // the same keys one per batch, after an ASCII key (each then starts at an odd offset)
    for (const k of keys) expect(firstMismatch(['x', k])).toBe(-1);
  });

  test('one key is written as TextEncoder encodes it, on both sides of its crossover', () => {
    const key = fc.oneof(stringKey, ascii(ONE_KEY_ENCODE_MIN_CHARS - 2, ONE_KEY_ENCODE_MIN_CHARS + 2));
    fc.assert(fc.property(key, (k) => {
      const got = oneKeyBytes(k);
      const want = enc.encode(k);
      return got.length === want.length && got.every((b, i) => b === want[i]);
    }), { numRuns: 1000 });
  });
});

test('answers: addAll/hasAll of strings and has() one by one agree with TextEncoder-packed keys', () => {
  fc.assert(fc.property(batch, fc.array(stringKey, { maxLength: 100 }), (keys, absent) => {
    const a = new BlockedBloomFilter({ capacity: 1000, errorRate: 0.001 });
    const b = new BlockedBloomFilter({ capacity: 1000, errorRate: 0.001 });
    const c = new BloomFilter({ capacity: 1000, errorRate: 0.001 });
    try {
      a.addAll(keys);
      b.addAll(referencePacked(keys));
      for (const k of keys) c.add(k);
      const same = Buffer.from(a.serialize()).equals(Buffer.from(b.serialize()));
      const probe = keys.concat(absent);
      const want = b.hasAll(referencePacked(probe));
      const got = a.hasAll(probe);
      const d = new BloomFilter({ capacity: 1000, errorRate: 0.001 });
      d.addAll(referencePacked(keys));
      const one = probe.every((k, i) => (c.has(k) ? 1 : 0) === (d.has(expected(k)) ? 1 : 0) && (a.has(k) ? 1 : 0) === want[i]);
      const dSame = Buffer.from(c.serialize()).equals(Buffer.from(d.serialize()));
      d.free();
      return same && dSame && one && got.every((v, i) => v === want[i]);
    } finally {
      a.free();
      b.free();
      c.free();
    }
  }), { numRuns: 150 });
});
