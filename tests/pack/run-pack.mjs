// The npm package as a user gets it: `npm pack`, install the tarball offline into an empty
// temporary project, then use it from (a) a Node ESM script, (b) a CommonJS script via
// `await import('bloomcuckoo')`, (c) TypeScript (`tsc --strict` resolving the package's
// `exports.types`), (d) its CLI through node_modules/.bin, and (e) a minimal Vite app, built
// and checked in headless Chromium. The same probe (tests/pack/probe.mjs) runs in Node ESM,
// Node CJS and the browser, and all three must give identical answers. Also measures the
// gzip size budget. bloomcuckoo/redis's doc blocks run against a live RedisBloom with each client
// (tests/pack/redis-user.mjs). Ends with "N passed, N failed"; exit status 1 on failure.
// Env: KEEP_PACK_TMP=1 keeps the temporary directory.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { assert, buildAndServe, launchBrowser, makeRunner } from '../e2e/browser.mjs';
import { checkDocBlocks } from './doc-blocks.mjs';
import { checkRedisUser } from './redis-user.mjs';
import { deadLinks } from './links.mjs';
import { MODULE_WORKER, PAGE, ROUND_TRIP, WEB_WORKER, pageMain, pageResult, pageScript, runMatrix } from './matrix.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));
// bytes, gzip -9: wasm + wasm glue + the library's JS, the 60 KB target of README "Package"
// (58.7 KB since issue 14's size work: docs/BENCHMARKS.md, "Size"); growth beyond it fails
const BUDGET = 60 * 1024;
const work = mkdtempSync(join(tmpdir(), 'bloomcuckoo-pack-'));
const app = join(work, 'app');
const web = join(app, 'web');
const t = makeRunner();
const started = Date.now();
const viteVersion = JSON.parse(readFileSync(join(root, 'node_modules/vite/package.json'), 'utf8')).version;

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}
const gz = (buf) => gzipSync(buf, { level: 9 }).length;

/** A Vite app in `dir`: PAGE, its `main` script, an ESM package.json and a config building to dist/. */
function writeViteApp(dir, main) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'main.js'), main);
  // No `import 'vite'` here: the app has no vite of its own; the repo's vite builds it. The
  // folder is ESM (the app around it stays a plain CommonJS project).
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(join(dir, 'vite.config.js'),
    "export default { base: './', logLevel: 'warn', build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' } };\n");
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

let tarball = null;
let packed = [];
let installed = null; // node_modules/bloomcuckoo of the app
let nodeProbe = null;

try {
  await t.check('npm pack: a tarball of exactly the whitelisted files', () => {
    const r = sh('npm', ['pack', '--json', '--pack-destination', work], { cwd: root });
    assert(r.status === 0, `npm pack failed: ${r.out}`);
    const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))[0];
    tarball = join(work, info.filename);
    packed = info.files.map((f) => f.path).sort();
    // our JS ships as the minified builds of scripts/build-js.mjs (npm pack runs it: prepack), with
    // their source maps; the readable sources stay in the repo
    const allowed = /^(package\.json|README\.md|LICENSE|docs\/(API|BENCHMARKS|CONTRIBUTING|FORMAT)\.md|dist\/index(\.noeval)?\.min\.js(\.map)?|js\/main\/(index|wasm)\.d\.ts|dist\/redis\.min\.js(\.map)?|js\/redis\/index\.d\.ts|dist\/check\.min\.js(\.map)?|js\/check\/index\.d\.ts|dist\/wasm\/check-[a-z-]+\.wasm|dist\/wasm\/bloomcuckoo\.(mjs|noeval\.mjs|wasm)|dist\/bloomcuckoo\.min\.js(\.map)?)$/;
    const stray = packed.filter((f) => !allowed.test(f));
    assert(stray.length === 0, `files outside the whitelist: ${stray.join(', ')}`);
    for (const f of ['package.json', 'README.md', 'docs/API.md', 'LICENSE', 'dist/index.min.js', 'js/main/index.d.ts', 'dist/wasm/bloomcuckoo.mjs',
      'dist/wasm/bloomcuckoo.wasm', 'dist/bloomcuckoo.min.js']) {
      assert(packed.includes(f), `missing from the tarball: ${f}`);
    }
    console.log(`       ${info.filename}: ${packed.length} files, ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked`);
  });

  await t.check('README: every relative link (and #anchor) resolves inside the tarball', () => {
    const { dead, checked } = deadLinks(root, packed);
    assert(checked > 0, 'no relative link found in README.md');
    assert(dead.length === 0, `dead links where the package is read (node_modules, the tarball):\n  ${dead.join('\n  ')}`);
    console.log(`       ${checked} relative links`);
  });

  await t.check('@arethetypeswrong/cli on the tarball: no problem but the one README "Package" explains', () => {
    // allowed: "ESM (dynamic import only)" for CommonJS callers under node16 (cjs-resolves-to-esm):
    // the package is ESM only; require() of it works on Node >= 20.19 (require(esm), tested in
    // (b2)), which attw's analysis (TypeScript 5.6) does not model. Anything else fails.
    const allowed = ['CJSResolvesToESM'];
    const r = sh(process.execPath, [join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--format', 'json',
      '--no-definitely-typed'], { cwd: work });
    let report;
    try {
      report = JSON.parse(r.stdout);
    } catch {
      throw new Error(`attw did not report (exit ${r.status}): ${r.out.slice(0, 2000)}`);
    }
    const problems = report.analysis?.problems ?? [];
    const other = problems.filter((p) => !allowed.includes(p.kind));
    assert(other.length === 0, `attw: ${other.map((p) => `${p.kind} ${p.entrypoint} (${p.resolutionKind})`).join('; ')}`);
    const entrypoints = Object.keys(report.analysis?.entrypoints ?? {});
    assert(entrypoints.length >= 5, `attw analysed ${entrypoints.join(', ')}`);
    console.log(`       ${entrypoints.length} entry points; allowed: ${problems.length} × ${allowed.join(', ')}`);
  });

  await t.check('every relative import of a packaged file is packaged too', () => {
    const missing = [];
    for (const f of packed.filter((x) => /\.(m?js)$/.test(x))) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*(['"])(\.{1,2}\/[^'"]+)\1/g)) {
        const target = new URL(m[2], `file:///${f}`).pathname.slice(1);
        if (!packed.includes(target)) missing.push(`${f} → ${m[1]}`);
      }
    }
    assert(missing.length === 0, `imports of files not in the tarball: ${missing.join(', ')}`);
  });

  await t.check('package.json: module, exports with types first, sideEffects false, node >= 20, no runtime deps, bin', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert(pkg.name === 'bloomcuckoo' && pkg.type === 'module', 'name bloomcuckoo, type module');
    assert(Object.keys(pkg.exports['.'])[0] === 'types', `exports["."] must list "types" first: ${JSON.stringify(pkg.exports['.'])}`);
    assert(pkg.exports['.'].types === './js/main/index.d.ts' && pkg.types === './js/main/index.d.ts', 'types → ./js/main/index.d.ts');
    assert(pkg.exports['.'].default === './dist/index.min.js' && pkg.main === './dist/index.min.js', 'the package loads dist/index.min.js');
    assert(pkg.sideEffects === false, 'sideEffects false');
    assert(pkg.engines?.node === '>=20', `engines.node ${pkg.engines?.node}`);
    for (const k of ['dependencies', 'optionalDependencies', 'bundleDependencies']) {
      assert(!pkg[k] || Object.keys(pkg[k]).length === 0, `${k} must be empty (zero runtime dependencies)`);
    }
    // the only peers: the Redis clients bloomcuckoo/redis and the CLI's `redis` work with (node-redis,
    // ioredis), optional (never installed for you)
    const peers = Object.keys(pkg.peerDependencies ?? {});
    assert(peers.every((p) => ['redis', 'ioredis'].includes(p) && pkg.peerDependenciesMeta?.[p]?.optional === true),
      `peerDependencies may hold only an optional 'redis' and 'ioredis': ${JSON.stringify(pkg.peerDependencies)}`);
    assert(pkg.bin?.bloomcuckoo === 'dist/bloomcuckoo.min.js', `bin.bloomcuckoo ${pkg.bin?.bloomcuckoo}`);
    const head = readFileSync(join(root, 'dist/bloomcuckoo.min.js'), 'utf8').split('\n')[0];
    assert(head === '#!/usr/bin/env node', `the CLI needs a node shebang, has ${head}`);
  });

  await t.check(`size: wasm + glue + JS, gzip -9, ≤ ${kb(BUDGET)}`, () => {
    const wasm = gz(readFileSync(join(root, 'dist/wasm/bloomcuckoo.wasm')));
    const glue = gz(readFileSync(join(root, 'dist/wasm/bloomcuckoo.mjs')));
    // what the main entry loads (every browser pays it); the Node-only bloomcuckoo/redis and the
    // workerd-only no-eval build of the same library are apart
    const exp = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports;
    const apart = [exp['./redis']?.default, exp['./check']?.default, exp['.'].workerd].map((f) => f?.replace(/^\.\//, ''));
    const libFiles = packed.filter((f) => /^dist\/[^/]+\.js$/.test(f) && f !== 'dist/bloomcuckoo.min.js' && !apart.includes(f));
    const ours = gz(Buffer.concat(libFiles.map((f) => readFileSync(join(root, f)))));
    const total = wasm + glue + ours;
    console.log(`       wasm ${kb(wasm)} + glue .mjs ${kb(glue)} + our JS (${libFiles.length} files, concatenated) ${kb(ours)} = ${kb(total)}`
      + ` of ${kb(BUDGET)}: ${total <= BUDGET ? 'within budget' : `OVER by ${kb(total - BUDGET)}`}`);
    assert(total <= BUDGET, `${kb(total)} is over ${kb(BUDGET)}`);
  });

  await t.check('npm install --offline of the tarball into an empty project', () => {
    mkdirSync(web, { recursive: true });
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'bloomcuckoo-smoke-app', version: '0.0.0', private: true }, null, 2)}\n`);
    const r = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app });
    assert(r.status === 0, `npm install failed: ${r.out}`);
    installed = join(app, 'node_modules', 'bloomcuckoo');
    assert(existsSync(join(installed, 'dist/wasm/bloomcuckoo.wasm')), 'the wasm is installed');
    assert(!existsSync(join(installed, 'node_modules')), 'no dependencies were installed');
    const others = readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.') && d !== 'bloomcuckoo');
    assert(others.length === 0, `unexpected packages installed: ${others.join(', ')}`);
    copyFileSync(join(here, 'probe.mjs'), join(app, 'probe.mjs'));
    copyFileSync(join(here, 'probe.mjs'), join(web, 'probe.mjs'));
  });

  /** A Node script of `lines` written to the app as `file` and run there (node `flags` first). */
  const script = (file, lines, flags = []) => {
    writeFileSync(join(app, file), lines.join('\n'));
    return sh(process.execPath, [...flags, file], { cwd: app });
  };

  await t.check('(a) Node ESM: import { ... } from "bloomcuckoo"', () => {
    const r = script('esm.mjs', [
      "import * as bloomcuckoo from 'bloomcuckoo';",
      "import { init, BloomFilter } from 'bloomcuckoo';",
      "import { probe } from './probe.mjs';",
      'await init();',
      "const f = new BloomFilter({ capacity: 10, errorRate: 0.01 }); f.add('x'); if (!f.has('x')) throw new Error('has');",
      'console.log(JSON.stringify(await probe(bloomcuckoo)));',
    ]);
    assert(r.status === 0, `exit ${r.status}: ${r.out}`);
    nodeProbe = JSON.parse(r.stdout);
    assert(nodeProbe.errors.length === 0, `probe errors: ${nodeProbe.errors.join('; ')}`);
    console.log(`       classes: ${Object.keys(nodeProbe.filters).join(', ')}`);
  });

  // README.md's and docs/*.md's js/ts blocks, as a reader pastes them into the empty project:
  // run in Node, Bun and Deno (--allow-read, as the Quickstart says), or type-checked where they
  // need a browser or a server (tests/pack/doc-blocks.mjs)
  const tool = (name) => join(here, 'tools/node_modules/.bin', name);
  await checkDocBlocks({
    check: t.check, dir: join(app, 'doc-blocks'), cwd: app, sh,
    runtimes: [['Node', process.execPath, []], ['Bun', tool('bun'), []], ['Deno', tool('deno'), ['run', '--allow-read', '--quiet']]],
    tsc: join(root, 'node_modules/typescript/bin/tsc'), typeRoots: [join(root, 'node_modules/@types')],
  });

  // the blocks that need a Redis server, run against a live RedisBloom with every client of the
  // matrix, and the errors of the mistakes users make (tests/pack/redis-user.mjs)
  await checkRedisUser({ check: t.check, dir: join(app, 'redis-user'), cli: join(app, 'node_modules/bloomcuckoo/dist/bloomcuckoo.min.js') });

  await t.check('Deno without --allow-read: the load error says to allow reading the .wasm, not to copy it', () => {
    writeFileSync(join(app, 'deno-noread.mjs'), "import { init } from 'bloomcuckoo';\nawait init();\n");
    const r = sh(tool('deno'), ['run', '--quiet', '--no-prompt', 'deno-noread.mjs'], { cwd: app, env: { ...process.env, NO_COLOR: '1' } });
    assert(r.status !== 0, `deno ran without read permission: ${r.out}`);
    const first = r.out.split('\n').find((l) => l.includes('bloomcuckoo:')) ?? r.out;
    assert(first.includes('--allow-read') && !/esbuild|Rollup|bun build/.test(first), `the error's advice: ${first}`);
  });

  await t.check('(a2) the shipped minified build answers as the readable sources in js/, class names and messages too', () => {
    const r = script('same.mjs', [
      "import * as shipped from 'bloomcuckoo';",
      `import * as source from ${JSON.stringify(join(root, 'js/main/index.js'))};`,
      "import { probe, identity } from './probe.mjs';",
      'const a = JSON.stringify([await probe(shipped), await identity(shipped)]);',
      'const b = JSON.stringify([await probe(source), await identity(source)]);',
      "console.log(a === b ? 'same' : `shipped ${a}\\n  sources ${b}`);",
    ]);
    assert(r.status === 0 && r.stdout.trim() === 'same', `exit ${r.status}: ${r.out}`);
  });

  await t.check('(b) CommonJS: await import("bloomcuckoo") gives the same answers', () => {
    const r = script('cjs.cjs', [
      "'use strict';",
      'async function main() {',
      "  const bloomcuckoo = await import('bloomcuckoo');",
      "  const { probe } = await import('./probe.mjs');",
      "  if (typeof require('bloomcuckoo/package.json').version !== 'string') throw new Error('package.json export');",
      '  console.log(JSON.stringify(await probe(bloomcuckoo)));',
      '}',
      'main().catch((err) => { console.error(err); process.exit(1); });',
    ]);
    assert(r.status === 0, `exit ${r.status}: ${r.out}`);
    assert(JSON.stringify(JSON.parse(r.stdout)) === JSON.stringify(nodeProbe), `CJS probe differs: ${r.stdout}`);
  });

  await t.check('(b2) CommonJS require("bloomcuckoo") where Node supports require(esm)', () => {
    const r = script('require.cjs', [
      "'use strict';",
      'if (!process.features.require_module) { console.log("unsupported"); process.exit(0); }',
      "const bloomcuckoo = require('bloomcuckoo');",
      "bloomcuckoo.init().then(() => { const f = new bloomcuckoo.BloomFilter({ capacity: 10, errorRate: 0.1 }); f.add('k');",
      "  console.log(f.has('k') ? 'ok' : 'wrong'); });",
    ], ['--no-warnings']);
    assert(r.status === 0, `exit ${r.status}: ${r.out}`);
    assert(['ok', 'unsupported'].includes(r.stdout.trim()), r.out);
    console.log(`       require(esm) on Node ${process.version}: ${r.stdout.trim()}`);
  });

  await t.check('(c) TypeScript: tsc --strict resolves the installed types (ESM and CJS)', () => {
    writeFileSync(join(app, 'typed.mts'), [
      "import { init, BloomFilter, deserialize, FilterError, type FilterKind } from 'bloomcuckoo';",
      'await init();',
      "using f = new BloomFilter({ capacity: 100, errorRate: 0.01 });",
      "const present: boolean = f.has('x');",
      'const kind: FilterKind = deserialize(f.serialize()).info().kind;',
      "try { deserialize(new Uint8Array(3)); } catch (e) { if (e instanceof FilterError) { const c: string = e.code; void c; } }",
      '// @ts-expect-error numbers are not keys',
      'f.add(1);',
      '// @ts-expect-error one string is not a batch of keys',
      "f.addAll('https://bad.example/');",
      "const g = BloomFilter.from(['a', 'b'], { errorRate: 0.001 });",
      'const same: boolean = g.equals(f);',
      "import wasm from 'bloomcuckoo/bloomcuckoo.wasm';",
      'const module: WebAssembly.Module = wasm;',
      'export { present, kind, same, module };',
    ].join('\n'));
    writeFileSync(join(app, 'typed.cts'), [
      'export async function check(key: string): Promise<boolean> {',
      "  const { init, BloomFilter } = await import('bloomcuckoo');",
      '  await init();',
      '  const f = new BloomFilter({ bits: 1024, hashes: 3 });',
      '  f.add(key);',
      '  return f.has(key);',
      '}',
    ].join('\n'));
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'], types: [], skipLibCheck: false },
      files: ['typed.mts', 'typed.cts'],
    }, null, 2));
    const r = sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });
    assert(r.status === 0 && r.out === '', `tsc: ${r.out}`);
    // the lowest TypeScript the README states (the types use lib esnext.disposable, new in 5.2)
    const floor = join(here, 'tools/node_modules/typescript-floor');
    const version = JSON.parse(readFileSync(join(floor, 'package.json'), 'utf8')).version;
    const f = sh(process.execPath, [join(floor, 'bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });
    assert(f.status === 0 && f.out === '', `tsc ${version} (the stated floor): ${f.out}`);
    console.log(`       tsc ${JSON.parse(readFileSync(join(root, 'node_modules/typescript/package.json'), 'utf8')).version} and ${version} (the floor), skipLibCheck false`);
  });

  await t.check('(d) the CLI from node_modules/.bin: build, check, info; redis without its client says what to install', () => {
    const bin = join(app, 'node_modules/.bin/bloomcuckoo');
    assert(existsSync(bin), 'node_modules/.bin/bloomcuckoo exists');
    writeFileSync(join(app, 'keys.txt'), 'alpha\nbeta\ngamma\n');
    const b = sh(bin, ['build', 'keys.txt', '-o', 'keys.bloom', '--error-rate', '0.001'], { cwd: app });
    assert(b.status === 0 && b.out === '', `build: ${b.out}`);
    const c = sh(bin, ['check', 'keys.bloom', 'alpha', 'zeta'], { cwd: app });
    assert(c.status === 1 && c.stdout === 'alpha\tmaybe\nzeta\tno\n', `check: ${c.status} ${c.out}`);
    const i = sh(bin, ['info', 'keys.bloom'], { cwd: app });
    assert(i.status === 0 && /^kind +bloom/m.test(i.stdout), `info: ${i.out}`);
    const h = sh(bin, ['build', '--help'], { cwd: app });
    assert(h.status === 0 && h.stdout.startsWith('Usage: bloomcuckoo build'), `help: ${h.out}`);
    // `redis` needs the optional peer 'redis', which an install does not bring: one clear line
    const r = sh(bin, ['redis', 'pull', 'redis://127.0.0.1:1', 'k', '-o', 'x'], { cwd: app });
    assert(r.status === 2 && /needs the 'redis' package .*npm install redis/.test(r.stderr) && r.stderr.trim().split('\n').length === 1,
      `redis without the client: ${r.status} ${r.out}`);
  });

  await t.check('(d3) a global install (npm install -g): the CLI runs; its redis advice (npm install -g redis) works', () => {
    const prefix = join(work, 'global');
    const g = sh('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', prefix, tarball]);
    assert(g.status === 0, `npm install -g: ${g.out}`);
    const bin = join(prefix, 'bin/bloomcuckoo');
    const i = sh(bin, ['info', join(app, 'keys.bloom')], { cwd: work });
    assert(i.status === 0 && /^kind +bloom/m.test(i.stdout), `global info: ${i.out}`);
    const before = sh(bin, ['redis', 'pull', 'redis://127.0.0.1:1', 'k', '-o', 'x'], { cwd: work });
    assert(before.status === 2 && /npm install -g redis for a global bloomcuckoo/.test(before.stderr), `global redis advice: ${before.out}`);
    // follow the advice, at the version of the repo's own devDependency. --prefer-offline, not
    // --offline: npm ci caches tarballs but not the registry's metadata that an install by name
    // reads, so on a fresh machine this step (as a user's would) goes to the registry
    const version = JSON.parse(readFileSync(join(root, 'node_modules/redis/package.json'), 'utf8')).version;
    const add = sh('npm', ['install', '-g', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', prefix, `redis@${version}`]);
    assert(add.status === 0, `npm install -g redis: ${add.out}`);
    const after = sh(bin, ['redis', 'pull', 'redis://127.0.0.1:1', 'k', '-o', 'x'], { cwd: work });
    assert(after.status !== 0 && !/needs the 'redis' package/.test(after.stderr) && /127\.0\.0\.1:1|ECONNREFUSED|connect/i.test(after.stderr),
      `after npm install -g redis the CLI should reach for the server: ${after.status} ${after.out}`);
  });

  await t.check('(d2) bloomcuckoo/redis from the tarball: its functions, one wasm instance with the main entry', () => {
    const r = script('redis-probe.mjs', [
      "import * as main from 'bloomcuckoo';",
      "import * as redis from 'bloomcuckoo/redis';",
      "const names = ['commandsOf', 'openReplica', 'pullFilter', 'pushFilter', 'serverOf'];",
      "const missing = names.filter((n) => typeof redis[n] !== 'function');",
      'let same = false;',
      "try { redis.commandsOf({}); } catch (e) { same = e instanceof main.FilterError && e.code === 'INVALID_ARGUMENT'; }",
      "console.log(missing.length ? `missing ${missing}` : same ? 'ok' : 'another FilterError');",
    ]);
    assert(r.status === 0 && r.stdout === 'ok\n', `bloomcuckoo/redis: ${r.out}`);
  });

  let server = null;
  let browser = null;
  try {
    await t.check('(e) a minimal Vite app importing the package builds without a warning', async () => {
      // the same page as the other bundlers': the probe and a worker round trip
      writeViteApp(web, pageMain(MODULE_WORKER));
      writeFileSync(join(web, 'round-trip.mjs'), ROUND_TRIP);
      writeFileSync(join(web, 'worker.js'), WEB_WORKER);
      const warnings = [];
      server = await buildAndServe(web, warnings);
      assert(warnings.length === 0, `Vite warned: ${warnings.join('\n')}`);
      const assets = readdirSync(join(web, 'dist/assets'));
      const wasm = assets.filter((f) => f.endsWith('.wasm'));
      const js = assets.filter((f) => f.endsWith('.js'));
      assert(wasm.length === 1, `one .wasm asset expected, got ${assets.join(', ')}`);
      const jsGz = js.reduce((a, f) => a + gz(readFileSync(join(web, 'dist/assets', f))), 0);
      const wasmGz = gz(readFileSync(join(web, 'dist/assets', wasm[0])));
      console.log(`       shipped by the Vite build (minified JS, gzip -9): JS ${kb(jsGz)} + wasm ${kb(wasmGz)} = ${kb(jsGz + wasmGz)}`);
    });

    await t.check('(e) its page in headless Chromium answers as Node does, its worker too, without console errors', async () => {
      assert(server && nodeProbe, 'needs the build and the Node probe');
      browser = await launchBrowser();
      const { text, got, errors } = await pageResult(browser, server.url, 20000);
      assert(got.worker === 'ok', `worker round trip: ${got.worker}`);
      delete got.worker;
      assert(JSON.stringify(got) === JSON.stringify(nodeProbe), `browser ${text}\n  node ${JSON.stringify(nodeProbe)}`);
      assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
    });

    await t.check('(e2) bloomcuckoo/check in a Vite page: answers as Node, fetches one small module per kind opened', async () => {
      // filters made in Node from the installed package, the page opens their bytes with the checker
      const node = sh(process.execPath, ['--input-type=module', '-e', `
        import { init, BloomFilter, BinaryFuseFilter } from 'bloomcuckoo';
        await init();
        const keys = Array.from({ length: 3000 }, (_, i) => 'https://bad.example/' + i);
        const probe = [...keys.slice(0, 50), ...Array.from({ length: 3000 }, (_, i) => 'https://ok.example/' + i)];
        const out = {};
        for (const [name, f] of [['bloom', BloomFilter.from(keys)], ['fuse', BinaryFuseFilter.build(keys)]]) {
          out[name] = { bytes: Buffer.from(f.serialize()).toString('base64'), answers: Array.from(f.hasAll(probe)).join('') };
        }
        console.log(JSON.stringify({ probe, out }));`], { cwd: app });
      assert(node.status === 0, `node: ${node.out}`);
      const { probe, out } = JSON.parse(node.stdout);
      const dir = join(app, 'web-check');
      writeViteApp(dir, pageScript(`import { open } from 'bloomcuckoo/check';
import data from './data.json';`, `  const r = {};
  for (const [name, b64] of Object.entries(data.bytes)) {
    const f = await open(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
    r[name] = Array.from(f.hasAll(data.probe)).join('');
    f.free();
  }
  return r;`));
      writeFileSync(join(dir, 'data.json'), JSON.stringify({ probe, bytes: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.bytes])) }));
      const warnings = [];
      const srv = await buildAndServe(dir, warnings);
      try {
        assert(warnings.length === 0, `Vite warned: ${warnings.join('\n')}`);
        browser ??= await launchBrowser();
        const fetched = [];
        const { page, got, errors } = await pageResult(browser, srv.url, 20000, 'the checker page',
          (p) => p.on('response', (res) => fetched.push(res.url())));
        for (const name of Object.keys(out)) assert(got[name] === out[name].answers, `${name}: the page's answers differ from Node's`);
        const wasm = fetched.filter((u) => u.endsWith('.wasm')).map((u) => u.slice(u.lastIndexOf('/') + 1));
        assert(wasm.length === 2 && wasm.some((u) => u.startsWith('check-bloom')) && wasm.some((u) => u.startsWith('check-fuse')),
          `one module per kind opened, got ${wasm.join(', ')}`);
        assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
        const assets = join(dir, 'dist/assets');
        const size = (pred) => readdirSync(assets).filter(pred).reduce((a, f) => a + gz(readFileSync(join(assets, f))), 0);
        console.log(`       the checker page: JS ${kb(size((f) => f.endsWith('.js')))} (with its data), modules fetched: ${wasm.join(', ')}`
          + ` (${kb(size((f) => f.startsWith('check-bloom')))} + ${kb(size((f) => f.startsWith('check-fuse')))})`);
        await page.close();
      } finally {
        await srv.close();
      }
    });
  } finally {
    await browser?.close();
    await server?.close();
  }

  // (f)-(o): Bun, Deno, workerd, webpack, esbuild, Rollup, Parcel, Bun's bundler, a plain page,
  // webpack for workerd, esbuild IIFE (tests/pack/matrix.mjs)
  if (nodeProbe) {
    const rows = await runMatrix({ t, app, nodeProbe, sh });
    await t.check('README: the "Runtimes and bundlers" table lists every tested runtime and bundler with its version', () => {
      const readme = readFileSync(join(root, 'README.md'), 'utf8');
      const table = readme.slice(readme.indexOf('## Runtimes and bundlers'));
      assert(readme.includes('## Runtimes and bundlers'), 'README has no "Runtimes and bundlers" section');
      for (const r of [...rows, { name: 'Vite', version: viteVersion }]) {
        assert(table.includes(`| ${r.name} | ${r.version}`), `README table lacks "| ${r.name} | ${r.version}" (tested: ${JSON.stringify(r)})`);
      }
    });
  }
} finally {
  if (process.env.KEEP_PACK_TMP === '1') console.log(`       kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(`       pack smoke test took ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = t.summary() ? 1 : 0;
