// The builder's fuse solve off the main thread: a binary fuse filter is built in one call (the
// peeling solve of 10^6 keys held the page 0.8-1.1 s), so "Add random" stages the keys in a Web
// Worker in chunks (each a short structured clone here), the worker solves, and its serialize()
// bytes come back (transferred) to be deserialized here, a copy of a few milliseconds.
import { getWasmModule } from './lib.js';

const CHUNK = 50_000;
let worker = null;
let nextId = 1;
const pending = new Map();

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'bloomcuckoo-fuse-solver' });
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.error) p.reject(Object.assign(new Error(data.error.message), { code: data.error.code, name: data.error.name }));
    else p.resolve(data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    const err = new Error(`the fuse solver's worker failed: ${e.message || 'could not load worker.js'}`);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = null;
  };
  return worker;
}

function request(msg, transfer = []) {
  const w = ensureWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, ...msg }, transfer);
  });
}

/**
 * Builds a binary fuse filter of `keys` (a Set or an array) with `options` in the worker; returns
 * its serialize() bytes. onProgress(sent, total) after each chunk of keys, then ('solving').
 */
export async function solveFuseInWorker(keys, options, onProgress = () => {}) {
  const total = keys.size ?? keys.length;
  await request({ type: 'fuse-begin', module: getWasmModule(), options, reserve: total });
  const it = keys[Symbol.iterator]();
  let sent = 0;
  for (;;) {
    const chunk = [];
    for (let r = it.next(); !r.done; r = chunk.length < CHUNK ? it.next() : { done: true }) chunk.push(r.value);
    if (chunk.length === 0) break;
    await request({ type: 'fuse-keys', keys: chunk });
    sent += chunk.length;
    onProgress(sent, total);
    if (chunk.length < CHUNK) break;
  }
  onProgress('solving', total);
  const r = await request({ type: 'fuse-build' });
  return r.bytes;
}
