// Issue 35, item 6: a CuckooFilter's errorRate holds per sub-filter. It picks the fingerprint
// width f (the smallest of 8, 12, 16 with 2·bucketSize/2^f ≤ errorRate), the same for every
// sub-filter; a lookup checks every sub-filter, so a filter grown past its capacity has up to
// (sub-filters) × 2·bucketSize/2^f. Measured here: fill to 1–30× the capacity, 10^6 absent probes.
// docs/API.md's table is this test's output (deterministic keys and seed), and README quotes its
// 30× rows; both are compared with what is measured.
import { readFileSync } from 'node:fs';
import { CuckooFilter, init } from '../../js/main/index.js';

const CAPACITY = 10000;
const PROBES = 1_000_000;
const GROWTH = [1, 2, 4, 8, 16, 30];
const CASES = [[0.01, 1], [0.001, 1], [0.01, 2], [0.001, 2]];
const pct = (x) => `${+(x * 100).toFixed(4)}%`;
const doc = (f) => readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8');

beforeAll(() => init());

const rows = [];
let probes;

test.each(CASES)('errorRate %p, expansion %p: each sub-filter within errorRate, the grown filter within sub-filters × the bound', (errorRate, expansion) => {
  probes ??= Array.from({ length: PROBES }, (_, i) => `absent:${i}`);
  const f = new CuckooFilter({ capacity: CAPACITY, errorRate, expansion });
  try {
    let added = 0;
    for (const times of GROWTH) {
      const want = times * CAPACITY;
      const batch = Array.from({ length: want - added }, (_, i) => `key:${added + i}`);
      expect(f.addAll(batch)).toBe(batch.length);
      added = want;
      const fp = f.hasAll(probes).reduce((a, b) => a + b, 0);
      const rate = fp / PROBES;
      const { filters, fingerprintBits, bucketSize } = f.info();
      const perFilter = (2 * bucketSize) / 2 ** fingerprintBits;
      expect(perFilter).toBeLessThanOrEqual(errorRate);
      // the bound the docs give: sub-filters × 2·bucketSize/2^f (10% for the sampling error)
      expect(rate).toBeLessThanOrEqual(filters * perFilter * 1.1 + 3 / PROBES);
      if (times === 1) expect(rate).toBeLessThanOrEqual(errorRate);
      // what the docs say of these runs: a first sub-filter of 4,096 buckets; expansion 2 stays under
      expect(CuckooFilter.optimalShape({ capacity: CAPACITY, errorRate }).buckets).toBe(4096);
      // info().buckets counts every sub-filter's: 4,096 · expansion^i each
      expect(f.info().buckets).toBe(Array.from({ length: filters }, (_, i) => 4096 * expansion ** i).reduce((a, b) => a + b));
      if (expansion === 2) expect(rate).toBeLessThanOrEqual(errorRate);
      rows.push(`| ${pct(errorRate)} | ${expansion} | ${times}× | ${filters} | ${fingerprintBits} | ${pct(rate)} | ${(rate / errorRate).toFixed(2)}× |`);
    }
  } finally {
    f.free();
  }
});

test('docs/API.md holds the measured table; README quotes its 30× rows at expansion 1', () => {
  expect(rows.length).toBe(CASES.length * GROWTH.length);
  const table = ['| errorRate | expansion | keys / capacity | sub-filters | fingerprintBits | measured FPR | FPR / errorRate |',
    '|---|---|---|---|---|---|---|', ...rows].join('\n');
  const api = doc('docs/API.md');
  if (!api.includes(table)) throw new Error(`docs/API.md lacks the measured table:\n${table}`);
  const at30 = (e) => rows.find((r) => r.startsWith(`| ${pct(e)} | 1 | 30× |`)).split('|').at(-2).trim();
  const sentence = `${at30(0.01)} the errorRate at 1% and ${at30(0.001)} at 0.1%`;
  for (const f of ['README.md', 'docs/API.md', 'js/main/index.d.ts']) {
    if (!doc(f).replace(/\s*\n\s*(\*\s*)?/g, ' ').includes(sentence)) throw new Error(`${f} lacks "${sentence}"`);
  }
});
