// ScalableBloomFilter: Bloom layers that grow (RedisBloom BF semantics).
import { FilterError, statusName } from './errors.js';
import { Filter, infoParts, makeCore, readInfo } from './filter.js';
import { requireWasm } from './loader.js';
import { encodeKey, forEachChunk, keyPointer } from './keys.js';
import { booleanOption, initError, integerIn, positiveInteger, rate, readOptions, seedOption } from './options.js';

const OPTIONS = ['capacity', 'errorRate', 'expansion', 'nonScaling', 'seed'];

function fullError(context) {
  return new FilterError('FULL', `${context}: ${requireWasm().lastStatusMessage()}`);
}

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
    super(makeCore('ScalableBloomFilterCore', (core) => {
      const status = core.init(o.capacity, o.errorRate, expansion, nonScaling, seed);
      if (status !== 0) throw initError('ScalableBloomFilter', status, o);
    }));
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
    const c = this._core;
    const len = encodeKey(key);
    const r = c.add(keyPointer(), len);
    if (r < 0) throw new FilterError(statusName(-r), `ScalableBloomFilter.add: ${requireWasm().lastStatusMessage()}`);
    return r === 1;
  }

  /**
   * Adds many keys; returns how many were added (not already present). On FULL it throws after
   * the keys before the one that did not fit were added; the error says how many.
   */
  addAll(keys) {
    const c = this._core;
    let added = 0;
    forEachChunk(keys, (data, offsets, count, out, start) => {
      const status = c.addBatch(data, offsets, count, out);
      const counts = new Uint32Array(requireWasm().HEAPU8.buffer, out, 2);
      added += counts[0];
      if (status !== 0) {
        const err = status === 2 ? fullError('ScalableBloomFilter.addAll') : new FilterError(statusName(status), requireWasm().lastStatusMessage());
        err.message += ` (${start + counts[1]} keys handled, ${added} added before it)`;
        throw err;
      }
    });
    return added;
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
