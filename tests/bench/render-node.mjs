// Markdown tables for tests/bench/results/node.json (node-bench.mjs), with the targets.
import { fmt, table } from './lib.mjs';

const OURS = 'bloomcuckoo ';
const short = (name) => name.replace(OURS, '');
const BF = 'bloomfilter@1.1.0';

// Counterparts in bloom-filters for the "≥ 30×" target.
const PEER_OF = {
  'bloomcuckoo BloomFilter': 'bloom-filters@3.0.4 BloomFilter',
  'bloomcuckoo BlockedBloomFilter': 'bloom-filters@3.0.4 BloomFilter',
  'bloomcuckoo CountingBloomFilter': 'bloom-filters@3.0.4 BloomFilter',
  'bloomcuckoo ScalableBloomFilter': 'bloom-filters@3.0.4 BloomFilter',
  'bloomcuckoo CuckooFilter': 'bloom-filters@3.0.4 CuckooFilter',
  'bloomcuckoo BinaryFuseFilter': 'bloom-filters@3.0.4 XorFilter',
};

const x = (a, b) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);
const r2 = (v) => (v === undefined ? '–' : `${v.toFixed(2)}×`);
const verdict = (v, goal) => (v === undefined ? '–' : v >= goal ? 'met' : '**not met**');

function speedTable(byName, n) {
  const rows = [];
  for (const [name, r] of Object.entries(byName)) {
    const star = r.n < n ? ` (n=${r.n.toLocaleString('en-US')}, scaled)` : '';
    rows.push([`${short(name)}${star}`, fmt(r.init, 2), fmt(r.addAll), fmt(r.addOne ?? r.build), fmt(r.addPacked),
      fmt(r.hasAllPos), fmt(r.hasAllNeg), fmt(r.hasOnePos), fmt(r.hasOneNeg), fmt(r.hasPackedPos), fmt(r.hasPackedNeg)]);
  }
  return table(['contender', 'new (ms)', 'addAll', 'add one by one (fuse/xor: build)', 'addAll packed', 'hasAll +', 'hasAll −', 'has one by one +', 'has one by one −', 'hasAll packed +', 'hasAll packed −'], rows);
}

function sizeTable(byName) {
  const rows = [];
  for (const [name, r] of Object.entries(byName)) {
    rows.push([short(name), (100 * r.fpr).toFixed(3), String(r.falseNegatives),
      r.bytes === undefined ? '–' : `${fmt(r.bytes, 0)}${r.bytesMeasuredAs === 'heap Δ' ? ' (heap Δ)' : ''}`,
      r.bytes === undefined ? '–' : fmt((8 * r.bytes) / r.n, 2), fmt(r.serializedBytes, 0), fmt((8 * r.serializedBytes) / r.n, 2)]);
  }
  return table(['contender', 'measured FPR %', 'false negatives', 'bytes in memory', 'bits/key in memory', 'serialized bytes', 'serialized bits/key'], rows);
}

function targets(res, floors) {
  const rows = [];
  for (const [scenario, byName] of Object.entries(res.results)) {
    if (!scenario.startsWith('string')) continue;
    const b = byName['bloomcuckoo BlockedBloomFilter'];
    const bf = byName[BF];
    if (!b || !bf) continue;
    const bfLook = bf.hasOnePos + bf.hasOneNeg;
    const p = scenario.split(' ')[1];
    const floor = floors.string.rawCopy;
    const look = x(bfLook, b.hasAllPos + b.hasAllNeg);
    const ins = x(bf.addOne, b.addAll);
    rows.push([`${p}: blocked hasAll vs bloomfilter lookups (≥ 2×, stretch 3×)`, r2(look), verdict(look, 2)]);
    rows.push([`${p}: blocked addAll vs bloomfilter inserts (≥ 2×, stretch 3×)`, r2(ins), verdict(ins, 2)]);
    const fl = x(b.hasAllPos, floor);
    const fa = x(b.addAll, floor);
    rows.push([`${p}: blocked hasAll (+) / copy floor (≤ 1.5×)`, r2(fl), fl === undefined ? '–' : fl <= 1.5 ? 'met' : '**not met**']);
    rows.push([`${p}: blocked addAll / copy floor (≤ 1.5×)`, r2(fa), fa === undefined ? '–' : fa <= 1.5 ? 'met' : '**not met**']);
    const pl = x(bfLook, b.hasPackedPos + b.hasPackedNeg);
    const pa = x(bf.addOne, b.addPacked);
    rows.push([`${p}: blocked hasAll, packed keys, vs bloomfilter lookups (≥ 5×)`, r2(pl), verdict(pl, 5)]);
    rows.push([`${p}: blocked addAll, packed keys, vs bloomfilter inserts (≥ 5×)`, r2(pa), verdict(pa, 5)]);
    for (const [name, peerName] of Object.entries(PEER_OF)) {
      const o = byName[name];
      const peer = byName[peerName];
      if (!o || !peer) continue;
      const build = x(peer.addOne ?? peer.build, o.addAll ?? o.build);
      const lk = x(peer.hasOnePos + peer.hasOneNeg, o.hasAllPos + o.hasAllNeg);
      const worst = Math.min(build ?? Infinity, lk ?? Infinity);
      rows.push([`${p}: ${short(name)} vs ${peerName.replace('@3.0.4', '')} (≥ 30×; build, lookups)`, `${r2(build)}, ${r2(lk)}`, verdict(worst, 30)]);
    }
    for (const name of Object.keys(PEER_OF)) {
      const o = byName[name];
      if (!o) continue;
      const one = x(bfLook, o.hasOnePos + o.hasOneNeg);
      rows.push([`${p}: ${short(name)} has() one by one vs bloomfilter test() (≥ 1×)`, r2(one), verdict(one, 1)]);
    }
  }
  return table(['target', 'ratio (higher is better)', ''], rows);
}

export function render(res) {
  const n = res.n;
  const out = [];
  out.push(`n = ${n.toLocaleString('en-US')} keys per figure; medians of ${res.reps} repetitions, contenders in a rotated order each repetition; times in ms of CPU time for all n keys (+: the n added keys, −: n other keys). "packed": keys already in one Uint8Array + Uint32Array offsets (the proposed \`addAllPacked\`/\`hasAllPacked\`). bloom-filters@3.0.4 ran on ${res.peerN.toLocaleString('en-US')} keys (XorFilter ${res.xorN.toLocaleString('en-US')}) and its times are scaled ×n/its n: at 10^6 keys one figure would take minutes.`);
  out.push('');
  out.push(`#### Copy floor: getting ${n.toLocaleString('en-US')} keys' bytes into wasm memory (ms)`);
  out.push('');
  const f = res.floors;
  out.push(table(['keys', 'raw copy (ASCII fast path / bytes.set + offsets)', 'TextEncoder.encodeInto per key', 'bloomcuckoo packing (validate + pack, no wasm call)'],
    [['string "key:" + i', fmt(f.string.rawCopy), fmt(f.string.textEncoder), fmt(f.string.libraryPacking)],
      ['binary 16 bytes', fmt(f.binary.rawCopy), '–', fmt(f.binary.libraryPacking)]]));
  out.push('');
  out.push('#### Module load (fresh process, ms)');
  out.push('');
  out.push(table(['what', 'ms'], Object.entries(res.loads).map(([k, v]) => [k, fmt(v)])));
  out.push('');
  out.push('#### Targets of issue 9 (string keys; the peer measured in this shared harness)');
  out.push('');
  out.push(targets(res, res.floors));
  for (const [scenario, byName] of Object.entries(res.results)) {
    const [keyType, p] = scenario.split(' ');
    out.push('');
    out.push(`#### ${keyType === 'string' ? 'String keys "key:" + i' : '16-byte binary keys'}, target ${(100 * Number(p)).toString()}%: speed (ms for ${n.toLocaleString('en-US')} keys)`);
    out.push('');
    out.push(speedTable(byName, n));
    out.push('');
    out.push(`#### ${keyType === 'string' ? 'String keys' : '16-byte binary keys'}, target ${(100 * Number(p)).toString()}%: accuracy and size`);
    out.push('');
    out.push(sizeTable(byName));
  }
  return out.join('\n');
}
