// What the tests know of kind 7, redis-bloom (RedisBloomFilter), beyond its class: its conformance
// entry, its golden recipe and its body reader, written from docs/FORMAT.md alone
// (docs/CONTRIBUTING.md, "Adding a filter kind"; tests/js/kind-files.js reads this folder).
import { RedisBloomFilter } from '../../js/main/index.js';
import { bloomBitsPerKey, bloomFpr } from '../js/promises.js';
import { bitIsSet, corrupt, murmur64a, u64, validRate } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
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
}];

/** Its golden file, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
redis_bloom.bin redis-bloom errorRate=0.01 capacity=100 expansion=2 n=700
`;

/**
 * Its body (FORMAT.md, "Body of kind 7"), from the cursor `r` over the whole body: the chain's
 * header, each link's record, then each link's bits. Its hash id is 2 (RedisBloom's), so it
 * returns has(keyBytes), hashing the key itself.
 */
export function readBody(r) {
  const items = r.u64();
  const n = r.u32();
  const options = r.u32();
  r.u32();   // expansion: only a writer needs it
  if (n < 1 || n > 4096) throw corrupt('link count out of range');
  if (options & ~0xf) throw corrupt('unknown options');
  if (!(options & 4)) throw corrupt('32-bit hashes (FORCE64 not set)');
  const links = [];
  let total = 0n;
  for (let i = 0; i < n; i++) {
    const l = { bytes: r.u64(), bits: r.u64(), items: r.u64(), error: r.f64(), bpe: r.f64(), hashes: r.u32(), entries: r.u64(), n2: r.u8() };
    const zeros = l.bytes === 0n && l.bits === 0n && l.items === 0n && l.error === 0 && l.bpe === 0 && l.hashes === 0 && l.entries === 0n && l.n2 === 0;
    if (zeros && i > 0 && i === n - 1) {   // the empty link RedisBloom 2.x leaves: every key is present
      links.push(l);
      continue;
    }
    if (!validRate(l.error) || l.n2 > 63 || l.bits === 0n || l.bits !== l.bytes * 8n || (l.n2 > 0 && l.bits < 1n << BigInt(l.n2)) ||
        !(l.bpe > 0 && l.bpe < 1e6) || l.hashes < 1 || l.hashes > 1075 || l.hashes !== Math.ceil(0.693147180559945 * l.bpe) || l.entries === 0n) {
      throw corrupt(`link ${i}: inconsistent parameters`);
    }
    total += l.items;
    links.push(l);
  }
  if (total !== items) throw corrupt('item counts do not add up');
  for (const l of links) l.data = r.take(l.bytes);
  return (key) => {
    const a = murmur64a(key, 0xc6a4a7935bd1e995n);
    const b = murmur64a(key, a);
    return links.some((l) => {
      for (let i = 0n; i < BigInt(l.hashes); i++) {
        const v = u64(a + i * b);
        const x = l.n2 > 0 ? v & ((1n << BigInt(l.n2)) - 1n) : v % l.bits;
        if (!bitIsSet(l.data, Number(x))) return false;
      }
      return true;
    });
  };
}
