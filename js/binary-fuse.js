// BinaryFuseFilter: the static 3-wise binary fuse filter (Graf & Lemire 2022): built once from
// every key; the smallest and among the fastest to query.
import { FilterError } from './errors.js';
import { Filter, makeCore } from './filter.js';
import { requireWasm } from './loader.js';
import { forEachChunk } from './keys.js';
import { initError, readOptions, seedOption } from './options.js';

const OPTIONS = ['fingerprintBits', 'seed'];

export class BinaryFuseFilter extends Filter {
  /** @internal use BinaryFuseFilter.build(keys, options) */
  constructor() {
    throw new TypeError('bloomcuckoo: use BinaryFuseFilter.build(keys, options) to make a binary fuse filter');
  }

  /**
   * Builds the filter from every key (any iterable of keys; duplicates are fine, `size` counts
   * distinct keys). options: { fingerprintBits: 8 | 16 = 8, seed }. Deterministic for a given
   * seed. Memory during the build: 8 bytes per key for the key hashes plus
   * BinaryFuseFilter.peakBuildBytes(n) inside the core.
   */
  static build(keys, options) {
    const o = readOptions('BinaryFuseFilter', options, OPTIONS);
    const fingerprintBits = o.fingerprintBits ?? 8;
    if (fingerprintBits !== 8 && fingerprintBits !== 16) {
      throw new FilterError('INVALID_ARGUMENT', `fingerprintBits must be 8 or 16, got ${String(fingerprintBits)}`);
    }
    const seed = seedOption(o.seed);
    const list = Array.isArray(keys) ? keys : Array.from(keys);
    const m = requireWasm();
    const hashes = m._malloc(Math.max(8, 8 * list.length));
    if (!hashes) throw new FilterError('OUT_OF_MEMORY', `BinaryFuseFilter.build: cannot allocate key hashes for ${list.length} keys`);
    try {
      forEachChunk(list, (data, offsets, count, _out, start) => {
        m.hashKeysForFuse(data, offsets, count, seed, hashes + 8 * start);
      });
      const core = makeCore('BinaryFuseFilterCore', (c) => {
        const status = c.buildFromHashes(hashes, list.length, fingerprintBits, seed);
        if (status !== 0) throw initError('BinaryFuseFilter.build', status, o);
      });
      return Filter._adopt(BinaryFuseFilter, core);
    } finally {
      m._free(hashes);
    }
  }

  /** Reads a BinaryFuseFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(BinaryFuseFilter, 'BinaryFuseFilterCore', bytes);
  }

  /** Peak temporary bytes the core needs to build from n keys (besides the 8n of key hashes). */
  static peakBuildBytes(n) {
    return requireWasm().fusePeakBuildBytes(n);
  }

  info() {
    const c = this._core;
    return {
      kind: 'fuse',
      fingerprintBits: c.fingerprintBits(),
      size: c.size(),
      segmentLength: c.segmentLength(),
      segmentCount: c.segmentCount(),
      arrayLength: c.arrayLength(),
      bitsPerKey: c.bitsPerKey(),
      expectedErrorRate: c.expectedFpr(),
      byteLength: c.byteLength(),
      seed: c.seed() >>> 0,
    };
  }
}
