// Writes tests/fixtures/shapes.txt: the shapes the wasm build chooses for 3,000 random
// (capacity, errorRate) pairs, for the Bloom sizing (BloomFilter, CountingBloomFilter,
// ScalableBloomFilter layers) and the blocked sizing. The native build must choose the same
// (tests/cpp/shapes_test.cc), and the wasm build must keep choosing them (tests/js/shapes.test.js):
// sizing is computed without the platform's libm (cpp/src/exact_math.h), so they cannot drift.
//   node scripts/gen-shapes.mjs
import { writeFileSync } from 'node:fs';
import { BloomFilter, BlockedBloomFilter, init } from '../js/main/index.js';

await init();
let x = 0x2545f491;                      // xorshift32: the same pairs on every run
const next = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
const lines = ['# capacity errorRate(hex f64) bloomBits bloomHashes blockedBlocks  (scripts/gen-shapes.mjs, wasm build)'];
const hex = (d) => { const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, d); return b.getBigUint64(0).toString(16).padStart(16, '0'); };
for (let i = 0; i < 3000; i++) {
  const capacity = Math.max(1, Math.round(10 ** (next() * 7)));     // 1 .. 1e7
  const errorRate = 10 ** (-(0.3 + next() * 11.7));                 // 0.5 .. 1e-12
  const b = BloomFilter.optimalShape({ capacity, errorRate });
  let blocks = '-';  // '-': more than wasm32 may allocate (natively the limit is higher)
  try {
    blocks = BlockedBloomFilter.optimalShape({ capacity, errorRate }).blocks;
  } catch (err) {
    if (err.code !== 'OUT_OF_MEMORY') throw err;
  }
  lines.push(`${capacity} ${hex(errorRate)} ${b.bits} ${b.hashes} ${blocks}`);
}
writeFileSync(new URL('../tests/fixtures/shapes.txt', import.meta.url), `${lines.join('\n')}\n`);
console.log(`wrote ${lines.length - 1} shapes`);
