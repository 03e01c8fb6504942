// What the tests know of kind 5, cuckoo (CuckooFilter), beyond its class: its conformance entry,
// its golden recipes and its body reader, written from docs/FORMAT.md alone (docs/CONTRIBUTING.md,
// "Adding a filter kind"; tests/js/kind-files.js reads this folder).
import { CuckooFilter } from '../../js/main/index.js';
import { sized } from '../js/promises.js';
import { bitIsSet, corrupt, hi32, pow2, u64, validRate } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
  name: 'CuckooFilter',
  Cls: CuckooFilter,
  create: sized(CuckooFilter, { allFit: true }),
  // 1 - (1 - 1/(2^f - 1))^(2·b·load) per sub-filter (≈ 2·b·load/2^f)
  expectedFpr: (f) => {
    const i = f.info();
    return i.filters * (1 - (1 - 1 / (2 ** i.fingerprintBits - 1)) ** (2 * i.bucketSize * i.loadFactor));
  },
  // f bits per slot at load >= 0.94, at most 2x for rounding buckets to a power of two
  maxBitsPerKey: (p) => (2 * (p >= 8 / 256 ? 8 : p >= 8 / 4096 ? 12 : 16)) / 0.94,
}];

/** Its golden files, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
cuckoo8.bin cuckoo capacity=1000 fingerprintBits=8 bucketSize=4 seed=6 n=900 remove=50
cuckoo12_grown.bin cuckoo capacity=64 fingerprintBits=12 bucketSize=2 expansion=2 seed=7 n=400
cuckoo16.bin cuckoo capacity=500 fingerprintBits=16 bucketSize=8 maxIterations=100 seed=8 n=400
`;

/** Slot `slot` of a payload bit stream of f-bit slots. */
function readSlot(payload, slot, f) {
  const t = slot * f;
  let v = 0;
  for (let bit = 0; bit < f; bit++) v |= bitIsSet(payload, t + bit) << bit;
  return v;
}

/**
 * Its body (FORMAT.md, "Body of kind 5"), from the cursor `r` over the whole body: its parameters
 * and counts, then each sub-filter's bucket count, payload length and payload. Returns has(h1, h2).
 */
export function readBody(r) {
  // (capacity is informational)
  const { errorRate, f, b, maxIterations, expansion, inserted, deleted, count } = r.fields({
    capacity: 'u64', errorRate: 'f64', f: 'u32', b: 'u32', maxIterations: 'u32', expansion: 'u32',
    inserted: 'u64', deleted: 'u64', count: 'u32',
  });
  if (!validRate(errorRate) || ![8, 12, 16].includes(f) || ![1, 2, 4, 8].includes(b) ||
      maxIterations < 1 || maxIterations > 65535 ||
      (expansion !== 0 && !pow2(BigInt(expansion))) || expansion > 65536) {
    throw corrupt('cuckoo: invalid parameters');
  }
  if (count < 1 || count > 32 || (expansion === 0 && count !== 1)) throw corrupt('cuckoo: invalid sub-filter count');
  if (deleted > inserted) throw corrupt('cuckoo: more deleted than inserted');
  const subs = [];
  let occupied = 0n;
  let first = 0n;
  for (let s = 0; s < count; s++) {
    const buckets = r.u64();
    const payloadBytes = r.u64();
    if (s === 0) {
      if (!pow2(buckets) || buckets > 1n << 40n) throw corrupt('cuckoo: first bucket count not a power of two up to 2^40');
      first = buckets;
    }
    const expected = first * BigInt(expansion) ** BigInt(s);
    if (buckets !== expected || buckets > 1n << 40n) throw corrupt('cuckoo: sub-filter bucket count inconsistent');
    const slots = buckets * BigInt(b);
    if (payloadBytes !== (slots * BigInt(f) + 7n) / 8n) throw corrupt('cuckoo: payload length inconsistent');
    const payload = r.take(payloadBytes);
    for (let i = Number(slots) * f; i < payload.length * 8; i++) {
      if (bitIsSet(payload, i)) throw corrupt('cuckoo: padding bits set');
    }
    for (let i = 0; i < Number(slots); i++) if (readSlot(payload, i, f) !== 0) occupied++;
    subs.push({ mask: buckets - 1n, payload });
  }
  r.end();
  if (occupied !== inserted - deleted) throw corrupt('cuckoo: stored fingerprints disagree with the counts');

  const bucketHolds = (sub, i, fp) => {
    for (let j = 0; j < b; j++) if (readSlot(sub.payload, i * b + j, f) === fp) return true;
    return false;
  };
  return (h1, h2) => {
    const fp = 1 + Number((hi32(h2) * BigInt(2 ** f - 1)) >> 32n);
    const x = u64(BigInt(fp) * 0x9e3779b97f4a7c15n);
    const offset = (x ^ (x >> 32n)) | 1n;
    return subs.some((sub) => {
      const i1 = h1 & sub.mask;
      const i2 = i1 ^ (offset & sub.mask);
      return bucketHolds(sub, Number(i1), fp) || bucketHolds(sub, Number(i2), fp);
    });
  };
}
