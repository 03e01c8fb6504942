// Keys, in one place. A string is UTF-8 (TextEncoder semantics; an ASCII fast path writes the
// bytes directly); Uint8Array, any ArrayBufferView and ArrayBuffer pass as their bytes; anything
// else is a TypeError. Keys are written into one scratch region of wasm memory: single keys at
// its start, batches as bytes back to back plus u32 offsets, so a batch crosses once per chunk.
import { requireWasm } from './loader.js';

const encoder = new TextEncoder();
const CHUNK_KEYS = 16384;            // keys per boundary crossing
const MIN_DATA_BYTES = 1 << 20;      // initial scratch data area

let scratch = null;                  // { m, dataPtr, dataCap, offsetsPtr, outPtr }

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

function getScratch(minData) {
  const m = requireWasm();
  if (scratch !== null && scratch.m === m && scratch.dataCap >= minData) return scratch;
  let cap = Math.max(MIN_DATA_BYTES, scratch?.dataCap ?? 0);
  while (cap < minData) cap *= 2;
  if (scratch !== null && scratch.m === m) m._free(scratch.dataPtr);
  const base = scratch !== null && scratch.m === m ? scratch : null;
  const dataPtr = m._malloc(cap);
  if (!dataPtr) throw new RangeError(`bloomcuckoo: cannot allocate ${cap} bytes of key scratch`);
  const offsetsPtr = base ? base.offsetsPtr : m._malloc(4 * (CHUNK_KEYS + 1));
  const outPtr = base ? base.outPtr : m._malloc(CHUNK_KEYS);
  scratch = { m, dataPtr, dataCap: cap, offsetsPtr, outPtr };
  return scratch;
}

/** Writes string `s` at heap[pos] (room for 3 bytes per UTF-16 unit reserved); returns length. */
function writeString(heap, pos, s) {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return encoder.encodeInto(s, heap.subarray(pos, pos + 3 * n)).written;
    heap[pos + i] = c;
  }
  return n;
}

/**
 * Writes one key into scratch memory. Returns its byte length; the bytes are at
 * `keyPointer()` until the next call that uses the scratch.
 */
export function encodeKey(key) {
  const bytes = bytesOf(key);
  if (bytes === null) {
    const s = getScratch(3 * key.length);
    return writeString(s.m.HEAPU8, s.dataPtr, key);
  }
  const s = getScratch(bytes.length);
  s.m.HEAPU8.set(bytes, s.dataPtr);
  return bytes.length;
}

/** Address of the key written by the last encodeKey(). */
export function keyPointer() {
  return scratch.dataPtr;
}

/** Address of a scratch output area of at least 16384 bytes (free between calls). */
export function outPointer() {
  return scratch.outPtr;
}

/**
 * Packs `keys` (an array or any iterable) chunk by chunk into scratch memory and calls
 * `fn(dataPtr, offsetsPtr, count, outPtr, start)` once per chunk; `start` is the index of the
 * chunk's first key. Every key is validated before any chunk of the batch is handed over, so a
 * bad key in the middle throws before anything was added.
 */
export function forEachChunk(keys, fn) {
  const list = Array.isArray(keys) ? keys : Array.from(keys);
  for (let i = 0; i < list.length; i++) checkKey(list[i]);
  let s = getScratch(0);
  let start = 0;
  while (start < list.length) {
    let heap = s.m.HEAPU8;
    let offsets = new Uint32Array(heap.buffer, s.offsetsPtr, CHUNK_KEYS + 1);
    let pos = 0;
    let count = 0;
    offsets[0] = 0;
    while (count < CHUNK_KEYS && start + count < list.length) {
      const key = list[start + count];
      const bytes = typeof key === 'string' ? null : bytesOf(key);
      const need = bytes === null ? 3 * key.length : bytes.length;
      if (pos + need > s.dataCap) {
        if (count > 0) break;                       // flush what we have first
        s = getScratch(need);                       // one key larger than the scratch: grow
        heap = s.m.HEAPU8;
        offsets = new Uint32Array(heap.buffer, s.offsetsPtr, CHUNK_KEYS + 1);
      }
      if (bytes === null) {
        pos += writeString(heap, s.dataPtr + pos, key);
      } else {
        heap.set(bytes, s.dataPtr + pos);
        pos += bytes.length;
      }
      offsets[++count] = pos;
    }
    fn(s.dataPtr, s.offsetsPtr, count, s.outPtr, start);
    start += count;
  }
  return list.length;
}

/** Runs a batch query and returns one byte per key (copied out of wasm memory). */
export function queryAll(keys, fn) {
  const list = Array.isArray(keys) ? keys : Array.from(keys);
  const result = new Uint8Array(list.length);
  forEachChunk(list, (dataPtr, offsetsPtr, count, outPtr, start) => {
    fn(dataPtr, offsetsPtr, count, outPtr);
    result.set(requireWasm().HEAPU8.subarray(outPtr, outPtr + count), start);
  });
  return result;
}

/** Copies `len` bytes at `ptr` out of wasm memory into a standalone ArrayBuffer. */
export function copyOut(ptr, len) {
  return requireWasm().HEAPU8.slice(ptr, ptr + len).buffer;
}

/** The bytes of serialized input (ArrayBuffer or any view) as a Uint8Array view. */
export function inputBytes(bytes, what = 'bytes') {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (typeof SharedArrayBuffer !== 'undefined' && bytes instanceof SharedArrayBuffer) return new Uint8Array(bytes);
  throw new TypeError(`bloomcuckoo: ${what} must be an ArrayBuffer or ArrayBufferView, got ${describe(bytes)}`);
}
