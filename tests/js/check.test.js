// bloomcuckoo/check (js/check/index.js and its per-kind modules dist/wasm/check-<kind>.wasm) against the
// main library: for every kind, the same answers to has/hasAll for present and absent keys (false
// positives included) from the same bytes, the golden files included; the same error code as the
// main deserialize for truncated, bit-flipped and foreign bytes; the size budget (a page that
// only checks keys: ≤ 10 KB gzipped, the checker's JS and its largest module together).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as main from '../../js/main/index.js';
import { FilterError, open } from '../../js/check/index.js';
import { KIND_NAMES as KINDS } from '../../js/shared/kind-table.js';
import { GOLDEN_DIR, build, recipes } from './golden.js';
import { crc32 } from '../fuzz/worst-headers.mjs';

const keys = (n, tag) => Array.from({ length: n }, (_, i) => `${tag}:${i}`);
// absent keys of every shape: ASCII, UTF-8, empty, long, and bytes
const absent = [...keys(20000, 'out'), ...keys(500, 'ünï☃'), '', 'x'.repeat(70000), new Uint8Array([0, 1, 2]),
  new Uint16Array([300, 400]), new ArrayBuffer(5)];

// The filters of each kind: its golden recipes (tests/kinds/<name>.mjs), rebuilt with
// the JS API (tests/js/golden.js), so a new kind needs nothing here; `present` is what a recipe
// added and did not remove.
const recipesOf = (kind) => recipes().filter((r) => r.kind === kind);
const presentOf = (r) => keys(r.n, 'golden').slice(r.remove);

const codeOf = async (fn) => {
  try {
    const f = await fn();
    f.free();
    return 'ok';
  } catch (err) {
    return err.code ?? err.name;
  }
};
// Every reader judges n bytes in O(n) time (docs/FORMAT.md): none of these inputs (a few hundred
// KB at most) may take this long, whatever its header claims (issue 34: 5-41 s).
const CEILING_MS = 1000;
/** codeOf(fn), or [what, 'slow', ms] when the verdict took over the ceiling. */
const judged = async (what, fn) => {
  const start = performance.now();
  const code = await codeOf(fn);
  const ms = performance.now() - start;
  return ms < CEILING_MS ? code : [what, 'slow', Math.round(ms)];
};

beforeAll(() => main.init());

test('every kind has a filter to check here', () => {
  const missing = KINDS.filter((kind) => recipesOf(kind).length === 0)
    .map((kind) => `kind '${kind}' has no recipe: give tests/kinds/${kind}.mjs one (export const golden; docs/CONTRIBUTING.md)`);
  expect(missing).toEqual([]);
});

describe.each(KINDS)('%s', (kind) => {
  test('the same answers as the main library, one key at a time and in batches', async () => {
    for (const recipe of recipesOf(kind)) {
      const f = build(recipe);
      const present = presentOf(recipe);
      const c = await open(f.serialize());
      try {
        expect([recipe.file, c.kind, c.byteLength]).toEqual([recipe.file, kind, f.byteLength]);
        const all = [...present, ...absent];
        expect(Array.from(c.hasAll(all))).toEqual(Array.from(f.hasAll(all)));
        expect(Array.from(c.hasAll(new Set(present.slice(0, 100))))).toEqual(Array.from(f.hasAll(present.slice(0, 100))));
        for (const k of [...present.slice(0, 300), ...absent.slice(0, 300), ...absent.slice(-6)]) expect(c.has(k)).toBe(f.has(k));
        expect([recipe.file, c.hasAll(present).every((b) => b === 1)]).toEqual([recipe.file, true]);
      } finally {
        c.free();
        f.free();
      }
    }
  });

  test('bytes the main deserialize refuses get the same code, and nothing is kept', async () => {
    const f = build(recipesOf(kind)[0]);
    const good = new Uint8Array(f.serialize());
    f.free();
    let state = 0x9e3779b9;
    const rnd = (n) => { state ^= state << 13; state ^= state >>> 17; state ^= state << 5; return (state >>> 0) % n; };
    const cases = [good.subarray(0, 0), good.subarray(0, 23), good.subarray(0, 24), good.subarray(0, good.length - 1),
      Uint8Array.from([...good, 0])];
    for (let i = 0; i < 40; i++) cases.push(good.subarray(0, rnd(good.length)));
    for (let i = 0; i < 60; i++) {
      const b = good.slice();
      const at = i < 24 ? i : rnd(b.length);
      b[at] ^= 1 << rnd(8);
      cases.push(b);
    }
    // and with the checksum made right, so the body's fields are judged (65535: the most
    // sub-filters a RedisBloom CF may claim, at every 8-byte offset of the body's first 64 bytes)
    const crcFixed = (b) => {
      new DataView(b.buffer, b.byteOffset).setUint32(b.length - 4, crc32(b.subarray(0, b.length - 4)), true);
      return b;
    };
    for (let off = 20; off + 8 <= Math.min(84, good.length - 4); off++) {
      const b = good.slice();
      new DataView(b.buffer).setBigUint64(off, 65535n, true);
      cases.push(crcFixed(b));
    }
    for (const [i, bytes] of cases.entries()) {
      const want = await judged(`main, case ${i}`, () => main.deserialize(bytes));
      expect(await judged(`check, case ${i}`, () => open(bytes))).toEqual(want);
    }
  });
});

test('the golden files answer as the main library reads them', async () => {
  const files = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.bin'));
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    const bytes = readFileSync(new URL(file, GOLDEN_DIR));
    const f = main.deserialize(bytes);
    const c = await open(bytes);
    const probe = [...keys(2000, 'golden'), ...keys(5000, 'nope')];
    expect([file, Array.from(c.hasAll(probe))]).toEqual([file, Array.from(f.hasAll(probe))]);
    c.free();
    f.free();
  }
});

test('misuse: key types, one string to hasAll, use after free, foreign input, a newer version', async () => {
  const f = main.BloomFilter.from(['a']);
  const bytes = new Uint8Array(f.serialize());
  f.free();
  const c = await open(bytes.buffer);
  expect(() => c.has(42)).toThrow(TypeError);
  expect(() => c.has(null)).toThrow(TypeError);
  expect(() => c.hasAll('abc')).toThrow(TypeError);
  expect(c.has('a')).toBe(true);
  c.free();
  c.free();
  expect(c.freed).toBe(true);
  expect(() => c.has('a')).toThrow(expect.objectContaining({ code: 'DISPOSED', name: 'FilterError' }));
  await expect(open('bytes')).rejects.toThrow(TypeError);
  const newer = bytes.slice();
  newer[4] = 2;
  await expect(open(newer)).rejects.toEqual(expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }));
  await expect(open(new Uint8Array(40))).rejects.toBeInstanceOf(FilterError);
  await expect(open(bytes, { module: {} })).resolves.toBeDefined(); // bloom's module is loaded: options unused
});

test('a module that cannot be found says so; a failed load is not cached', () => {
  // a fresh process, so no module is loaded yet
  const f = main.BinaryFuseFilter.build(['x']);
  const hex = Buffer.from(f.serialize()).toString('hex');
  f.free();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import { open } from ${JSON.stringify(new URL('../../js/check/index.js', import.meta.url).href)};
    const bytes = Buffer.from('${hex}', 'hex');
    const err = await open(bytes, { url: 'file:///nonexistent/check-fuse.wasm' }).catch((e) => e);
    const c = await open(bytes);
    console.log(JSON.stringify([err.code ?? null, String(err.message), c.has('x'), c.kind]));`], { encoding: 'utf8' });
  const [code, message, has, kind] = JSON.parse(out);
  expect(code).toBe('ENOENT');
  expect(message).toMatch(/nonexistent/);
  expect([has, kind]).toEqual([true, 'fuse']);
});

test('every module opens every kind\'s bytes: its own kind answers, another kind is INVALID_ARGUMENT (never OK)', () => {
  // A fresh process: each module is given to a fresh copy of js/check/index.js (its own URL), whose
  // first open of each kind uses that module; after a refusal the right module loads.
  const bytes = Object.fromEntries(KINDS.map((kind) => {
    const f = build(recipesOf(kind)[0]);
    const hex = Buffer.from(f.serialize()).toString('hex');
    f.free();
    return [kind, hex];
  }));
  const check = new URL('../../js/check/index.js', import.meta.url).href;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import { readFileSync } from 'node:fs';
    import { readFile } from 'node:fs/promises';
    const kinds = ${JSON.stringify(KINDS)};
    const bytes = JSON.parse(readFileSync(0, 'utf8'));
    const table = {};
    for (const m of kinds) {
      const module = await WebAssembly.compile(await readFile(new URL('../../dist/wasm/check-' + m + '.wasm', ${JSON.stringify(check)})));
      const { open } = await import(${JSON.stringify(check)} + '?module=' + m);
      table[m] = {};
      for (const k of kinds) {
        const b = Buffer.from(bytes[k], 'hex');
        try {
          const c = await open(b, { module });
          table[m][k] = 'ok:' + c.kind;
          c.free();
        } catch (err) {
          // the module of the bytes' own kind is loaded after a refusal
          const again = await open(b).then((c) => { c.free(); return c.kind; }, (e) => 'failed ' + e.code);
          table[m][k] = err.name + ':' + err.code + ':' + again;
        }
      }
    }
    console.log(JSON.stringify(table));`], { encoding: 'utf8', input: JSON.stringify(bytes), timeout: 120000 });
  const table = JSON.parse(out);
  for (const m of KINDS) {
    for (const k of KINDS) {
      expect([m, k, table[m][k]]).toEqual([m, k, m === k ? `ok:${k}` : `FilterError:INVALID_ARGUMENT:${k}`]);
    }
  }
});

// The source names a kind's module by one template (no list of kinds); the shipped build holds a
// literal URL per kind, which bundlers need (scripts/build-js.mjs writes them from the table).
test('moduleUrl: one template in the source, a literal URL per kind in dist/check.min.js; the codes are the documented ones', () => {
  const source = readFileSync(new URL('../../js/check/index.js', import.meta.url), 'utf8');
  expect(source).toContain('const moduleUrl = (kind) => new URL(`../../dist/wasm/check-${kind}.wasm`, import.meta.url);');
  const shipped = readFileSync(new URL('../../dist/check.min.js', import.meta.url), 'utf8').replace(/\n/g, '');
  expect(KINDS.filter((kind) => !shipped.includes(`new URL("./wasm/check-${kind}.wasm",import.meta.url)`))
    .map((kind) => `dist/check.min.js has no literal URL of check-${kind}.wasm: rebuild it (node scripts/build-js.mjs)`)).toEqual([]);
  const types = readFileSync(new URL('../../js/check/index.d.ts', import.meta.url), 'utf8');
  const thrown = [...source.matchAll(/fail\('([A-Z_]+)'/g)].map((m) => m[1]);
  const refused = [...source.match(/const SAYS = \{([^}]*)\}/)[1].matchAll(/^\s*([A-Z_]+):/gm)].map((m) => m[1]);
  expect(refused.length).toBeGreaterThan(2);
  const codes = new Set([...thrown, ...refused]);
  expect(codes.has('OK')).toBe(false);
  for (const code of codes) expect([code, types.includes(`\`${code}\``)]).toEqual([code, true]);
});

test('size: the checker JS and its largest per-kind module, gzip -9, ≤ 10 KB', () => {
  const gz = (p) => gzipSync(readFileSync(new URL(p, import.meta.url)), { level: 9 }).length;
  const js = gz('../../dist/check.min.js');
  const modules = KINDS.map((k) => [k, gz(`../../dist/wasm/check-${k}.wasm`)]);
  const [worst, wasm] = modules.reduce((a, b) => (b[1] > a[1] ? b : a));
  console.log(`bloomcuckoo/check: JS ${js} B + largest module (${worst}) ${wasm} B = ${js + wasm} B gzip -9; modules ${modules.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  expect(js + wasm).toBeLessThanOrEqual(10 * 1024);
});

// Issue 37: one error convention across the wasm boundary, the checker included: bc_load returns
// the handle (an address, as a double: addresses reach 4 GiB) or minus the status code, as the
// main module's exports do; no separate status call.
test('a module reports a refusal as minus the code, with no status export', async () => {
  const { readFile } = await import('node:fs/promises');
  const module = await WebAssembly.compile(await readFile(new URL('../../dist/wasm/check-bloom.wasm', import.meta.url)));
  const { exports: x } = await WebAssembly.instantiate(module, {
    env: { emscripten_notify_memory_growth() {} }, wasi_snapshot_preview1: { proc_exit() {} },
  });
  x._initialize();
  expect(WebAssembly.Module.exports(module).map((e) => e.name)).not.toContain('bc_status');
  const at = x.bc_malloc(64);
  new Uint8Array(x.memory.buffer, at, 64).fill(7);
  expect(x.bc_load(at, 64)).toBe(-5); // CORRUPT_DATA: bad magic
  const f = main.BloomFilter.from(['a']);
  const good = new Uint8Array(f.serialize());
  f.free();
  const gat = x.bc_malloc(good.length);
  new Uint8Array(x.memory.buffer, gat, good.length).set(good);
  const handle = x.bc_load(gat, good.length);
  expect(handle).toBeGreaterThan(0);
  new Uint8Array(x.memory.buffer, gat, 1).set([0x61]);
  expect(x.bc_has(handle, gat, 1)).toBe(1); // 'a' was added
  x.bc_free(handle);
});
