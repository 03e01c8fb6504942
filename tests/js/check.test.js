// bloomcuckoo/check (js/check.js and its per-kind modules js/wasm/check-<kind>.wasm) against the
// main library: for every kind, the same answers to has/hasAll for present and absent keys (false
// positives included) from the same bytes, the golden files included; the same error code as the
// main deserialize for truncated, bit-flipped and foreign bytes; the size budget (a page that
// only checks keys: ≤ 10 KB gzipped, the checker's JS and its largest module together).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as main from '../../js/index.js';
import { FilterError, open } from '../../js/check.js';
import { GOLDEN_DIR } from './golden.js';

const KINDS = ['bloom', 'blocked', 'counting', 'scalable', 'cuckoo', 'fuse', 'redis-bloom', 'redis-cuckoo'];
const keys = (n, tag) => Array.from({ length: n }, (_, i) => `${tag}:${i}`);
const present = keys(5000, 'in');
// absent keys of every shape: ASCII, UTF-8, empty, long, and bytes
const absent = [...keys(20000, 'out'), ...keys(500, 'ünï☃'), '', 'x'.repeat(70000), new Uint8Array([0, 1, 2]),
  new Uint16Array([300, 400]), new ArrayBuffer(5)];

function makers() {
  return {
    bloom: () => main.BloomFilter.from(present),
    blocked: () => main.BlockedBloomFilter.from(present),
    counting: () => { const f = main.CountingBloomFilter.from(present); f.removeAll(present.slice(0, 100)); return f; },
    scalable: () => main.ScalableBloomFilter.from(present, { capacity: 300 }),
    cuckoo: () => { const f = main.CuckooFilter.from(present, { capacity: 1000, bucketSize: 2 }); f.remove('in:7'); return f; },
    fuse: () => main.BinaryFuseFilter.build(present, { fingerprintBits: 16 }),
    'redis-bloom': () => main.RedisBloomFilter.from(present, { capacity: 200, expansion: 4 }),
    'redis-cuckoo': () => main.RedisCuckooFilter.from(present, { capacity: 256, bucketSize: 4 }),
  };
}

const codeOf = async (fn) => {
  try {
    const f = await fn();
    f.free();
    return 'ok';
  } catch (err) {
    return err.code ?? err.name;
  }
};

beforeAll(() => main.init());

describe.each(KINDS)('%s', (kind) => {
  test('the same answers as the main library, one key at a time and in batches', async () => {
    const f = makers()[kind]();
    const c = await open(f.serialize());
    try {
      expect(c.kind).toBe(kind);
      expect(c.byteLength).toBe(f.byteLength);
      const all = [...present, ...absent];
      expect(Array.from(c.hasAll(all))).toEqual(Array.from(f.hasAll(all)));
      expect(Array.from(c.hasAll(new Set(present.slice(0, 100))))).toEqual(Array.from(f.hasAll(present.slice(0, 100))));
      for (const k of [...present.slice(0, 300), ...absent.slice(0, 300), ...absent.slice(-6)]) expect(c.has(k)).toBe(f.has(k));
      expect(c.hasAll(present).every((b) => b === 1) || kind === 'counting' || kind === 'cuckoo').toBe(true);
    } finally {
      c.free();
      f.free();
    }
  });

  test('bytes the main deserialize refuses get the same code, and nothing is kept', async () => {
    const f = makers()[kind]();
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
    for (const bytes of cases) {
      const want = await codeOf(() => main.deserialize(bytes));
      expect(await codeOf(() => open(bytes))).toBe(want);
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
    import { open } from ${JSON.stringify(new URL('../../js/check.js', import.meta.url).href)};
    const bytes = Buffer.from('${hex}', 'hex');
    const err = await open(bytes, { url: 'file:///nonexistent/check-fuse.wasm' }).catch((e) => e);
    const c = await open(bytes);
    console.log(JSON.stringify([err.code ?? null, String(err.message), c.has('x'), c.kind]));`], { encoding: 'utf8' });
  const [code, message, has, kind] = JSON.parse(out);
  expect(code).toBe('ENOENT');
  expect(message).toMatch(/nonexistent/);
  expect([has, kind]).toEqual([true, 'fuse']);
});

test('size: the checker JS and its largest per-kind module, gzip -9, ≤ 10 KB', () => {
  const gz = (p) => gzipSync(readFileSync(new URL(p, import.meta.url)), { level: 9 }).length;
  const js = gz('../../js/check.min.js');
  const modules = KINDS.map((k) => [k, gz(`../../js/wasm/check-${k}.wasm`)]);
  const [worst, wasm] = modules.reduce((a, b) => (b[1] > a[1] ? b : a));
  console.log(`bloomcuckoo/check: JS ${js} B + largest module (${worst}) ${wasm} B = ${js + wasm} B gzip -9; modules ${modules.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  expect(js + wasm).toBeLessThanOrEqual(10 * 1024);
});
