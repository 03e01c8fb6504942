// What a small cuckoo filter really holds, and how an add gets there, for the figures that draw
// it. The table is read from the filter itself (its serialize() bytes, docs/FORMAT.md kind 5),
// never kept on the side. An add is replayed move by move with the library's documented rules
// (first empty slot of i1, then i2, oldest sub-filter first; then the kick chain of `KickInsert`
// in cpp/src/cuckoo_filter.cc; then growth), and the page compares the replay's final table with
// the filter's own after the real add: what is played is what happened. No DOM here (the e2e test
// imports it in Node).
import { murmur3 } from './lib.js';

const M64 = (1n << 64n) - 1n;
const GOLDEN = 0x9E3779B97F4A7C15n;

/**
 * The tables of a cuckoo filter: { f, b, expansion, maxIterations, inserted, deleted,
 * subs: [{ buckets, slots: number[] }] }, slots in storage order (bucket i, slot j at i·b + j;
 * 0 = empty). Only for small filters (the figures draw a few hundred slots at most).
 */
export function readCuckooTables(filter) {
  const bytes = new Uint8Array(filter.serialize());
  const v = new DataView(bytes.buffer, 20, bytes.length - 24);   // the body: after the frame, before the CRC
  const f = v.getUint32(16, true);
  const b = v.getUint32(20, true);
  const out = {
    f, b, maxIterations: v.getUint32(24, true), expansion: v.getUint32(28, true),
    inserted: Number(v.getBigUint64(32, true)), deleted: Number(v.getBigUint64(40, true)), subs: [],
  };
  let at = 52;
  for (let s = v.getUint32(48, true); s > 0; s--) {
    const buckets = Number(v.getBigUint64(at, true));
    const payload = Number(v.getBigUint64(at + 8, true));
    const start = 20 + at + 16;
    if (buckets * b > 4096) throw new RangeError('readCuckooTables: only small filters are drawn slot by slot');
    const slots = [];
    for (let i = 0; i < buckets * b; i++) {
      let fp = 0;
      for (let bit = 0; bit < f; bit++) {
        const t = i * f + bit;
        fp |= ((bytes[start + (t >> 3)] >> (t & 7)) & 1) << bit;
      }
      slots.push(fp);
    }
    out.subs.push({ buckets, slots });
    at += 16 + payload;
  }
  return out;
}

/** The key's 128-bit hash as the filter computes it: { h1, h2 } (BigInt), seed the filter's. */
function keyHash(key, seed) {
  const out = murmur3.x64_128(key, seed);
  const v = new DataView(out.buffer, out.byteOffset, 16);
  return { h1: v.getBigUint64(0, true), h2: v.getBigUint64(8, true) };
}

/** The alternate-bucket offset of a fingerprint: mix(fp) | 1 (FORMAT.md). */
const offsetOf = (fp) => {
  const x = (BigInt(fp) * GOLDEN) & M64;
  return (x ^ (x >> 32n)) | 1n;
};
/** The other bucket of fingerprint `fp` in bucket `i` of a table of `buckets` buckets. */
export const otherBucket = (i, fp, buckets) => Number((BigInt(i) ^ offsetOf(fp)) & BigInt(buckets - 1));

const mix64 = (z) => {
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
  return z ^ (z >> 31n);
};
function xorShift(state) {
  let x = state.v;
  x ^= (x << 13n) & M64;
  x ^= x >> 7n;
  x ^= (x << 17n) & M64;
  state.v = x;
  return x;
}

const cloneTables = (t) => ({ ...t, subs: t.subs.map((s) => ({ buckets: s.buckets, slots: [...s.slots] })) });
function firstEmpty(sub, bucket, b) {
  for (let j = 0; j < b; j++) if (sub.slots[bucket * b + j] === 0) return j;
  return -1;
}

/**
 * Replays `filter.add(key)` without changing the filter. Returns { outcome, fp, sub, i1, i2,
 * moves, kicks, after } where outcome is 'stored' (a free slot in i1 or i2 of sub-filter `sub`),
 * 'kicked' (stored after `kicks` moves, listed in `moves`), 'grew' (the kick chain failed and was
 * undone; a new sub-filter took it) or 'full' (failed, undone, nothing changed). Each move is
 * { sub, bucket, slot, placed, evicted, next } (next: the evicted fingerprint's other bucket; the
 * last move places a fingerprint in a free slot, evicted 0). `after` is the table the add leaves.
 */
export function replayAdd(filter, key) {
  const info = filter.info();
  const before = readCuckooTables(filter);
  const { b } = before;
  const { fingerprint: fp } = filter.locate(key);
  const { h1, h2 } = keyHash(key, info.seed);
  const t = cloneTables(before);
  const pairOf = (buckets) => {
    const i1 = Number(h1 & BigInt(buckets - 1));
    return [i1, otherBucket(i1, fp, buckets)];
  };
  for (let k = 0; k < t.subs.length; k++) {
    const sub = t.subs[k];
    const [i1, i2] = pairOf(sub.buckets);
    for (const i of [i1, i2]) {
      const j = firstEmpty(sub, i, b);
      if (j >= 0) {
        sub.slots[i * b + j] = fp;
        return { outcome: 'stored', fp, sub: k, i1, i2, moves: [{ sub: k, bucket: i, slot: j, placed: fp, evicted: 0, next: -1 }], kicks: 0, after: t };
      }
    }
  }
  // the kick chain in the newest sub-filter
  const k = t.subs.length - 1;
  const sub = t.subs[k];
  const [i1, i2] = pairOf(sub.buckets);
  let z = mix64(h1 ^ ((h2 * 0xD6E8FEB86659FD93n) & M64) ^ (BigInt(info.seed >>> 0) << 32n) ^ ((BigInt(before.inserted) * GOLDEN) & M64));
  if (z === 0n) z = 0x2545F4914F6CDD1Dn;
  const rng = { v: z };
  let bucket = (xorShift(rng) >> 63n) !== 0n ? i2 : i1;
  let cur = fp;
  const moves = [];
  while (moves.length < before.maxIterations) {
    const slot = Number((xorShift(rng) >> 32n) & 0xffffffffn) & (b - 1);
    const victim = sub.slots[bucket * b + slot];
    sub.slots[bucket * b + slot] = cur;
    const next = otherBucket(bucket, victim, sub.buckets);
    moves.push({ sub: k, bucket, slot, placed: cur, evicted: victim, next });
    cur = victim;
    bucket = next;
    const j = firstEmpty(sub, bucket, b);
    if (j >= 0) {
      sub.slots[bucket * b + j] = cur;
      moves.push({ sub: k, bucket, slot: j, placed: cur, evicted: 0, next: -1 });
      return { outcome: 'kicked', fp, sub: k, i1, i2, moves, kicks: moves.length - 1, after: t };
    }
  }
  // failed: every swap is undone, so the table is the one before
  const undone = cloneTables(before);
  if (before.expansion === 0 || before.subs.length >= 32) {
    return { outcome: 'full', fp, sub: k, i1, i2, moves, kicks: moves.length, after: undone };
  }
  const first = before.subs[0].buckets;
  const buckets = first * before.expansion ** before.subs.length;
  const grown = { buckets, slots: new Array(buckets * b).fill(0) };
  const [g1, g2] = pairOf(buckets);
  grown.slots[g1 * b] = fp;
  undone.subs.push(grown);
  return { outcome: 'grew', fp, sub: undone.subs.length - 1, i1: g1, i2: g2, moves, kicks: moves.length, after: undone };
}

/** True when two tables (from readCuckooTables or replayAdd) hold the same fingerprints. */
export function sameTables(a, b) {
  return a.subs.length === b.subs.length
    && a.subs.every((s, k) => s.buckets === b.subs[k].buckets && s.slots.every((fp, i) => fp === b.subs[k].slots[i]));
}

/** The table after the first `n` moves of a replay, from the table before it. */
export function tablesAfterMoves(before, moves, n) {
  const t = cloneTables(before);
  for (const m of moves.slice(0, n)) t.subs[m.sub].slots[m.bucket * before.b + m.slot] = m.placed;
  return t;
}

/** Fingerprint as hex of its width: 0x6a for 8 bits, 0x06a for 12. */
export const fpHex = (fp, f) => `0x${fp.toString(16).padStart(Math.ceil(f / 4), '0')}`;
