// What a small filter of each class really holds, read from its own serialize() bytes
// (docs/FORMAT.md) where the library has no method that says it, and where a key goes in it, from
// the library's own introspection (positions) or, where there is none, from the format's
// "Keys → bits" rules, checked against the filter's own has(). No DOM here: the e2e test imports
// it in Node.
import { BloomFilter, murmur3 } from './lib.js';

const M64 = (1n << 64n) - 1n;

/** The body of a filter's serialize() bytes: { kind, seed, view, bytes, at } (at: body offset). */
function bodyOf(filter) {
  const bytes = new Uint8Array(filter.serialize());
  const frame = new DataView(bytes.buffer);
  const length = Number(frame.getBigUint64(12, true));
  return { kind: bytes[6], seed: frame.getUint32(8, true), bytes, at: 20, view: new DataView(bytes.buffer, 20, length) };
}

/** Counting Bloom (kind 3): { m, k, counters } with the 4-bit counters as numbers 0…15. */
export function readCounters(filter) {
  const { view, bytes, at } = bodyOf(filter);
  const m = Number(view.getBigUint64(0, true));
  const k = view.getUint32(8, true);
  const counters = [];
  for (let i = 0; i < m; i++) {
    const byte = bytes[at + 36 + (i >> 1)];
    counters.push(i & 1 ? byte >> 4 : byte & 15);
  }
  return { m, k, counters };
}

/** The byte that holds counters 2j and 2j + 1 (low nibble: the even one). */
export const counterByte = (counters, j) => (counters[2 * j] | ((counters[2 * j + 1] ?? 0) << 4));

/** Blocked Bloom (kind 2): { blocks, words } with 8 u32 words per 256-bit block. */
export function readBlockWords(filter) {
  const { view } = bodyOf(filter);
  const blocks = Number(view.getBigUint64(0, true));
  const words = [];
  for (let i = 0; i < 8 * blocks; i++) words.push(view.getUint32(32 + 4 * i, true));
  return { blocks, words };
}

/** Block, word and bit of a blocked filter's bit position (positions() gives bit indices). */
export const blockBit = (p) => ({ block: Math.floor(p / 256), word: Math.floor((p % 256) / 32), bit: p % 32 });

/**
 * Scalable Bloom (kind 4): its layers, oldest first, each { capacity, errorRate, m, k, size, bits
 * (0/1 per bit), seed }. A layer's body is exactly a Bloom body (kind 1) under the filter's seed.
 */
export function readLayers(filter) {
  const { view, bytes, at, seed } = bodyOf(filter);
  const count = view.getUint32(21, true);
  const layers = [];
  let off = 25;
  for (let i = 0; i < count; i++) {
    const m = Number(view.getBigUint64(off, true));
    const bits = [];
    for (let b = 0; b < m; b++) bits.push((bytes[at + off + 36 + (b >> 3)] >> (b & 7)) & 1);
    layers.push({ m, k: view.getUint32(off + 8, true), capacity: Number(view.getBigUint64(off + 12, true)),
      errorRate: view.getFloat64(off + 20, true), size: Number(view.getBigUint64(off + 28, true)), bits, seed });
    off += 36 + 8 * Math.ceil(m / 64);
  }
  return layers;
}

/**
 * Where `key` goes in each layer, and whether all its bits are set there: { positions, has } per
 * layer. The positions are the library's own: a BloomFilter of the layer's m bits, k probes and
 * seed maps a key exactly as the layer does (FORMAT.md, kinds 1 and 4).
 */
export function layerProbes(layers, key) {
  return layers.map((l) => {
    const twin = new BloomFilter({ bits: l.m, hashes: l.k, seed: l.seed });
    try {
      const positions = Array.from(twin.positions(key));
      return { positions, has: positions.every((p) => l.bits[p] === 1) };
    } finally {
      twin.free();
    }
  });
}

/** Binary fuse (kind 6): { bits, L (segment length), c (segment count), size, seed, F (fingerprints) }. */
export function readFuse(filter) {
  const { view, seed } = bodyOf(filter);
  const bits = view.getUint32(0, true);
  const length = view.getUint32(12, true);
  const F = [];
  for (let i = 0; i < length; i++) F.push(bits === 8 ? view.getUint8(32 + i) : view.getUint16(32 + 2 * i, true));
  return { bits, L: view.getUint32(4, true), c: view.getUint32(8, true), size: Number(view.getBigUint64(16, true)),
    construction: view.getBigUint64(24, true), seed, F };
}

const fmix64 = (k) => {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & M64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & M64;
  return k ^ (k >> 33n);
};

/**
 * The three slots a key XORs in a fuse filter read by readFuse, and its fingerprint (FORMAT.md,
 * kind 6): { slots: [p0, p1, p2], fp, xor } — `xor` = F[p0] ⊕ F[p1] ⊕ F[p2], so has(key) is
 * xor === fp. null for an empty filter.
 */
export function fuseSlots(fuse, key) {
  const { L, c, F, bits, construction, seed } = fuse;
  if (!F.length) return null;
  const out = murmur3.x64_128(key, seed);
  const h1 = new DataView(out.buffer, out.byteOffset, 16).getBigUint64(0, true);
  const h = fmix64((h1 + construction) & M64);
  const p0 = Number((h * BigInt(c * L)) >> 64n);
  const mask = BigInt(L - 1);
  const p1 = ((p0 + L) ^ Number((h >> 18n) & mask)) >>> 0;
  const p2 = ((p0 + 2 * L) ^ Number(h & mask)) >>> 0;
  const fp = Number((h ^ (h >> 32n)) & BigInt(2 ** bits - 1));
  return { slots: [p0, p1, p2], fp, xor: F[p0] ^ F[p1] ^ F[p2] };
}
