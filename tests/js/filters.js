// The filter classes the Jest conformance suite runs over: the `conformance` entries of the kinds'
// test files, tests/kinds/<name>.mjs, in the kind table's order (the order of the entries within a
// file kept). Each entry:
//   name                                   → the suite's name for it (the class's, or its variant's)
//   Cls                                    → its class
//   create(keys, capacity, errorRate, seed) → a filter holding `keys`
//   expectedFpr(filter, errorRate, n)      → the false-positive rate it promises with n keys
//   maxBitsPerKey(errorRate, n)            → bits/key bound for n keys (n >= 10^4)
//   seeded (default true)                  → false: the class has no seed (RedisBloom's hashes)
import { KIND_TABLE } from '../../js/shared/kind-table.js';
import { loadKindFiles } from './kind-files.js';

const rank = (name) => {
  const i = KIND_TABLE.findIndex(([, kind]) => kind === name);
  return i < 0 ? KIND_TABLE.length : i;
};

export const FILTERS = (await loadKindFiles())
  .sort((a, b) => rank(a.name) - rank(b.name))
  .flatMap(({ module }) => module.conformance ?? []);
