// CountingBloomFilter: a Bloom filter of 4-bit counters, so keys can be removed.
import { bloomSizing, optimalShapeOf } from './bloom.js';
import { AddableFilter, fillMapOf, Filter, makeCore, positionsOf, readInfo } from './filter.js';
import { encodeKey, sumChunks } from './keys.js';
import { integerIn, positiveInteger } from './options.js';
import { throwIfError } from './loader.js';

export class CountingBloomFilter extends AddableFilter {
  /** @param options { capacity, errorRate } (sized like BloomFilter) or { counters, hashes }; optional seed. */
  constructor(options) {
    const { o, seed } = bloomSizing('CountingBloomFilter', options, ['counters', 'hashes'], (d) => {
      positiveInteger('counters', d.counters);
      integerIn('hashes', d.hashes, 1, 64);
    });
    super(makeCore('CountingBloomFilterCore', (core) => throwIfError(core.init(o.capacity ?? 0, o.errorRate ?? 0, o.counters ?? 0, o.hashes ?? 0, seed), 'CountingBloomFilter', o)));
  }

  /**
   * The shape `new CountingBloomFilter({ capacity, errorRate })` would have, without allocating
   * it: { counters, hashes, byteLength } (two 4-bit counters per byte). Same errors as the constructor.
   */
  static optimalShape(options) {
    return optimalShapeOf('CountingBloomFilter', options, 'bloomShape',
      ([counters, hashes]) => ({ counters, hashes, byteLength: Math.ceil(counters / 2) }));
  }

  /** Reads a CountingBloomFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(CountingBloomFilter, 'CountingBloomFilterCore', bytes);
  }

  /**
   * Removes one occurrence of a key you added. false (nothing changes) when the key is certainly
   * absent. Saturated counters (15) are never decremented, so they can never cause a false
   * negative. Removing a key that was never added can make other keys read as absent.
   */
  remove(key) {
    return this._core.remove(encodeKey(key));
  }

  /** remove() for many keys; returns how many were removed. */
  removeAll(keys) {
    const c = this._core;
    return sumChunks(keys, (data, offsets, count) => c.removeBatch(data, offsets, count));
  }

  /** The smallest of the key's counters: an upper bound of how often it was added (0 = absent). */
  count(key) {
    return this._core.count(encodeKey(key));
  }

  /** Estimated number of distinct keys, from the non-zero counters. */
  estimatedSize() { return this._core.estimatedSize(); }
  /** False-positive rate at the current fill. */
  estimatedErrorRate() { return this._core.estimatedErrorRate(); }

  /** The counter indices `key` maps to (for visualisation), as a Float64Array. */
  positions(key) { return positionsOf(this._core, key); }
  /** Fraction of non-zero counters in each of `cells` equal slices (a density map). */
  fillMap(cells) { return fillMapOf(this._core, cells); }

  info() {
    return readInfo(this._core, 'counting', ['capacity', 'errorRate', 'counters', 'hashes', 'nonzeroCounters',
      'saturatedCounters', 'fillRatio', 'estimatedSize', 'estimatedErrorRate']).info;
  }
}
