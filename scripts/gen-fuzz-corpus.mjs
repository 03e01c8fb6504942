// Writes the fuzzer's seed corpus: small serialized filters from the makers below. A kind with no
// maker is seeded by its golden files (tests/fixtures/golden), which tests/fuzz/run-fuzz.mjs gives
// the fuzzer too, so a new kind needs nothing here (it stops, writing nothing, when a kind has
// neither). Rerun after a format change:
//   node scripts/gen-fuzz-corpus.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as lib from '../js/main/index.js';
import { KIND_TABLE } from '../js/shared/kind-table.js';
import { bfHeader, cfHeader, frames, frame } from '../tests/fuzz/worst-headers.mjs';
import { GOLDEN_DIR, recipes } from '../tests/js/golden.js';

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
const seeds = Object.entries(makers).map(([name, make]) => {
  const f = make();
  if (f.addAll) f.addAll(keys); // a binary fuse filter is built with its keys
  const bytes = new Uint8Array(f.serialize());
  f.free();
  return [name, bytes];
});
// a kind with no maker is seeded by its golden files, which tests/fuzz/run-fuzz.mjs gives the
// fuzzer beside this corpus
const seeded = new Set([...seeds.map(([, bytes]) => bytes[6]), ...recipes().map((r) => readFileSync(new URL(r.file, GOLDEN_DIR))[6])]);
const unseeded = KIND_TABLE.filter(([number]) => !seeded.has(number));
if (unseeded.length) {
  throw new Error(`no fuzz seed of ${unseeded.map(([n, name]) => `kind ${n} ('${name}')`).join(', ')}: give tests/kinds/<name>.mjs its golden recipe (export const golden) and run scripts/gen-golden.mjs, or a maker to scripts/gen-fuzz-corpus.mjs (nothing was written)`);
}
for (const [name, bytes] of seeds) {
  writeFileSync(new URL(`${name}.bin`, dir), bytes);
  console.log(`${name}.bin ${bytes.byteLength} bytes`);
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

// The worst header of every kind (tests/fuzz/worst-headers.mjs, issue 34): a reader that does work
// proportional to what a header claims rather than to its bytes is slow on these at once, and the
// fuzz run (tests/fuzz/run-fuzz.mjs, -timeout) fails. Only those within the fuzzer's -max_len
// (4096 bytes); the BF header with as many links as fit, and a valid CF of 4000 sub-filters.
const dump = (header, data) => Buffer.concat([Buffer.from([header.length & 0xff, header.length >> 8]), header, data]);
const worst = [
  ...frames().filter(([, bytes]) => bytes.length <= 4096).map(([name, bytes]) => [name, bytes]),
  ['redis-bloom: 76 links of 2^40 bytes', frame(7, bfHeader(2 ** 40, 76))],
  ['redis-cuckoo: a valid filter of 4000 sub-filters', frame(8, Buffer.concat([cfHeader(1, 4000, 1, 1), new Uint8Array(4000)]))],
  ['redis_cuckoo_dump: expansion 1, 65535 sub-filters, 534 data bytes', dump(cfHeader(1, 65535, 1, 1), new Uint8Array(534))],
  ['redis_bloom_dump: 76 links of 2^40 bytes', dump(bfHeader(2 ** 40, 76), new Uint8Array(0))],
];
for (const [i, [name, bytes]] of worst.entries()) {
  const file = `worst_${String(i).padStart(2, '0')}.bin`;
  writeFileSync(new URL(file, dir), bytes);
  console.log(`${file} ${bytes.length} bytes: ${name}`);
}
