// Loads the wasm module once. `init()` returns one cached promise; after it resolves every
// constructor and method is synchronous. Works in Node >= 20 (ESM), browsers (Vite or plain
// <script type="module">), module Web Workers and worker_threads.
import createBloomCuckooModule from './wasm/bloomcuckoo.mjs';
import { FilterError } from './errors.js';

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

/** The compiled WebAssembly.Module (after init), to send to a Worker for `init({ module })`. */
export function getWasmModule() {
  requireWasm();
  return compiled;
}

/** The instantiated Emscripten module; throws when init() has not completed. */
export function requireWasm() {
  if (wasm === null) {
    throw new Error('bloomcuckoo: call `await init()` before using filters or hashes');
  }
  return wasm;
}

function wasmUrl(url) {
  // The literal form lets bundlers (Vite/Rollup/webpack) find and emit the asset.
  return url === undefined ? new URL('./wasm/bloomcuckoo.wasm', import.meta.url) : new URL(url, import.meta.url);
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
    const fsName = 'node:fs/promises'; // in a variable so bundlers leave it alone
    const { readFile } = await import(/* @vite-ignore */ fsName);
    return WebAssembly.compile(await readFile(url));
  }
  const response = fetch(url);
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch {
      // wrong MIME type or no streaming support: fall back to bytes
    }
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`bloomcuckoo: fetching ${url} failed: HTTP ${res.status}`);
  return WebAssembly.compile(await res.arrayBuffer());
}

async function load(options) {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('bloomcuckoo needs WebAssembly, which this JavaScript environment does not provide');
  }
  const module = await compile(options);
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const factory = createBloomCuckooModule({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), fail);
      return {};
    },
    print: () => {},
    printErr: () => {},
  });
  const m = await Promise.race([factory, failed]);
  compiled = module;
  return m;
}

export { FilterError };
