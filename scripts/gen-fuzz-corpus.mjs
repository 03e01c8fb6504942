// Writes the fuzzer's seed corpus: small serialized filters of every kind the JS API has.
// Rerun after a format change: node scripts/gen-fuzz-corpus.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import * as lib from '../js/index.js';

await lib.init();
const dir = new URL('../tests/fuzz/corpus/', import.meta.url);
mkdirSync(dir, { recursive: true });
const keys = ['a', 'b', 'c', 'fuzz', 'https://bad.example/'];
const makers = {
  bloom: () => new lib.BloomFilter({ bits: 200, hashes: 3, seed: 1 }),
  blocked: () => new lib.BlockedBloomFilter({ blocks: 2, seed: 1 }),
  counting: () => new lib.CountingBloomFilter({ capacity: 20, errorRate: 0.1, seed: 1 }),
  scalable: () => new lib.ScalableBloomFilter({ capacity: 2, errorRate: 0.1, seed: 1 }),
  cuckoo: () => new lib.CuckooFilter({ capacity: 16, bucketSize: 2, seed: 1 }),
  cuckoo12: () => new lib.CuckooFilter({ capacity: 16, fingerprintBits: 12, expansion: 2, seed: 1 }),
  fuse8: () => lib.BinaryFuseFilter.build(keys, { fingerprintBits: 8, seed: 1 }),
  fuse16: () => lib.BinaryFuseFilter.build(keys, { fingerprintBits: 16, seed: 1 }),
  redis_bloom: () => new lib.RedisBloomFilter({ errorRate: 0.1, capacity: 2, expansion: 2 }),
  redis_cuckoo: () => new lib.RedisCuckooFilter({ capacity: 4, bucketSize: 2, expansion: 2 }),
};
// RedisBloom dumps for the dump readers: u16 header length, the header chunk, then the data.
const dumpMakers = { redis_bloom_dump: makers.redis_bloom, redis_cuckoo_dump: makers.redis_cuckoo };
for (const [name, make] of Object.entries(makers)) {
  const f = make();
  if (f.addAll) f.addAll(keys); // a binary fuse filter is built with its keys
  writeFileSync(new URL(`${name}.bin`, dir), new Uint8Array(f.serialize()));
  console.log(`${name}.bin ${f.serialize().byteLength} bytes`);
  f.free();
}
for (const [name, make] of Object.entries(dumpMakers)) {
  const f = make();
  f.addAll(keys);
  const [[, header], ...data] = f.toRedisDump();
  const body = Buffer.concat([Buffer.from([header.length & 0xff, header.length >> 8]), header, ...data.map(([, d]) => d)]);
  writeFileSync(new URL(`${name}.bin`, dir), body);
  console.log(`${name}.bin ${body.length} bytes`);
  f.free();
}
