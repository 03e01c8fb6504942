// One module Worker (demo/worker.js) spoken to by request and answer: each message carries an id,
// and the worker answers { id, ...result } or { id, error }. The fuse solver (fuse-worker.js) and
// worker mode (worker-mode.js) each keep one of their own, made on first use.
//   const request = workerClient({ make, label, errorOf, onFail });
//   const answer = await request({ type: 'has', key }, transferList);
// make(): a new Worker (each caller writes `new Worker(new URL('./worker.js', import.meta.url),
// { ... })` itself: Vite finds and bundles a worker only where its options are literal); label: what
// a failed worker is called in the error; errorOf(error): the Error a worker's { error } answer
// becomes; onFail(err): also told when the worker itself fails.
export function workerClient({ make, label, errorOf, onFail = () => {} }) {
  let worker = null;
  let nextId = 1;
  const pending = new Map();

  function ensureWorker() {
    if (worker) return worker;
    worker = make();
    worker.onmessage = ({ data }) => {
      const p = pending.get(data.id);
      if (!p) return;
      pending.delete(data.id);
      if (data.error) p.reject(errorOf(data.error));
      else p.resolve(data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const err = new Error(`${label} failed: ${e.message || 'could not load worker.js'}`);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      onFail(err);
      worker = null;
    };
    return worker;
  }

  return function request(msg, transfer = []) {
    const w = ensureWorker();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, ...msg }, transfer);
    });
  };
}
