// ScalableBloomFilter: Bloom layers that grow (RedisBloom BF semantics).
import { addAllReporting, Filter, infoParts, makeCore, readInfo } from './filter.js';
import { throwIfError } from './loader.js';
import { encodeKey } from './keys.js';
import { booleanOption, integerIn, positiveInteger, rate, readOptions, seedOption } from './options.js';

const OPTIONS = ['capacity', 'errorRate', 'expansion', 'nonScaling', 'seed'];

export class ScalableBloomFilter extends Filter {
  /**
   * @param options { capacity, errorRate, expansion = 2, nonScaling = false, seed }: layer i holds
   *   capacity·expansion^i keys; layers tighten their error rate by 0.5 each (layer i at
   *   errorRate·0.5^(i+1), as RedisBloom does), so the whole filter stays near errorRate.
   */
  constructor(options) {
    const o = readOptions('ScalableBloomFilter', options, OPTIONS);
    positiveInteger('capacity', o.capacity);
    rate('errorRate', o.errorRate);
    const expansion = o.expansion === undefined ? 2 : integerIn('expansion', o.expansion, 1, 2 ** 16);
    const nonScaling = booleanOption('nonScaling', o.nonScaling, false);
    const seed = seedOption(o.seed);
    super(makeCore('ScalableBloomFilterCore', (core) => throwIfError(core.init(o.capacity, o.errorRate, expansion, nonScaling, seed), 'ScalableBloomFilter', o)));
  }

  /** Reads a ScalableBloomFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(ScalableBloomFilter, 'ScalableBloomFilterCore', bytes);
  }

  /**
   * Adds a key unless it may already be present (like BF.ADD): true when added. Throws
   * FilterError FULL when the filter is nonScaling (or at its layer limit) and full; nothing
   * changes then.
   */
  add(key) {
    return throwIfError(this._core.add(encodeKey(key)), 'ScalableBloomFilter.add') === 1;
  }

  /**
   * Adds many keys; returns how many were added (not already present). On FULL it throws after
   * the keys before the one that did not fit were added; the error says how many.
   */
  addAll(keys) {
    const c = this._core;
    return addAllReporting(keys, 'ScalableBloomFilter.addAll', (data, offsets, count, out) => c.addBatch(data, offsets, count, out));
  }

  /** Estimated number of distinct keys, from the layers' fill. */
  estimatedSize() { return this._core.estimatedSize(); }
  /** False-positive rate at the current fill: 1 − Π(1 − p_i) over layers. */
  estimatedErrorRate() { return this._core.estimatedErrorRate(); }

  info() {
    const { info, count, v } = readInfo(this._core, 'scalable', ['capacity', 'errorRate', 'expansion', 'nonScaling',
      'estimatedSize', 'estimatedErrorRate']);
    info.nonScaling = info.nonScaling !== 0;
    info.layers = infoParts(count, ['capacity', 'errorRate', 'size', 'bits', 'hashes'], (p) => v.subarray(9 + 5 * p));
    return info;
  }
}
