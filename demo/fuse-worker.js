// The builder's fuse solve off the main thread: a binary fuse filter is built in one call (the
// peeling solve of 10^6 keys held the page 0.8-1.1 s), so "Add random" stages the keys in a Web
// Worker in chunks (each a short structured clone here), the worker solves, and its serialize()
// bytes come back (transferred) to be deserialized here, a copy of a few milliseconds.
import { getWasmModule } from './lib.js';
import { workerClient } from './worker-rpc.js';

const CHUNK = 50_000;
const request = workerClient({
  make: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'bloomcuckoo-fuse-solver' }),
  label: 'the fuse solver\'s worker',
  errorOf: (error) => Object.assign(new Error(error.message), { code: error.code, name: error.name }),
});

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
