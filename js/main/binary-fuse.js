// BinaryFuseFilter: the static 3-wise binary fuse filter (Graf & Lemire 2022): built once from
// every key; the smallest and among the fastest to query.
import { FilterError, invalidOption } from './errors.js';
import { Filter, makeCore, readInfo } from './filter.js';
import { requireWasm, throwIfError } from './loader.js';
import { forEachChunk, outArea, PackedKeys, wasmMalloc } from './keys.js';
import { fromOptions, readOptions, seedOption } from './options.js';

const OPTIONS = ['fingerprintBits', 'seed'];

export class BinaryFuseFilter extends Filter {
  /** @internal use BinaryFuseFilter.build(keys, options) */
  constructor() {
    throw new TypeError('bloomcuckoo: use BinaryFuseFilter.build(keys, options) to make a binary fuse filter');
  }

  /**
   * Builds the filter from every key (any iterable of keys; duplicates are fine, `size` counts
   * distinct keys). options: { fingerprintBits: 8 | 16 = 8, seed }. Deterministic for a given
   * seed, whatever the key order. Memory: 8 bytes per key of key hashes, plus
   * BinaryFuseFilter.peakBuildBytes(n) inside the core while building.
   */
  static build(keys, options) {
    const builder = BinaryFuseFilter.builder(options);
    try {
      const count = keys instanceof PackedKeys || Array.isArray(keys) ? keys.length : 0;
      if (count > 0) builder.reserve(count);
      builder.addAll(keys);
      return builder.build();
    } finally {
      builder.free();
    }
  }

  /**
   * A builder that takes keys in as many addAll() calls as you like (streaming: only the keys'
   * 8-byte hashes are kept), then build() makes the filter. Free it when done (build() does).
   */
  /** The same as build(keys, options). */
  static from(keys, options) {
    return BinaryFuseFilter.build(keys, fromOptions('BinaryFuseFilter', options, false));
  }

  static builder(options) {
    const o = readOptions('BinaryFuseFilter', options, OPTIONS);
    const fingerprintBits = o.fingerprintBits ?? 8;
    if (fingerprintBits !== 8 && fingerprintBits !== 16) {
      throw new FilterError('INVALID_ARGUMENT', `fingerprintBits must be 8 or 16, got ${String(fingerprintBits)}`);
    }
    return new BinaryFuseBuilder(o, fingerprintBits, seedOption(o.seed));
  }

  /** Reads a BinaryFuseFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(BinaryFuseFilter, 'BinaryFuseFilterCore', bytes);
  }

  /**
   * Peak temporary bytes the core needs to build from n keys, besides the builder's 8n bytes of
   * key hashes (which the build uses in place).
   */
  static peakBuildBytes(n) {
    return requireWasm().fusePeakBuildBytes(n);
  }

  /**
   * The layout a build of n distinct keys starts from, computed by the core:
   * { segmentLength, segmentCount, arrayLength, byteLength } (all 0 for n = 0). Retries keep the
   * array (and byteLength) and may cut it into segments of the other length.
   */
  static optimalShape(n, { fingerprintBits = 8 } = {}) {
    if (!Number.isSafeInteger(n) || n < 0) invalidOption('n', n, 'must be a non-negative integer');
    if (fingerprintBits !== 8 && fingerprintBits !== 16) invalidOption('fingerprintBits', fingerprintBits, 'must be 8 or 16');
    const m = requireWasm();
    const out = outArea();
    throwIfError(m.fuseLayout(n, out), 'BinaryFuseFilter.optimalShape', `n: ${n}`);
    const [segmentLength, segmentCount, arrayLength] = new Float64Array(m.HEAPU8.buffer, out, 3);
    return { segmentLength, segmentCount, arrayLength, byteLength: (arrayLength * fingerprintBits) / 8 };
  }

  info() {
    return readInfo(this._core, 'fuse', ['fingerprintBits', 'segmentLength', 'segmentCount', 'arrayLength',
      'bitsPerKey', 'expectedErrorRate']).info;
  }
}

/** Collects 64-bit key hashes in wasm memory for BinaryFuseFilter.build. */
class BinaryFuseBuilder {
  constructor(options, fingerprintBits, seed) {
    this._options = options;
    this._bits = fingerprintBits;
    this._seed = seed;
    this._ptr = 0;      // u64 key hashes
    this._cap = 0;      // capacity in keys
    this._count = 0;
  }

  /** Keys taken so far (duplicates included). */
  get size() { return this._count; }

  /**
   * Makes room for `keys` keys in all (counting those taken so far), so the hashes are held in
   * exactly 8 bytes a key instead of a buffer that doubles as keys arrive (up to 2× that, plus the
   * smaller buffers it left behind). For builds near the memory limit, when the key count is
   * known in advance; more keys than reserved are still taken. Returns this.
   */
  reserve(keys) {
    if (this._ptr === null) throw new FilterError('DISPOSED', 'BinaryFuseFilter builder was already used or freed');
    if (!Number.isSafeInteger(keys) || keys < 0) {
      throw new TypeError(`bloomcuckoo: reserve(keys) needs a non-negative integer, got ${String(keys)}`);
    }
    if (keys > this._cap) this._grow(requireWasm(), keys);
    return this;
  }

  /** Hashes `keys` (any iterable) into the builder; returns this. */
  addAll(keys) {
    if (this._ptr === null) throw new FilterError('DISPOSED', 'BinaryFuseFilter builder was already used or freed');
    const m = requireWasm();
    forEachChunk(keys, (data, offsets, count) => {
      this._reserve(m, this._count + count);
      throwIfError(m.hashKeysForFuse(data, offsets, count, this._seed, this._ptr + 8 * this._count), 'BinaryFuseFilter.addAll');
      this._count += count;
    });
    return this;
  }

  /** Builds the filter from every key added; the builder is freed. */
  build() {
    if (this._ptr === null) throw new FilterError('DISPOSED', 'BinaryFuseFilter builder was already used or freed');
    try {
      const core = makeCore('BinaryFuseFilterCore', (c) =>
        throwIfError(c.buildFromHashes(this._ptr, this._count, this._bits, this._seed), 'BinaryFuseFilter.build', this._options));
      return Filter._adopt(BinaryFuseFilter, core);
    } finally {
      this.free();
    }
  }

  /** Releases the collected hashes. Idempotent. */
  free() {
    if (this._ptr) requireWasm()._free(this._ptr);
    this._ptr = null;
  }

  _reserve(m, keys) {
    if (keys > this._cap) this._grow(m, Math.max(keys, 2 * this._cap, 1024));
  }

  /** Moves the hashes to a buffer for exactly `cap` keys. */
  _grow(m, cap) {
    if (8 * cap > 2 ** 32) throw new FilterError('OUT_OF_MEMORY', `BinaryFuseFilter.build: ${cap} key hashes do not fit in wasm memory`);
    const ptr = wasmMalloc(m, 8 * cap);
    if (!ptr) throw new FilterError('OUT_OF_MEMORY', `BinaryFuseFilter.build: cannot allocate key hashes for ${cap} keys`);
    if (this._ptr) {
      m.HEAPU8.copyWithin(ptr, this._ptr, this._ptr + 8 * this._count);
      m._free(this._ptr);
    }
    this._ptr = ptr;
    this._cap = cap;
  }
}
