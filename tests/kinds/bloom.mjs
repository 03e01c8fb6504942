// What the tests know of kind 1, bloom (BloomFilter), beyond its class: its conformance entry, its
// golden recipes and its body reader, written from docs/FORMAT.md alone (docs/CONTRIBUTING.md,
// "Adding a filter kind"; tests/js/kind-files.js reads this folder).
import { BloomFilter } from '../../js/main/index.js';
import { bloomBitsPerKey, bloomFpr, sized } from '../js/promises.js';
import { readBloomBody } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
  name: 'BloomFilter',
  Cls: BloomFilter,
  create: sized(BloomFilter),
  expectedFpr: (f, _p, n) => { const i = f.info(); return bloomFpr(i.bits, i.hashes, n); },
  // exactly the formula: m/n = -ln p / ln^2 2, stored in whole 64-bit words
  maxBitsPerKey: (p) => bloomBitsPerKey(p) + 0.01,
}];

/** Its golden files, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
bloom.bin bloom capacity=1000 errorRate=0.01 seed=1 n=500
bloom_direct.bin bloom bits=4096 hashes=5 seed=2 n=300
`;

/** Its body (FORMAT.md, "Body of kind 1"), from the cursor `r` over the whole body. Returns has(h1, h2). */
export const readBody = (r) => readBloomBody(r).hasHash;
