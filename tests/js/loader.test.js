import { execFile, execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { init, getWasmModule, murmur3 } from '../../js/main/index.js';

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
    import { init, murmur3 } from ${JSON.stringify(new URL('../../js/main/index.js', import.meta.url).href)};
    import { readFile } from 'node:fs/promises';
    ${initCall}
    console.log(murmur3.x86_32('hello', 1));`;
  const wasmUrl = new URL('../../dist/wasm/bloomcuckoo.wasm', import.meta.url);
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
  const bytes = await (await import('node:fs/promises')).readFile(new URL('../../dist/wasm/bloomcuckoo.wasm', import.meta.url));
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(req.url);
    if (req.url === '/octet/bloomcuckoo.wasm') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    else if (req.url === '/wasm/bloomcuckoo.wasm') res.writeHead(200, { 'content-type': 'application/wasm' }).end(bytes);
    else res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const index = JSON.stringify(new URL('../../js/main/index.js', import.meta.url).href);
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

test('initSync(bytes | module) loads at once in a fresh process; errors are clear; init() after it resolves', () => {
  const index = JSON.stringify(new URL('../../js/main/index.js', import.meta.url).href);
  const wasmPath = JSON.stringify(fileURLToPath(new URL('../../dist/wasm/bloomcuckoo.wasm', import.meta.url)));
  const run = (body) => execFileSync(process.execPath, ['--input-type=module', '-e', `
    import { initSync, init, murmur3, BloomFilter } from ${index};
    import { readFileSync } from 'node:fs';
    const bytes = readFileSync(${wasmPath});
    const out = [];
    const attempt = (f) => { try { f(); out.push('ok'); } catch (e) { out.push(e.name + ':' + (e.code ?? '') + ':' + e.message); } };
    ${body}
    console.log(JSON.stringify(out));`], { encoding: 'utf8' }).trim();
  const expected = murmur3.x86_32('hello', 1);
  // the bytes, then the calls that follow: synchronous use, a second initSync, init()
  expect(JSON.parse(run(`
    attempt(() => initSync('bloomcuckoo.wasm'));
    attempt(() => initSync(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9])));
    initSync(bytes);
    out.push(murmur3.x86_32('hello', 1));
    const f = new BloomFilter({ capacity: 10, errorRate: 0.01 }); f.add('x'); out.push(f.has('x'), f.has('y'));
    attempt(() => new BloomFilter({ capacity: 10, errorRate: 2 }));
    initSync(bytes);
    await init();
    out.push('init');`))).toEqual([
    expect.stringMatching(/^TypeError::bloomcuckoo: initSync needs a WebAssembly.Module or the bytes/),
    expect.stringMatching(/^CompileError::/),
    expected, true, false,
    expect.stringMatching(/^FilterError:INVALID_ARGUMENT:.*errorRate/),
    'init']);
  // a compiled module
  expect(JSON.parse(run(`initSync(new WebAssembly.Module(bytes)); out.push(murmur3.x86_32('hello', 1));`))).toEqual([expected]);
  // while init() is loading, initSync says to await it
  expect(JSON.parse(run(`const p = init(); attempt(() => initSync(bytes)); await p; out.push(murmur3.x86_32('hello', 1));`))).toEqual([
    expect.stringMatching(/^FilterError:INVALID_ARGUMENT:.*await it/), expected]);
});
