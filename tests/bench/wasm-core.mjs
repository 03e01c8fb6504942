// The "batch" group of tests/bench/filters_bench.cc, run through the wasm build in Node: the same
// keys (u64: splitmix64 8-byte little-endian; str: "key:" + i), packed once into wasm linear
// memory (outside the timing), then the same core calls (addBatch / containsBatch / fuse build
// from key hashes) over all n keys, 16,384 keys per call. So wasm/native compares the same core
// work; JS key packing is measured separately (node-bench.mjs: copy floor, packed API).
//   node tests/bench/wasm-core.mjs [--ns=1000000,10000000] [--inner=3] [--out=...json]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  init, BloomFilter, BlockedBloomFilter, CountingBloomFilter, ScalableBloomFilter, CuckooFilter,
} from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import { median, now, parseArgs, splitmix64 } from './lib.mjs';

const args = parseArgs(process.argv.slice(2), { ns: '1000000,10000000', inner: 3, out: 'tests/bench/results/wasm-core.json' });
await init();
const m = requireWasm();
const CHUNK = 16384;
const P = 0.01;

/** Keys in wasm memory: data + absolute u32 offsets (n + 1). */
function packInWasm(strings, n, stream) {
  let bytes;
  let offsets;
  if (strings) {
    const first = stream === 1 ? 0 : n;
    offsets = new Uint32Array(n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) { total += 4 + String(first + i).length; offsets[i + 1] = total; }
    bytes = new Uint8Array(total);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const s = 'key:' + (first + i);
      for (let c = 0; c < s.length; c++) bytes[pos++] = s.charCodeAt(c);
    }
  } else {
    const ints = splitmix64(n, stream);
    bytes = new Uint8Array(ints.buffer);
    offsets = new Uint32Array(n + 1);
    for (let i = 0; i <= n; i++) offsets[i] = 8 * i;
  }
  const data = m._malloc(bytes.length);
  const offs = m._malloc(4 * (n + 1));
  const out = m._malloc(n);
  if (!data || !offs || !out) throw new Error('out of wasm memory for keys');
  m.HEAPU8.set(bytes, data);
  new Uint32Array(m.HEAPU8.buffer, offs, n + 1).set(offsets);
  return { data, offs, out, n, dataSize: bytes.length, free() { m._free(data); m._free(offs); m._free(out); } };
}

function chunks(keys, fn) {
  // the core only reads batches inside the registered key region (bindings/binding_util.h)
  m.setKeyRegion(keys.data, keys.dataSize, keys.offs, keys.n + 1);
  for (let s = 0; s < keys.n; s += CHUNK) fn(keys.data, keys.offs + 4 * s, Math.min(CHUNK, keys.n - s), keys.out + s);
}

const sized = (Cls, n) => new Cls({ capacity: n, errorRate: P });
const filters = {
  bloom: { make: (n) => sized(BloomFilter, n) },
  blocked: { make: (n) => sized(BlockedBloomFilter, n) },
  counting: { make: (n) => sized(CountingBloomFilter, n) },
  scalable: { make: (n) => new ScalableBloomFilter({ capacity: Math.floor(n / 4), errorRate: P }) },
  cuckoo: { make: (n) => sized(CuckooFilter, n) },
  fuse8: { fuse: 8 },
  fuse16: { fuse: 16 },
};

function insert(kind, keys) {
  const spec = filters[kind];
  if (spec.fuse) {
    // BinaryFuseFilter.build's own steps, from keys already in wasm memory
    const hashes = m._malloc(8 * keys.n);
    const t0 = now();
    chunks(keys, (d, o, c, _out) => m.hashKeysForFuse(d, o, c, 0x9747b28c, hashes + 8 * ((o - keys.offs) / 4)));
    const core = new m.BinaryFuseFilterCore();
    const status = core.buildFromHashes(hashes, keys.n, spec.fuse, 0x9747b28c);
    const ms = now() - t0;
    m._free(hashes);
    if (status !== 0) throw new Error('fuse build failed');
    return { ms, core, free: () => core.delete() };
  }
  const f = spec.make(keys.n);
  const c = f._core;
  const t0 = now();
  if (kind === 'scalable' || kind === 'cuckoo') {
    chunks(keys, (d, o, cnt, out) => { c.addBatch(d, o, cnt, out); });
  } else {
    chunks(keys, (d, o, cnt) => { c.addBatch(d, o, cnt); });
  }
  const ms = now() - t0;
  return { ms, core: c, free: () => f.free() };
}

function query(core, keys) {
  const t0 = now();
  chunks(keys, (d, o, cnt, out) => core.containsBatch(d, o, cnt, out));
  const ms = now() - t0;
  const res = m.HEAPU8.subarray(keys.out, keys.out + keys.n);
  let hits = 0;
  for (let i = 0; i < res.length; i++) hits += res[i];
  return { ms, hits };
}

const results = {};
for (const n of String(args.ns).split(',').map(Number)) {
  for (const strings of [false, true]) {
    const kt = strings ? 'str' : 'u64';
    const pos = packInWasm(strings, n, 1);
    const neg = packInWasm(strings, n, 2);
    for (const kind of Object.keys(filters)) {
      const ins = [];
      const q0 = [];
      const q100 = [];
      let fpr = 0;
      let hits = 0;
      let bits = 0;
      for (let r = 0; r < args.inner; r++) {
        const b = insert(kind, pos);
        ins.push(b.ms);
        bits = (8 * b.core.byteLength()) / n;
        const a = query(b.core, neg);
        q0.push(a.ms);
        fpr = a.hits / n;
        const c = query(b.core, pos);
        q100.push(c.ms);
        hits = c.hits / n;
        b.free();
      }
      const base = `batch/${kind}/${kt}/${n}`;
      results[`${base}/insert`] = { ms: median(ins), bits_per_key: bits };
      results[`${base}/query0`] = { ms: median(q0), bits_per_key: bits, fpr };
      results[`${base}/query100`] = { ms: median(q100), bits_per_key: bits, hits };
      process.stderr.write(`${base}: insert ${median(ins).toFixed(1)} ms, query0 ${median(q0).toFixed(1)} ms, query100 ${median(q100).toFixed(1)} ms\n`);
    }
    pos.free();
    neg.free();
  }
}
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, JSON.stringify({ when: new Date().toISOString(), node: process.version, results }, null, 1));
