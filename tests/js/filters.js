// The filter classes the Jest conformance suite runs over: the `conformance` entries of the kinds'
// test files, tests/kinds/<name>.mjs, in the kind table's order (the order of the entries within a
// file kept). Each entry:
//   name                                   → the suite's name for it (the class's, or its variant's)
//   Cls                                    → its class
//   create(keys, capacity, errorRate, seed) → a filter holding `keys`
//   expectedFpr(filter, errorRate, n)      → the false-positive rate it promises with n keys
//   maxBitsPerKey(errorRate, n)            → bits/key bound for n keys (n >= 10^4)
//   seeded (default true)                  → false: the class has no seed (RedisBloom's hashes)
import {
  RedisBloomFilter, RedisCuckooFilter,
} from '../../js/main/index.js';
import { bloomBitsPerKey, bloomFpr } from './promises.js';
import { KIND_TABLE } from '../../js/shared/kind-table.js';
import { loadKindFiles } from './kind-files.js';

const rank = (name) => {
  const i = KIND_TABLE.findIndex(([, kind]) => kind === name);
  return i < 0 ? KIND_TABLE.length : i;
};

// the entries of the kinds whose test files do not hold them yet
const CENTRAL = [
  {
    name: 'RedisBloomFilter',
    Cls: RedisBloomFilter,
    seeded: false,
    create: (keys, capacity, errorRate) => {
      const f = new RedisBloomFilter({ capacity, errorRate });
      f.addAll(keys);
      return f;
    },
    // 1 − Π(1 − p_i) over the chain's links at their actual fill
    expectedFpr: (f) => 1 - f.info().links.reduce((pass, l) => pass * (1 - bloomFpr(l.bits, l.hashes, l.items)), 1),
    // the first link is sized at errorRate/2 (RedisBloom's rule), its bits rounded up to 64
    maxBitsPerKey: (p) => bloomBitsPerKey(p / 2) + 0.01,
  },
  {
    name: 'RedisCuckooFilter',
    Cls: RedisCuckooFilter,
    seeded: false,
    // CF.RESERVE needs capacity >= 2·bucketSize (4 by default)
    create: (keys, capacity) => {
      const f = new RedisCuckooFilter({ capacity: Math.max(capacity, 4) });
      expect(f.addAll(keys)).toBe(keys.length);
      return f;
    },
    // 8-bit fingerprints (1..255) in 2·bucketSize slots per sub-filter probed: at most
    // 1 − (1 − 1/255)^(2·items / the fewest buckets of a sub-filter), whatever sub-filter holds them
    expectedFpr: (f) => {
      const i = f.info();
      return 1 - (1 - 1 / 255) ** ((2 * i.items) / Math.min(...i.subFilters.map((s) => s.buckets)));
    },
    // 8 bits per slot; the first sub-filter's buckets are rounded up to a power of two (< 2n
    // slots) and, when it fills, one more of the same size joins it
    maxBitsPerKey: () => 2 * 2 * 8,
  },
];

export const FILTERS = [...(await loadKindFiles())
  .sort((a, b) => rank(a.name) - rank(b.name))
  .flatMap(({ module }) => module.conformance ?? []), ...CENTRAL];
