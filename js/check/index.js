// bloomcuckoo/check: read a filter's bytes and answer has/hasAll, nothing else, in a few KB. For a
// page that checks keys against a filter it was shipped (a URL blacklist built on a server). Each
// filter kind has a wasm module of its own (dist/wasm/check-<kind>.wasm, scripts/build-checker.mjs:
// the core's own Deserialize and Contains, so the bytes accepted and every answer are the main
// library's); open() reads the kind from the bytes and loads that one module, once. Standalone: it
// imports nothing from the main entry but two tables: the kinds (js/shared/kind-table.js) and the
// code names (js/shared/status-codes.js).
import { kindName } from '../shared/kind-table.js';
import { statusName } from '../shared/status-codes.js';

// The codes a load refuses with (bc_load's minus the core's StatusCode, named by js/shared/status-codes.js),
// and what each means here.
const SAYS = {
  CORRUPT_DATA: 'corrupt or truncated filter bytes',
  UNSUPPORTED_VERSION: 'bytes of a newer format version or hash than this build reads',
  INVALID_ARGUMENT: 'bytes of another kind than the module given was built for (its { module } or { url })',
  OUT_OF_MEMORY: 'no wasm memory for the filter',
};

export class FilterError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'FilterError';
    this.code = code;
  }
}

// The code a load's refusal is thrown with: a code no load refuses with is CORRUPT_DATA.
const refusal = (name) => (name in SAYS ? name : 'CORRUPT_DATA');

const fail = (code, what) => {
  throw new FilterError(code, `bloomcuckoo/check: ${what}`);
};

// This kind's module, beside this file. Bundlers need a literal URL per module to emit each as an
// asset (only the one opened is fetched): the shipped dist/check.min.js has them, one per kind of
// js/shared/kind-table.js, written in place of this line by scripts/build-js.mjs.
const moduleUrl = (kind) => new URL(`../../dist/wasm/check-${kind}.wasm`, import.meta.url);

async function compile(kind, options) {
  if (options.module !== undefined) {
    if (!(options.module instanceof WebAssembly.Module)) throw new TypeError('bloomcuckoo/check: { module } needs a WebAssembly.Module');
    return options.module;
  }
  let url;
  try {
    url = options.url === undefined ? moduleUrl(kind) : new URL(options.url, globalThis.location?.href ?? import.meta.url);
  } catch (err) {
    if (err instanceof FilterError) throw err;
    fail('NOT_INITIALIZED', `no import.meta.url (an IIFE or classic-script bundle) to find check-${kind}.wasm beside this file: pass open(bytes, { url })`);
  }
  if (url.protocol === 'file:') {
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    return WebAssembly.compile(await readFile(url));
  }
  const res = await fetch(url);
  if (!res.ok) fail('NOT_INITIALIZED', `fetching ${url.href} failed: HTTP ${res.status}: serve dist/wasm/check-${kind}.wasm there, or pass open(bytes, { url })`);
  return (res.headers.get('content-type') ?? '').startsWith('application/wasm')
    ? WebAssembly.compileStreaming(res) : WebAssembly.compile(await res.arrayBuffer());
}

const loaded = new Map(); // kind → Promise of the module's exports and key scratch

async function load(kind, options) {
  const module = await compile(kind, options);
  const { exports: x } = await WebAssembly.instantiate(module, {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: { proc_exit(code) { throw new Error(`bloomcuckoo/check: the wasm exited (${code})`); } },
  });
  x._initialize();
  return { x, heap: new Uint8Array(0), scratch: 0, cap: 0 };
}

// The module's memory as bytes (a new view after the memory grew: the old one is detached).
function heapOf(m) {
  if (m.heap.byteLength === 0) m.heap = new Uint8Array(m.x.memory.buffer);
  return m.heap;
}

// A scratch area of at least `bytes` in the module's memory; the old one is freed only once the
// new one exists.
function scratch(m, bytes) {
  if (bytes <= m.cap) return m.scratch;
  let cap = Math.max(65536, m.cap * 2);
  while (cap < bytes) cap *= 2;
  const at = m.x.bc_malloc(cap) >>> 0;
  if (!at) fail('OUT_OF_MEMORY', `no wasm memory for ${cap} bytes of keys`);
  if (m.scratch) m.x.bc_free_bytes(m.scratch);
  m.scratch = at;
  m.cap = cap;
  m.heap = new Uint8Array(0);
  return at;
}

const encoder = new TextEncoder();

// The key's bytes at `at` in `heap`; its length. Strings as UTF-8: ASCII written directly (no
// object made per key), anything else through TextEncoder.
function put(heap, at, key) {
  if (typeof key === 'string') {
    const n = key.length;
    for (let i = 0; i < n; i++) {
      const c = key.charCodeAt(i);
      if (c >= 128) return encoder.encodeInto(key, heap.subarray(at)).written;
      heap[at + i] = c;
    }
    return n;
  }
  const bytes = key instanceof Uint8Array ? key
    : key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
  heap.set(bytes, at);
  return bytes.length;
}

function maxBytes(key) {
  if (typeof key === 'string') return 3 * key.length;
  if (key instanceof ArrayBuffer || ArrayBuffer.isView(key)) return key.byteLength;
  throw new TypeError(`bloomcuckoo/check: a key must be a string, Uint8Array, ArrayBufferView or ArrayBuffer, got ${key === null ? 'null' : typeof key}`);
}

/** The kind of a filter's bytes, from its frame (docs/FORMAT.md), checked as deserialize does. */
function kindOfFrame(view) {
  const d = new DataView(view.buffer, view.byteOffset, view.byteLength);
  if (view.length < 24 || d.getUint32(0) !== 0x4243464c) fail('CORRUPT_DATA', 'not a bloomcuckoo filter (too short, or bad magic bytes)');
  const version = d.getUint16(4, true);
  if (version === 0) fail('CORRUPT_DATA', 'format version 0');
  if (version > 1) fail('UNSUPPORTED_VERSION', `format version ${version} is newer than this build reads (1)`);
  if (d.getBigUint64(12, true) !== BigInt(view.length - 24)) fail('CORRUPT_DATA', 'truncated, or trailing bytes (body length mismatch)');
  const kind = kindName(view[6]);
  if (!kind) fail('CORRUPT_DATA', `unknown filter kind ${view[6]}`);
  return kind;
}

/**
 * Reads a filter's bytes (any kind, as `serialize()` wrote them) into a read-only filter.
 * @param {ArrayBuffer | ArrayBufferView} bytes
 * @param {{ url?: string | URL, module?: WebAssembly.Module }} [options] where this kind's
 *   check-<kind>.wasm is, or the module compiled (both for this one kind)
 */
export async function open(bytes, options = {}) {
  if (!(bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes))) throw new TypeError('bloomcuckoo/check: open(bytes) needs an ArrayBuffer or ArrayBufferView');
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = kindOfFrame(view);
  let pending = loaded.get(kind);
  if (!pending) {
    pending = load(kind, options ?? {});
    loaded.set(kind, pending);
    pending.catch(() => loaded.delete(kind));
  }
  const m = await pending;
  const at = m.x.bc_malloc(Math.max(1, view.length)) >>> 0;
  if (!at) fail('OUT_OF_MEMORY', `no wasm memory for ${view.length} bytes of filter`);
  let handle;
  try {
    heapOf(m).set(view, at);
    // the handle (an address) or minus the status code: the convention of every wasm export
    handle = m.x.bc_load(at, view.length);
  } finally {
    m.x.bc_free_bytes(at);
    m.heap = new Uint8Array(0);
  }
  if (handle <= 0) {
    const code = refusal(statusName(-handle));
    // a module of another kind is not kept for this one: the next open loads the right module
    if (code === 'INVALID_ARGUMENT' && loaded.get(kind) === pending) loaded.delete(kind);
    fail(code, `${SAYS[code]} (the main entry's deserialize() names the check that failed)`);
  }
  return new CheckFilter(m, handle, kind);
}

const CHUNK = 16384;

class CheckFilter {
  constructor(m, handle, kind) {
    this._m = m;
    this._h = handle;
    /** The filter kind (a name of js/shared/kind-table.js, as the main entry's kindOf). */
    this.kind = kind;
  }

  _handle() {
    if (!this._h) fail('DISPOSED', 'the filter was freed; it cannot be used after free()');
    return this._h;
  }

  /** false: certainly absent; true: maybe present. */
  has(key) {
    const h = this._handle();
    const m = this._m;
    const at = scratch(m, maxBytes(key));
    return m.x.bc_has(h, at, put(heapOf(m), at, key)) === 1;
  }

  /** One byte per key, 1 = maybe present; one wasm call per chunk of keys. */
  hasAll(keys) {
    const h = this._handle();
    if (typeof keys === 'string' || keys instanceof String) throw new TypeError('bloomcuckoo/check: keys must be an iterable of keys, got one string (use [key])');
    const list = Array.isArray(keys) ? keys : Array.from(keys);
    const out = new Uint8Array(list.length);
    const m = this._m;
    for (let start = 0; start < list.length; start += CHUNK) {
      const end = Math.min(start + CHUNK, list.length);
      let bytes = 0;
      for (let i = start; i < end; i++) bytes += maxBytes(list[i]);
      const n = end - start;
      // offsets (4 · (n + 1)), results (n), then the keys
      const base = scratch(m, 5 * n + 4 + bytes);
      const heap = heapOf(m);
      const offsets = new Uint32Array(heap.buffer, base, n + 1);
      const data = base + 4 * (n + 1) + n;
      let pos = 0;
      for (let i = start; i < end; i++) {
        offsets[i - start] = pos;
        pos += put(heap, data + pos, list[i]);
      }
      offsets[n] = pos;
      m.x.bc_has_batch(h, data, base, n, base + 4 * (n + 1));
      out.set(heapOf(m).subarray(base + 4 * (n + 1), base + 4 * (n + 1) + n), start);
    }
    return out;
  }

  /** Bytes of filter storage in wasm memory. */
  get byteLength() {
    return this._m.x.bc_byte_length(this._handle());
  }

  /** True once free() was called. */
  get freed() {
    return !this._h;
  }

  /** Releases the filter's wasm memory; idempotent. */
  free() {
    if (this._h) this._m.x.bc_free(this._h);
    this._h = 0;
  }

  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
    this.free();
  }
}
