// Loads the wasm module once. `init()` returns one cached promise; after it resolves every
// constructor and method is synchronous. Works in Node >= 20 (ESM), browsers (Vite or plain
// <script type="module">), module Web Workers and worker_threads.
// The glue is imported by relative path, so a plain <script type="module"> and every bundler find
// it with no configuration. The package's no-eval entry (dist/index.noeval.min.js, picked by the
// "workerd" export condition) is this same code built with ./wasm/bloomcuckoo.noeval.mjs, the glue
// without `new Function` (scripts/build-js.mjs); both glues load the same .wasm.
import createBloomCuckooModule from '../../dist/wasm/bloomcuckoo.mjs';
import { FilterError, show } from './errors.js';
import { statusName } from '../shared/status-codes.js';

let pending = null;
let wasm = null;
let compiled = null;

/**
 * Loads and instantiates the wasm module (once; later calls return the same promise).
 * @param {{ module?: WebAssembly.Module, url?: string | URL }} [options]
 *   module: an already compiled module (e.g. sent to a Worker), so nothing is fetched;
 *   url: where to fetch bloomcuckoo.wasm from instead of next to this file.
 */
export function init(options = {}) {
  if (pending) return pending;
  pending = load(options ?? {}).then(
    (m) => { wasm = m; },
    (err) => { pending = null; throw err; },
  );
  return pending;
}

/**
 * Loads the wasm synchronously from a compiled module or its bytes (for code that cannot await).
 * It compiles synchronously, which browsers' main threads refuse for a module this large: there, use init().
 * @param {WebAssembly.Module | BufferSource} source
 */
export function initSync(source) {
  if (wasm !== null) return;
  if (pending) throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo: init() is already loading the wasm: await it');
  let module = source;
  if (!(source instanceof WebAssembly.Module)) {
    if (!(source instanceof ArrayBuffer || ArrayBuffer.isView(source))) {
      throw new TypeError('bloomcuckoo: initSync needs a WebAssembly.Module or the bytes of bloomcuckoo.wasm');
    }
    module = new WebAssembly.Module(source);
  }
  // With an instantiateWasm that answers at once, the glue runs to the end before it returns, and
  // the options object it was given is the ready module.
  const m = options_((imports, receive) => receive(new WebAssembly.Instance(module, imports), module));
  createBloomCuckooModule(m);   // with the instance given at once, m is the ready module when it returns
  wasm = withMessages(m);
  compiled = module;
  pending = Promise.resolve();
}

/** The compiled WebAssembly.Module (after init), to send to a Worker for `init({ module })`. */
export function getWasmModule() {
  requireWasm();
  return compiled;
}

/** The instantiated Emscripten module; throws when init() has not completed. */
export function requireWasm() {
  if (wasm === null) {
    throw new FilterError('NOT_INITIALIZED', 'bloomcuckoo: call `await init()` before using filters or hashes');
  }
  return wasm;
}

/**
 * @internal The one reader of the core's status convention (bindings/binding_util.h Report):
 * a fallible wasm call returns its result (>= 0) or minus a status code. Returns `r` when it is
 * >= 0; else throws FilterError with the code's name, `context` and the core's message, then
 * `more` in parentheses: a sentence, or the options object the call was given.
 */
export function throwIfError(r, context, more) {
  // the error path is a call of its own, so what V8 inlines into every one-key call is this line
  // (28 bytes of bytecode instead of 127; both are inlined, --trace-turbo-inlining)
  return r >= 0 ? r : raise(r, context, more);
}

function raise(r, context, more) {
  const detail = more === undefined ? '' : ` (${typeof more === 'string' ? more : `options: ${show(more)}`})`;
  throw new FilterError(statusName(-r), `${context}: ${requireWasm().lastStatusMessage()}${detail}`);
}

// How to fix a wasm that cannot be fetched, for every error that says so.
const FIX = 'serve it there (esbuild or Rollup or bun build: copy dist/wasm/bloomcuckoo.wasm to wasm/ beside '
  + 'the bundle), or pass init({ url }) or init({ module })';

function wasmUrl(url) {
  if (url === undefined) {
    // The literal form lets bundlers (Vite, webpack) find and emit the asset. Without
    // import.meta.url (an IIFE bundle, a classic script) there is no "beside this file".
    try {
      return new URL('../../dist/wasm/bloomcuckoo.wasm', import.meta.url);
    } catch {
      throw new FilterError('NOT_INITIALIZED', `bloomcuckoo: this build has no import.meta.url (an IIFE or classic-script bundle) to find bloomcuckoo.wasm beside it: ${FIX}`);
    }
  }
  // A URL the caller gives is resolved against the page (or worker) it runs in, else this file.
  // (Kept out of the `new URL(…, import.meta.url)` form so bundlers do not try to resolve it.)
  const base = globalThis.location?.href ?? moduleUrl();
  return new URL(url, base);
}

function moduleUrl() {
  return import.meta.url;
}

async function compile(options) {
  if (options.module !== undefined) {
    if (!(options.module instanceof WebAssembly.Module)) {
      throw new TypeError('bloomcuckoo: init({ module }) needs a WebAssembly.Module');
    }
    return options.module;
  }
  const url = wasmUrl(options.url);
  if (url.protocol === 'file:') {
    const fsName = 'node:fs/promises'; // in a variable, and ignored by bundlers: a browser never gets here
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    let bytes;
    try {
      bytes = await readFile(url);
    } catch (err) {
      // Deno without --allow-read: the file is there, reading it is not allowed
      const denied = err?.name === 'NotCapable' || err?.name === 'PermissionDenied';
      const fix = denied ? 'allow reading it (Deno: run with --allow-read)' : FIX;
      throw Object.assign(new Error(`bloomcuckoo: cannot read ${url.href} (${err.code ?? err.message}): ${fix}`), { code: err.code });
    }
    return WebAssembly.compile(bytes);
  }
  // One fetch: streaming compilation when the server says application/wasm, else from the bytes.
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new Error(`bloomcuckoo: fetching ${url.href} failed (${err?.message ?? err}): ${FIX}`);
  }
  if (!res.ok) throw new Error(`bloomcuckoo: fetching ${url.href} failed: HTTP ${res.status}: ${FIX}`);
  const type = res.headers.get('content-type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.split(';')[0].trim() === 'application/wasm') {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

async function load(options) {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('bloomcuckoo needs WebAssembly, which this JavaScript environment does not provide');
  }
  const module = await compile(options);
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const factory = createBloomCuckooModule(options_((imports, receive) => {
    WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), fail);
  }));
  const m = await Promise.race([factory, failed]);
  compiled = module;
  return withMessages(m);
}

const decoder = new TextDecoder();

// m.lastStatusMessage(): the core's last status message, read from wasm memory where
// lastStatusPointer() says (NUL-terminated ASCII).
function withMessages(m) {
  m.lastStatusMessage = () => {
    const heap = m.HEAPU8;
    const at = m.lastStatusPointer() >>> 0;
    return decoder.decode(heap.subarray(at, heap.indexOf(0, at)));
  };
  return m;
}

// The glue's options: the wasm comes through instantiateWasm, which also keeps the glue from
// computing a URL from import.meta.url, which some runtimes (workerd) do not have.
function options_(instantiate) {
  return {
    instantiateWasm(imports, receive) {
      instantiate(imports, receive);
      return {};
    },
    locateFile: (path) => path,
    print: () => {},
    printErr: () => {},
  };
}

export { FilterError };
