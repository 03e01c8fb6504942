// Issue 36: the keys people use. URL-shaped string keys of about 12, 40 and 100 characters,
// side by side with bloomfilter@1.1.0 in one run: BlockedBloomFilter addAll/hasAll against the
// peer's add/test loop (target >= 2x) and BloomFilter has() one by one against its test() (target
// >= 1x); and where the packing paths of js/main/keys.js cross (the loop against one joined
// encodeInto per chunk; the loop against encodeInto for one key), which sets their thresholds.
//   node tests/bench/keylength-bench.mjs [--n=1000000] [--rounds=5] [--procs=3] [--write-docs]
// Each (class, length) runs in its own process (`--child`), as an application uses one class: in
// it every loop runs once to warm up, then `rounds` rounds with the loops rotated each round;
// figures are medians of CPU time (this machine is shared) in ns per key. Each such process runs
// `procs` times, the lengths in turn (12, 40, 100, 12, ...), so a slow spell of the machine falls
// on one process of each, not on one length: the ns figures are the medians over the processes,
// each ratio the median of the processes' own ratios (peer and ours measured in the same process),
// with their range.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import * as peer from 'bloomfilter';
import * as lib from '../../js/main/index.js';
import { encodeKey, queryAll, setPackingThresholds, JOINED_MIN_CHARS, ONE_KEY_ENCODE_MIN_CHARS } from '../../js/main/keys.js';
import { median, now, parseArgs, publishSection } from './lib.mjs';

const LENGTHS = [12, 40, 100];
const CROSS = [8, 10, 12, 16, 20, 24, 28, 32, 40, 64, 100];
const P = 0.01;
const args = parseArgs(process.argv.slice(2), { n: 1_000_000, rounds: 5, procs: 3, child: '', len: 0, 'write-docs': false });
const N = args.n;

/**
 * n URL-shaped keys of exactly `len` characters from index `first` (distinct: the host holds the
 * index): `https://host-<i>.example.com/` and path segments from 40 characters on, `h<i>.io/...`
 * below. As flat strings, as keys read from a file or the network are.
 */
export function urlKeys(n, len, first = 0) {
  const keys = new Array(n);
  for (let k = 0; k < n; k++) {
    const i = first + k;
    let s = len >= 40 ? `https://host-${i}.example.com/` : `h${i}.io/`;
    for (let j = 0; s.length < len; j++) s += `${['path', 'to', 'item', 'q'][(i + j) % 4]}${(i * 31 + j) % 97}/`;
    keys[k] = s.slice(0, len);
  }
  return JSON.parse(JSON.stringify(keys));
}

/** CPU ns per key of fn() over `n` keys. */
function per(fn, n = N) {
  const t = now();
  fn();
  return ((now() - t) * 1e6) / n;
}

/** Runs the loops warm, `rounds` times rotated; medians. */
function rounds(loops) {
  const names = Object.keys(loops);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round <= args.rounds; round++) {
    const order = names.slice(round % names.length).concat(names.slice(0, round % names.length));
    for (const n of order) {
      const v = loops[n]();
      if (round > 0) samples[n].push(v);   // round 0 warms every loop up
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

let sink = 0;

async function child(kind, len) {
  await lib.init();
  if (kind === 'cross') {
    // packing alone (the chunks handed to a no-op), each path forced, at each length; and one key
    const out = {};
    for (const L of CROSS) {
      const keys = urlKeys(N / 4, L);
      const loops = {};
      for (const [name, t] of [['loop', Infinity], ['joined', 0]]) {
        loops[`batch.${name}`] = () => { setPackingThresholds({ joined: t, oneKey: ONE_KEY_ENCODE_MIN_CHARS }); return per(() => queryAll(keys, () => 0), keys.length); };
        loops[`one.${name}`] = () => {
          setPackingThresholds({ joined: JOINED_MIN_CHARS, oneKey: t });
          return per(() => { for (let i = 0; i < keys.length; i++) sink += encodeKey(keys[i]); }, keys.length);
        };
      }
      out[L] = rounds(loops);
      setPackingThresholds();
    }
    return out;
  }
  const keys = urlKeys(N, len);
  const absent = urlKeys(N, len, N);
  const probe = keys.slice(0, N / 2).concat(absent.slice(0, N / 2));   // half present
  const peerFilter = peer.BloomFilter.withTargetError(N, P);
  for (const k of keys) peerFilter.add(k);
  const loops = {
    'peer.test': () => per(() => { for (let i = 0; i < N; i++) sink += peerFilter.test(probe[i]) ? 1 : 0; }),
  };
  if (kind === 'BloomFilter') {
    const f = new lib.BloomFilter({ capacity: N, errorRate: P });
    f.addAll(keys);
    loops.has = () => per(() => { for (let i = 0; i < N; i++) sink += f.has(probe[i]) ? 1 : 0; });
    loops.copy = () => per(() => { for (let i = 0; i < N; i++) sink += encodeKey(probe[i]); });
  } else {
    const f = new lib.BlockedBloomFilter({ capacity: N, errorRate: P });
    f.addAll(keys);
    let fresh = null;
    let freshPeer = null;
    loops.hasAll = () => per(() => { sink += f.hasAll(probe)[7]; });
    loops.packing = () => per(() => { queryAll(probe, () => 0); });
    loops['peer.add'] = () => {
      freshPeer = peer.BloomFilter.withTargetError(N, P);
      return per(() => { for (let i = 0; i < N; i++) freshPeer.add(keys[i]); });
    };
    loops.addAll = () => {
      fresh?.free();
      fresh = new lib.BlockedBloomFilter({ capacity: N, errorRate: P });
      return per(() => { sink += fresh.addAll(keys); });
    };
  }
  return rounds(loops);
}

if (args.child) {
  const r = await child(args.child, args.len);
  if (sink === -1) console.error('');
  process.stdout.write(JSON.stringify(r));
  process.exit(0);
}

function run(kind, len) {
  const r = spawnSync(process.execPath, [new URL(import.meta.url).pathname, `--child=${kind}`, `--len=${len}`,
    `--n=${N}`, `--rounds=${args.rounds}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 22 });
  if (r.status !== 0) throw new Error(`keylength-bench --child=${kind} --len=${len} failed (${r.status})`);
  return JSON.parse(r.stdout);
}

const load0 = os.loadavg()[0];
const res = Object.fromEntries(LENGTHS.map((len) => [len, { blocked: [], bloom: [] }]));
for (let p = 0; p < args.procs; p++) {
  for (const len of LENGTHS) {
    const r = { blocked: run('BlockedBloomFilter', len), bloom: run('BloomFilter', len) };
    res[len].blocked.push(r.blocked);
    res[len].bloom.push(r.bloom);
    process.stderr.write(`[keylength] ${len} (process ${p + 1} of ${args.procs}): ${JSON.stringify(r)}\n`);
  }
}
const cross = run('cross', 0);
const f1 = (x) => x.toFixed(1);
const x2 = (x) => `${x.toFixed(2)}×`;
const met = (ok) => (ok ? 'met' : '**not met**');
const sample = urlKeys(1, 40, 123456)[0];
/** The median over the processes of loop `name`'s figure. */
const mid = (runs, name) => median(runs.map((r) => r[name]));
/** The processes' own ratios peer / ours: "median× (min–max)" and whether the median meets `target`. */
function ratio(runs, peerName, ours, target) {
  const v = runs.map((r) => r[peerName] / r[ours]);
  const m = median(v);
  const range = runs.length > 1 ? ` (${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)})` : '';
  return `${x2(m)}${range} ${met(m >= target)}`;
}
const rows = LENGTHS.map((len) => {
  const b = res[len].blocked;
  const o = res[len].bloom;
  return `| ${len} | ${f1(mid(b, 'addAll'))} | ${f1(mid(b, 'peer.add'))} | ${ratio(b, 'peer.add', 'addAll', 2)} | ${f1(mid(b, 'hasAll'))} | ${f1(mid(b, 'peer.test'))} | ${ratio(b, 'peer.test', 'hasAll', 2)} | ${f1(mid(b, 'packing'))} | ${f1(mid(o, 'has'))} | ${f1(mid(o, 'peer.test'))} | ${ratio(o, 'peer.test', 'has', 1)} | ${f1(mid(o, 'copy'))} |`;
});
const crossRows = CROSS.map((L) => {
  const c = cross[L];
  return `| ${L} | ${f1(c['batch.loop'])} | ${f1(c['batch.joined'])} | ${x2(c['batch.joined'] / c['batch.loop'])} | ${f1(c['one.loop'])} | ${f1(c['one.joined'])} | ${x2(c['one.joined'] / c['one.loop'])} |`;
});
const md = [
  `n = ${N.toLocaleString('en-US')} URL-shaped string keys of exactly 12, 40 and 100 characters (e.g. \`${sample}\`), errorRate ${P};`,
  'lookups probe half present, half absent keys. CPU ns per key, medians of',
  `${args.rounds} warmed rounds; each (class, length) in its own process with bloomfilter@1.1.0 measured beside it in that`,
  `process, ${args.procs} such processes per (class, length), the lengths in turn: ns figures are the medians over the processes, ratios the`,
  'median of the processes\' own ratios (their range in parentheses), the target judged on the median',
  `(Node ${process.version}; ${os.cpus()[0].model.trim()}; load average ${f1(load0)} at the start, ${os.loadavg().map(f1).join(' ')} at the end, on ${os.cpus().length} cores, shared). Higher ratios are better.`,
  '',
  '| key length | BlockedBloomFilter `addAll` | peer `add` loop | ratio (≥ 2×) | `hasAll` | peer `test` loop | ratio (≥ 2×) | packing (JS) | BloomFilter `has()` one by one | peer `test()` | ratio (≥ 1×) | one-key copy |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
  '#### Key packing: where encodeInto overtakes the loop',
  '',
  `The same URL-shaped keys (${(N / 4).toLocaleString('en-US')} per length), packed by js/main/keys.js with each path forced (\`setPackingThresholds\`), in one process: a batch`,
  '(chunks handed to a no-op) by the charCodeAt loop or by one `encodeInto` of each chunk\'s keys joined; one key (`encodeKey`)',
  `by the loop or by \`encodeInto\`. CPU ns per key. The library switches at a chunk mean of ${JOINED_MIN_CHARS} characters (batches) and at ${ONE_KEY_ENCODE_MIN_CHARS}`,
  'characters (one key).',
  '',
  '| characters | batch: loop | batch: joined `encodeInto` | joined / loop | one key: loop | one key: `encodeInto` | encodeInto / loop |',
  '|---:|---:|---:|---:|---:|---:|---:|',
  ...crossRows,
].join('\n');
publishSection('keylength', md, 'The keys people use: 12, 40 and 100 characters');
