// A reader of the bloomcuckoo format, version 1, written from docs/FORMAT.md alone: no wasm and
// nothing from js/. It is the proof that the document is complete (tests/js/format-spec.test.js
// checks that it answers `has` exactly as the library does for every golden file), and a second,
// short description of the format in code. Plain JS; 64-bit hash arithmetic uses BigInt.
// Here: the frame, the key hashes, the CRC, the body cursor and the helpers the bodies share. Each
// kind's body reader stands in its test file, tests/kinds/<name>.mjs (`readBody`), and joins with
// addReader (format-spec.test.js adds every one the kind table names).
//
//   import { addReader, readFilter } from './reader.mjs';
//   addReader(number, name, readBody, hashId);   // once per kind
//   const f = readFilter(bytes);            // Uint8Array; throws FormatError on bad input
//   f.kind, f.name, f.seed, f.has(keyBytes)  // keyBytes: Uint8Array (strings: their UTF-8 bytes)

/**
 * Thrown for bytes that are not a valid file; `code` is CORRUPT_DATA or UNSUPPORTED_VERSION as
 * FORMAT.md says, or UNKNOWN_KIND for a kind this reader has no parser for.
 */
export class FormatError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'FormatError';
    this.code = code;
  }
}

export const corrupt = (message) => new FormatError('CORRUPT_DATA', message);

/** A DataView of exactly the bytes of `bytes` (a Uint8Array, perhaps a view into a larger buffer). */
export const viewOf = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

// ---- 64-bit helpers (FORMAT.md, "Notation") --------------------------------------------------

export const M64 = (1n << 64n) - 1n;
export const u64 = (x) => x & M64;
export const hi32 = (x) => x >> 32n;
export const lo32 = (x) => x & 0xffffffffn;

/** reduce(x, n) = floor(x * n / 2^64). */
export const reduce = (x, n) => (x * n) >> 64n;

/** MurmurHash3's 64-bit finaliser. */
export function fmix64(k) {
  k ^= k >> 33n;
  k = u64(k * 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = u64(k * 0xc4ceb9fe1a85ec53n);
  k ^= k >> 33n;
  return k;
}

const rotl64 = (x, r) => u64((x << r) | (x >> (64n - r)));

/**
 * MurmurHash3_x64_128 of `bytes` with a 32-bit seed (the SMHasher reference algorithm): [h1, h2]
 * as BigInts, h1 being the first 8 bytes of the reference's output read little-endian.
 */
export function murmur3x64(bytes, seed) {
  const C1 = 0x87c37b91114253d5n;
  const C2 = 0x4cf5ad432745937fn;
  const n = bytes.length;
  const view = viewOf(bytes);
  let h1 = BigInt(seed >>> 0);
  let h2 = h1;
  const blocks = Math.floor(n / 16);
  for (let i = 0; i < blocks; i++) {
    let k1 = view.getBigUint64(16 * i, true);
    let k2 = view.getBigUint64(16 * i + 8, true);
    k1 = u64(rotl64(u64(k1 * C1), 31n) * C2);
    h1 = u64(((rotl64(h1 ^ k1, 27n) + h2) * 5n) + 0x52dce729n);
    k2 = u64(rotl64(u64(k2 * C2), 33n) * C1);
    h2 = u64(((rotl64(h2 ^ k2, 31n) + h1) * 5n) + 0x38495ab5n);
  }
  // Tail: up to 15 bytes, little-endian, the first 8 into k1 and the rest into k2.
  const tail = 16 * blocks;
  let k1 = 0n;
  let k2 = 0n;
  for (let i = n - 1; i >= tail; i--) {
    const b = BigInt(bytes[i]);
    if (i - tail >= 8) k2 = (k2 << 8n) | b; else k1 = (k1 << 8n) | b;
  }
  if (n - tail > 8) h2 ^= u64(rotl64(u64(k2 * C2), 33n) * C1);
  if (n - tail > 0) h1 ^= u64(rotl64(u64(k1 * C1), 31n) * C2);
  const len = BigInt(n);
  h1 ^= len;
  h2 ^= len;
  h1 = u64(h1 + h2);
  h2 = u64(h2 + h1);
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = u64(h1 + h2);
  h2 = u64(h2 + h1);
  return [h1, h2];
}

// ---- CRC-32 (IEEE 802.3, reflected 0xEDB88320) ------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---- A little-endian cursor over the body -----------------------------------------------------

class Cursor {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = viewOf(bytes);
    this.pos = 0;
  }
  remaining() { return this.bytes.length - this.pos; }
  need(n) { if (n > this.remaining()) throw corrupt('body is truncated'); }
  u8() { this.need(1); return this.view.getUint8(this.pos++); }
  u32() { this.need(4); const v = this.view.getUint32(this.pos, true); this.pos += 4; return v; }
  u64() { this.need(8); const v = this.view.getBigUint64(this.pos, true); this.pos += 8; return v; }
  f64() { this.need(8); const v = this.view.getFloat64(this.pos, true); this.pos += 8; return v; }
  /**
   * The fields of a body table in its order: `spec` maps each name to its type ('u8', 'u32',
   * 'u64', 'f64'); returns them by name.
   */
  fields(spec) {
    return Object.fromEntries(Object.entries(spec).map(([name, type]) => [name, this[type]()]));
  }
  /** n bytes (n a BigInt or number), as a view; checked against what is present first. */
  take(n) {
    if (BigInt(n) > BigInt(this.remaining())) throw corrupt('body is truncated');
    const out = this.bytes.subarray(this.pos, this.pos + Number(n));
    this.pos += Number(n);
    return out;
  }
  end() { if (this.remaining() !== 0) throw corrupt('trailing bytes after the body'); }
}

export const validRate = (p) => p > 0 && p < 1;

/** Either the sized form (capacity >= 1, 0 < rate < 1) or the direct form (both 0). */
export function checkSizing(capacity, rate) {
  if (capacity === 0n && rate === 0) return;
  if (capacity === 0n || !validRate(rate)) throw corrupt('invalid capacity or error rate');
}

/** x (a BigInt) is a power of two. */
export const pow2 = (x) => x > 0n && (x & (x - 1n)) === 0n;

export const bitIsSet = (bytes, i) => (bytes[Math.floor(i / 8)] >> (i % 8)) & 1;

// ---- The Bloom probe sequence and body (FORMAT.md, kind 1; kinds 3 and 4 build on it) ---------

/** The k probe positions (Numbers) of (h1, h2) in a table of m slots (m a BigInt). */
export function probes(h1, h2, m, k) {
  const out = new Array(k);
  let a = h1;
  let b = h2;
  for (let i = 0; i < k; i++) {
    out[i] = Number(reduce(a, m));
    a = u64(a + b);
    b = u64(b + BigInt(i + 1));
  }
  return out;
}

/**
 * The fields kinds 1 and 3 start with, checked: m (bits or counters: `unit`), k, capacity,
 * error rate and size. `what` names the kind in errors.
 */
export function readBloomFields(r, what, unit) {
  const fields = { m: r.u64(), k: r.u32(), capacity: r.u64(), errorRate: r.f64(), size: r.u64() };
  if (fields.m === 0n) throw corrupt(`${what}: 0 ${unit}`);
  if (fields.k < 1 || fields.k > 64) throw corrupt(`${what}: k outside 1..64`);
  checkSizing(fields.capacity, fields.errorRate);
  return fields;
}

/** Reads one kind-1 body at the cursor; returns { m, k, capacity, errorRate, size, hasHash }. */
export function readBloomBody(r) {
  const { m, k, capacity, errorRate, size } = readBloomFields(r, 'bloom', 'bits');
  const bits = r.take(((m + 63n) / 64n) * 8n);
  if (m % 64n !== 0n) {
    for (let i = Number(m); i < bits.length * 8; i++) if (bitIsSet(bits, i)) throw corrupt('bloom: bit set past m');
  }
  const hasHash = (h1, h2) => probes(h1, h2, m, k).every((p) => bitIsSet(bits, p));
  return { m, k, capacity, errorRate, size, hasHash };
}

// ---- RedisBloom's hash (the kinds of hash id 2) ----------------------------------------------

/** MurmurHash64A of `bytes` with a 64-bit seed (BigInt), as FORMAT.md spells it. */
export function murmur64a(bytes, seed) {
  const m = 0xc6a4a7935bd1e995n;
  const n = bytes.length;
  const view = viewOf(bytes);
  let h = u64(seed ^ u64(BigInt(n) * m));
  const blocks = Math.floor(n / 8);
  for (let i = 0; i < blocks; i++) {
    let k = view.getBigUint64(8 * i, true);
    k = u64(k * m);
    k ^= k >> 47n;
    k = u64(k * m);
    h ^= k;
    h = u64(h * m);
  }
  const t = n % 8;
  if (t > 0) {
    for (let j = 0; j < t; j++) h ^= BigInt(bytes[8 * blocks + j]) << BigInt(8 * j);
    h = u64(h * m);
  }
  h ^= h >> 47n;
  h = u64(h * m);
  h ^= h >> 47n;
  return h;
}

// ---- The frame -------------------------------------------------------------------------------

// The body readers, by kind number: { name, hashId, parse }. Each kind's stands in its test file
// (tests/kinds/<name>.mjs, `readBody`), written from its section of FORMAT.md with the helpers
// exported here; tests/js/format-spec.test.js adds them (addReader) from the kind table.
const KINDS = {};

/**
 * Adds the body reader of kind `number`, whose bytes carry hash id `hashId` (FORMAT.md's frame):
 * parse(cursor) reads the whole body and returns has(h1, h2) for hash id 1 (the frame's seed
 * hashes the key with MurmurHash3), has(keyBytes) for hash id 2 (the reader hashes the key the
 * RedisBloom way its section says; the frame's seed must be 0).
 */
export function addReader(number, name, parse, hashId = 1) {
  KINDS[number] = { name, hashId, parse };
}

/** The kind numbers this reader knows (a section of FORMAT.md each). */
export const knownKinds = () => Object.keys(KINDS).map(Number);

/**
 * Parses a whole file (Uint8Array) and returns { kind, name, version, seed, has(keyBytes) }.
 * Throws FormatError (CORRUPT_DATA or UNSUPPORTED_VERSION) for anything FORMAT.md rejects.
 */
export function readFilter(bytes) {
  if (bytes.length < 24) throw corrupt('shorter than a frame');
  const view = viewOf(bytes);
  if (bytes[0] !== 0x42 || bytes[1] !== 0x43 || bytes[2] !== 0x46 || bytes[3] !== 0x4c) throw corrupt('bad magic');
  const version = view.getUint16(4, true);
  if (version === 0) throw corrupt('version 0');
  if (version > 1) throw new FormatError('UNSUPPORTED_VERSION', `version ${version}`);
  const kind = bytes[6];
  const hashId = bytes[7];
  const seed = view.getUint32(8, true);
  const bodyLength = view.getBigUint64(12, true);
  if (bodyLength !== BigInt(bytes.length - 24)) throw corrupt('body length does not match the file');
  const end = bytes.length - 4;
  if (crc32(bytes.subarray(0, end)) !== view.getUint32(end, true)) throw corrupt('CRC mismatch');
  /** parse(cursor) over the whole body: what it returns, once it has read every byte. */
  const readBody = (parse) => {
    const r = new Cursor(bytes.subarray(20, end));
    const out = parse(r);
    r.end();
    return out;
  };
  // FORMAT.md: an unknown kind is CORRUPT_DATA. Kinds this reader has no section for yet get
  // their own code, so a caller can tell "not implemented here" from "broken".
  if (!(kind in KINDS)) throw new FormatError('UNKNOWN_KIND', `kind ${kind} is not known to this reader`);
  const { name, hashId: kindHashId, parse } = KINDS[kind];
  if (hashId !== kindHashId) throw new FormatError('UNSUPPORTED_VERSION', `hash id ${hashId}`);
  if (hashId === 2) {
    if (seed !== 0) throw corrupt('the RedisBloom kinds have no seed');
    return { kind, name, version, seed, has: readBody(parse) };
  }
  const hasHash = readBody(parse);
  return {
    kind,
    name,
    version,
    seed,
    has(keyBytes) {
      const [h1, h2] = murmur3x64(keyBytes, seed);
      return hasHash(h1, h2);
    },
  };
}
