// Issue 14, targets 3 and 4, warmed and side by side: one key at a time (has() per call against
// bloomfilter@1.1.0's test(), and where a call's time goes) and the batch path (addAll/hasAll of
// 10^6 keys against bloomfilter's add/test loop, and where a batch's time goes).
//   node tests/bench/percall-bench.mjs [--write-docs]
// Each class runs in its own process (`--class=<name>`), as in an application that uses one
// class: its call sites stay monomorphic, like the peer's. In that process every loop runs once
// to warm up, then 5 rounds, the loops rotated each round; figures are medians.
// Parts of a call: "copy" writes the key's UTF-8 bytes into wasm memory (encodeKey); "bare call"
// is an Embind call that does nothing (seed()); "hash + probe, in cache" is contains() on a filter
// of the same class small enough to stay in L1; "cache misses" is what the 10^6-key filter adds;
// "wrapper" is what has() adds to copy + contains() (the freed check, the scratch pointers).
// Parts of a batch (hasAll): "packing" is the JS side alone (the keys' bytes and offsets written
// into wasm memory chunk by chunk, a no-op instead of the wasm call); "wasm" is hasAll of the same
// keys already packed (PackedKeys: one memcpy per chunk, then MurmurHash3 and the probes).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import * as peer from 'bloomfilter';
import * as lib from '../../js/main/index.js';
import { encodeKey, queryAll } from '../../js/main/keys.js';
import { median, parseArgs, publishSection } from './lib.mjs';

const CLASSES = ['BloomFilter', 'BlockedBloomFilter', 'CountingBloomFilter', 'ScalableBloomFilter', 'CuckooFilter', 'BinaryFuseFilter'];
const N = 1_000_000;
const P = 0.01;
const ROUNDS = 5;
const args = parseArgs(process.argv.slice(2), { class: '', 'write-docs': false });

/** Measures one class against the peer in this process; returns medians (ns per key). */
async function measure(name) {
  await lib.init();
  const keys = Array.from({ length: N }, (_, i) => `key:${i}`);
  const smallKeys = keys.slice(0, 50);
  const fuse = name === 'BinaryFuseFilter';
  const make = (n, ks) => {
    if (fuse) return lib.BinaryFuseFilter.build(ks);
    const f = new lib[name]({ capacity: n, errorRate: P });
    f.addAll(ks);
    return f;
  };
  const big = make(N, keys);
  const small = make(smallKeys.length, smallKeys);
  const c = big._core;
  const cs = small._core;
  const peerFilter = peer.BloomFilter.withTargetError(N, P);
  for (const k of keys) peerFilter.add(k);
  // the same keys packed once, for the wasm side of a batch
  const bytes = new TextEncoder().encode(keys.join(''));
  const offsets = new Uint32Array(N + 1);
  for (let i = 0; i < N; i++) offsets[i + 1] = offsets[i] + keys[i].length;
  const packed = new lib.PackedKeys(bytes, offsets);

  let sink = 0;
  const per = (fn) => {
    const t = performance.now();
    fn();
    return ((performance.now() - t) * 1e6) / N;
  };
  const loops = {
    'peer.test': () => per(() => { for (let i = 0; i < N; i++) sink += peerFilter.test(keys[i]) ? 1 : 0; }),
    copy: () => per(() => { for (let i = 0; i < N; i++) sink += encodeKey(keys[i]); }),
    has: () => per(() => { for (let i = 0; i < N; i++) sink += big.has(keys[i]) ? 1 : 0; }),
    contains: () => per(() => {
      for (let i = 0; i < N; i++) sink += c.contains(encodeKey(keys[i])) ? 1 : 0;
    }),
    small: () => per(() => {
      for (let i = 0; i < N; i++) sink += cs.contains(encodeKey(keys[i])) ? 1 : 0;
    }),
    bare: () => per(() => { for (let i = 0; i < N; i++) sink += c.seed(); }),
    hasAll: () => per(() => { sink += big.hasAll(keys)[7]; }),
    packing: () => per(() => { queryAll(keys, () => {}); }),
    'hasAll.packed': () => per(() => { sink += big.hasAll(packed)[7]; }),
  };
  if (!fuse) {
    // a fresh filter each time (made outside the timing): the peer's add loop against addAll
    let fresh = null;
    let freshPeer = null;
    const timedAdd = (prepare, fn) => () => { prepare(); return per(fn); };
    loops['peer.add'] = timedAdd(() => { freshPeer = peer.BloomFilter.withTargetError(N, P); },
      () => { for (let i = 0; i < N; i++) freshPeer.add(keys[i]); });
    loops.addAll = timedAdd(() => { fresh?.free(); fresh = new lib[name]({ capacity: N, errorRate: P }); },
      () => { sink += fresh.addAll(keys); });
  }
  const names = Object.keys(loops);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    const order = names.slice(round % names.length).concat(names.slice(0, round % names.length));
    for (const n of order) {
      const v = loops[n]();
      if (round > 0) samples[n].push(v);   // round 0 warms every loop up
    }
  }
  if (sink === -1) console.error('');
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

if (args.class) {
  process.stdout.write(JSON.stringify(await measure(args.class)));
  process.exit(0);
}

const results = {};
for (const name of CLASSES) {
  const r = spawnSync(process.execPath, [new URL(import.meta.url).pathname, `--class=${name}`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`percall-bench --class=${name} failed (${r.status})`);
  results[name] = JSON.parse(r.stdout);
}
const f1 = (x) => x.toFixed(1);
const x2 = (x) => `${x.toFixed(2)}×`;
const met = (ok) => (ok ? 'met' : '**not met**');
const callRows = CLASSES.map((name) => {
  const r = results[name];
  const hashProbe = r.small - r.copy - r.bare;
  const ratio = r['peer.test'] / r.has;
  return `| ${name} | ${f1(r.has)} | ${f1(r['peer.test'])} | ${x2(ratio)} ${met(ratio >= 1)} | ${f1(r.copy)} | ${f1(r.bare)} | ${f1(hashProbe)} | ${f1(r.contains - r.small)} | ${f1(r.has - r.contains)} |`;
});
const batchRows = CLASSES.map((name) => {
  const r = results[name];
  const hasRatio = r['peer.test'] / r.hasAll;
  const add = r.addAll === undefined ? '– | – | –'
    : `${f1(r.addAll)} | ${f1(r['peer.add'])} | ${x2(r['peer.add'] / r.addAll)} ${met(r['peer.add'] / r.addAll >= 2)}`;
  return `| ${name} | ${f1(r.hasAll)} | ${f1(r['peer.test'])} | ${x2(hasRatio)} ${met(hasRatio >= 2)} | ${add} | ${f1(r.packing)} | ${f1(r['hasAll.packed'])} | ${x2(r.hasAll / r.packing)} |`;
});
const all = Object.values(results);
const peerTest = median(all.map((r) => r['peer.test']));
const floor = median(all.map((r) => r.copy + r.bare));
const packing = median(all.map((r) => r.packing));
const md = [
  `n = ${N.toLocaleString('en-US')} keys \`"key:" + i\` (all present), errorRate ${P}; ns per key, medians of ${ROUNDS} warmed rounds,`,
  `each class in its own process with bloomfilter@1.1.0 measured beside it (Node ${process.version}; load average`,
  `${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores, shared). Higher ratios are better.`,
  '',
  '#### One key at a time: `has()` against bloomfilter\'s `test()` (target ≥ 1×)',
  '',
  '| class | `has()` ns | peer `test()` ns | ratio | copy | bare call | hash + probe, in cache | cache misses | wrapper |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...callRows,
  '',
  `The limit: writing the key's bytes into wasm memory and a bare call into wasm cost about ${f1(floor)} ns`,
  `together, before any hashing, against ${f1(peerTest)} ns for bloomfilter's whole \`test()\`, which hashes`,
  'the UTF-16 string in JS (FNV) where the wasm core must first receive the UTF-8 bytes and then run',
  'MurmurHash3_x64_128 on them. A plain wasm export instead of the Embind method measured (by hand) within',
  '1 ns of it, so the call is not the cost. Past that the classes differ by their probes: k scattered',
  "bits (Bloom, scalable, counting, whose table is 4× a Bloom filter's), one 32-byte block (blocked),",
  'two buckets (cuckoo), three slots (fuse). Keys given in batches pay neither per-call cost (below).',
  '',
  '#### The batch path: `hasAll`/`addAll` against bloomfilter\'s `test`/`add` loop (target ≥ 2×)',
  '',
  '| class | `hasAll` ns/key | peer `test` loop | ratio | `addAll` ns/key | peer `add` loop | ratio | packing (JS) | `hasAll` of packed keys (wasm) | `hasAll` / packing |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...batchRows,
  '',
  `Where a batch's time goes: the JS side writes each key's bytes and offset into wasm memory (${f1(packing)} ns`,
  'per key, at the cost of the plainest copy loop: the copy floor), then one call per 16,384 keys hashes',
  'them 64 at a time and probes (the packed column, which also includes one memcpy per chunk). The',
  'copy floor alone is more than a third of the peer\'s whole loop, so 2× needs the wasm part below',
  'about 1.5× the packing; `hasAll` / packing is the "within 2× of the copy floor" target.',
].join('\n');
publishSection('percall', md, 'One key at a time and the batch path, warmed');
