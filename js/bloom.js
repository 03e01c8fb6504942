// BloomFilter: the classic Bloom filter (m bits, k probes by double hashing).
import { AddableFilter, Filter, check, makeCore } from './filter.js';
import { FilterError } from './errors.js';
import { initError, integerIn, positiveInteger, rate, readOptions, seedOption } from './options.js';

const OPTIONS = ['capacity', 'errorRate', 'bits', 'hashes', 'seed'];

/**
 * Shared by BloomFilter and BlockedBloomFilter: in-place union / intersection with a filter of
 * the same class, shape and seed.
 */
export function combine(self, other, op) {
  if (!(other instanceof self.constructor)) {
    throw new FilterError('INVALID_ARGUMENT', `${self.constructor.name}.${op} needs another ${self.constructor.name}`);
  }
  check(self._core[op](other._core), `${self.constructor.name}.${op}`);
  return self;
}

export class BloomFilter extends AddableFilter {
  /**
   * @param {{capacity?: number, errorRate?: number, bits?: number, hashes?: number, seed?: number}} options
   *   either { capacity, errorRate } (sized by m = ⌈−n·ln p / ln²2⌉, k = round(m/n·ln 2)) or
   *   { bits, hashes } directly.
   */
  constructor(options) {
    const o = readOptions('BloomFilter', options, OPTIONS);
    const sized = o.capacity !== undefined || o.errorRate !== undefined;
    const direct = o.bits !== undefined || o.hashes !== undefined;
    if (sized === direct) {
      throw new FilterError('INVALID_ARGUMENT',
        'BloomFilter: give either { capacity, errorRate } or { bits, hashes }');
    }
    if (sized) {
      positiveInteger('capacity', o.capacity);
      rate('errorRate', o.errorRate);
    } else {
      positiveInteger('bits', o.bits);
      integerIn('hashes', o.hashes, 1, 64);
    }
    const seed = seedOption(o.seed);
    super(makeCore('BloomFilterCore', (core) => {
      const status = core.init(o.capacity ?? 0, o.errorRate ?? 0, o.bits ?? 0, o.hashes ?? 0, seed);
      if (status !== 0) throw initError('BloomFilter', status, o);
    }));
  }

  /** Reads a BloomFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(BloomFilter, 'BloomFilterCore', bytes);
  }

  /** ORs `other` (same bits, hashes and seed) into this filter. Returns this. */
  union(other) { return combine(this, other, 'union'); }
  /** ANDs `other` (same bits, hashes and seed) into this filter. Returns this. */
  intersect(other) { return combine(this, other, 'intersect'); }

  /** Estimated number of distinct keys, from the fill (Swamidass–Baldi). */
  estimatedSize() { return this._core.estimatedSize(); }
  /** False-positive rate at the current fill: (set bits / m)^k. */
  estimatedErrorRate() { return this._core.estimatedErrorRate(); }

  info() {
    const c = this._core;
    return {
      kind: 'bloom',
      capacity: c.capacity(),
      errorRate: c.errorRate(),
      bits: c.bits(),
      hashes: c.hashes(),
      seed: c.seed() >>> 0,
      size: c.size(),
      setBits: c.setBits(),
      fillRatio: c.fillRatio(),
      estimatedSize: c.estimatedSize(),
      estimatedErrorRate: c.estimatedErrorRate(),
      byteLength: c.byteLength(),
    };
  }
}

