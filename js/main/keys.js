// Keys, in one place. A string is UTF-8 (TextEncoder semantics; an ASCII fast path writes the
// bytes directly); Uint8Array, any ArrayBufferView and ArrayBuffer pass as their bytes; anything
// else is a TypeError. Keys are written into one scratch region of wasm memory: single keys at
// its start, batches as bytes back to back plus u32 offsets, so a batch crosses once per chunk.
import { FilterError } from './errors.js';
import { requireWasm, throwIfError } from './loader.js';

const encoder = new TextEncoder();
const CHUNK_KEYS = 16384;            // keys per boundary crossing
const MIN_DATA_BYTES = 1 << 20;      // initial scratch data area
// Where TextEncoder.encodeInto overtakes the charCodeAt loop (string length, measured on the
// machine of docs/BENCHMARKS.md, "Key packing: where encodeInto overtakes the loop"): for a
// batch, the mean length of a chunk's keys, above which the chunk is encoded joined (one
// encodeInto); for one key, its length. Batches: between 12 (a tie packing alone; the loop ahead
// in addAll/hasAll, where the joined strings' garbage costs scavenges) and 16 (joined ahead).
export const JOINED_MIN_CHARS = 14;
export const ONE_KEY_ENCODE_MIN_CHARS = 24;
let joinedMin = JOINED_MIN_CHARS;
let oneKeyEncodeMin = ONE_KEY_ENCODE_MIN_CHARS;

/**
 * @internal For tests and benchmarks: the two crossovers above (0: always encodeInto, Infinity:
 * always the loop; either still exact). Returns the previous pair.
 */
export function setPackingThresholds({ joined = JOINED_MIN_CHARS, oneKey = ONE_KEY_ENCODE_MIN_CHARS } = {}) {
  const previous = { joined: joinedMin, oneKey: oneKeyEncodeMin };
  joinedMin = joined;
  oneKeyEncodeMin = oneKey;
  return previous;
}

let scratch = null;                  // { m, dataPtr, dataCap, offsetsPtr, outPtr }
// The single-key fast path's view of the scratch's data area as last seen (a view of a buffer
// that memory growth detached has length 0, as has this one before the scratch is first made);
// set wherever the scratch is made. keyArea is the scratch's data area alone (where one key is
// written), for encodeInto.
let keyHeap = new Uint8Array(0);
let keyArea = new Uint8Array(0);
// keyHeap's memory as a DataView, for writeString's four-character stores.
let keyView = new DataView(new ArrayBuffer(0));

function describe(key) {
  if (key === null) return 'null';
  if (typeof key === 'object') return key.constructor?.name ?? 'object';
  return typeof key;
}

/** Throws a TypeError unless `key` is a string, ArrayBuffer or ArrayBufferView. */
export function checkKey(key) {
  if (typeof key === 'string' || key instanceof Uint8Array || ArrayBuffer.isView(key) || key instanceof ArrayBuffer) return;
  throw new TypeError(`bloomcuckoo: a key must be a string, Uint8Array, ArrayBufferView or ArrayBuffer, got ${describe(key)}`);
}

/** The bytes of a binary key as a Uint8Array view (no copy), or null for strings. */
function bytesOf(key) {
  if (key instanceof Uint8Array) return key;
  if (ArrayBuffer.isView(key)) return new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
  if (key instanceof ArrayBuffer) return new Uint8Array(key);
  checkKey(key);
  return null;
}

/**
 * malloc in wasm memory, as an unsigned address (the memory may grow past 2 GiB, where the raw
 * i32 would read as negative); 0 when the allocation fails.
 */
export function wasmMalloc(m, bytes) {
  return m._malloc(bytes) >>> 0;
}

/**
 * The key scratch, with a data area of at least `minData` bytes. A larger area is allocated before
 * the old one is freed, so when wasm memory cannot hold it the old scratch stays in place (and in
 * use) and the error is FilterError OUT_OF_MEMORY.
 */
function getScratch(minData) {
  const m = requireWasm();
  const same = scratch !== null && scratch.m === m;
  if (same && scratch.dataCap >= minData) return scratch;
  let cap = Math.max(MIN_DATA_BYTES, same ? scratch.dataCap : 0);
  while (cap < minData) cap *= 2;
  const dataPtr = wasmMalloc(m, cap);
  if (!dataPtr) throw new FilterError('OUT_OF_MEMORY', `no wasm memory for ${cap} bytes of keys`);
  if (same) {
    m._free(scratch.dataPtr);
    scratch = { ...scratch, dataPtr, dataCap: cap };
  } else {
    const offsetsPtr = wasmMalloc(m, 4 * (CHUNK_KEYS + 1));
    const outPtr = offsetsPtr && wasmMalloc(m, CHUNK_KEYS);
    if (!outPtr) {
      if (offsetsPtr) m._free(offsetsPtr);
      m._free(dataPtr);
      throw new FilterError('OUT_OF_MEMORY', 'no wasm memory for key offsets');
    }
    scratch = { m, dataPtr, dataCap: cap, offsetsPtr, outPtr };
  }
  // the core reads one key at its start and batches only inside it (bindings/binding_util.h)
  m.setKeyRegion(dataPtr, cap, scratch.offsetsPtr, CHUNK_KEYS + 1);
  setKeyArea(m, dataPtr, cap);
  return scratch;
}

function setKeyArea(m, dataPtr, cap) {
  keyHeap = m.HEAPU8;
  keyArea = m.HEAPU8.subarray(dataPtr, dataPtr + cap);
  keyView = new DataView(m.HEAPU8.buffer);
}

/**
 * Writes string `s` at heap[pos] (room for 3 bytes per UTF-16 unit reserved); returns its byte
 * length. ASCII goes four characters a little-endian 32-bit store through `view`, a DataView of
 * heap's memory (so any offset and any host byte order), their OR telling at the end whether
 * all were ASCII; a key past ASCII is then written again exactly by encodeInto. Against the byte
 * loop: 0.65x its time for one key of 12 characters, 0.8x for a batch of 10 (docs/BENCHMARKS.md).
 */
function writeString(view, heap, pos, s) {
  const n = s.length;
  let or = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    const c = s.charCodeAt(i + 2);
    const d = s.charCodeAt(i + 3);
    or |= a | b | c | d;
    view.setUint32(pos + i, a | (b << 8) | (c << 16) | (d << 24), true);
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    or |= c;
    heap[pos + i] = c;
  }
  return or < 0x80 ? n : encoder.encodeInto(s, heap.subarray(pos, pos + 3 * n)).written;
}

/**
 * Writes one key at the start of the key scratch, where a one-key call of the core reads it;
 * returns its byte length, the argument of that call.
 */
export function encodeKey(key) {
  if (typeof key === 'string') {        // the common case first: no instanceof checks
    const n = key.length;
    let heap = keyHeap;
    if (heap.length === 0 || 3 * n > scratch.dataCap) {   // first use, memory grew, or a longer key
      const s = getScratch(3 * n);
      heap = keyHeap = s.m.HEAPU8;
      setKeyArea(s.m, s.dataPtr, s.dataCap);
    }
    if (n >= oneKeyEncodeMin) return encoder.encodeInto(key, keyArea).written;
    return writeString(keyView, heap, scratch.dataPtr, key);
  }
  const bytes = bytesOf(key);
  const s = getScratch(bytes.length);
  s.m.HEAPU8.set(bytes, s.dataPtr);
  return bytes.length;
}

/** Address of a scratch output area of at least 16384 bytes (free between calls). */
export function outPointer() {
  return scratch.outPtr;
}

/** outPointer(), making the scratch first if no key has been written yet. */
export function outArea() {
  return getScratch(0).outPtr;
}

/**
 * Packs `keys` (an array or any iterable) chunk by chunk into scratch memory and calls
 * `fn(dataPtr, offsetsPtr, count, outPtr, start)` once per chunk; `start` is the index of the
 * chunk's first key. Every key is validated before any chunk of the batch is handed over, so a
 * bad key in the middle throws before anything was added: a batch of one chunk by packing it, a
 * larger one by packing up to 2^20 keys ahead of the first call (packChunks) and the rest, if any, by
 * one pass just before that call; so a key is read once unless it lies past the area ahead
 * (docs/BENCHMARKS.md, "Issue 36, fourth round").
 */
export function forEachChunk(keys, fn) {
  notOneString(keys);
  if (keys instanceof PackedKeys) return forEachPackedChunk(keys, fn);
  return packChunks(Array.isArray(keys) ? keys : Array.from(keys), fn, true);
}

/**
 * forEachChunk, summing what `batch(data, offsets, count, out)` returns for each chunk: a count,
 * or -code (a batch the core refused), thrown.
 */
export function sumChunks(keys, batch) {
  let n = 0;
  forEachChunk(keys, (data, offsets, count, out) => { n += throwIfError(batch(data, offsets, count, out), 'bloomcuckoo'); });
  return n;
}

/** A string is iterable (by characters): as a batch of keys it is a mistake, not 14 keys. */
function notOneString(keys) {
  if (typeof keys === 'string' || keys instanceof String) {
    throw new TypeError('bloomcuckoo: keys must be an iterable of keys, got one string (use [key])');
  }
}

// Keys joined per encodeInto of packJoined: V8 builds their concatenation as a rope, which
// encodeInto flattens; ropes of a few hundred keys flattened at once measured about half the time
// of one Array.join of the whole chunk (docs/BENCHMARKS.md, "Key packing").
const JOIN_GROUP = 256;

/**
 * Packs list[start, end) by joined encodeInto when every key is a string and the chunk is all
 * ASCII: then each key's byte length is its string length, and `read === written` for every
 * group of keys joined proves it (a character past U+007F, or a lone surrogate, becomes 2 to 4
 * bytes, and the destination has room for one byte per character only). Stops early at `cap`
 * bytes (counted as characters) and at a key that is not a string. Returns the index past the last
 * key packed (offsets[1..] written, relative to `base`), or -1 when the chunk is not all ASCII
 * (the heap and offsets then hold garbage: the caller packs the chunk again, exactly).
 */
function packJoined(list, start, end, heap, base, cap, offsets) {
  let total = 0;
  let i = start;
  while (i < end) {
    const groupStart = total;
    const stop = Math.min(end, i + JOIN_GROUP);
    let joined = '';
    for (; i < stop; i++) {
      const key = list[i];
      if (typeof key !== 'string' || total + key.length > cap) break;
      joined += key;
      total += key.length;
      offsets[i - start + 1] = total;
    }
    const chars = total - groupStart;
    if (chars !== 0) {
      const r = encoder.encodeInto(joined, heap.subarray(base + groupStart, base + total));
      if (r.read !== chars || r.written !== chars) return -1;
    }
    if (i < stop) break;                 // a key that is not a string, or the scratch is full
  }
  return i;
}

/** Whether the chunk from `start` looks long enough for packJoined (the mean of a sample). */
function longKeys(list, start, end) {
  const stop = Math.min(end, start + 32);
  let chars = 0;
  for (let i = start; i < stop; i++) {
    const key = list[i];
    if (typeof key !== 'string') return false;
    chars += key.length;
  }
  return chars >= joinedMin * (stop - start);
}

// A batch that validates every key before the first call (addAll, removeAll, the fuse builder's
// addAll) and is larger than one chunk is packed ahead: up to 2^20 keys into an area of 16 bytes a
// key, so at most 16 MiB (packChunks), allocated for the batch and freed after it, then handed over a
// chunk at a time, so those keys are read once instead of twice (a validation pass, then packing);
// only keys past that area (or once it is full) are validated by a separate pass.

// Whether the batch being packed may still go joined: false once one of its chunks was not all ASCII.
let tryJoined = true;

/**
 * Packs list[start, end) into the key area `a` (the scratch, or the area ahead, which never grows):
 * its bytes from a.dataPtr, their offsets from a.offsetsPtr. Returns the index past the last key
 * packed; stops early when the area is full, except that a first key larger than the scratch grows
 * the scratch (getScratch). A chunk of long keys (longKeys) is packed joined (packJoined) when it
 * is all ASCII, else key by key (writeString: four characters a store, encodeInto for a key past
 * ASCII). Every key packed was validated by it: a bad key throws its TypeError.
 */
function packInto(list, start, end, a, grow) {
  let heap = a.m.HEAPU8;
  let offsets = new Uint32Array(heap.buffer, a.offsetsPtr, end - start + 1);
  offsets[0] = 0;
  let i = start;
  if (tryJoined && longKeys(list, start, end)) {
    // at most 2^26 characters a chunk this way: V8's longest string is 2^29 - 24 characters and
    // the scratch can be larger once a huge key grew it (a longer join would throw a RangeError,
    // not a FilterError, after earlier chunks were added); a longer key goes key by key
    i = packJoined(list, start, end, heap, a.dataPtr, Math.min(a.dataCap, 1 << 26), offsets);
    if (i > start) return i;
    tryJoined = i >= 0;                  // -1: not all ASCII; start: its first key cannot go joined
    i = start;
  }
  let view = new DataView(heap.buffer);
  let base = a.dataPtr;
  let at = base;                         // where the next key's bytes go
  let limit = base + a.dataCap;
  for (; i < end; i++) {
    const key = list[i];
    const bytes = typeof key === 'string' ? null : bytesOf(key);   // throws the TypeError for a bad key
    const need = bytes === null ? 3 * key.length : bytes.length;
    if (at + need > limit) {
      if (i > start || !grow) break;     // flush what we have first
      a = getScratch(need);              // one key larger than the scratch: grow
      heap = a.m.HEAPU8;
      offsets = new Uint32Array(heap.buffer, a.offsetsPtr, CHUNK_KEYS + 1);
      view = new DataView(heap.buffer);
      at = base = a.dataPtr;
      limit = base + a.dataCap;
    }
    if (bytes === null) {
      at += writeString(view, heap, at, key);
    } else {
      heap.set(bytes, at);
      at += bytes.length;
    }
    offsets[i - start + 1] = at - base;
  }
  return i;
}

/**
 * Packs and hands over `list` chunk by chunk. Without `check` (queries, where nothing is changed) a
 * bad key throws when packing reaches it, after the chunks before it were handed over. With it,
 * every key is validated before the first call: a batch of one chunk by packing it; a larger one
 * by packing it ahead (above), the keys past that area (if any) by one pass.
 */
function packChunks(list, fn, check) {
  const s = getScratch(0);
  const total = list.length;
  let start = 0;
  tryJoined = true;
  if (check && total > CHUNK_KEYS) {
    // the area ahead (one malloc: bytes, then n + 1 offsets) as the key region; without wasm
    // memory for it, the batch is packed a chunk at a time
    const n = Math.min(total, 1 << 20);
    const cap = 16 * n;
    const p = wasmMalloc(s.m, cap + 4 * n + 4);
    if (p) {
      s.m.setKeyRegion(p, cap, p + cap, n + 1);
      try {
        // the scratch's shape (a second one would make packInto's property loads polymorphic:
        // hasAll after addAll measured 2-8% slower)
        start = packInto(list, 0, n, { m: s.m, dataPtr: p, dataCap: cap, offsetsPtr: p + cap, outPtr: 0 }, false);
        for (let j = start; j < total; j++) checkKey(list[j]);
        for (let j = 0; j < start; j += CHUNK_KEYS) {
          fn(p, p + cap + 4 * j, Math.min(CHUNK_KEYS, start - j), s.outPtr, j);
        }
      } finally {
        s.m._free(p);
        s.m.setKeyRegion(s.dataPtr, s.dataCap, s.offsetsPtr, CHUNK_KEYS + 1);
      }
      check = false;
    }
  }
  while (start < total) {
    const i = packInto(list, start, Math.min(start + CHUNK_KEYS, total), scratch, true);
    // packing validated the keys before i; with `check`, the rest are, before the first call
    for (let j = i; check && j < total; j++) checkKey(list[j]);
    check = false;
    fn(scratch.dataPtr, scratch.offsetsPtr, i - start, scratch.outPtr, start);
    start = i;
  }
  return total;
}

/** Throws a RangeError unless `offsets` never decrease and end within `bytes`. */
function checkPackedOffsets(bytes, offsets) {
  let prev = offsets[0];
  for (let i = 1; i < offsets.length; i++) {
    const o = offsets[i];
    if (o < prev) throw new RangeError(`bloomcuckoo: packed key offsets must not decrease (offsets[${i}] = ${o} < ${prev})`);
    prev = o;
  }
  if (prev > bytes.length) {
    throw new RangeError(`bloomcuckoo: packed key offsets end at ${prev}, past the ${bytes.length} bytes given`);
  }
}

/**
 * Keys already packed as bytes in one buffer: key i is bytes[offsets[i], offsets[i + 1]).
 * `offsets` is a Uint32Array of count + 1 non-decreasing entries, the last at most
 * bytes.byteLength. Checked here, once; forEachChunk and queryAll take it instead of a list, so
 * every addAll/hasAll accepts it, and a chunk then costs one memcpy of its bytes and offsets.
 * Iterable (as Uint8Array views), so any other consumer of key iterables takes it too.
 */
export class PackedKeys {
  constructor(bytes, offsets) {
    const data = inputBytes(bytes, 'packed key bytes');
    if (!(offsets instanceof Uint32Array)) {
      throw new TypeError(`bloomcuckoo: packed key offsets must be a Uint32Array, got ${describe(offsets)}`);
    }
    if (offsets.length === 0) throw new RangeError('bloomcuckoo: packed key offsets need count + 1 entries, got none');
    checkPackedOffsets(data, offsets);
    this.bytes = data;
    this.offsets = offsets;
    this.length = offsets.length - 1;
  }

  * [Symbol.iterator]() {
    const { bytes, offsets } = this;
    for (let i = 0; i < this.length; i++) yield bytes.subarray(offsets[i], offsets[i + 1]);
  }
}

/**
 * forEachChunk for PackedKeys: per chunk, one copy of its bytes and its rebased offsets. The
 * offsets are checked again first (one pass): the arrays may have changed since the constructor.
 */
function forEachPackedChunk(packed, fn) {
  const { bytes, offsets, length } = packed;
  checkPackedOffsets(bytes, offsets);
  let s = getScratch(0);
  let start = 0;
  while (start < length) {
    let end = Math.min(start + CHUNK_KEYS, length);
    const base = offsets[start];
    if (offsets[end] - base > s.dataCap) {
      // the largest end whose bytes fit (at least one key: grow the scratch for it)
      let lo = start + 1;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (offsets[mid] - base <= s.dataCap) lo = mid; else hi = mid - 1;
      }
      end = lo;
      if (offsets[end] - base > s.dataCap) s = getScratch(offsets[end] - base);
    }
    const count = end - start;
    const heap = s.m.HEAPU8;
    heap.set(bytes.subarray(base, offsets[end]), s.dataPtr);
    const rebased = new Uint32Array(heap.buffer, s.offsetsPtr, count + 1);
    if (base === 0) {
      rebased.set(offsets.subarray(start, end + 1));
    } else {
      for (let j = 0; j <= count; j++) rebased[j] = offsets[start + j] - base;
    }
    fn(s.dataPtr, s.offsetsPtr, count, s.outPtr, start);
    start = end;
  }
  return length;
}

/** Keys as something with a length to go through twice: PackedKeys or an array. */
export function keyList(keys) {
  notOneString(keys);
  return keys instanceof PackedKeys || Array.isArray(keys) ? keys : Array.from(keys);
}

/** Runs a batch query and returns one byte per key (copied out of wasm memory). */
export function queryAll(keys, fn) {
  const list = keyList(keys);
  const result = new Uint8Array(list.length);
  const pack = list instanceof PackedKeys ? forEachPackedChunk : packChunks;
  pack(list, (dataPtr, offsetsPtr, count, outPtr, start) => {
    throwIfError(fn(dataPtr, offsetsPtr, count, outPtr), 'bloomcuckoo');
    result.set(requireWasm().HEAPU8.subarray(outPtr, outPtr + count), start);
  });
  return result;
}

/** The bytes of serialized input (ArrayBuffer or any view) as a Uint8Array view. */
export function inputBytes(bytes, what = 'bytes') {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (typeof SharedArrayBuffer !== 'undefined' && bytes instanceof SharedArrayBuffer) return new Uint8Array(bytes);
  throw new TypeError(`bloomcuckoo: ${what} must be an ArrayBuffer or ArrayBufferView, got ${describe(bytes)}`);
}
