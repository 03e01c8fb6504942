// What the tests know of kind 8, redis-cuckoo (RedisCuckooFilter), beyond its class: its
// conformance entry, its golden recipe and its body reader, written from docs/FORMAT.md alone
// (docs/CONTRIBUTING.md, "Adding a filter kind"; tests/js/kind-files.js reads this folder).
import { RedisCuckooFilter } from '../../js/main/index.js';
import { corrupt, murmur64a, pow2, u64 } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
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
}];

/** Its golden file, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
redis_cuckoo.bin redis-cuckoo capacity=200 bucketSize=3 maxIterations=20 expansion=2 n=900 remove=60
`;

/**
 * Its body (FORMAT.md, "Body of kind 8"), from the cursor `r` over the whole body: the header's
 * counts and parameters, then each sub-filter's buckets. Its hash id is 2 (RedisBloom's), so it
 * returns has(keyBytes), hashing the key itself.
 */
export function readBody(r) {
  r.u64();   // items: not checked against the slots, as the server does not
  const buckets = r.u64();
  r.u64();   // deletes since the last compaction
  const f = r.u64();
  const view = () => { const v = r.u8() | (r.u8() << 8); return v; };
  const b = view();
  const maxIterations = view();
  const expansion = view();
  if (b < 1 || b > 255 || maxIterations < 1 || !pow2(buckets) || buckets >= 1n << 56n || f < 1n || f > 65535n ||
      (expansion === 0 && f !== 1n)) {
    throw corrupt('invalid header fields');
  }
  const subs = [];
  for (let k = 0n; k < f; k++) {
    const n = buckets * BigInt(expansion) ** k;
    if (n >= 1n << 56n) throw corrupt('sub-filter too large');
    subs.push({ n, data: r.take(n * BigInt(b)) });
  }
  return (key) => {
    const h = murmur64a(key, 0n);
    const fp = Number(h % 255n) + 1;
    const h2 = h ^ u64(BigInt(fp) * 0x5bd1e995n);
    return subs.some(({ n, data }) => [h % n, h2 % n].some((i) => {
      const at = Number(i) * b;
      return data.subarray(at, at + b).includes(fp);
    }));
  };
}
