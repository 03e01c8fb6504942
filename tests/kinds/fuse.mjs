// What the tests know of kind 6, fuse (BinaryFuseFilter), beyond its class: its conformance entries
// (8- and 16-bit fingerprints), its golden recipes and its body reader, written from
// docs/FORMAT.md alone (docs/CONTRIBUTING.md, "Adding a filter kind"; tests/js/kind-files.js reads
// this folder).
import { BinaryFuseFilter } from '../../js/main/index.js';
import { corrupt, fmix64, reduce, u64, viewOf } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [8, 16].map((fingerprintBits) => ({
  name: `BinaryFuse${fingerprintBits}`,
  Cls: BinaryFuseFilter,
  create: (keys, _capacity, _errorRate, seed) => BinaryFuseFilter.build(keys, { fingerprintBits, seed }),
  expectedFpr: () => 2 ** -fingerprintBits,
  // issue 5: <= 9.1 / 18.2 bits/key at n >= 10^6; smaller n carry more segment overhead
  maxBitsPerKey: (_p, n) => (fingerprintBits / 8) * (n >= 1e6 ? 9.1 : 10.5),
}));

/** Its golden files, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
fuse8.bin fuse fingerprintBits=8 seed=9 n=3000
fuse16.bin fuse fingerprintBits=16 seed=10 n=3000
`;

/** Its body (FORMAT.md, "Body of kind 6"), from the cursor `r` over the whole body. Returns has(h1, h2). */
export function readBody(r) {
  const { bits, L, c, length, size, cseed } =
    r.fields({ bits: 'u32', L: 'u32', c: 'u32', length: 'u32', size: 'u64', cseed: 'u64' });
  if (bits !== 8 && bits !== 16) throw corrupt('fuse: fingerprint bits not 8 or 16');
  if (length === 0) {
    if (L !== 0 || c !== 0 || size !== 0n || cseed !== 0n) throw corrupt('fuse: empty filter with a layout');
    return () => false;
  }
  if (L === 0 || (L & (L - 1)) !== 0 || L > 2 ** 18) throw corrupt('fuse: segment length not a power of two <= 2^18');
  if (c === 0 || (c + 2) * L !== length) throw corrupt('fuse: array length != (segment count + 2) * segment length');
  if (size === 0n || size > BigInt(length)) throw corrupt('fuse: size out of range');
  if (r.remaining() !== length * (bits / 8)) throw corrupt('fuse: payload length is wrong');
  const raw = r.take(length * (bits / 8));
  const view = viewOf(raw);
  const F = bits === 8 ? (p) => raw[p] : (p) => view.getUint16(2 * p, true);
  const cL = BigInt(c * L);
  const mask = BigInt(L - 1);
  const fpMask = BigInt(2 ** bits - 1);
  return (h1) => {
    const h = fmix64(u64(h1 + cseed));
    const p0 = Number(reduce(h, cL));
    const p1 = ((p0 + L) ^ Number((h >> 18n) & mask)) >>> 0;
    const p2 = ((p0 + 2 * L) ^ Number(h & mask)) >>> 0;
    const fp = Number((h ^ (h >> 32n)) & fpMask);
    return (F(p0) ^ F(p1) ^ F(p2)) === fp;
  };
}
