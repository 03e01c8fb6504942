// bloomcuckoo against pure-JS and wasm peers in Node, side by side in one run.
//   node --expose-gc tests/bench/node-bench.mjs [--n=1000000] [--reps=3] [--peerN=100000]
//        [--xorN=10000] [--out=tests/bench/results/node.json]
// Work: n string keys ("key:" + i; lookups of "key:" + (n + i) are the negatives) and n 16-byte
// binary keys (for contenders that take bytes), at targets 1% and 0.1%. Every repetition runs
// every contender once per scenario, in an order rotated per repetition; figures are medians.
// bloom-filters@3.0.4 is 100-1000x slower than the rest: it runs on the first peerN keys (its
// XorFilter on xorN), and its times are scaled to n (per-key cost × n), marked in the tables.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as bloomfilter from 'bloomfilter';
import bloomFilters from 'bloom-filters';
import {
  init, BloomFilter, BlockedBloomFilter, CountingBloomFilter, ScalableBloomFilter, CuckooFilter,
  BinaryFuseFilter,
} from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import { PackedKeys, forEachChunk } from '../../js/main/keys.js';
import { binaryKeys, median, now, pack, parseArgs, rotate, stringKeys } from './lib.mjs';

const require = createRequire(import.meta.url);
const ceramic = require('@ceramicnetwork/wasm-bloom-filter');

const args = parseArgs(process.argv.slice(2), {
  n: 1_000_000, reps: 3, peerN: 100_000, xorN: 10_000, out: 'tests/bench/results/node.json', targets: '0.01,0.001',
});
const N = args.n;
const gc = globalThis.gc ?? (() => {});

await init();

function mem() {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function count(a) {
  let c = 0;
  for (let i = 0; i < a.length; i++) c += a[i];
  return c;
}

// ---- contenders -------------------------------------------------------------------------------
// Each: { name, binary: takes bytes?, n: keys it runs on, make(p, n), add, has, addAll?, hasAll?,
//         addPacked?, hasPacked?, build? (static), bytes(f), serialized(f), free? }
function ours(name, Cls, make) {
  return {
    name, binary: true, ours: true,
    make: (p, n) => make(Cls, p, n),
    add: (f, k) => f.add(k),
    has: (f, k) => f.has(k),
    addAll: (f, keys) => f.addAll(keys),
    hasAll: (f, keys) => f.hasAll(keys),
    // the proposed addAllPacked(bytes, offsets) / hasAllPacked(bytes, offsets) are exactly
    // addAll / hasAll of the internal PackedKeys (js/main/keys.js); used directly until they land
    addPacked: (f, pk) => f.addAll(new PackedKeys(pk.bytes, pk.offsets)),
    hasPacked: (f, pk) => f.hasAll(new PackedKeys(pk.bytes, pk.offsets)),
    bytes: (f) => f.byteLength,
    serialized: (f) => f.serialize().byteLength,
    free: (f) => f.free(),
  };
}
const sized = (Cls, p, n) => new Cls({ capacity: n, errorRate: p });

const contenders = [
  ours('bloomcuckoo BloomFilter', BloomFilter, sized),
  ours('bloomcuckoo BlockedBloomFilter', BlockedBloomFilter, sized),
  ours('bloomcuckoo CountingBloomFilter', CountingBloomFilter, sized),
  ours('bloomcuckoo ScalableBloomFilter', ScalableBloomFilter, sized),
  ours('bloomcuckoo CuckooFilter', CuckooFilter, sized),
  {
    name: 'bloomcuckoo BinaryFuseFilter', binary: true, ours: true, static: true,
    // 8-bit fingerprints (~0.39%) for the 1% target, 16-bit (~0.0015%) for 0.1%
    build: (keys, p) => BinaryFuseFilter.build(keys, { fingerprintBits: p >= 0.005 ? 8 : 16 }),
    has: (f, k) => f.has(k),
    hasAll: (f, keys) => f.hasAll(keys),
    hasPacked: (f, pk) => f.hasAll(new PackedKeys(pk.bytes, pk.offsets)),
    bytes: (f) => f.byteLength,
    serialized: (f) => f.serialize().byteLength,
    free: (f) => f.free(),
  },
  {
    name: 'bloomfilter@1.1.0', binary: false,
    make: (p, n) => bloomfilter.BloomFilter.withTargetError(n, p),
    add: (f, k) => f.add(k),
    has: (f, k) => f.test(k),
    bytes: (f) => f.buckets.byteLength,
    serialized: (f) => JSON.stringify(f).length,
  },
  {
    name: '@ceramicnetwork/wasm-bloom-filter@0.1.0', binary: false,
    make: (p, n) => new ceramic.BloomFilter(p, n),
    add: (f, k) => f.add(k),
    has: (f, k) => f.contains(k),
    bytes: null, // lives in its own wasm memory; not attributable per filter
    serialized: (f) => f.toString().length,
    free: (f) => f.free(),
  },
  {
    name: 'bloom-filters@3.0.4 BloomFilter', binary: true, scaled: 'peerN',
    make: (p, n) => bloomFilters.BloomFilter.create(n, p),
    add: (f, k) => f.add(k),
    has: (f, k) => f.has(k),
    serialized: (f) => JSON.stringify(f.saveAsJSON()).length,
  },
  {
    name: 'bloom-filters@3.0.4 CuckooFilter', binary: true, scaled: 'peerN',
    make: (p, n) => bloomFilters.CuckooFilter.create(n, p),
    add: (f, k) => f.add(k),
    has: (f, k) => f.has(k),
    serialized: (f) => JSON.stringify(f.saveAsJSON()).length,
  },
  {
    name: 'bloom-filters@3.0.4 XorFilter', binary: true, scaled: 'xorN', static: true,
    build: (keys, p) => bloomFilters.XorFilter.create(keys, p >= 0.005 ? 8 : 16),
    has: (f, k) => f.has(k),
    serialized: (f) => JSON.stringify(f.saveAsJSON()).length,
  },
  {
    name: 'JS Set', binary: false,
    make: () => new Set(),
    add: (f, k) => f.add(k),
    has: (f, k) => f.has(k),
    serialized: (f) => JSON.stringify([...f]).length,
  },
];

// ---- key sets ---------------------------------------------------------------------------------
const sets = {
  string: { pos: stringKeys(N), neg: stringKeys(N, N) },
};
{
  const a = binaryKeys(N, 12345);
  const b = binaryKeys(N, 67890);
  sets.binary = { pos: a.keys, neg: b.keys };
}
for (const s of Object.values(sets)) {
  s.posPacked = pack(s.pos);
  s.negPacked = pack(s.neg);
}
// bloom-filters takes Buffers for bytes
const asBuffer = (k) => Buffer.from(k.buffer, k.byteOffset, k.byteLength);

// ---- one contender, one scenario --------------------------------------------------------------
function runOne(c, keyType, p) {
  const n = c.scaled ? Math.min(N, args[c.scaled]) : N;
  const scale = N / n;
  let pos = sets[keyType].pos;
  let neg = sets[keyType].neg;
  if (n < N) { pos = pos.slice(0, n); neg = neg.slice(0, n); }
  if (keyType === 'binary' && !c.ours) { pos = pos.map(asBuffer); neg = neg.map(asBuffer); }
  const r = { n };
  const ms = (fn) => { const t0 = now(); const v = fn(); r._last = v; return (now() - t0) * scale; };

  gc();
  const before = mem();
  let f;
  if (c.static) {
    r.build = ms(() => (f = c.build(pos, p)));
  } else {
    r.init = ms(() => (f = c.make(p, n))) / scale;
    r.addOne = ms(() => { for (let i = 0; i < pos.length; i++) c.add(f, pos[i]); });
  }
  gc();
  r.heapDelta = mem() - before;

  r.hasOnePos = ms(() => { let h = 0; for (let i = 0; i < pos.length; i++) h += c.has(f, pos[i]) ? 1 : 0; return h; });
  r.falseNegatives = n - r._last;
  r.hasOneNeg = ms(() => { let h = 0; for (let i = 0; i < neg.length; i++) h += c.has(f, neg[i]) ? 1 : 0; return h; });
  r.fpr = r._last / n;
  if (c.hasAll) {
    r.hasAllPos = ms(() => c.hasAll(f, pos));
    r.falseNegativesBatch = n - count(r._last);
    r.hasAllNeg = ms(() => c.hasAll(f, neg));
    r.hasPackedPos = ms(() => c.hasPacked(f, sets[keyType].posPacked));
    r.hasPackedNeg = ms(() => c.hasPacked(f, sets[keyType].negPacked));
    if (count(r._last) !== Math.round(r.fpr * n)) throw new Error(`${c.name}: packed and one-by-one lookups disagree`);
  }
  r.bytes = c.bytes ? c.bytes(f) : (c.ours ? undefined : r.heapDelta);
  r.bytesMeasuredAs = c.bytes ? 'exact' : (c.ours ? '' : 'heap Δ');
  if (c.name.startsWith('@ceramic')) { r.bytes = undefined; r.bytesMeasuredAs = ''; }
  r.serializedBytes = c.serialized(f);
  c.free?.(f);

  if (c.addAll) {
    const g = c.make(p, n);
    r.addAll = ms(() => c.addAll(g, pos));
    c.free?.(g);
    const h = c.make(p, n);
    r.addPacked = ms(() => c.addPacked(h, sets[keyType].posPacked));
    c.free?.(h);
  }
  delete r._last;
  return r;
}

// ---- the copy floor ---------------------------------------------------------------------------
// What any wasm design must do for string keys: get the bytes into linear memory. (a) raw copy:
// ASCII fast path (charCodeAt → heap; bytes.set for binary keys) + u32 offsets in chunks of
// 16,384, no validation, no call; (b) TextEncoder.encodeInto per key; (c) bloomcuckoo's own
// packing (validation + chunking) with a no-op instead of the wasm call.
function copyFloor(keyType, warm = false) {
  if (!warm) copyFloor(keyType, true);  // one untimed pass first, so every method runs JIT-compiled
  const m = requireWasm();
  const keys = warm ? sets[keyType].pos.slice(0, 50000) : sets[keyType].pos;
  const cap = 4 * 1024 * 1024;
  const ptr = m._malloc(cap + 4 * 16385);
  const offPtr = ptr + cap;
  const r = {};
  let t0 = now();
  {
    const heap = m.HEAPU8;
    const offs = new Uint32Array(heap.buffer, offPtr, 16385);
    let pos = 0;
    let j = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (keyType === 'string') {
        const len = k.length;
        for (let c = 0; c < len; c++) heap[ptr + pos + c] = k.charCodeAt(c);
        pos += len;
      } else {
        heap.set(k, ptr + pos);
        pos += k.length;
      }
      offs[++j] = pos;
      if (j === 16384) { j = 0; pos = 0; }
    }
  }
  r.rawCopy = now() - t0;
  if (keyType === 'string') {
    const enc = new TextEncoder();
    t0 = now();
    const heap = m.HEAPU8;
    const offs = new Uint32Array(heap.buffer, offPtr, 16385);
    let pos = 0;
    let j = 0;
    for (let i = 0; i < keys.length; i++) {
      pos += enc.encodeInto(keys[i], heap.subarray(ptr + pos, ptr + pos + 3 * keys[i].length)).written;
      offs[++j] = pos;
      if (j === 16384) { j = 0; pos = 0; }
    }
    r.textEncoder = now() - t0;
  }
  m._free(ptr);
  t0 = now();
  forEachChunk(keys, () => {});
  r.libraryPacking = now() - t0;
  return r;
}

// ---- module load time (fresh processes) -------------------------------------------------------
import { spawnSync } from 'node:child_process';
function loadTime(code) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: process.cwd(), encoding: 'utf8' });
  return Number(r.stdout.trim());
}
const loaders = {
  'bloomcuckoo (import + await init())': "const t=performance.now(); const m=await import('./js/main/index.js'); await m.init(); console.log(performance.now()-t)",
  '@ceramicnetwork/wasm-bloom-filter (require)': "import {createRequire} from 'node:module'; const r=createRequire(process.cwd()+'/x.js'); const t=performance.now(); r('@ceramicnetwork/wasm-bloom-filter'); console.log(performance.now()-t)",
  'bloomfilter (import)': "const t=performance.now(); await import('bloomfilter'); console.log(performance.now()-t)",
  'bloom-filters (import)': "const t=performance.now(); await import('bloom-filters'); console.log(performance.now()-t)",
};

// ---- main -------------------------------------------------------------------------------------
const targets = String(args.targets).split(',').map(Number);
const raw = {}; // raw[scenario][contender] = [rep results]
const floors = { string: [], binary: [] };
const loads = {};
const started = now();
for (let rep = 0; rep < args.reps; rep++) {
  for (const [name, code] of rotate(Object.entries(loaders), rep)) (loads[name] ??= []).push(loadTime(code));
  for (const keyType of ['string', 'binary']) {
    floors[keyType].push(copyFloor(keyType));
    for (const p of targets) {
      const scenario = `${keyType} ${p}`;
      raw[scenario] ??= {};
      for (const c of rotate(contenders, rep)) {
        if (keyType === 'binary' && !c.binary) continue;
        gc();
        const r = runOne(c, keyType, p);
        (raw[scenario][c.name] ??= []).push(r);
        process.stderr.write(`[rep ${rep + 1}/${args.reps}] ${scenario} ${c.name}: ${Math.round(r.hasAllPos ?? r.hasOnePos)} ms lookups\n`);
      }
    }
  }
}

function medianOf(list) {
  const out = {};
  for (const key of Object.keys(list[0])) {
    const vals = list.map((r) => r[key]);
    out[key] = typeof vals[0] === 'number' ? median(vals) : vals[0];
  }
  return out;
}
const results = {};
for (const [scenario, byName] of Object.entries(raw)) {
  results[scenario] = {};
  for (const [name, list] of Object.entries(byName)) results[scenario][name] = { ...medianOf(list), reps: list.length };
}
const out = {
  when: new Date().toISOString(),
  node: process.version,
  n: N, reps: args.reps, peerN: args.peerN, xorN: args.xorN, targets,
  seconds: (now() - started) / 1000,
  floors: { string: medianOf(floors.string), binary: medianOf(floors.binary) },
  loads: Object.fromEntries(Object.entries(loads).map(([k, v]) => [k, median(v)])),
  results,
  raw,
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, JSON.stringify(out, null, 1));
process.stderr.write(`wrote ${args.out} (${out.seconds.toFixed(0)} s)\n`);
