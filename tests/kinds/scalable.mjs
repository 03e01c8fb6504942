// What the tests know of kind 4, scalable (ScalableBloomFilter), beyond its class: its conformance
// entry, its golden recipe and its body reader, written from docs/FORMAT.md alone
// (docs/CONTRIBUTING.md, "Adding a filter kind"; tests/js/kind-files.js reads this folder).
import { ScalableBloomFilter } from '../../js/main/index.js';
import { bloomBitsPerKey, bloomFpr, sized } from '../js/promises.js';
import { M64, corrupt, readBloomBody, validRate } from '../format/reader.mjs';

/** Entries of the Jest conformance suite (their fields: tests/js/filters.js). */
export const conformance = [{
  name: 'ScalableBloomFilter',
  Cls: ScalableBloomFilter,
  create: sized(ScalableBloomFilter),
  // 1 − Π(1 − p_i) over the layers' actual fill
  expectedFpr: (f) => 1 - f.info().layers.reduce((pass, l) => pass * (1 - bloomFpr(l.bits, l.hashes, l.size)), 1),
  // layer 0 is sized at errorRate/2 so that all layers together stay under errorRate
  maxBitsPerKey: (p) => bloomBitsPerKey(p / 2) + 0.01,
}];

/** Its golden file, one recipe a line (the format: tests/js/kind-files.js). */
export const golden = `
scalable.bin scalable capacity=100 errorRate=0.01 expansion=2 seed=5 n=700
`;

/**
 * Its body (FORMAT.md, "Body of kind 4"), from the cursor `r` over the whole body: its parameters,
 * then each layer as a kind-1 body. Returns has(h1, h2).
 */
export function readBody(r) {
  const { capacity, errorRate, expansion, nonScaling, count } =
    r.fields({ capacity: 'u64', errorRate: 'f64', expansion: 'u32', nonScaling: 'u8', count: 'u32' });
  if (capacity === 0n || !validRate(errorRate) || expansion < 1 || nonScaling > 1) {
    throw corrupt('scalable: invalid parameters');
  }
  if (count < 1 || count > 64 || (nonScaling === 1 && count !== 1)) throw corrupt('scalable: invalid layer count');
  const layers = [];
  let cap = capacity;
  let rate = nonScaling ? errorRate : errorRate * 0.5;
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      cap *= BigInt(expansion);
      rate *= 0.5;
      if (cap > M64) throw corrupt('scalable: layer capacity overflows');
    }
    const layer = readBloomBody(r);
    if (layer.capacity !== cap || layer.errorRate !== rate) throw corrupt('scalable: layer of the wrong capacity or error rate');
    if (layer.size > layer.capacity) throw corrupt('scalable: layer holds more than its capacity');
    layers.push(layer);
  }
  return (h1, h2) => layers.some((l) => l.hasHash(h1, h2));
}
