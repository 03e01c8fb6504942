// The runtime and bundler matrix of the pack suite (tests/pack/run-pack.mjs calls runMatrix once
// the tarball is installed into an empty project): the same probe (probe.mjs: add, has,
// serialize, deserialize, a cuckoo remove, a fuse build) and a worker round trip (filter bytes and
// the compiled module posted to a worker, which answers from them) in
//   - Bun and Deno (from npm, tests/pack/tools), running the installed package unchanged;
//   - Cloudflare's workerd: a module worker that imports the .wasm as a module, init({ module });
//   - browsers through webpack 5, esbuild, Rollup, Parcel 2 and Bun's bundler (Vite is
//     run-pack.mjs's check (e)), and a plain <script type="module"> with no build, each page
//     checked in headless Chromium, and no bundler warning about this package;
//   - webpack under the "workerd" condition, and esbuild's IIFE output (no import.meta.url: the
//     error must name init({ url }), which must then work).
// Every answer must equal Node's. The tested versions and what each needs are written to
// tests/pack/matrix.json, from which the README's "Runtimes and bundlers" table is checked.
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { assert, launchBrowser, watchConsole } from '../e2e/browser.mjs';

const here = new URL('./', import.meta.url).pathname;
const tools = join(here, 'tools');
const toolBin = (name) => join(tools, 'node_modules/.bin', name);
const requireTool = createRequire(join(tools, 'package.json'));

/** What every runtime's answers are compared on: the probe without the runtime-specific parts. */
const comparable = (r) => JSON.stringify({ ...r, worker: undefined });

// The worker half of the round trip, given the posted `data`: init from the posted module (no
// second fetch), read the posted bytes, answer hasAll through `port` (`self` in a web worker,
// `parentPort` in a Node worker_thread).
const answerFrom = (port) => `  try {
    await init(data.module ? { module: data.module } : {});
    const f = deserialize(data.bytes);
    ${port}.postMessage({ answers: Array.from(f.hasAll(data.keys)), kind: f.info().kind });
    f.free();
  } catch (e) {
    ${port}.postMessage({ error: String(e && e.stack || e) });
  }`;

// The worker, web style (Bun, Deno, browsers).
export const WEB_WORKER = `import { init, deserialize } from 'bloomcuckoo';
self.onmessage = async ({ data }) => {
${answerFrom('self')}
};
`;

/** How a page makes its worker: a module worker from worker.js beside it. */
export const MODULE_WORKER = "new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })";

// The main half: a cuckoo filter's bytes (transferred) and the compiled module go to the worker.
// `makeWorker` creates it (the syntax differs between runtimes and bundlers).
export const ROUND_TRIP = `export async function roundTrip(bloomcuckoo, makeWorker) {
  const { init, getWasmModule, CuckooFilter } = bloomcuckoo;
  await init();
  const f = new CuckooFilter({ capacity: 100 });
  f.addAll(['w1', 'w2', 'w3']);
  const bytes = f.serialize();
  f.free();
  const worker = makeWorker();
  let module = getWasmModule();
  const answer = await new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(e.message || 'worker error'));
    try {
      worker.postMessage({ bytes, module, keys: ['w1', 'w2', 'w3', 'nope'] }, [bytes]);
    } catch (e) {
      // a runtime that cannot clone a WebAssembly.Module: the worker fetches it itself
      module = null;
      worker.postMessage({ bytes, module, keys: ['w1', 'w2', 'w3', 'nope'] }, [bytes]);
    }
  });
  worker.terminate();
  if (answer.error) return 'error: ' + answer.error;
  const ok = answer.kind === 'cuckoo' && answer.answers.slice(0, 3).every((a) => a === 1);
  return (ok ? 'ok' : 'wrong: ' + JSON.stringify(answer)) + (module ? '' : ' (module not cloneable: the worker fetched it)');
}
`;

/** A static file server for a built page (application/wasm for .wasm, as a real server should). */
function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const path = join(dir, name.endsWith('/') ? `${name}index.html` : name);
    if (!path.startsWith(dir) || !existsSync(path) || !extname(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }),
  })));
}

/**
 * A page's script: `imports`, then `body` (the statements of an async function) whose result, or
 * error, goes into #result as JSON (data-done="1" once there).
 */
export function pageScript(imports, body) {
  return `${imports}
const out = document.getElementById('result');
(async () => {
${body}
})().then((r) => { out.textContent = JSON.stringify(r); out.dataset.done = '1'; },
  (e) => { out.textContent = 'error: ' + (e && e.stack || e); out.dataset.done = '1'; });
`;
}

/** The browser page's script: the probe and the round trip (the worker made by `workerExpr`). */
export function pageMain(workerExpr) {
  return pageScript(`import * as bloomcuckoo from 'bloomcuckoo';
import { probe } from './probe.mjs';
import { roundTrip } from './round-trip.mjs';`, `  const r = await probe(bloomcuckoo);
  r.worker = await roundTrip(bloomcuckoo, () => ${workerExpr});
  return r;`);
}

/** The page around main.js; its script's result is in #result. */
export const PAGE = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>matrix</title></head>'
  + '<body><pre id="result">loading</pre><script type="module" src="./main.js"></script></body></html>\n';

/**
 * Opens `url` in a new page of `browser` (before(page) first, to listen to it): the page, what its
 * script put in #result (text and parsed; an error fails, named `name`), and its console errors.
 */
export async function pageResult(browser, url, timeout, name = 'page', before = () => {}) {
  const page = await browser.context.newPage();
  const errors = watchConsole(page);
  before(page);
  await page.goto(url);
  await page.waitForSelector('#result[data-done="1"]', { timeout });
  const text = await page.textContent('#result');
  assert(!text.startsWith('error'), `${name}: ${text}`);
  return { page, text, got: JSON.parse(text), errors };
}

/** The installed package's .wasm copied to dist/wasm/ of `dir`, where the loader looks beside a bundle. */
function wasmBeside(app, dir) {
  mkdirSync(join(dir, 'dist/wasm'), { recursive: true });
  copyFileSync(join(app, 'node_modules/bloomcuckoo/dist/wasm/bloomcuckoo.wasm'), join(dir, 'dist/wasm/bloomcuckoo.wasm'));
}

export async function runMatrix({ t: runner, app, nodeProbe, sh }) {
  // MATRIX_ONLY=g,i runs only those cases (for debugging one runtime or bundler)
  const only = process.env.MATRIX_ONLY?.split(',');
  const t = {
    check: async (name, fn) => {
      if (only && !only.includes(name.slice(1, 2))) return;
      const start = Date.now();
      await runner.check(name, fn);
      if (process.env.MATRIX_TIMES) console.log(`       ${((Date.now() - start) / 1000).toFixed(1)} s`);
    },
  };
  const rows = [];
  const record = (row) => rows.push(row);
  copyFileSync(join(here, 'probe.mjs'), join(app, 'probe.mjs'));
  writeFileSync(join(app, 'round-trip.mjs'), ROUND_TRIP);
  writeFileSync(join(app, 'web-worker.mjs'), WEB_WORKER);
  // The runtimes' entry: probe + round trip with a web Worker (Bun and Deno have them).
  writeFileSync(join(app, 'runtime.mjs'), `import * as bloomcuckoo from 'bloomcuckoo';
import { probe } from './probe.mjs';
import { roundTrip } from './round-trip.mjs';
const r = await probe(bloomcuckoo);
r.worker = await roundTrip(bloomcuckoo, () => new Worker(new URL('./web-worker.mjs', import.meta.url), { type: 'module' }));
console.log(JSON.stringify(r));
`);
  // Node's worker_threads behind the same interface as a web Worker, for the same round trip.
  writeFileSync(join(app, 'node-worker.mjs'), `import { parentPort } from 'node:worker_threads';
import { init, deserialize } from 'bloomcuckoo';
parentPort.on('message', async (data) => {
${answerFrom('parentPort')}
});
`);
  writeFileSync(join(app, 'node-runtime.mjs'), `import { Worker } from 'node:worker_threads';
import * as bloomcuckoo from 'bloomcuckoo';
import { probe } from './probe.mjs';
import { roundTrip } from './round-trip.mjs';
const r = await probe(bloomcuckoo);
r.worker = await roundTrip(bloomcuckoo, () => {
  const w = new Worker(new URL('./node-worker.mjs', import.meta.url));
  const web = { postMessage: (m, t) => w.postMessage(m, t), terminate: () => w.terminate() };
  w.on('message', (data) => web.onmessage?.({ data }));
  w.on('error', (e) => web.onerror?.(e));
  return web;
});
console.log(JSON.stringify(r));
`);
  const haveTools = existsSync(toolBin('bun'));
  assert(haveTools, 'tests/pack/tools is not installed (scripts/setup.sh installs it)');

  const runtimeCheck = async (name, cmd, args, needs) => {
    await t.check(`(f) ${name} runs the installed package unchanged: the probe as Node, a worker round trip`, () => {
      const version = /\d+\.\d+\.\d+/.exec(sh(cmd, ['--version'], { cwd: app }).stdout)?.[0] ?? '?';
      const r = sh(cmd, args, { cwd: app, env: { ...process.env, NO_COLOR: '1' } });
      assert(r.status === 0, `${name} exit ${r.status}: ${r.out}`);
      const got = JSON.parse(r.stdout.trim().split('\n').at(-1));
      assert(comparable(got) === comparable(nodeProbe), `${name} answers differ:\n  ${r.stdout}\n  node ${JSON.stringify(nodeProbe)}`);
      assert(got.worker.startsWith('ok'), `${name} worker round trip: ${got.worker}`);
      record({ name, version, needs: `${needs}${got.worker === 'ok' ? '' : '; the compiled module cannot be posted to a Worker: call init() there'}` });
    });
  };
  await runtimeCheck('Node', process.execPath, ['node-runtime.mjs'], 'nothing');
  await runtimeCheck('Bun', toolBin('bun'), ['runtime.mjs'], 'nothing');
  await runtimeCheck('Deno', toolBin('deno'), ['run', '--allow-read', '--quiet', 'runtime.mjs'],
    '`--allow-read` (it reads the .wasm next to the library); a package.json with the dependency, or `npm:bloomcuckoo`');


  // ---- bundlers -------------------------------------------------------------------------------
  let browser = null;
  const pageCheck = async (name, dir) => {
    const server = await serve(join(dir, 'dist'));
    try {
      browser ??= await launchBrowser();
      const { page, text, got, errors } = await pageResult(browser, server.url, 30000, name);
      assert(comparable(got) === comparable(nodeProbe), `${name} page answers differ:\n  ${text}\n  node ${JSON.stringify(nodeProbe)}`);
      assert(got.worker === 'ok', `${name} worker round trip: ${got.worker}`);
      assert(errors.length === 0, `${name} console errors: ${errors.join(' | ')}`);
      await page.close();
    } finally {
      await server.close();
    }
  };
  const webDir = (name) => {
    const dir = join(app, `web-${name}`);
    mkdirSync(join(dir, 'dist'), { recursive: true });
    copyFileSync(join(here, 'probe.mjs'), join(dir, 'probe.mjs'));
    writeFileSync(join(dir, 'round-trip.mjs'), ROUND_TRIP);
    writeFileSync(join(dir, 'worker.js'), WEB_WORKER);
    writeFileSync(join(dir, 'main.js'), pageMain(MODULE_WORKER));
    writeFileSync(join(dir, 'dist/index.html'), PAGE);
    return dir;
  };
  const warningsAbout = (list) => list.filter((w) => /bloomcuckoo/.test(w));
  const c = { t, app, nodeProbe, sh, record, pageCheck, webDir, warningsAbout };
  await workerd(c);

  try {
    for (const bundlerCase of [webpack, esbuild, rollup, plainPage, parcel, bunBundler, webpackWorkerd, esbuildIife]) {
      await bundlerCase(c);
    }
  } finally {
    await browser?.close();
  }
  writeFileSync(join(here, 'matrix.json'), `${JSON.stringify(rows, null, 2)}\n`);
  return rows;
}

// ---- the cases, one function each (runMatrix calls them in order) ----------------------------

/** (g) Cloudflare workerd: a worker bundled as wrangler does, served by workerd. */
async function workerd({ t, app, nodeProbe, record }) {
  await t.check('(g) Cloudflare workerd: a module worker bundled as wrangler does imports the .wasm as a module, init({ module })', async () => {
    // wrangler bundles a worker with esbuild under the "workerd" condition and keeps .wasm
    // imports as wasm modules: the same here, then workerd serves the bundle.
    const dir = join(app, 'workerd');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(here, 'probe.mjs'), join(dir, 'probe.mjs'));
    writeFileSync(join(dir, 'worker.mjs'), `import * as bloomcuckoo from 'bloomcuckoo';
import wasm from 'bloomcuckoo/bloomcuckoo.wasm';
import { probe } from './probe.mjs';
export default {
  async fetch() {
    await bloomcuckoo.init({ module: wasm });
    return new Response(JSON.stringify(await probe(bloomcuckoo)), { headers: { 'content-type': 'application/json' } });
  },
};
`);
    const esbuild = requireTool('esbuild');
    await esbuild.build({
      absWorkingDir: dir, entryPoints: ['worker.mjs'], bundle: true, format: 'esm', outfile: 'dist/worker.js',
      nodePaths: [join(app, 'node_modules')], conditions: ['workerd', 'worker', 'browser'], logLevel: 'silent',
      plugins: [{
        name: 'wasm-module',
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, () => ({ path: './bloomcuckoo.wasm', external: true }));
        },
      }],
    });
    copyFileSync(join(app, 'node_modules/bloomcuckoo/dist/wasm/bloomcuckoo.wasm'), join(dir, 'dist/bloomcuckoo.wasm'));
    const bundle = readFileSync(join(dir, 'dist/worker.js'), 'utf8');
    assert(!bundle.includes('new Function'), 'the "workerd" condition must pick the glue without new Function');
    const port = 20000 + Math.floor(Math.random() * 20000);
    writeFileSync(join(dir, 'dist/config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [
    (name = "worker", esModule = embed "worker.js"),
    (name = "bloomcuckoo.wasm", wasm = embed "bloomcuckoo.wasm"),
  ],
  compatibilityDate = "2025-01-01",
);
`);
    const { spawn } = await import('node:child_process');
    const child = spawn(toolBin('workerd'), ['serve', 'config.capnp'], { cwd: join(dir, 'dist'), stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => { log += d; });
    child.stderr.on('data', (d) => { log += d; });
    try {
      let res = null;
      for (let i = 0; i < 100 && res === null; i++) {
        await new Promise((r) => setTimeout(r, 100));
        try {
          const r = await fetch(`http://127.0.0.1:${port}/`);
          res = { status: r.status, body: await r.text() };
        } catch { /* not listening yet */ }
      }
      assert(res !== null, `workerd did not answer: ${log}`);
      assert(res.status === 200, `workerd: HTTP ${res.status} ${res.body} ${log}`);
      const got = JSON.parse(res.body);
      assert(comparable(got) === comparable(nodeProbe), `workerd answers differ:\n  ${res.body}\n  node ${JSON.stringify(nodeProbe)}`);
      record({ name: 'Cloudflare workerd', version: requireTool('workerd/package.json').version,
        needs: '`import wasm from \'bloomcuckoo/bloomcuckoo.wasm\'` (a wasm module) and `init({ module: wasm })`; the "workerd" condition (as wrangler bundles) picks a glue without `new Function`' });
    } finally {
      child.kill();
    }
  });
}

/** (h) webpack 5 for a page and its worker. */
async function webpack({ t, app, record, pageCheck, webDir, warningsAbout }) {
  await t.check('(h) webpack 5 bundles it without a warning; the page and its worker answer as Node', async () => {
    const webpack = requireTool('webpack');
    const dir = webDir('webpack');
    const stats = await new Promise((resolve, reject) => webpack({
      mode: 'production', context: dir, entry: './main.js', target: 'web',
      output: { path: join(dir, 'dist'), filename: 'main.js', publicPath: 'auto' },
      resolve: { modules: [join(app, 'node_modules'), 'node_modules'] },
      experiments: { outputModule: false },
      performance: { hints: false },
    }, (err, s) => (err ? reject(err) : resolve(s))));
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    assert(!stats.hasErrors(), `webpack errors: ${info.errors.map((e) => e.message).join('\n')}`);
    const warnings = info.warnings.map((w) => `${w.moduleName ?? ''}: ${w.message}`);
    assert(warningsAbout(warnings).length === 0 && warnings.length === 0, `webpack warnings: ${warnings.join('\n')}`);
    assert(readdirSync(join(dir, 'dist')).some((f) => f.endsWith('.wasm')), 'webpack emitted the wasm');
    await pageCheck('webpack', dir);
    record({ name: 'webpack', version: requireTool('webpack/package.json').version, needs: 'nothing (it emits the .wasm from `new URL(…, import.meta.url)`)' });
  });
}

/** (i) esbuild (ESM) for a page and its worker. */
async function esbuild({ t, app, record, pageCheck, webDir }) {
  await t.check('(i) esbuild bundles it without a warning (the .wasm copied with --loader:.wasm=file); the page answers as Node', async () => {
    const esbuild = requireTool('esbuild');
    const dir = webDir('esbuild');
    const result = await esbuild.build({
      absWorkingDir: dir, entryPoints: ['main.js', 'worker.js'], bundle: true, format: 'esm', outdir: 'dist',
      nodePaths: [join(app, 'node_modules')], loader: { '.wasm': 'file' }, assetNames: '[name]', logLevel: 'silent',
      platform: 'browser', target: 'es2022',
    });
    const warnings = result.warnings.map((w) => `${w.location?.file ?? ''}: ${w.text}`);
    assert(warnings.length === 0, `esbuild warnings: ${warnings.join('\n')}`);
    // esbuild does not emit assets named by new URL(…, import.meta.url): the loader looks for
    // wasm/bloomcuckoo.wasm beside the bundle, so copy it there (what the README tells users).
    wasmBeside(app, dir);
    await pageCheck('esbuild', dir);
    record({ name: 'esbuild', version: esbuild.version,
      needs: '`--loader:.wasm=file`, and copy `bloomcuckoo/dist/wasm/bloomcuckoo.wasm` to `wasm/` beside the bundle, or pass `init({ url })` (esbuild does not emit `new URL()` assets)' });
  });
}

/** (j) Rollup with node-resolve. */
async function rollup({ t, app, record, pageCheck, webDir }) {
  await t.check('(j) Rollup bundles it without a warning (node-resolve); the page answers as Node', async () => {
    const { rollup } = requireTool('rollup');
    const { nodeResolve } = requireTool('@rollup/plugin-node-resolve');
    const dir = webDir('rollup');
    const warnings = [];
    for (const entry of ['main.js', 'worker.js']) {
      const bundle = await rollup({
        input: join(dir, entry),
        plugins: [nodeResolve({ browser: true, modulePaths: [join(app, 'node_modules')] })],
        onwarn: (w) => warnings.push(`${w.code}: ${w.message}`),
      });
      await bundle.write({ file: join(dir, 'dist', entry), format: 'es', inlineDynamicImports: true });
      await bundle.close();
    }
    assert(warnings.length === 0, `rollup warnings: ${warnings.join('\n')}`);
    wasmBeside(app, dir);
    await pageCheck('Rollup', dir);
    record({ name: 'Rollup', version: requireTool('rollup/package.json').version,
      needs: '`@rollup/plugin-node-resolve`; copy the .wasm to `wasm/` beside the bundle (or an asset plugin), or `init({ url })`' });
  });
}

/** (k) The installed package served as it is, imported by path from a plain page. */
async function plainPage({ t, app, record, pageCheck, webDir }) {
  await t.check('(k) a plain <script type="module"> from a static folder, no build: the page answers as Node', async () => {
    // the installed package copied as it is beside the page, imported by path (no bare
    // specifier, no import map, no bundler): the loader finds the glue and the wasm by itself
    const dir = webDir('plain');
    const pkg = join(app, 'node_modules/bloomcuckoo');
    for (const f of ['dist/index.min.js', 'dist/wasm/bloomcuckoo.mjs', 'dist/wasm/bloomcuckoo.wasm']) {
      mkdirSync(join(dir, 'dist/bloomcuckoo', f, '..'), { recursive: true });
      copyFileSync(join(pkg, f), join(dir, 'dist/bloomcuckoo', f));
    }
    const byPath = (src) => src.replaceAll("from 'bloomcuckoo'", "from './bloomcuckoo/dist/index.min.js'");
    writeFileSync(join(dir, 'dist/main.js'), byPath(pageMain(MODULE_WORKER)));
    writeFileSync(join(dir, 'dist/worker.js'), byPath(WEB_WORKER));
    for (const f of ['probe.mjs', 'round-trip.mjs']) copyFileSync(join(dir, f), join(dir, 'dist', f));
    await pageCheck('plain page', dir);
    record({ name: 'plain `<script type="module">`', version: '-', needs: 'nothing: serve the package folder and import `bloomcuckoo/dist/index.min.js` by path (or map `bloomcuckoo` to it in an import map)' });
  });
}

/** (l) Parcel 2 with no configuration. */
async function parcel({ t, app, sh, record, pageCheck, webDir }) {
  await t.check('(l) Parcel 2 bundles it with no configuration and emits the wasm; the page answers as Node', async () => {
    const dir = webDir('parcel');
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    for (const f of ['main.js', 'worker.js', 'probe.mjs', 'round-trip.mjs']) copyFileSync(join(dir, f), join(src, f));
    writeFileSync(join(src, 'index.html'), PAGE);
    writeFileSync(join(dir, 'package.json'), '{ "name": "web-parcel", "private": true }\n');
    const r = sh(toolBin('parcel'), ['build', 'src/index.html', '--dist-dir', 'dist', '--no-cache', '--no-source-maps', '--log-level', 'warn'],
      { cwd: dir, env: { ...process.env, NODE_PATH: join(app, 'node_modules'), NO_COLOR: '1' } });
    assert(r.status === 0, `parcel build failed: ${r.out}`);
    assert(!/warn|⚠/i.test(r.out), `parcel warnings: ${r.out}`);
    assert(readdirSync(join(dir, 'dist')).some((f) => f.endsWith('.wasm')), 'parcel emitted the wasm');
    await pageCheck('Parcel', dir);
    record({ name: 'Parcel', version: requireTool('parcel/package.json').version, needs: 'nothing (it emits the .wasm from `new URL(…, import.meta.url)`)' });
  });
}

/** (m) Bun's bundler. */
async function bunBundler({ t, app, sh, record, pageCheck, webDir }) {
  await t.check('(m) Bun\'s bundler (bun build --target browser): the page answers as Node', async () => {
    const dir = webDir('bun');
    const r = sh(toolBin('bun'), ['build', 'main.js', 'worker.js', '--outdir', 'dist', '--target', 'browser'],
      { cwd: dir, env: { ...process.env, NODE_PATH: join(app, 'node_modules'), NO_COLOR: '1' } });
    assert(r.status === 0, `bun build failed: ${r.out}`);
    assert(!/warn/i.test(r.out), `bun build warnings: ${r.out}`);
    // like esbuild, Bun's bundler keeps new URL('./wasm/bloomcuckoo.wasm', import.meta.url) as
    // written without emitting the file: it goes to wasm/ beside the bundle
    wasmBeside(app, dir);
    await pageCheck('Bun bundler', dir);
    record({ name: 'Bun bundler', version: /\d+\.\d+\.\d+/.exec(sh(toolBin('bun'), ['--version']).stdout)?.[0] ?? '?',
      needs: 'copy `bloomcuckoo/dist/wasm/bloomcuckoo.wasm` to `wasm/` beside the bundle, or `init({ url })` (`bun build` does not emit `new URL()` assets)' });
  });
}

/** (n) webpack under the "workerd" condition: the no-eval entry. */
async function webpackWorkerd({ t, app }) {
  await t.check('(n) webpack 5 under the "workerd" condition bundles the no-eval entry without an error or a warning', async () => {
    const webpack = requireTool('webpack');
    const dir = join(app, 'webpack-workerd');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'worker.js'), "import { init, BloomFilter } from 'bloomcuckoo';\nexport default { async fetch() { await init(); return new Response(String(new BloomFilter({ capacity: 1, errorRate: 0.5 }).has('x'))); } };\n");
    const stats = await new Promise((resolve, reject) => webpack({
      mode: 'production', context: dir, entry: './worker.js', target: 'webworker',
      output: { path: join(dir, 'dist'), filename: 'worker.js', module: true, library: { type: 'module' } },
      experiments: { outputModule: true },
      resolve: { modules: [join(app, 'node_modules'), 'node_modules'], conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'] },
      performance: { hints: false },
    }, (err, s) => (err ? reject(err) : resolve(s))));
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    assert(!stats.hasErrors(), `webpack errors: ${info.errors.map((e) => e.message).join('\n')}`);
    assert(info.warnings.length === 0, `webpack warnings: ${info.warnings.map((w) => w.message).join('\n')}`);
    const bundle = readFileSync(join(dir, 'dist/worker.js'), 'utf8');
    assert(!bundle.includes('new Function'), 'the "workerd" condition must pick the entry without new Function');
  });
}

/** (o) esbuild's IIFE output, which has no import.meta.url. */
async function esbuildIife({ t, app, pageCheck, webDir }) {
  await t.check('(o) esbuild\'s IIFE output (no import.meta.url): init() names the fix; init({ url }) then works', async () => {
    const esbuild = requireTool('esbuild');
    const dir = webDir('esbuild-iife');
    writeFileSync(join(dir, 'main.js'), pageScript(`import * as bloomcuckoo from 'bloomcuckoo';
import { probe } from './probe.mjs';`, `const first = await bloomcuckoo.init().then(() => 'loaded', (e) => e.code + ': ' + e.message);
if (!/^NOT_INITIALIZED: .*import\\.meta\\.url.*init\\(\\{ url \\}\\)/.test(first)) throw new Error('init() said: ' + first);
await bloomcuckoo.init({ url: 'wasm/bloomcuckoo.wasm' });
const r = await probe(bloomcuckoo);
r.worker = 'ok';
return r;`));
    await esbuild.build({
      absWorkingDir: dir, entryPoints: ['main.js'], bundle: true, format: 'iife', outdir: 'dist',
      nodePaths: [join(app, 'node_modules')], loader: { '.wasm': 'file' }, assetNames: '[name]', logLevel: 'silent',
      platform: 'browser', target: 'es2022',
    });
    writeFileSync(join(dir, 'dist/index.html'), PAGE.replace(' type="module"', ''));
    wasmBeside(app, dir);
    await pageCheck('esbuild IIFE', dir);
  });
}
