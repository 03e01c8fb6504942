// The base of every filter class: ownership of the wasm object, and the verbs every filter
// shares (has, hasAll, size, byteLength, serialize, clear, free).
import { FilterError } from './errors.js';
import { requireWasm, throwIfError } from './loader.js';
import { fromOptions } from './options.js';
import { encodeKey, forEachChunk, inputBytes, keyList, outArea, outPointer, queryAll, sumChunks, wasmMalloc } from './keys.js';

const disposeSymbol = Symbol.dispose ?? Symbol.for('Symbol.dispose');

// Safety net only: frees the wasm object of a filter that was garbage-collected without free().
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((core) => { try { core.delete(); } catch { /* already gone */ } })
  : null;

/**
 * Runs `fn(ptr)` with `bytes` copied into a temporary wasm allocation, then frees it.
 */
export function withBytesInWasm(bytes, fn) {
  const m = requireWasm();
  const view = inputBytes(bytes);
  const ptr = wasmMalloc(m, Math.max(1, view.length));
  if (!ptr) throw new FilterError('OUT_OF_MEMORY', `cannot allocate ${view.length} bytes to read a filter`);
  try {
    m.HEAPU8.set(view, ptr);
    return fn(ptr, view.length);
  } finally {
    m._free(ptr);
  }
}

/**
 * @internal Serialized bytes to read front to back: `byteLength` of them, and
 * `read(target, offset)`, which fills the Uint8Array `target` with the bytes at `offset`.
 */
export class ByteInput {
  constructor(byteLength, read) {
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) {
      throw new TypeError(`bloomcuckoo: byteLength must be a non-negative integer, got ${String(byteLength)}`);
    }
    if (typeof read !== 'function') throw new TypeError('bloomcuckoo: read(target, offset) must be a function');
    this.byteLength = byteLength;
    this.read = read;
  }

  /** Bytes in memory (ArrayBuffer or any view). */
  static of(bytes) {
    const view = inputBytes(bytes);
    return new ByteInput(view.length, (target, offset) => target.set(view.subarray(offset, offset + target.length)));
  }
}

// Runs call() with a JS callback installed where the core's stream calls out (bindings/js_stream.h),
// restoring the previous one after (nested calls stay correct). A callback's error stops the core,
// which then returns an error status; the callback's own error is what is thrown.
function withCallback(name, callback, call) {
  const m = requireWasm();
  let failure = null;
  const previous = m[name];
  m[name] = (...args) => {
    try {
      callback(m, ...args);
      return 1;
    } catch (err) {
      failure = err;
      return 0;
    }
  };
  let result;
  try {
    result = call();
  } finally {
    m[name] = previous;
  }
  if (failure !== null) throw failure;
  return result;
}

/**
 * The runtime's own CRC-32 (the frame's: IEEE, reflected), where it has one: Node's zlib.crc32
 * (Node >= 20.15; native, vectorised), reached synchronously through process.getBuiltinModule
 * (Node >= 20.16), so nothing is imported where there is no Node (browsers keep the wasm CRC).
 * null where there is none.
 */
function runtimeCrc32() {
  try {
    const zlib = globalThis.process?.getBuiltinModule?.('node:zlib');
    return typeof zlib?.crc32 === 'function' ? zlib.crc32 : null;
  } catch {
    return null;
  }
}

/**
 * Hands the core's CRC-32 of large pieces to the runtime's (bindings/js_crc.cc calls
 * Module.bcCrc32(crc, ptr, len) and computes it in wasm when that is null or missing). Installed
 * once per module, before its first serialize or deserialize; a module whose bcCrc32 was set
 * (null included: the wasm CRC) is left alone.
 */
function useRuntimeCrc(m) {
  if (m.bcCrc32 !== undefined) return;
  const crc32 = runtimeCrc32();
  m.bcCrc32 = crc32 && ((crc, ptr, len) => crc32(m.HEAPU8.subarray(ptr, ptr + len), crc));
}

/** core.serialize() streaming each piece to write(view). */
function streamOut(core, write, context) {
  useRuntimeCrc(requireWasm());
  throwIfError(withCallback('bcSink', (m, ptr, len) => write(m.HEAPU8.subarray(ptr, ptr + len)), () => core.serialize()), context);
}

/** @internal call() with the core's byte source reading from `input` (a ByteInput). */
export function streamIn(input, call) {
  useRuntimeCrc(requireWasm());
  return withCallback('bcSource', (m, ptr, offset, len) => input.read(m.HEAPU8.subarray(ptr, ptr + len), offset), call);
}

// structuredClone() and postMessage() copy a filter's own properties, which would deliver an
// empty object; a Symbol among them makes them throw a DataCloneError instead, whose message
// quotes the Symbol's description (and survives minification).
const NOT_CLONEABLE = Symbol('bloomcuckoo: a filter cannot be cloned or posted: send filter.serialize() bytes');
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Makes `f` the owner of `core`. */
function own(f, core) {
  f._c = core;
  f._noClone = NOT_CLONEABLE;
  registry?.register(f, core, f);
  return f;
}

export class Filter {
  /** @internal use a subclass constructor or a static factory */
  constructor(core) {
    own(this, core);
  }

  /**
   * A filter sized for `keys` (capacity = their count) holding them all: options are the class's
   * own, errorRate 0.01 unless given.
   */
  static from(keys, options) {
    fromOptions(this.name, options, this.name !== 'RedisCuckooFilter');
    const list = keyList(keys);
    const f = new this(this._fromOptions(list.length, options));
    try {
      f.addAll(list);
    } catch (err) {
      f.free();
      throw err;
    }
    return f;
  }

  /** @internal The constructor options of from(): capacity from the key count. */
  static _fromOptions(count, options) {
    return { capacity: Math.max(1, count), errorRate: 0.01, ...options };
  }

  /** @internal A filter of class `Cls` owning `core`, made without running Cls's constructor. */
  static _adopt(Cls, core) {
    return own(Object.create(Cls.prototype), core);
  }

  /** Not JSON: throws a FilterError that says how to move a filter (its serialize() bytes). */
  toJSON() {
    throw new FilterError('INVALID_ARGUMENT', `${this.constructor.name} has no JSON form: store serialize() bytes (base64 for JSON)`);
  }

  /**
   * True when `other` is a filter of the same class with the same bytes: the same options, seed
   * and contents, so the same answers to every query from now on.
   */
  equals(other) {
    this._core;   // DISPOSED after free(), whatever `other` is
    if (!(other instanceof this.constructor) || other.constructor !== this.constructor) return false;
    const a = new Uint8Array(this.serialize());
    const b = new Uint8Array(other.serialize());
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** Node's util.inspect / console.log: the class and its info(), or <freed>. */
  [INSPECT](depth, options, inspect) {
    const name = this.constructor.name;
    if (this._c === null) return `${name} <freed>`;
    return `${name} ${inspect(this.info(), { ...options, depth: options.depth === null ? null : Math.max(0, depth - 1) })}`;
  }

  /** @internal the wasm object; throws FilterError('DISPOSED') after free(). */
  get _core() {
    const c = this._c;
    if (c === null) throw new FilterError('DISPOSED', `${this.constructor.name} was freed; it cannot be used after free()`);
    return c;
  }

  /** Frees the filter's wasm memory. Idempotent; any later use throws FilterError('DISPOSED'). */
  free() {
    const c = this._c;
    if (c === null) return;
    this._c = null;
    registry?.unregister(this);
    c.delete();
  }

  /** True once free() was called. */
  get freed() {
    return this._c === null;
  }

  [disposeSymbol]() {
    this.free();
  }

  /** false: the key is certainly absent; true: it may be present (false positives by design). */
  has(key) {
    return this._core.contains(encodeKey(key));
  }

  /** One byte per key, 1 = maybe present, 0 = certainly absent; one boundary crossing per chunk. */
  hasAll(keys) {
    const c = this._core;
    return queryAll(keys, (data, offsets, count, out) => c.containsBatch(data, offsets, count, out));
  }

  /** Number of keys the filter holds (see each class for what counts). */
  get size() {
    return this._core.size();
  }

  /** Bytes of filter storage in wasm memory. */
  get byteLength() {
    return this._core.byteLength();
  }

  /** The hash seed (stored in the serialized bytes). */
  get seed() {
    return this._core.seed() >>> 0;
  }

  /** Empties the filter, keeping its shape and options. */
  clear() {
    this._core.clear();
  }

  /**
   * A standalone ArrayBuffer with the filter's bytes (docs/FORMAT.md): transferable, storable.
   * The bytes go straight from the filter into the ArrayBuffer (one copy, checksummed on the way).
   */
  serialize() {
    const c = this._core;
    const n = c.serializedSize();
    let out;
    try {
      out = new Uint8Array(n);
    } catch {
      throw new FilterError('OUT_OF_MEMORY', `serialize: cannot allocate an ArrayBuffer of ${n} bytes`);
    }
    let at = 0;
    streamOut(c, (chunk) => {
      out.set(chunk, at);
      at += chunk.length;
    }, 'serialize');
    return out.buffer;
  }

  /**
   * The same bytes as serialize(), handed to `write(chunk)` in order, a piece (at most 256 KiB) at
   * a time, without a full-size buffer: for files and streams. `chunk` is a view into wasm memory,
   * valid only during the call: write or copy it before returning. Returns the byte count. An
   * error thrown by `write` stops the serialization and is rethrown.
   */
  serializeTo(write) {
    if (typeof write !== 'function') throw new TypeError('bloomcuckoo: serializeTo(write) needs a function');
    const c = this._core;
    let total = 0;
    streamOut(c, (chunk) => {
      write(chunk);
      total += chunk.length;
    }, 'serializeTo');
    return total;
  }

  /**
   * @internal Makes a filter of class `Cls` from serialized bytes (or a ByteInput), using the wasm
   * class `coreName`; the bytes go straight from the input into the filter's memory.
   */
  static _deserializeAs(Cls, coreName, bytes) {
    const input = bytes instanceof ByteInput ? bytes : ByteInput.of(bytes);
    const m = requireWasm();
    const core = new m[coreName]();
    try {
      throwIfError(streamIn(input, () => core.deserialize(input.byteLength)), `${Cls.name}.deserialize`);
    } catch (err) {
      core.delete();
      throw err;
    }
    return Filter._adopt(Cls, core);
  }
}

/** `names` as the keys of `into`, valued by `v` from index `at` on. */
function named(v, at, names, into = {}) {
  names.forEach((name, i) => { into[name] = v[at + i]; });
  return into;
}

/**
 * @internal info() in one wasm call: core.info(out) writes doubles at `out`, size, byteLength and
 * seed, then the values `names` names in order (bindings/binding_util.h WriteInfo). Returns the
 * info object, what the call returned (a count of layers or sub-filters, for classes with them)
 * and the doubles.
 */
export function readInfo(core, kind, names) {
  const out = outArea();
  const count = core.info(out);
  const v = new Float64Array(requireWasm().HEAPU8.buffer, out, 2048);
  const info = named(v, 3, names, { kind, size: v[0] });
  info.byteLength = v[1];
  info.seed = v[2];
  return { info, count, v };
}

/** @internal The `n` doubles core[fn](i, out) writes for part i (a link). */
export function readPart(core, fn, i, n) {
  const out = outArea();
  core[fn](i, out);
  return new Float64Array(requireWasm().HEAPU8.buffer, out, n);
}

/** @internal `count` parts (layers, links) as objects of `names`, part p's doubles from partOf(p). */
export function infoParts(count, names, partOf) {
  return Array.from({ length: count }, (_, p) => named(partOf(p), 0, names));
}

/** Calls `fn` with a freshly made core; deletes it and rethrows if fn throws. */
export function makeCore(coreName, fn) {
  const m = requireWasm();
  const core = new m[coreName]();   // every core named in js/ is bound: tests/js/kinds.test.js names a missing one's fix
  try {
    fn(core, m);
  } catch (err) {
    core.delete();
    throw err;
  }
  return core;
}

/** A filter that takes keys one at a time: add(key) → boolean, addAll(keys) → number. */
export class AddableFilter extends Filter {
  /** Adds a key; true when the filter changed (for Bloom filters: the key was certainly new). */
  add(key) {
    return this._core.add(encodeKey(key));
  }

  /** Adds many keys with one boundary crossing per chunk; returns how many add() would call true. */
  addAll(keys) {
    const c = this._core;
    return sumChunks(keys, (data, offsets, count) => c.addBatch(data, offsets, count));
  }
}

/** @internal positions(key) of the Bloom family: the bit (counter) indices the key maps to. */
export function positionsOf(core, key) {
  const out = outPointer();
  const n = core.positions(encodeKey(key), out);
  return new Float64Array(requireWasm().HEAPU8.slice(out, out + 8 * n).buffer);
}

/** @internal fillMap(cells): fraction of occupied slots in each of `cells` equal slices. */
export function fillMapOf(core, cells) {
  if (!Number.isInteger(cells) || cells < 1 || cells > 1 << 20) {
    throw new RangeError(`bloomcuckoo: cells must be an integer from 1 to 1048576, got ${String(cells)}`);
  }
  const m = requireWasm();
  const ptr = wasmMalloc(m, 4 * cells);
  if (!ptr) throw new FilterError('OUT_OF_MEMORY', `cannot allocate a fill map of ${cells} cells`);
  try {
    core.fillMap(cells, ptr);
    return new Float32Array(m.HEAPU8.slice(ptr, ptr + 4 * cells).buffer);
  } finally {
    m._free(ptr);
  }
}

/**
 * @internal addAll() where a batch can stop part-way (a full scalable filter, BF.MADD, CF.INSERT):
 * `addBatch(data, offsets, count, out, start)` (`start`: the index of the chunk's first key)
 * returns the keys it added, or -code with the counts at `out` (u32 keys handled, u32 added).
 * Returns how many were added; on an error throws it after the keys before it, saying how far it got.
 */
export function addAllReporting(keys, context, addBatch) {
  let added = 0;
  forEachChunk(keys, (data, offsets, count, out, start) => {
    const r = addBatch(data, offsets, count, out, start);
    if (r < 0) {
      const [handled, n] = new Uint32Array(requireWasm().HEAPU8.buffer, out, 2);
      throwIfError(r, context, `${start + handled} keys handled, ${added + n} added before it`);
    }
    added += r;
  });
  return added;
}
