// What the tests know of kind 2, blocked (BlockedBloomFilter), beyond its class: its conformance
// entry, its golden recipe and its body reader, written from docs/FORMAT.md alone
// (docs/CONTRIBUTING.md, "Adding a filter kind"; tests/js/kind-files.js reads this folder).
import { BlockedBloomFilter } from '../../js/main/index.js';
import { sized } from '../js/promises.js';
import { checkSizing, corrupt, hi32, lo32, viewOf } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
  name: 'BlockedBloomFilter',
  Cls: BlockedBloomFilter,
  create: sized(BlockedBloomFilter),
  expectedFpr: (_f, p) => p,
  // issue 3: <= 10.7 bits/key at 1%; at 0.1% the split-block model needs ~17
  maxBitsPerKey: (p) => (p >= 0.01 ? 10.7 : 17.5),
}];

/** Its golden file, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
blocked.bin blocked capacity=2000 errorRate=0.01 seed=3 n=1000
`;

const SALTS = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];

/** Its body (FORMAT.md, "Body of kind 2"), from the cursor `r` over the whole body. Returns has(h1, h2). */
export function readBody(r) {
  const blocks = r.u64();
  const capacity = r.u64();
  const errorRate = r.f64();
  r.u64(); // size (informational)
  if (blocks === 0n || blocks > 0xffffffffn) throw corrupt('blocked: block count outside 1..2^32-1');
  checkSizing(capacity, errorRate);
  if (BigInt(r.remaining()) !== 32n * blocks) throw corrupt('blocked: block count does not match the bytes');
  const words = r.take(32n * blocks);
  const view = viewOf(words);
  return (h1, h2) => {
    const block = Number((hi32(h1) * blocks) >> 32n);
    const y = Number(lo32(h2));
    for (let i = 0; i < 8; i++) {
      const bit = (Math.imul(y, SALTS[i]) >>> 0) >>> 27;
      if (((view.getUint32(4 * (8 * block + i), true) >>> bit) & 1) === 0) return false;
    }
    return true;
  };
}
