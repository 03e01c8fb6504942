// Type declarations for bloomcuckoo, written by hand. docs/API.md is the contract these follow.
/// <reference lib="esnext.disposable" />

/*
 * Empty fallbacks so that these declarations compile in projects without the DOM lib or
 * @types/node (an empty interface merges harmlessly into the real one where it exists).
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace WebAssembly {
    // eslint-disable-next-line @typescript-eslint/no-empty-interface
    interface Module {}
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  interface URL {}
}

// ---------------------------------------------------------------------------------------------
// Keys, kinds, errors
// ---------------------------------------------------------------------------------------------

/**
 * A key. A `string` is hashed as its UTF-8 bytes (not Unicode-normalised: `'é'` and
 * `'e\u0301'` are different keys; call `s.normalize('NFC')` first if that matters). A
 * `Uint8Array`, any other `ArrayBufferView` or an `ArrayBuffer` is hashed as its bytes, so
 * `'abc'` and `new TextEncoder().encode('abc')` are the same key. Any other value throws
 * `TypeError`; nothing is ever converted with `String(x)`.
 */
export type Key = string | ArrayBufferView | ArrayBuffer;

/**
 * Many keys: an array or any iterable, or a {@link PackedKeys} (the fastest: one copy per chunk).
 * Every key is validated before any is added, so a bad key throws `TypeError` with the filter
 * unchanged.
 */
export type Keys = (Iterable<Key> & NotAString) | PackedKeys;

/**
 * What makes {@link Keys} refuse one string (a string is iterable by characters: as a batch it
 * would be one key per character). Pass `[key]`, or use `add`/`has`.
 */
export interface NotAString {
  /** Strings have `charAt`; a batch of keys must not. */
  readonly charAt?: never;
}

/**
 * Keys already packed back to back in one buffer: key i is `bytes[offsets[i], offsets[i + 1])`.
 * Every `addAll`, `hasAll`, `removeAll` and `BinaryFuseFilter.build` takes it, and copies each
 * chunk of 16,384 keys into wasm memory in one go, with no per-key JavaScript. The offsets are
 * checked once, here. Iterating it yields each key as a `Uint8Array` view.
 */
export class PackedKeys implements Iterable<Uint8Array> {
  /**
   * @param bytes the keys' bytes (kept by reference: do not change them while in use).
   * @param offsets count + 1 non-decreasing offsets into `bytes`, the last at most its length.
   * @throws TypeError when `offsets` is not a Uint32Array or `bytes` not binary.
   * @throws RangeError when offsets decrease, are empty, or run past `bytes`.
   */
  constructor(bytes: ArrayBuffer | ArrayBufferView, offsets: Uint32Array);
  /** Number of keys (offsets.length − 1). */
  readonly length: number;
  /** The bytes given, as a Uint8Array view. */
  readonly bytes: Uint8Array;
  /** The offsets given. */
  readonly offsets: Uint32Array;
  [Symbol.iterator](): Iterator<Uint8Array>;
}

/** Serialized filter bytes: an `ArrayBuffer` or any view of one (e.g. a Node `Buffer`). */
export type FilterBytes = ArrayBuffer | ArrayBufferView;

/** The kind of a filter, as stored in its serialized bytes and returned by {@link kindOf}. */
export type FilterKind = 'bloom' | 'blocked' | 'counting' | 'scalable' | 'cuckoo' | 'fuse' | 'redis-bloom' | 'redis-cuckoo';

/**
 * The `code` of a {@link FilterError}:
 * - `INVALID_ARGUMENT`: a bad option or argument; the message names it and its value (also:
 *   `Class.deserialize` given bytes of another kind, `union` of filters of another shape).
 * - `FULL`: the filter cannot take the key and may not grow (a `nonScaling` ScalableBloomFilter
 *   at capacity). Note that `CuckooFilter.add` reports "full" as `false`, not as this error.
 * - `OUT_OF_MEMORY`: wasm memory could not grow to the size needed; nothing was changed.
 * - `CORRUPT_DATA`: serialized bytes are truncated, corrupt (checksum, lengths, counts) or not
 *   a bloomcuckoo filter at all.
 * - `UNSUPPORTED_VERSION`: the bytes use a newer format version (or a filter kind) that this
 *   build cannot read.
 * - `DISPOSED`: the filter was used after `free()`.
 * - `NOT_INITIALIZED`: a filter or hash was used before `await init()` completed.
 * - `REDIS`: (bloomcuckoo/redis) a Redis command or connection failed, or the key a replica
 *   follows is gone; the message says which.
 */
export type FilterErrorCode =
  | 'INVALID_ARGUMENT'
  | 'FULL'
  | 'OUT_OF_MEMORY'
  | 'CORRUPT_DATA'
  | 'UNSUPPORTED_VERSION'
  | 'DISPOSED'
  | 'NOT_INITIALIZED'
  | 'REDIS';

/**
 * Every failure of a filter operation. Expected outcomes are values, not errors: `has` returns a
 * boolean, cuckoo `add`/`remove` return booleans. Wrong key types are `TypeError`, not this.
 */
export class FilterError extends Error {
  /** Makes an error with a stable `code` (see {@link FilterErrorCode}) and a readable message. */
  constructor(code: FilterErrorCode, message: string);
  /** Always `'FilterError'`. */
  name: 'FilterError';
  /** What went wrong, stable across versions; see {@link FilterErrorCode}. */
  code: FilterErrorCode;
}

// ---------------------------------------------------------------------------------------------
// Loading and utilities
// ---------------------------------------------------------------------------------------------

/** Options of {@link init}. */
export interface InitOptions {
  /**
   * An already compiled module (from {@link getWasmModule} in another thread): nothing is
   * fetched or read. The usual way to start the library in a Worker.
   */
  module?: WebAssembly.Module;
  /**
   * Where to load `bloomcuckoo.wasm` from, instead of next to the package's JS: a relative URL
   * is resolved against the page's (or worker's) `location` where there is one, else against the
   * package's own URL (Node: a `file:` URL or path relative to the library, not the cwd).
   */
  url?: string | URL;
}

/**
 * Loads and instantiates the wasm module. Call it once and await it before using any filter or
 * hash; afterwards every constructor and method is synchronous. Every call returns the same
 * cached promise; a failed load is not cached, so a later call tries again. Rejects with an
 * `Error` (clear message) where WebAssembly is missing or the wasm cannot be loaded.
 */
export function init(options?: InitOptions): Promise<void>;

/**
 * Loads the wasm synchronously, for code that cannot await: from a compiled `WebAssembly.Module`
 * or the bytes of `bloomcuckoo.wasm` (e.g. `readFileSync(require.resolve('bloomcuckoo/bloomcuckoo.wasm'))`).
 * It compiles synchronously (tested in Node); browsers' main threads refuse that for a module this
 * large (use {@link init} there). Does nothing once loaded; later {@link init}
 * calls resolve at once.
 * @throws TypeError for anything else; `FilterError` `INVALID_ARGUMENT` while an `init()` is
 *   still loading (await it instead); the `WebAssembly.CompileError` of bytes that are not the wasm.
 */
export function initSync(moduleOrBytes: WebAssembly.Module | ArrayBuffer | ArrayBufferView): void;

/**
 * The compiled `WebAssembly.Module` (after {@link init} resolved), to `postMessage` to a Worker,
 * which then calls `init({ module })` without fetching anything. Throws `Error` before `init`.
 */
export function getWasmModule(): WebAssembly.Module;

/** MurmurHash3, bit-exact with the SMHasher reference, computed by the same wasm as the filters. */
export interface Murmur3 {
  /**
   * `MurmurHash3_x86_32(key, seed)` as an unsigned 32-bit number.
   * @param seed an integer in [0, 2^32); default 0. Otherwise `RangeError`.
   */
  x86_32(key: Key, seed?: number): number;
  /**
   * `MurmurHash3_x64_128(key, seed)` as the 16 bytes the reference writes to its `out`
   * (h1 then h2, each little-endian). A new array, owned by the caller.
   * @param seed an integer in [0, 2^32); default 0. Otherwise `RangeError`.
   */
  x64_128(key: Key, seed?: number): Uint8Array;
}

/** MurmurHash3 utilities (frozen object). Needs {@link init}. */
export const murmur3: Readonly<Murmur3>;

/**
 * Reads any filter's `serialize()` bytes back into a filter of the right class (see
 * {@link FilterKind}). The bytes are copied; the caller keeps ownership of `bytes`, and the new
 * filter owns wasm memory until `free()`.
 * @throws FilterError `CORRUPT_DATA` for corrupt, truncated or foreign bytes,
 *   `UNSUPPORTED_VERSION` for a newer format version or a kind this build lacks,
 *   `OUT_OF_MEMORY` when wasm memory cannot hold it.
 * @throws TypeError when `bytes` is not an `ArrayBuffer` or view.
 */
export function deserialize(bytes: FilterBytes): AnyFilter;

/**
 * {@link deserialize} for bytes that are not in memory as a whole (a file, a stream):
 * `byteLength` bytes, which `read` copies on request into `target` (a view into wasm memory, to
 * be filled completely) from position `offset`. They go straight into the filter's memory, so
 * the peak is the filter plus 256 KiB (`read` is asked for at most that much at a time).
 * An error thrown by `read` stops it and is rethrown; other errors as {@link deserialize}.
 * @example
 * const fd = fs.openSync(path);
 * const f = deserializeFrom(fs.fstatSync(fd).size, (target, offset) => {
 *   for (let at = 0; at < target.length;) at += fs.readSync(fd, target, at, target.length - at, offset + at) || fail();
 * });
 */
export function deserializeFrom(byteLength: number, read: (target: Uint8Array, offset: number) => void): AnyFilter;

/**
 * Checks the frame of serialized bytes (magic, version, length, checksum) and returns the
 * filter kind, without making a filter.
 * @throws FilterError `CORRUPT_DATA` or `UNSUPPORTED_VERSION`, as {@link deserialize}.
 */
export function kindOf(bytes: FilterBytes): FilterKind;

// ---------------------------------------------------------------------------------------------
// What every filter has
// ---------------------------------------------------------------------------------------------

/**
 * The members every filter class has. A type only (there is no `Filter` value to `instanceof`;
 * use the classes). A filter owns memory inside the wasm module: call `free()` (or declare it
 * with `using`) when done. A `FinalizationRegistry` frees forgotten filters as a safety net only.
 * After `free()`, every member except `free()` and `freed` throws `FilterError` `DISPOSED`.
 */
export interface Filter extends Disposable {
  /**
   * `false`: the key is certainly absent (no false negatives, for keys added and not removed).
   * `true`: the key may be present; false positives happen by design, at about the filter's
   * error rate. A `true` is never proof of membership.
   */
  has(key: Key): boolean;
  /**
   * {@link Filter.has} for many keys: one byte per key, in order, `1` = maybe present, `0` =
   * certainly absent. Keys cross into wasm in chunks of 16,384 (one call per chunk). The result
   * is a new array owned by the caller.
   */
  hasAll(keys: Keys): Uint8Array;
  /** The number of keys the filter holds; what counts is defined by each class. */
  readonly size: number;
  /** Bytes of filter storage in wasm memory (the table itself, not the serialized length). */
  readonly byteLength: number;
  /** The 32-bit hash seed (default 0x9747b28c); stored in the serialized bytes. */
  readonly seed: number;
  /** A new plain object describing the filter; always has `kind`. */
  info(): FilterInfo;
  /** Empties the filter, keeping its shape and options. */
  clear(): void;
  /**
   * The filter's bytes (format: docs/FORMAT.md) as a new standalone `ArrayBuffer`, owned by the
   * caller: storable, and transferable to a Worker with `postMessage(bytes, [bytes])`. The
   * same filter gives the same bytes natively and in wasm. The bytes are copied once, straight
   * from the filter into the new buffer (no second copy in wasm memory).
   * @throws FilterError `OUT_OF_MEMORY` when the ArrayBuffer cannot be allocated.
   */
  serialize(): ArrayBuffer;
  /**
   * The same bytes as `serialize()`, handed to `write` in order, at most 256 KiB at a time, with
   * no full-size buffer anywhere (for files and sockets: `f.serializeTo((c) => fs.writeSync(fd, c))`).
   * `chunk` is a view into wasm memory, valid only during the call: write or copy it before
   * returning. An error thrown by `write` stops it and is rethrown. Returns the byte count.
   */
  serializeTo(write: (chunk: Uint8Array) => void): number;
  /**
   * Releases the filter's wasm memory. Idempotent. Any later use throws `FilterError`
   * `DISPOSED`.
   */
  free(): void;
  /** `true` after `free()`. */
  readonly freed: boolean;
  /**
   * `true` when `other` is a filter of the same class with the same bytes (`serialize()` equal):
   * the same options, seed and contents, so the same answer to every query from now on. Two
   * cuckoo filters holding the same keys added in another order can differ.
   */
  equals(other: Filter): boolean;
  /** Same as `free()`, so `using f = new BloomFilter(...)` frees it at the end of the block. */
  [Symbol.dispose](): void;
  /**
   * A filter has no JSON form (its bits live in wasm memory): `JSON.stringify(filter)` throws
   * `FilterError` `INVALID_ARGUMENT` saying to store `serialize()` bytes instead (base64 them for
   * JSON). Likewise `structuredClone(filter)` and `postMessage(filter)` throw a `DataCloneError`
   * whose message says to send `serialize()` bytes.
   */
  toJSON(): never;
}

/** The shared shape of `info()` results. */
export interface FilterInfo {
  /** The filter kind. */
  kind: FilterKind;
  /** Keys held (as `size`). */
  size: number;
  /** Bytes of storage (as `byteLength`). */
  byteLength: number;
  /** The hash seed (as `seed`). */
  seed: number;
}

/**
 * The members of every filter, declared once for the classes below. Not exported: there is no
 * such value at runtime; use the {@link Filter} interface as a type.
 */
declare abstract class FilterBase implements Filter {
  /** Filters are made by their class's constructor or static factory, never directly. */
  protected constructor();
  has(key: Key): boolean;
  hasAll(keys: Keys): Uint8Array;
  get size(): number;
  get byteLength(): number;
  get seed(): number;
  abstract info(): FilterInfo;
  clear(): void;
  serialize(): ArrayBuffer;
  serializeTo(write: (chunk: Uint8Array) => void): number;
  free(): void;
  get freed(): boolean;
  equals(other: Filter): boolean;
  /** Same as `free()`, for `using`. */
  [Symbol.dispose](): void;
  toJSON(): never;
}

/** Any filter class instance, as returned by {@link deserialize}. Narrow it with `instanceof`. */
export type AnyFilter =
  | BloomFilter
  | BlockedBloomFilter
  | CountingBloomFilter
  | ScalableBloomFilter
  | CuckooFilter
  | BinaryFuseFilter
  | RedisBloomFilter
  | RedisCuckooFilter;

/** Option common to every filter. */
export interface SeedOption {
  /** The 32-bit hash seed, an integer in [0, 2^32); default 0x9747b28c. Stored in the bytes. */
  seed?: number;
}

/** Sizing from the expected number of keys and the wanted false-positive rate. */
export interface SizedOptions extends SeedOption {
  /** Expected number of keys: a positive safe integer. */
  capacity: number;
  /** Wanted false-positive rate at `capacity` keys: strictly between 0 and 1 (e.g. 0.01). */
  errorRate: number;
}

/**
 * Options of the `from(keys, options)` factories: the class's options without `capacity`, which
 * is the number of keys; `errorRate` is 0.01 unless given. An object: a number in its place
 * (bloom-filters' `from(items, 0.001)`) throws a `TypeError` saying `pass { errorRate: 0.001 }`.
 */
export interface FromOptions extends SeedOption {
  /** Target false-positive rate, strictly between 0 and 1. Default 0.01. */
  errorRate?: number;
}

// ---------------------------------------------------------------------------------------------
// Bloom family
// ---------------------------------------------------------------------------------------------

/** `new BloomFilter(...)` options: either sized from capacity and errorRate, or given directly. */
export type BloomFilterOptions =
  | (SizedOptions & { bits?: never; hashes?: never })
  | (SeedOption & {
      /** Number of bits m: a positive safe integer. */
      bits: number;
      /** Number of probes k: an integer from 1 to 64. */
      hashes: number;
      capacity?: never;
      errorRate?: never;
    });

/** `BloomFilter.prototype.info()`. */
export interface BloomFilterInfo extends FilterInfo {
  kind: 'bloom';
  /** Capacity it was sized for; 0 when made from `{ bits, hashes }`. */
  capacity: number;
  /** Error rate it was sized for; 0 when made from `{ bits, hashes }`. */
  errorRate: number;
  /** Bits m. */
  bits: number;
  /** Probes k. */
  hashes: number;
  /** Bits set to 1. */
  setBits: number;
  /** `setBits / bits`. */
  fillRatio: number;
  /** As `estimatedSize()`. */
  estimatedSize: number;
  /** As `estimatedErrorRate()`. */
  estimatedErrorRate: number;
}

/** Members shared by the two plain Bloom filters. */
export interface BloomLike extends Filter {
  /**
   * Adds a key. Returns `true` when a bit changed, i.e. the key was certainly new; `false` means
   * it may have been present already. `size` counts every call.
   */
  add(key: Key): boolean;
  /** Adds many keys (16,384 per wasm call). Returns how many `add` would have returned `true` for. */
  addAll(keys: Keys): number;
  /**
   * Estimated number of distinct keys added, from the number of set bits (Swamidass–Baldi).
   */
  estimatedSize(): number;
  /** The false-positive rate at the current fill (can exceed the configured `errorRate`). */
  estimatedErrorRate(): number;
  /**
   * The bit indices `key` maps to, in probe order (a new array). For visualisation.
   */
  positions(key: Key): Float64Array;
  /**
   * A density map: the fraction of set bits in each of `cells` equal slices of the bit array
   * (a new array of length `cells`; with `cells` ≥ the number of bits, each cell is one bit).
   * @param cells an integer from 1 to 2^20; otherwise `RangeError`.
   */
  fillMap(cells: number): Float32Array;
}

/**
 * The classic Bloom filter: m bits, k probes by double hashing of one MurmurHash3_x64_128.
 * Sized by m = ⌈−n·ln p / ln²2⌉, k = round(m/n·ln 2) (k ≥ 1).
 */
export class BloomFilter extends FilterBase implements BloomLike {
  /**
   * Allocates the filter in wasm memory (owned by this object until `free()`).
   * @throws FilterError `INVALID_ARGUMENT` (unknown option, both or neither sizing given, a value
   *   out of range; the message names it), `OUT_OF_MEMORY`.
   */
  constructor(options: BloomFilterOptions);
  /**
   * The shape `new BloomFilter({ capacity, errorRate })` would have, computed without allocating:
   * bits m, hashes k, and bytes of storage (whole 64-bit words). Throws the constructor's errors (INVALID_ARGUMENT, OUT_OF_MEMORY).
   */
  static optimalShape(options: { capacity: number; errorRate: number }): { bits: number; hashes: number; byteLength: number };
  /**
   * Reads the bytes of `serialize()` (kind `'bloom'`).
   * @throws FilterError `CORRUPT_DATA` or `UNSUPPORTED_VERSION` for bad bytes, `INVALID_ARGUMENT`
   *   for bytes of another kind (use the top-level `deserialize` for any kind).
   */
  static deserialize(bytes: FilterBytes): BloomFilter;
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `BloomFilter.from(urls, { errorRate: 0.001 })`.
   */
  static from(keys: Keys, options?: FromOptions): BloomFilter;
  add(key: Key): boolean;
  addAll(keys: Keys): number;
  /**
   * ORs `other` into this filter in place (afterwards it answers `true` for every key either
   * held). `other` is unchanged. Returns `this`.
   * @throws FilterError `INVALID_ARGUMENT` unless `other` is a BloomFilter with the same bits,
   *   hashes and seed.
   */
  union(other: BloomFilter): this;
  /**
   * ANDs `other` into this filter in place (keys in both stay; the false-positive rate is that
   * of the fuller filter, not of a filter built from the intersection). Returns `this`.
   * @throws FilterError `INVALID_ARGUMENT` unless same bits, hashes and seed.
   */
  intersect(other: BloomFilter): this;
  estimatedSize(): number;
  estimatedErrorRate(): number;
  positions(key: Key): Float64Array;
  fillMap(cells: number): Float32Array;
  info(): BloomFilterInfo;
}

/** `new BlockedBloomFilter(...)` options. */
export type BlockedBloomFilterOptions =
  | (SizedOptions & { blocks?: never })
  | (SeedOption & {
      /** Number of 256-bit blocks: an integer from 1 to 2^32 − 1. */
      blocks: number;
      capacity?: never;
      errorRate?: never;
    });

/** `BlockedBloomFilter.prototype.info()`. */
export interface BlockedBloomFilterInfo extends FilterInfo {
  kind: 'blocked';
  /** Capacity it was sized for; 0 when made from `{ blocks }`. */
  capacity: number;
  /** Error rate it was sized for; 0 when made from `{ blocks }`. */
  errorRate: number;
  /** 256-bit blocks. */
  blocks: number;
  /** `blocks × 256`. */
  bits: number;
  /** Bits set to 1. */
  setBits: number;
  /** `setBits / bits`. */
  fillRatio: number;
  /** As `estimatedSize()`. */
  estimatedSize: number;
  /** As `estimatedErrorRate()`. */
  estimatedErrorRate: number;
}

/**
 * Split-block Bloom filter (as in Parquet): each key sets 8 bits in one 256-bit block, so a
 * lookup touches one cache line; fastest lookups, slightly more bits per key than
 * {@link BloomFilter} for the same error rate.
 */
export class BlockedBloomFilter extends FilterBase implements BloomLike {
  /**
   * Allocates the filter in wasm memory (owned by this object until `free()`).
   * @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`.
   */
  constructor(options: BlockedBloomFilterOptions);
  /**
   * The shape `new BlockedBloomFilter({ capacity, errorRate })` would have, computed without allocating:
   * 256-bit blocks, bits, and bytes of storage (32 per block). Throws the constructor's errors (INVALID_ARGUMENT, OUT_OF_MEMORY).
   */
  static optimalShape(options: { capacity: number; errorRate: number }): { blocks: number; bits: number; byteLength: number };
  /**
   * Reads the bytes of `serialize()` (kind `'blocked'`).
   * @throws FilterError `CORRUPT_DATA` or `UNSUPPORTED_VERSION` for bad bytes, `INVALID_ARGUMENT`
   *   for bytes of another kind (use the top-level `deserialize` for any kind), `OUT_OF_MEMORY`.
   */
  static deserialize(bytes: FilterBytes): BlockedBloomFilter;
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `BlockedBloomFilter.from(urls, { errorRate: 0.001 })`.
   */
  static from(keys: Keys, options?: FromOptions): BlockedBloomFilter;
  add(key: Key): boolean;
  addAll(keys: Keys): number;
  /**
   * ORs `other` into this filter in place. Returns `this`.
   * @throws FilterError `INVALID_ARGUMENT` unless `other` is a BlockedBloomFilter with the same
   *   blocks and seed.
   */
  union(other: BlockedBloomFilter): this;
  /**
   * ANDs `other` into this filter in place. Returns `this`.
   * @throws FilterError `INVALID_ARGUMENT` unless same blocks and seed.
   */
  intersect(other: BlockedBloomFilter): this;
  estimatedSize(): number;
  estimatedErrorRate(): number;
  positions(key: Key): Float64Array;
  fillMap(cells: number): Float32Array;
  info(): BlockedBloomFilterInfo;
}

/** `new CountingBloomFilter(...)` options. */
export type CountingBloomFilterOptions =
  | (SizedOptions & { counters?: never; hashes?: never })
  | (SeedOption & {
      /** Number of 4-bit counters: a positive safe integer. */
      counters: number;
      /** Number of probes k: an integer from 1 to 64. */
      hashes: number;
      capacity?: never;
      errorRate?: never;
    });

/** `CountingBloomFilter.prototype.info()`. */
export interface CountingBloomFilterInfo extends FilterInfo {
  kind: 'counting';
  /** Capacity it was sized for; 0 when made from `{ counters, hashes }`. */
  capacity: number;
  /** Error rate it was sized for; 0 when made from `{ counters, hashes }`. */
  errorRate: number;
  /** 4-bit counters. */
  counters: number;
  /** Probes k. */
  hashes: number;
  /** Counters that are not 0. */
  nonzeroCounters: number;
  /** Counters stuck at 15 (never decremented again). */
  saturatedCounters: number;
  /** `nonzeroCounters / counters`. */
  fillRatio: number;
  /** As `estimatedSize()`. */
  estimatedSize: number;
  /** As `estimatedErrorRate()`. */
  estimatedErrorRate: number;
}

/**
 * A Bloom filter of 4-bit saturating counters, so keys can be removed. A counter that reached 15
 * is never decremented again (it stays "maybe present"), so removal never causes a false
 * negative for another key — as long as only keys that were added are removed.
 */
export class CountingBloomFilter extends FilterBase {
  /**
   * Allocates the filter in wasm memory (owned by this object until `free()`).
   * @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`.
   */
  constructor(options: CountingBloomFilterOptions);
  /**
   * The shape `new CountingBloomFilter({ capacity, errorRate })` would have, computed without allocating:
   * 4-bit counters, hashes k, and bytes of storage (two counters per byte). Throws the constructor's errors (INVALID_ARGUMENT, OUT_OF_MEMORY).
   */
  static optimalShape(options: { capacity: number; errorRate: number }): { counters: number; hashes: number; byteLength: number };
  /**
   * Reads the bytes of `serialize()` (kind `'counting'`).
   * @throws FilterError `CORRUPT_DATA` or `UNSUPPORTED_VERSION` for bad bytes, `INVALID_ARGUMENT`
   *   for bytes of another kind (use the top-level `deserialize` for any kind), `OUT_OF_MEMORY`.
   */
  static deserialize(bytes: FilterBytes): CountingBloomFilter;
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `CountingBloomFilter.from(urls, { errorRate: 0.001 })`.
   */
  static from(keys: Keys, options?: FromOptions): CountingBloomFilter;
  /** Adds a key (increments its counters). Returns `true` when the key was certainly new. */
  add(key: Key): boolean;
  /** Adds many keys (16,384 per wasm call). Returns how many `add` would have returned `true` for. */
  addAll(keys: Keys): number;
  /**
   * Removes one occurrence of a key. Returns `false` when the key is certainly absent (nothing
   * changes). Removing a key that was never added but is a false positive decrements other
   * keys' counters and can make them read as absent: remove only what you added.
   */
  remove(key: Key): boolean;
  /** `remove` for many keys (16,384 per wasm call). Returns how many were removed. */
  removeAll(keys: Keys): number;
  /**
   * The smallest of the key's counters: an upper bound of how often it was added (0 = certainly
   * absent; saturates at 15).
   */
  count(key: Key): number;
  /** Estimated number of distinct keys, from the non-zero counters. */
  estimatedSize(): number;
  /** The false-positive rate at the current fill. */
  estimatedErrorRate(): number;
  /** The counter indices `key` maps to, in probe order (a new array). For visualisation. */
  positions(key: Key): Float64Array;
  /** The fraction of non-zero counters in each of `cells` (1 to 2^20) equal slices (a new array). */
  fillMap(cells: number): Float32Array;
  /** Keys held: adds minus successful removes. */
  get size(): number;
  info(): CountingBloomFilterInfo;
}

/** `new ScalableBloomFilter(...)` options. */
export interface ScalableBloomFilterOptions extends SizedOptions {
  /**
   * Capacity multiplier of each new layer: an integer ≥ 1 (RedisBloom `EXPANSION`). Default 2.
   */
  expansion?: number;
  /**
   * `true`: never add a layer; `add` throws `FilterError` `FULL` at capacity (RedisBloom
   * `NONSCALING`). Default `false`.
   */
  nonScaling?: boolean;
}

/** One layer of a {@link ScalableBloomFilter}. */
export interface ScalableBloomLayerInfo {
  /** Keys this layer was sized for. */
  capacity: number;
  /** Error rate this layer was sized for (the first layer's × 0.5 per later layer). */
  errorRate: number;
  /** Keys added to this layer. */
  size: number;
  /** Bits of this layer. */
  bits: number;
  /** Probes of this layer. */
  hashes: number;
}

/** `ScalableBloomFilter.prototype.info()`. */
export interface ScalableBloomFilterInfo extends FilterInfo {
  kind: 'scalable';
  /** Capacity of the first layer. */
  capacity: number;
  /** Error rate of the first layer. */
  errorRate: number;
  /** Capacity multiplier per layer. */
  expansion: number;
  /** Whether it may add layers. */
  nonScaling: boolean;
  /** As `estimatedSize()`. */
  estimatedSize: number;
  /** As `estimatedErrorRate()`. */
  estimatedErrorRate: number;
  /** The layers, oldest first. */
  layers: ScalableBloomLayerInfo[];
}

/**
 * A Bloom filter that grows (RedisBloom BF semantics): when the newest layer holds its capacity,
 * a new layer with capacity × `expansion` and error rate × 0.5 is added, so the total error rate
 * stays below about 2 × `errorRate`. Old keys are never lost.
 */
export class ScalableBloomFilter extends FilterBase {
  /**
   * Allocates the first layer in wasm memory (owned by this object until `free()`).
   * @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`.
   */
  constructor(options: ScalableBloomFilterOptions);
  /**
   * Reads the bytes of `ScalableBloomFilter.prototype.serialize()`.
   * @throws FilterError `INVALID_ARGUMENT` (another kind), `CORRUPT_DATA`,
   *   `UNSUPPORTED_VERSION`, `OUT_OF_MEMORY`.
   */
  static deserialize(bytes: FilterBytes): ScalableBloomFilter;
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `ScalableBloomFilter.from(urls, { errorRate: 0.001 })`. `capacity` is its first layer's.
   */
  static from(keys: Keys, options?: Omit<ScalableBloomFilterOptions, 'capacity' | 'errorRate'> & FromOptions): ScalableBloomFilter;
  /**
   * Adds a key unless it may already be present. Returns `false` when it may be present (it is
   * not added again, and `size` does not change), `true` when it was added.
   * @throws FilterError `FULL` when `nonScaling` and at capacity; `OUT_OF_MEMORY` when a new
   *   layer cannot be allocated.
   */
  add(key: Key): boolean;
  /** Adds many keys. Returns how many were added (`add` returned `true`). Throws as `add`. */
  addAll(keys: Keys): number;
  /** Estimated number of distinct keys, summed over the layers' fill. */
  estimatedSize(): number;
  /**
   * The false-positive rate at the current fill: 1 − Π(1 − layer rate) over the layers.
   */
  estimatedErrorRate(): number;
  /** Keys added (duplicates and false positives are not added again). */
  get size(): number;
  info(): ScalableBloomFilterInfo;
}

// ---------------------------------------------------------------------------------------------
// RedisBloom
// ---------------------------------------------------------------------------------------------

/** Options of {@link RedisBloomFilter}: as `BF.RESERVE key errorRate capacity [EXPANSION e] [NONSCALING]`. */
export interface RedisBloomFilterOptions {
  /** Target false-positive rate, in (0, 1). The first filter of the chain gets half of it. */
  errorRate: number;
  /** Keys the first filter of the chain holds (a positive integer). */
  capacity: number;
  /**
   * Each new filter of the chain holds `expansion` times the keys of the last. Default 2. Given
   * with `nonScaling`, it is stored and never used (as `BF.INSERT ... EXPANSION e NONSCALING`);
   * with `server: '8'`, 0 means nonScaling (Redis 8's `EXPANSION 0`).
   */
  expansion?: number;
  /** Never add filters: `add` throws `FULL` at capacity. Default false. */
  nonScaling?: boolean;
  /** The server whose rules to follow (see {@link RedisServer}). Default `'2.6'`. */
  server?: RedisServer;
}

/**
 * Which RedisBloom a filter follows where releases differ: `'2.6'` (RedisBloom 2.x, e.g. on
 * Redis 7) or `'8'` (the bloom module built into Redis 8). On `'8'` a new BF's error rate is
 * capped at 0.25, capacities are at most 2^30 and BF expansions at most 32768; and a BF chain
 * that cannot grow any more (its next link's error rate underflows to 0, after about 1,075 links)
 * is left as it is, where RedisBloom 2.x keeps an empty link after which every key reads as
 * present. Everything else (hashes, adds, lookups, removals, dumps) is the same on both. Each
 * name is a row of the core's server table (cpp/include/bloomcuckoo/redis_server.h).
 */
export type RedisServer = '2.6' | '8';

/** Options of `fromRedisDump`. */
export interface RedisDumpOptions {
  /** The server the dump came from (see {@link RedisServer}). Default `'2.6'`. */
  server?: RedisServer;
}

/** One filter (link) of a RedisBloom chain. */
export interface RedisBloomLinkInfo {
  capacity: number;
  errorRate: number;
  bits: number;
  hashes: number;
  items: number;
  bytes: number;
}

/**
 * The fields of `BF.INFO` (capacity, size, filters, items, expansion), with their meanings there,
 * plus the chain's filters. Note `size` is BF.INFO's "Size", RedisBloom's byte count
 * (32 + 64 per filter + the bitmaps), not a key count; `items` counts the keys.
 */
export interface RedisBloomFilterInfo extends FilterInfo {
  kind: 'redis-bloom';
  /** BF.INFO "Capacity": the keys all filters of the chain hold together. */
  capacity: number;
  /** BF.INFO "Size": bytes as RedisBloom counts them. */
  size: number;
  /** BF.INFO "Number of filters". */
  filters: number;
  /** BF.INFO "Number of items inserted". */
  items: number;
  /** BF.INFO "Expansion rate"; null when nonScaling (as the server replies). */
  expansion: number | null;
  nonScaling: boolean;
  /** The chain, oldest first. */
  links: RedisBloomLinkInfo[];
}

/**
 * RedisBloom's BF type bit for bit: the same hashes (MurmurHash64A), sizes, growth and replies
 * as a RedisBloom server (2.2.11 through Redis 8), so a filter read with {@link fromRedisDump}
 * answers `has` exactly as `BF.EXISTS`, and {@link RedisBloomFilter.toRedisDump} loads into Redis
 * with `BF.LOADCHUNK`. Strings are hashed as their UTF-8 bytes, as Redis clients send them.
 */
export class RedisBloomFilter extends FilterBase {
  /**
   * As `BF.RESERVE`.
   * @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`.
   */
  constructor(options: RedisBloomFilterOptions);
  /**
   * A filter from `BF.SCANDUMP`'s replies, in order, with or without the final `[0, empty]`.
   * @throws FilterError `CORRUPT_DATA` for corrupt, truncated, reordered or foreign chunks.
   */
  static fromRedisDump(chunks: Iterable<RedisDumpChunk>, options?: RedisDumpOptions): RedisBloomFilter;
  /** Reads the bytes of `serialize()` (kind `'redis-bloom'`). */
  static deserialize(bytes: FilterBytes): RedisBloomFilter;
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `RedisBloomFilter.from(urls, { errorRate: 0.001 })`. As `BF.RESERVE key errorRate count` then `BF.INSERT`.
   */
  static from(keys: Keys, options?: Omit<RedisBloomFilterOptions, 'capacity' | 'errorRate'> & { errorRate?: number }): RedisBloomFilter;
  /**
   * As `BF.ADD`: `true` when added, `false` when the key may already be present.
   * @throws FilterError `FULL` when nonScaling and full; `OUT_OF_MEMORY` for a new filter.
   */
  add(key: Key): boolean;
  /** As `BF.MADD`; returns how many keys were added. Throws as `add`. */
  addAll(keys: Keys): number;
  /** Keys added (BF.INFO "Number of items inserted"). */
  get size(): number;
  /**
   * The `[iterator, bytes]` pairs `BF.SCANDUMP` would reply (without the final `[0, empty]`),
   * to send to `BF.LOADCHUNK` in order. Data chunks are at most 16 MiB.
   */
  toRedisDump(): Array<[number, Uint8Array]>;
  info(): RedisBloomFilterInfo;
}

/**
 * One reply of `BF.SCANDUMP` / `CF.SCANDUMP`: `[iterator, bytes]`. The iterator may be a number,
 * bigint or decimal string (or its bytes); the bytes any byte view (ask your Redis client for
 * binary replies: node-redis `RESP_TYPES.BLOB_STRING → Buffer`, ioredis `callBuffer`).
 */
export type RedisDumpChunk = readonly [number | bigint | string | Uint8Array, ArrayBuffer | ArrayBufferView | null];

/**
 * Reads a RedisBloom dump (`BF.SCANDUMP` replies, in order, with or without the final
 * `[0, empty]`) into a filter that answers as the server does.
 * @throws FilterError `CORRUPT_DATA` for corrupt, truncated, reordered or foreign chunks.
 */
export function fromRedisDump(chunks: Iterable<RedisDumpChunk>, options?: RedisDumpOptions): RedisBloomFilter | RedisCuckooFilter;

/**
 * Options of {@link RedisCuckooFilter}: as
 * `CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e]`.
 */
export interface RedisCuckooFilterOptions {
  /** Keys the first sub-filter is sized for: an integer ≥ 2·bucketSize. Buckets = nextPow2(capacity / bucketSize). */
  capacity: number;
  /** One-byte fingerprints per bucket, 1 to 255. Default 2. */
  bucketSize?: number;
  /** Kicks before an insert gives up on the newest sub-filter, 1 to 65535. Default 20. */
  maxIterations?: number;
  /** Each new sub-filter has `expansion` times the buckets of the last (0 to 32768, rounded up to a power of two; 0 = never grow). Default 1. */
  expansion?: number;
  /** The server whose rules to follow (see {@link RedisServer}): on `'8'` capacity is at most 2^30. Default `'2.6'`. */
  server?: RedisServer;
}

/** One sub-filter of a RedisBloom cuckoo filter. */
export interface RedisCuckooSubFilterInfo {
  buckets: number;
  bytes: number;
}

/**
 * The fields of `CF.INFO`, with their meanings there. Note `size` is CF.INFO's "Size",
 * RedisBloom's byte count (40 + 16 per sub-filter + the slots), not a key count.
 */
export interface RedisCuckooFilterInfo extends FilterInfo {
  kind: 'redis-cuckoo';
  /** CF.INFO "Size": bytes as RedisBloom counts them. */
  size: number;
  /** CF.INFO "Number of buckets" (of the first sub-filter). */
  buckets: number;
  /** CF.INFO "Number of filters". */
  filters: number;
  /** CF.INFO "Number of items inserted" (CF.DEL lowers it). */
  items: number;
  /** CF.INFO "Number of items deleted" (since the last compaction). */
  itemsDeleted: number;
  /** CF.INFO "Bucket size". */
  bucketSize: number;
  /** CF.INFO "Expansion rate" (the power of two the option was rounded up to). */
  expansion: number;
  /** CF.INFO "Max iterations". */
  maxIterations: number;
  /** The sub-filters, oldest first. */
  subFilters: RedisCuckooSubFilterInfo[];
}

/**
 * RedisBloom's CF type bit for bit: the same hashes (MurmurHash64A, `fp = h % 255 + 1`), kick
 * chain, growth and compaction as a RedisBloom server, so a filter read with
 * {@link fromRedisDump} answers `has`/`count` exactly as `CF.EXISTS`/`CF.COUNT`, and
 * {@link RedisCuckooFilter.toRedisDump} loads into Redis with `CF.LOADCHUNK`.
 */
export class RedisCuckooFilter extends FilterBase {
  /**
   * As `CF.RESERVE`.
   * @throws FilterError `INVALID_ARGUMENT` (with the server's message), `OUT_OF_MEMORY`.
   */
  constructor(options: RedisCuckooFilterOptions);
  /**
   * A filter from `CF.SCANDUMP`'s replies, in order, with or without the final `[0, empty]`.
   * The server sends no dump for a filter with no items: that is `CORRUPT_DATA` here.
   * @throws FilterError `CORRUPT_DATA` for corrupt, truncated, reordered or foreign chunks.
   */
  static fromRedisDump(chunks: Iterable<RedisDumpChunk>, options?: RedisDumpOptions): RedisCuckooFilter;
  /** Reads the bytes of `serialize()` (kind `'redis-cuckoo'`). */
  static deserialize(bytes: FilterBytes): RedisCuckooFilter;
  /**
   * The first sub-filter `CF.RESERVE key capacity BUCKETSIZE bucketSize` makes, without allocating:
   * nextPow2(capacity / bucketSize) buckets of `bucketSize` one-byte slots.
   */
  static optimalShape(options: { capacity: number; bucketSize?: number }): { buckets: number; byteLength: number };
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `RedisCuckooFilter.from(urls, { bucketSize: 4 })` (no errorRate: CF fingerprints are 8 bits). Capacity is at least 2·bucketSize, as `CF.RESERVE` needs.
   */
  static from(keys: Keys, options?: Omit<RedisCuckooFilterOptions, 'capacity'>): RedisCuckooFilter;
  /**
   * As `CF.ADD` (duplicates allowed): `true` when added; `false` when it did not fit and
   * `expansion` is 0 (the server's "Filter is full"). Nothing changes unless it returns `true`.
   * @throws FilterError `FULL` at 32 sub-filters or more ("Maximum expansions reached").
   */
  add(key: Key): boolean;
  /** As `CF.ADDNX`: `false` when the key may already be present (or did not fit). Throws as `add`. */
  addUnique(key: Key): boolean;
  /**
   * As `CF.INSERT` (`CF.INSERTNX` with `unique`); returns how many keys were added. A key that
   * does not fit (expansion 0, or the filter is at 65535 sub-filters, the most a server can hold)
   * is skipped and the others go on, as on the server. The 32 sub-filter limit is checked once,
   * before the first key, so one call may grow the filter past it, as one `CF.INSERT` does.
   * @throws FilterError `FULL` ("Maximum expansions reached", nothing added) when the filter
   *   already has 32 sub-filters or more; `OUT_OF_MEMORY` when a sub-filter cannot be allocated.
   */
  addAll(keys: Keys, options?: { unique?: boolean }): number;
  /**
   * As `CF.DEL`: removes one copy; `false` when no fingerprint matches. Removing a key never
   * added can remove another key's fingerprint.
   */
  remove(key: Key): boolean;
  /** As `CF.COUNT`: matching fingerprints in the key's buckets (never less than the true count). */
  count(key: Key): number;
  /** As `CF.COMPACT`. */
  compact(): void;
  /** Items held (CF.INFO "Number of items inserted"). */
  get size(): number;
  /**
   * The `[iterator, bytes]` pairs `CF.SCANDUMP` would reply (without the final `[0, empty]`),
   * to send to `CF.LOADCHUNK` in order; `[]` for a filter with no items, as the server.
   */
  toRedisDump(): Array<[number, Uint8Array]>;
  info(): RedisCuckooFilterInfo;
}

// ---------------------------------------------------------------------------------------------
// Cuckoo
// ---------------------------------------------------------------------------------------------

/** `new CuckooFilter(...)` options (RedisBloom CF semantics). */
export interface CuckooFilterOptions extends SeedOption {
  /** Expected number of keys: a positive safe integer. */
  capacity: number;
  /**
   * Wanted false-positive rate of each sub-filter, strictly between 0 and 1; picks
   * `fingerprintBits` when that is not given (ε ≈ 2·bucketSize / 2^fingerprintBits). Default 0.01.
   * A lookup checks every sub-filter, so a filter grown past its capacity can exceed it, up to
   * sub-filters × 2·bucketSize/2^fingerprintBits: measured with capacity 10,000 and `expansion: 1`,
   * at 30× the capacity, 3.53× the errorRate at 1% and 2.21× at 0.1% (docs/API.md has the
   * table). To stay under it, size `capacity` for the final count or use `expansion: 2` or more.
   */
  errorRate?: number;
  /** Fingerprint width: 8, 12 or 16 bits. Default: from `errorRate`. */
  fingerprintBits?: 8 | 12 | 16;
  /** Fingerprints per bucket (RedisBloom `BUCKETSIZE`): 1, 2, 4 or 8. Default 4. */
  bucketSize?: 1 | 2 | 4 | 8;
  /**
   * Cuckoo kicks before an insert gives up (RedisBloom `MAXITERATIONS`): 1 to 65535. Default 500.
   */
  maxIterations?: number;
  /**
   * Size multiplier of each new sub-filter when full (RedisBloom `EXPANSION`); 0 = never grow.
   * An integer from 0 to 65536; at most 32 sub-filters. Default 1.
   */
  expansion?: number;
}

/** `CuckooFilter.prototype.info()`. */
export interface CuckooFilterInfo extends FilterInfo {
  kind: 'cuckoo';
  /** Buckets of all sub-filters together (the first one's is a power of two: see `optimalShape`). */
  buckets: number;
  /** Number of sub-filters (1 to 32). */
  filters: number;
  /** Successful inserts so far. */
  itemsInserted: number;
  /** Successful removes so far. */
  itemsDeleted: number;
  /** Fingerprints per bucket. */
  bucketSize: number;
  /** Fingerprint width in bits. */
  fingerprintBits: number;
  /** Size multiplier per new sub-filter (0 = never grows). */
  expansion: number;
  /** Kicks before an insert gives up. */
  maxIterations: number;
  /** The capacity asked for. */
  capacity: number;
  /** The error rate asked for. */
  errorRate: number;
  /** Occupied slots / all slots. */
  loadFactor: number;
  /** False-positive rate at the current load (see `estimatedErrorRate()`). */
  estimatedErrorRate: number;
}

/** Where a key lives in a {@link CuckooFilter} (`locate`). */
export interface CuckooLocation {
  /** The key's fingerprint (never 0; 0 marks an empty slot). */
  fingerprint: number;
  /** One pair of candidate bucket indices `[i1, i2]` per sub-filter. */
  buckets: Array<[number, number]>;
}

/**
 * A cuckoo filter: buckets of fingerprints, partial-key cuckoo hashing, removal, growth by
 * sub-filters. Two weaknesses (from the literature; never a crash or corruption): one key can be
 * stored at most 2·`bucketSize` times per sub-filter, and removing a key that was never added can
 * remove another key's fingerprint (that key then reads as absent). Remove only what you added;
 * use `addUnique` for sets.
 */
export class CuckooFilter extends FilterBase {
  /**
   * Allocates the first sub-filter in wasm memory (owned by this object until `free()`).
   * @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`.
   */
  constructor(options: CuckooFilterOptions);
  /**
   * Reads the bytes of `CuckooFilter.prototype.serialize()`.
   * @throws FilterError `INVALID_ARGUMENT` (another kind), `CORRUPT_DATA`,
   *   `UNSUPPORTED_VERSION`, `OUT_OF_MEMORY`.
   */
  static deserialize(bytes: FilterBytes): CuckooFilter;
  /**
   * The first sub-filter `new CuckooFilter(options)` would make, computed by the core without
   * allocating: its buckets (a power of two), the fingerprint width it chooses, and its bytes.
   * @throws FilterError the constructor's errors for these options (`INVALID_ARGUMENT`, `OUT_OF_MEMORY`).
   */
  static optimalShape(options: { capacity: number; errorRate?: number; bucketSize?: 1 | 2 | 4 | 8; fingerprintBits?: 8 | 12 | 16 }): { buckets: number; fingerprintBits: number; byteLength: number };
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `CuckooFilter.from(urls, { errorRate: 0.001 })`.
   */
  static from(keys: Keys, options?: Omit<CuckooFilterOptions, 'capacity'>): CuckooFilter;
  /**
   * Inserts the key's fingerprint (even when an equal one is stored: a multiset). Returns `false`
   * when the filter is full and may not grow; then nothing changed and no stored key is lost.
   */
  add(key: Key): boolean;
  /**
   * Inserts the key only if it is not maybe-present (RedisBloom `CF.ADDNX`). Returns `false`
   * when it may be present already (or when full, as `add`).
   */
  addUnique(key: Key): boolean;
  /** `add` for many keys (16,384 per wasm call). Returns how many were inserted. */
  addAll(keys: Keys): number;
  /**
   * Removes one matching fingerprint. Returns `false` when none matches (nothing changes).
   * Remove only keys you added: see the class notes.
   */
  remove(key: Key): boolean;
  /** Number of stored fingerprints matching the key: at least the true count, maybe more. */
  count(key: Key): number;
  /**
   * Moves fingerprints from newer sub-filters into free slots of older ones and drops the newest
   * sub-filters left empty (like `CF.COMPACT`): a grown filter gets its memory back after
   * removals, and lookups visit fewer sub-filters. Never loses a key. `remove` never compacts by itself.
   */
  compact(): void;
  /** Occupied slots / all slots, over all sub-filters. */
  get loadFactor(): number;
  /**
   * False-positive rate at the current load: 1 − Π over sub-filters of (1 − 1/(2^f − 1))^(2·b·load),
   * about 2·bucketSize·load / 2^fingerprintBits per sub-filter.
   */
  estimatedErrorRate(): number;
  /** Stored fingerprints: inserts minus removes. */
  get size(): number;
  /** The key's fingerprint and candidate buckets, for visualisation (a new object). */
  locate(key: Key): CuckooLocation;
  /** The fraction of occupied slots in each of `cells` (1 to 2^20) equal slices (a new array). */
  fillMap(cells: number): Float32Array;
  info(): CuckooFilterInfo;
}

// ---------------------------------------------------------------------------------------------
// Binary fuse
// ---------------------------------------------------------------------------------------------

/** `BinaryFuseFilter.build(keys, options)` options. */
export interface BinaryFuseFilterOptions extends SeedOption {
  /**
   * Fingerprint width: 8 (false-positive rate ≈ 1/256, ~9 bits/key) or 16 (≈ 1/65536,
   * ~18 bits/key). Default 8.
   */
  fingerprintBits?: 8 | 16;
}

/** `BinaryFuseFilter.prototype.info()`. */
export interface BinaryFuseFilterInfo extends FilterInfo {
  kind: 'fuse';
  /** Fingerprint width in bits. */
  fingerprintBits: number;
  /** Fingerprints per segment. */
  segmentLength: number;
  /** Number of segments. */
  segmentCount: number;
  /** Fingerprints in the table. */
  arrayLength: number;
  /** `byteLength × 8 / size`: about 9.04 (8-bit) or 18.09 (16-bit) at 10^6 keys, more when small. */
  bitsPerKey: number;
  /** The false-positive rate it is built for: about 2^−fingerprintBits. */
  expectedErrorRate: number;
}

/** Collects keys for a {@link BinaryFuseFilter} (`BinaryFuseFilter.builder()`). */
export interface BinaryFuseBuilder {
  /** Keys taken so far, duplicates included. */
  readonly size: number;
  /**
   * Hashes the keys into the builder (16,384 per wasm call); returns the builder.
   * @throws FilterError `DISPOSED` after `build()` or `free()`; `OUT_OF_MEMORY`.
   * @throws TypeError for a key of the wrong type (no key of that call is taken).
   */
  addAll(keys: Keys): BinaryFuseBuilder;
  /**
   * Makes room for `keys` keys in all, so their hashes take exactly 8 bytes a key instead of a
   * buffer that doubles as keys arrive: for builds near the memory limit when the key count is
   * known in advance (`build()` of an array or `PackedKeys` does it itself). More keys than
   * reserved are still taken. Returns the builder.
   * @throws TypeError unless `keys` is a non-negative integer.
   * @throws FilterError `DISPOSED` after `build()` or `free()`; `OUT_OF_MEMORY`.
   */
  reserve(keys: number): BinaryFuseBuilder;
  /**
   * Builds the filter from every key taken, and frees the builder.
   * @throws FilterError `DISPOSED` after `build()` or `free()`; `INVALID_ARGUMENT`, `OUT_OF_MEMORY`.
   */
  build(): BinaryFuseFilter;
  /** Releases the collected hashes (idempotent). */
  free(): void;
}

/**
 * A static 3-wise binary fuse filter: built once from every key, then read-only. The smallest
 * and among the fastest filters. There is no `add` or `remove`; `clear()` leaves it empty.
 */
export class BinaryFuseFilter extends FilterBase {
  /** Use {@link BinaryFuseFilter.build}. */
  private constructor();
  /**
   * Builds the filter from all keys at once (duplicates are fine; `size` counts distinct keys).
   * Deterministic for a given seed and key set, whatever the order. The build takes 8 bytes per
   * key of wasm memory for the key hashes plus {@link BinaryFuseFilter.peakBuildBytes}. The
   * filter owns wasm memory until `free()`.
   * @throws FilterError `INVALID_ARGUMENT` (bad option), `OUT_OF_MEMORY`.
   * @throws TypeError for a key of the wrong type (nothing is built).
   */
  static build(keys: Keys, options?: BinaryFuseFilterOptions): BinaryFuseFilter;
  /**
   * A builder for streaming input: call `addAll(chunk)` as often as needed (only the keys'
   * 8-byte hashes are kept, in wasm memory), then `build()`. `BinaryFuseFilter.build(keys)` is
   * `builder().addAll(keys).build()`.
   * @throws FilterError `INVALID_ARGUMENT` (bad option).
   */
  static builder(options?: BinaryFuseFilterOptions): BinaryFuseBuilder;
  /**
   * Peak temporary bytes of wasm memory the build needs for `n` keys, besides the 8·n bytes of
   * key hashes and the filter itself (about 32 bytes per key at n ≥ 10^6). Needs {@link init}.
   */
  static peakBuildBytes(n: number): number;
  /**
   * The layout a build of `n` distinct keys starts from, computed by the core (all 0 for n = 0);
   * a build's retries keep the array (and `byteLength`) and may cut it into segments of the other
   * length.
   * @throws FilterError `INVALID_ARGUMENT` for more keys than a fuse filter holds.
   */
  static optimalShape(n: number, options?: { fingerprintBits?: 8 | 16 }): { segmentLength: number; segmentCount: number; arrayLength: number; byteLength: number };
  /**
   * Reads the bytes of `BinaryFuseFilter.prototype.serialize()`.
   * @throws FilterError `INVALID_ARGUMENT` (another kind), `CORRUPT_DATA`,
   *   `UNSUPPORTED_VERSION`, `OUT_OF_MEMORY`.
   */
  static deserialize(bytes: FilterBytes): BinaryFuseFilter;
  /**
   * A filter sized for `keys` (capacity = their count) holding all of them, in one call:
   * `BinaryFuseFilter.from(urls, { fingerprintBits: 16 })` (no errorRate: 8 or 16 bits choose it). The same as {@link BinaryFuseFilter.build}.
   */
  static from(keys: Keys, options?: BinaryFuseFilterOptions): BinaryFuseFilter;
  /** Distinct keys it was built from. */
  get size(): number;
  info(): BinaryFuseFilterInfo;
}

export {};
