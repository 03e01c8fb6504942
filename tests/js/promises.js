// What the conformance entries (tests/js/filters.js, tests/kinds/<name>.mjs) build their promises
// from: the Bloom false-positive rate and bits per key, and create() for a class sized by
// { capacity, errorRate, seed }.

/** The false-positive rate of m bits probed k times per key, holding n keys. */
export function bloomFpr(bits, hashes, n) {
  return (1 - Math.exp((-hashes * n) / bits)) ** hashes;
}

/** Bits per key of a Bloom filter sized for error rate p: m/n = -ln p / ln^2 2. */
export const bloomBitsPerKey = (p) => -Math.log(p) / Math.LN2 ** 2;

/**
 * create() for a class sized by { capacity, errorRate, seed }: `keys` added with addAll. With
 * allFit, addAll must report every key added (no false positive can turn one away).
 */
export const sized = (Cls, { allFit = false } = {}) => (keys, capacity, errorRate, seed) => {
  const f = new Cls({ capacity, errorRate, seed });
  const added = f.addAll(keys);
  if (allFit) expect(added).toBe(keys.length);
  return f;
};
