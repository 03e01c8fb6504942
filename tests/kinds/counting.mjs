// What the tests know of kind 3, counting (CountingBloomFilter), beyond its class: a test file per
// kind here holds its conformance entries (tests/js/filters.js), its golden recipes
// (tests/js/golden.js, tests/cpp/golden_test.cc) and its body reader for the format spec's proof,
// written from docs/FORMAT.md alone (tests/format/reader.mjs). docs/CONTRIBUTING.md, "Adding a
// filter kind".
import { CountingBloomFilter } from '../../js/main/index.js';
import { bloomBitsPerKey, bloomFpr, sized } from '../js/promises.js';
import { corrupt, probes, readBloomFields } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
  name: 'CountingBloomFilter',
  Cls: CountingBloomFilter,
  create: sized(CountingBloomFilter),
  expectedFpr: (f, _p, n) => { const i = f.info(); return bloomFpr(i.counters, i.hashes, n); },
  // 4 bits per counter, sized like BloomFilter
  maxBitsPerKey: (p) => 4 * bloomBitsPerKey(p) + 0.05,
}];

/** Its golden file, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
counting.bin counting capacity=500 errorRate=0.05 seed=4 n=400 remove=100
`;

/**
 * Its body (FORMAT.md, "Body of kind 3"), from the cursor `r` over the whole body: the Bloom
 * fields, then ceil(m / 2) bytes of 4-bit counters, low nibble first. Returns has(h1, h2).
 */
export function readBody(r) {
  const { m, k } = readBloomFields(r, 'counting', 'counters');   // size: informational
  const nbytes = (m + 1n) / 2n;
  if (BigInt(r.remaining()) !== nbytes) throw corrupt('counting: counter bytes do not match m');
  const table = r.take(nbytes);
  if (m % 2n === 1n && table[table.length - 1] >> 4 !== 0) throw corrupt('counting: spare nibble set');
  const counter = (i) => (table[Math.floor(i / 2)] >> (4 * (i % 2))) & 0xf;
  return (h1, h2) => probes(h1, h2, m, k).every((p) => counter(p) !== 0);
}
