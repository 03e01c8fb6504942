import { execFile, execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { init, getWasmModule, murmur3 } from '../../js/index.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

test('init() returns one cached promise; after it everything is synchronous', async () => {
  const a = init();
  const b = init();
  expect(a).toBe(b);
  expect(init({ url: 'ignored-once-loaded.wasm' })).toBe(a);
  await a;
  expect(typeof murmur3.x86_32('x')).toBe('number');
  expect(getWasmModule()).toBeInstanceOf(WebAssembly.Module);
});

test('init rejects clearly where WebAssembly is missing', () => {
  const out = execFileSync(process.execPath, [here('./fixtures/no-webassembly.mjs')], { encoding: 'utf8' });
  expect(out).toMatch(/REJECTED: bloomcuckoo needs WebAssembly/);
});

test('a fresh module instance accepts init({ module }) and init({ url })', () => {
  // Each run is a separate Node process so the loader cache starts empty.
  const script = (initCall) => `
    import { init, murmur3 } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)};
    import { readFile } from 'node:fs/promises';
    ${initCall}
    console.log(murmur3.x86_32('hello', 1));`;
  const wasmUrl = new URL('../../js/wasm/bloomcuckoo.wasm', import.meta.url);
  const withModule = script(`await init({ module: await WebAssembly.compile(await readFile(${JSON.stringify(fileURLToPath(wasmUrl))})) });`);
  const withUrl = script(`await init({ url: ${JSON.stringify(wasmUrl.href)} });`);
  const badUrl = script(`await init({ url: 'file:///nonexistent/bloomcuckoo.wasm' }).catch((e) => { console.log('ERR ' + e.code); }); await init();`);
  const run = (src) => execFileSync(process.execPath, ['--input-type=module', '-e', src], { encoding: 'utf8' }).trim();
  const expected = String(murmur3.x86_32('hello', 1));
  expect(run(withModule)).toBe(expected);
  expect(run(withUrl)).toBe(expected);
  // a failed init is not cached: the next init() tries again and succeeds
  expect(run(badUrl)).toBe(`ERR ENOENT\n${expected}`);
});

test('over HTTP the wasm is fetched once, whatever its MIME type; a failed fetch names the URL and the fix', async () => {
  const { createServer } = await import('node:http');
  const bytes = await (await import('node:fs/promises')).readFile(new URL('../../js/wasm/bloomcuckoo.wasm', import.meta.url));
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(req.url);
    if (req.url === '/octet/bloomcuckoo.wasm') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    else if (req.url === '/wasm/bloomcuckoo.wasm') res.writeHead(200, { 'content-type': 'application/wasm' }).end(bytes);
    else res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const index = JSON.stringify(new URL('../../js/index.js', import.meta.url).href);
  const runAsync = (src) => new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', src], { encoding: 'utf8' }, (err, out) => (err ? reject(err) : resolve(out.trim())));
  });
  const expected = String(murmur3.x86_32('hello', 1));
  try {
    for (const path of ['/octet/bloomcuckoo.wasm', '/wasm/bloomcuckoo.wasm']) {
      hits.length = 0;
      const out = await runAsync(`import { init, murmur3 } from ${index}; await init({ url: '${base}${path}' }); console.log(murmur3.x86_32('hello', 1));`);
      expect(out).toBe(expected);
      expect(hits).toEqual([path]);   // one request, also when streaming compilation cannot be used
    }
    const out = await runAsync(`import { init } from ${index}; await init({ url: '${base}/missing.wasm' }).catch((e) => console.log(e.message));`);
    expect(out).toContain(`fetching ${base}/missing.wasm failed: HTTP 404`);
    expect(out).toMatch(/init\(\{ url \}\)/);
    expect(out).toMatch(/esbuild or Rollup/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a worker_threads worker loads from the compiled module it is sent', async () => {
  await init();
  const worker = new Worker(here('./fixtures/thread-worker.mjs'), { workerData: { module: getWasmModule(), key: 'abc' } });
  const msg = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await worker.terminate();
  expect(msg.hash).toBe(murmur3.x86_32('abc', 5));
});

test('filters dropped without free() are reclaimed by the FinalizationRegistry (safety net)', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', here('./fixtures/finalizer.mjs')], { encoding: 'utf8' });
  const mib = Number(out.trim());
  expect(mib).toBeGreaterThan(0);
  expect(mib).toBeLessThan(200);
});
