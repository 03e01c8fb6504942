// CuckooFilter: buckets of fingerprints with partial-key cuckoo hashing; removal, counting and
// growth by sub-filters (RedisBloom CF semantics).
import { invalidOption } from './errors.js';
import { AddableFilter, fillMapOf, Filter, makeCore, readInfo } from './filter.js';
import { requireWasm, throwIfError } from './loader.js';
import { encodeKey, outArea, outPointer, sumChunks } from './keys.js';
import { integerIn, positiveInteger, rate, readOptions, seedOption } from './options.js';

const OPTIONS = ['capacity', 'errorRate', 'fingerprintBits', 'bucketSize', 'maxIterations', 'expansion', 'seed'];

function oneOf(name, value, allowed) {
  if (!allowed.includes(value)) invalidOption(name, value, `must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`);
  return value;
}

// The options that shape the first sub-filter, checked: [capacity, errorRate, fingerprintBits
// (0: the core chooses), bucketSize].
function shapeOptions(o) {
  positiveInteger('capacity', o.capacity);
  return [o.capacity, o.errorRate === undefined ? 0.01 : rate('errorRate', o.errorRate),
    o.fingerprintBits === undefined ? 0 : oneOf('fingerprintBits', o.fingerprintBits, [8, 12, 16]),
    o.bucketSize === undefined ? 4 : oneOf('bucketSize', o.bucketSize, [1, 2, 4, 8])];
}

export class CuckooFilter extends AddableFilter {
  /**
   * @param options { capacity, errorRate = 0.01, fingerprintBits (8|12|16, default: the smallest
   *   with 2·bucketSize/2^f ≤ errorRate), bucketSize = 4, maxIterations = 500, expansion = 1, seed }
   */
  constructor(options) {
    const o = readOptions('CuckooFilter', options, OPTIONS);
    const [capacity, errorRate, fingerprintBits, bucketSize] = shapeOptions(o);
    const maxIterations = o.maxIterations === undefined ? 500 : integerIn('maxIterations', o.maxIterations, 1, 65535);
    const expansion = o.expansion === undefined ? 1 : integerIn('expansion', o.expansion, 0, 65536);
    const seed = seedOption(o.seed);
    super(makeCore('CuckooFilterCore', (core) => throwIfError(core.init(capacity, errorRate, fingerprintBits, bucketSize, maxIterations, expansion, seed), 'CuckooFilter', o)));
  }

  /**
   * The first sub-filter `new CuckooFilter(options)` would make, computed by the core without
   * allocating: { buckets, fingerprintBits, byteLength }. options: { capacity, errorRate = 0.01,
   * bucketSize = 4, fingerprintBits }; the constructor's errors.
   */
  static optimalShape(options) {
    const o = readOptions('CuckooFilter.optimalShape', options, ['capacity', 'errorRate', 'bucketSize', 'fingerprintBits']);
    const [capacity, errorRate, fingerprintBits, bucketSize] = shapeOptions(o);
    const m = requireWasm();
    const out = outArea();
    throwIfError(m.cuckooShape(capacity, errorRate, bucketSize, fingerprintBits, out), 'CuckooFilter.optimalShape', o);
    const [buckets, bits, byteLength] = new Float64Array(m.HEAPU8.buffer, out, 3);
    return { buckets, fingerprintBits: bits, byteLength };
  }

  /** Reads a CuckooFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(CuckooFilter, 'CuckooFilterCore', bytes);
  }

  /**
   * Adds a key (duplicates allowed, like CF.ADD). false when the filter is full and may not grow;
   * then nothing changed. One key fits at most 2·bucketSize times per sub-filter.
   */
  add(key) {
    return super.add(key);
  }

  /** Adds the key unless it may already be present (like CF.ADDNX); false when not added. */
  addUnique(key) {
    return this._core.addUnique(encodeKey(key));
  }

  /** Adds many keys; returns how many were added (the rest found the filter full). */
  addAll(keys) {
    const c = this._core;
    return sumChunks(keys, (data, offsets, count, out) => c.addBatch(data, offsets, count, out));
  }

  /**
   * Removes one copy of a key you added; false when no matching fingerprint. Removing a key that
   * was never added can remove another key's fingerprint (that key then reads as absent).
   */
  remove(key) {
    return this._core.remove(encodeKey(key));
  }

  /**
   * Moves fingerprints from newer sub-filters into free slots of older ones and drops the newest
   * sub-filters left empty (like CF.COMPACT): after many removals a grown filter gets its memory
   * back and lookups visit fewer sub-filters. Never loses a key; `remove` does not compact by itself.
   */
  compact() {
    this._core.compact();
  }

  /** Matching fingerprints in the key's buckets (like CF.COUNT): never less than the true count. */
  count(key) {
    return this._core.count(encodeKey(key));
  }

  /**
   * Where `key` lives (for visualisation): its fingerprint and its two candidate buckets in each
   * sub-filter, oldest first.
   */
  locate(key) {
    const c = this._core;
    const out = outPointer();
    const fingerprint = c.locate(encodeKey(key), out);
    const flat = new Float64Array(requireWasm().HEAPU8.slice(out, out + 16 * c.filters()).buffer);
    const buckets = [];
    for (let i = 0; i < flat.length; i += 2) buckets.push([flat[i], flat[i + 1]]);
    return { fingerprint, buckets };
  }

  /** Fraction of occupied slots in each of `cells` equal slices of all slots (a density map). */
  fillMap(cells) { return fillMapOf(this._core, cells); }

  /** False-positive rate at the current load: 1 − Π over sub-filters of (1 − 1/(2^f−1))^(2·b·load). */
  estimatedErrorRate() {
    return this._core.estimatedErrorRate();
  }

  /** Occupied slots / all slots, across sub-filters. */
  get loadFactor() {
    return this._core.loadFactor();
  }

  info() {
    return readInfo(this._core, 'cuckoo', ['buckets', 'filters', 'itemsInserted', 'itemsDeleted', 'bucketSize',
      'fingerprintBits', 'expansion', 'maxIterations', 'capacity', 'errorRate', 'loadFactor', 'estimatedErrorRate']).info;
  }
}
