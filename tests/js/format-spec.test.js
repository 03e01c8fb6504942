// The format spec's proof: tests/format/reader.mjs, written from docs/FORMAT.md alone (no wasm,
// nothing from js/), must answer `has` exactly as the library does for every golden file, over
// 10^4 probe keys each (the keys its recipe added, absent ones, strings and binary), and reject
// what the spec says is broken.
import { readFileSync } from 'node:fs';
import { init, deserialize } from '../../js/main/index.js';
import { GOLDEN_DIR, recipes } from './golden.js';
import { KIND_TABLE } from '../../js/shared/kind-table.js';
import { FormatError, addReader, crc32, knownKinds, murmur3x64, murmur64a, readFilter } from '../format/reader.mjs';
import { loadKindFiles } from './kind-files.js';
import { prng } from '../prng.mjs';

const PROBES = 10_000;
const encoder = new TextEncoder();
const keyBytes = (k) => (typeof k === 'string' ? encoder.encode(k) : k);

beforeAll(() => init());

// A small deterministic generator (mulberry32), so every run probes the same keys.
const rng = prng;

const ALPHABET = ['a', 'z', '0', ':', ' ', 'é', 'ß', '€', '中', '文', '😀', '\u{10FFFF}', '\uD800'];

/**
 * The recipe's keys ("golden:<i>", i < n; the first `remove` of them removed again), then absent
 * "golden:<i>" keys, random strings (ASCII, 2-, 3- and 4-byte UTF-8, a lone surrogate) and random
 * binary keys of 0..40 bytes (every MurmurHash3 tail length, one and two blocks), PROBES in all.
 */
function probeKeys(r, fileIndex) {
  const rand = rng(0x5eed + fileIndex);
  const keys = Array.from({ length: r.n }, (_, i) => `golden:${i}`);
  const rest = PROBES - keys.length;
  for (let i = 0; i < rest / 2; i++) keys.push(`golden:${r.n + i}`);
  while (keys.length < PROBES - rest / 4) {
    const len = Math.floor(rand() * 24);
    let s = '';
    for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)];
    keys.push(s);
  }
  while (keys.length < PROBES) {
    const b = new Uint8Array(Math.floor(rand() * 41));
    for (let i = 0; i < b.length; i++) b[i] = Math.floor(rand() * 256);
    keys.push(b);
  }
  return keys;
}

// the body readers of the kinds' test files (tests/kinds/<name>.mjs)
for (const { name, module } of await loadKindFiles()) {
  const row = KIND_TABLE.find(([, n]) => n === name);
  if (row && module.readBody) addReader(row[0], name, module.readBody, row[3]);
}
const KNOWN_KINDS = knownKinds();

const golden = recipes().map((r, i) => ({ ...r, index: i, bytes: new Uint8Array(readFileSync(new URL(r.file, GOLDEN_DIR))) }));
const kindOfFile = (g) => g.bytes[6];
const covered = golden.filter((g) => KNOWN_KINDS.includes(kindOfFile(g)));

test('the reader covers every kind of the kind table, by its name, and every golden file', () => {
  expect(golden.filter((g) => !covered.includes(g)).map((g) => `${g.file}: kind ${kindOfFile(g)} ('${g.kind}') has no reader: write its body reader (export function readBody) in its test file tests/kinds/${g.kind}.mjs from docs/FORMAT.md`)).toEqual([]);
  const missing = KIND_TABLE.filter(([n]) => !covered.some((g) => kindOfFile(g) === n))
    .map(([n, name]) => `kind ${n} ('${name}'): ${KNOWN_KINDS.includes(n) ? '' : `write its body reader (export function readBody) in tests/kinds/${name}.mjs from docs/FORMAT.md, and `}give tests/kinds/${name}.mjs its golden recipe (export const golden) and run scripts/gen-golden.mjs`);
  expect(missing).toEqual([]);
  for (const g of covered) expect([g.file, readFilter(g.bytes).name]).toEqual([g.file, KIND_TABLE.find(([n]) => n === kindOfFile(g))[1]]);
});

test("the reader's MurmurHash64A gives SMHasher's verification value 0x1F0D3804", () => {
  // SMHasher: hash keys [0], [0,1], ..., [0..254] with seed 256 - len, concatenate the 64-bit
  // results little-endian, hash that with seed 0; the first 4 bytes read little-endian.
  const key = Uint8Array.from({ length: 256 }, (_, i) => i);
  const all = new Uint8Array(256 * 8);
  const view = new DataView(all.buffer);
  for (let len = 0; len < 256; len++) view.setBigUint64(8 * len, murmur64a(key.subarray(0, len), BigInt(256 - len)), true);
  const v = new DataView(new ArrayBuffer(8));
  v.setBigUint64(0, murmur64a(all, 0n), true);
  expect(v.getUint32(0, true)).toBe(0x1f0d3804);
});

test("the reader's MurmurHash3_x64_128 matches the reference vectors; its CRC-32 the check value", () => {
  const lines = readFileSync(new URL('../fixtures/murmur3_vectors.txt', import.meta.url), 'utf8')
    .split('\n').filter((l) => l.startsWith('x64_128 '));
  expect(lines.length).toBeGreaterThan(100);
  for (const line of lines) {
    const [, seed, keyHex, outHex] = line.trim().split(/\s+/);
    const key = keyHex === '-' ? new Uint8Array(0) : Uint8Array.from(keyHex.match(/../g), (h) => parseInt(h, 16));
    const [h1, h2] = murmur3x64(key, Number(seed));
    const out = new Uint8Array(16);
    const view = new DataView(out.buffer);
    view.setBigUint64(0, h1, true);
    view.setBigUint64(8, h2, true);
    expect(Buffer.from(out).toString('hex')).toBe(outHex);
  }
  expect(crc32(encoder.encode('123456789'))).toBe(0xcbf43926);
});

test.each(covered.map((g) => [g.file, g]))('%s: the reader answers has() exactly as the library, on 10^4 probes', (_file, g) => {
  const f = deserialize(g.bytes);
  const spec = readFilter(g.bytes);
  expect(spec.name).toBe(g.kind);
  const keys = probeKeys(g, g.index);
  expect(keys.length).toBe(PROBES);
  const lib = f.hasAll(keys);
  f.free();
  const mismatches = [];
  let positives = 0;
  for (let i = 0; i < keys.length; i++) {
    const answer = spec.has(keyBytes(keys[i]));
    positives += answer ? 1 : 0;
    if (answer !== (lib[i] === 1) && mismatches.length < 5) mismatches.push({ key: keys[i], library: lib[i], reader: answer });
  }
  expect(mismatches).toEqual([]);
  // Both answers occur, so agreement is not the trivial "all true" or "all false".
  expect(positives).toBeGreaterThanOrEqual(g.n - g.remove);
  expect(positives).toBeLessThan(PROBES / 2);
});

describe.each(covered.map((g) => [g.file, g]))('%s: the reader rejects broken bytes as the library does', (_file, g) => {
  const rejects = (bytes, code, pattern) => {
    let err = null;
    try { readFilter(bytes); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FormatError);
    expect(err.code).toBe(code);
    if (pattern) expect(err.message).toMatch(pattern);
    expect(() => deserialize(bytes)).toThrow(expect.objectContaining({ code }));
  };

  test('a truncated file (last byte missing, or cut to the header)', () => {
    rejects(g.bytes.slice(0, g.bytes.length - 1), 'CORRUPT_DATA', /body length/);
    rejects(g.bytes.slice(0, 23), 'CORRUPT_DATA', /shorter/);
  });

  test('a flipped bit in the body fails the CRC', () => {
    const bad = g.bytes.slice();
    bad[20 + Math.floor((bad.length - 24) / 2)] ^= 0x10;
    rejects(bad, 'CORRUPT_DATA', /CRC/);
  });

  test('a body cut short with a consistent frame (length and CRC refitted) fails the body parser', () => {
    const cut = 4;
    const bad = new Uint8Array(g.bytes.length - cut);
    bad.set(g.bytes.subarray(0, bad.length - 4));
    const view = new DataView(bad.buffer);
    view.setBigUint64(12, BigInt(bad.length - 24), true);
    view.setUint32(bad.length - 4, crc32(bad.subarray(0, bad.length - 4)), true);
    rejects(bad, 'CORRUPT_DATA');
  });

  test('a newer version is UNSUPPORTED_VERSION', () => {
    const bad = g.bytes.slice();
    bad[4] = 2;
    rejects(bad, 'UNSUPPORTED_VERSION');
  });
});
