// BloomFilter: the classic Bloom filter (m bits, k probes by double hashing), and the base it
// shares with BlockedBloomFilter.
import { AddableFilter, fillMapOf, Filter, makeCore, positionsOf, readInfo } from './filter.js';
import { FilterError } from './errors.js';
import { requireWasm, throwIfError } from './loader.js';
import { integerIn, positiveInteger, rate, readOptions, seedOption } from './options.js';
import { outArea } from './keys.js';

/**
 * Reads sizing options of the Bloom family: either { capacity, errorRate } or the `direct`
 * options (validated by `checkDirect`). Returns the options and the seed.
 */
export function bloomSizing(className, options, directNames, checkDirect) {
  const o = readOptions(className, options, ['capacity', 'errorRate', ...directNames, 'seed']);
  const sized = o.capacity !== undefined || o.errorRate !== undefined;
  const direct = directNames.some((n) => o[n] !== undefined);
  if (sized === direct) {
    throw new FilterError('INVALID_ARGUMENT',
      `${className}: give either { capacity, errorRate } or { ${directNames.join(', ')} }`);
  }
  if (sized) {
    positiveInteger('capacity', o.capacity);
    rate('errorRate', o.errorRate);
  } else {
    checkDirect(o);
  }
  return { o, seed: seedOption(o.seed) };
}

/**
 * @internal The shape Init would choose for { capacity, errorRate }, computed without allocating
 * by the wasm sizing function `sizing` ('bloomShape' or 'blockedShape'); `shape(values)` names
 * the values it wrote.
 */
export function optimalShapeOf(className, options, sizing, shape) {
  const o = readOptions(`${className}.optimalShape`, options, ['capacity', 'errorRate']);
  positiveInteger('capacity', o.capacity);
  rate('errorRate', o.errorRate);
  const m = requireWasm();
  const out = outArea();
  throwIfError(m[sizing](o.capacity, o.errorRate, out), `${className}.optimalShape`);
  return shape(new Float64Array(m.HEAPU8.buffer, out, 2));
}

/** Members shared by BloomFilter and BlockedBloomFilter. */
export class BloomBase extends AddableFilter {
  /** ORs `other` (same class, shape and seed) into this filter. Returns this. */
  union(other) { return this._combine(other, 'union'); }
  /** ANDs `other` (same class, shape and seed) into this filter. Returns this. */
  intersect(other) { return this._combine(other, 'intersect'); }

  /** Estimated number of distinct keys, from the fill (Swamidass–Baldi). */
  estimatedSize() { return this._core.estimatedSize(); }
  /** False-positive rate at the current fill. */
  estimatedErrorRate() { return this._core.estimatedErrorRate(); }

  /** The bit indices `key` maps to (for visualisation), as a Float64Array. */
  positions(key) { return positionsOf(this._core, key); }
  /** Fraction of set bits in each of `cells` equal slices of the bit array (a density map). */
  fillMap(cells) { return fillMapOf(this._core, cells); }

  _combine(other, op) {
    const name = this.constructor.name;
    if (!(other instanceof this.constructor)) {
      throw new FilterError('INVALID_ARGUMENT', `${name}.${op} needs another ${name}`);
    }
    throwIfError(this._core[op](other._core), `${name}.${op}`);
    return this;
  }

  /** @internal info() of a Bloom-like class: its own shape value (hashes or blocks) last. */
  _bloomInfo(kind, shape) {
    return readInfo(this._core, kind, ['capacity', 'errorRate', 'setBits', 'fillRatio', 'estimatedSize',
      'estimatedErrorRate', 'bits', shape]).info;
  }
}

export class BloomFilter extends BloomBase {
  /**
   * @param options either { capacity, errorRate } (m = ⌈−n·ln p / ln²2⌉, k = round(m/n·ln 2))
   *   or { bits, hashes } directly; optional seed.
   */
  constructor(options) {
    const { o, seed } = bloomSizing('BloomFilter', options, ['bits', 'hashes'], (d) => {
      positiveInteger('bits', d.bits);
      integerIn('hashes', d.hashes, 1, 64);
    });
    super(makeCore('BloomFilterCore', (core) => throwIfError(core.init(o.capacity ?? 0, o.errorRate ?? 0, o.bits ?? 0, o.hashes ?? 0, seed), 'BloomFilter', o)));
  }

  /**
   * The shape `new BloomFilter({ capacity, errorRate })` would have, without allocating it:
   * { bits, hashes, byteLength } (byteLength: whole 64-bit words). Same errors as the constructor.
   */
  static optimalShape(options) {
    return optimalShapeOf('BloomFilter', options, 'bloomShape',
      ([bits, hashes]) => ({ bits, hashes, byteLength: Math.ceil(bits / 64) * 8 }));
  }

  /** Reads a BloomFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(BloomFilter, 'BloomFilterCore', bytes);
  }

  info() {
    return this._bloomInfo('bloom', 'hashes');
  }
}
