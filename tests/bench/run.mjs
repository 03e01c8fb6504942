// `npm run bench`: builds what it needs, runs every benchmark, writes tests/bench/results/*.json
// and the tables (tests/bench/results/tables.md; with --write-docs also into docs/BENCHMARKS.md
// between the "generated" markers).
//   node tests/bench/run.mjs [--reps=3] [--quick] [--skip-build] [--only=native|node] [--write-docs]
//   --quick: n = 10^5 in Node, 10^6 only natively, 1 repetition (for trying changes; not for docs)
// Native (Google Benchmark, build/bench) and the same work in wasm (wasm-core.mjs) run in
// alternation, one process each per repetition; node-bench.mjs alternates its contenders itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fmt, median, parseArgs, table } from './lib.mjs';
import { render as renderNode } from './render-node.mjs';

const root = new URL('../..', import.meta.url).pathname;
const resultsDir = `${root}tests/bench/results`;
const args = parseArgs(process.argv.slice(2), { reps: 3, quick: false, 'skip-build': false, only: '', 'write-docs': false, render: false });
const quick = Boolean(args.quick);
const reps = quick ? 1 : args.reps;
const ns = quick ? '1000000' : '1000000,10000000';
mkdirSync(resultsDir, { recursive: true });

function sh(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status})`);
  return r;
}
const log = (s) => process.stderr.write(`[bench] ${s}\n`);

if (!args['skip-build'] && !args.render) {
  log('wasm build (scripts/build.sh)');
  sh('bash', ['scripts/build.sh'], { env: { ...process.env, BUILD_NATIVE: '0' } });
  if (!existsSync(`${root}build/bench/CMakeCache.txt`)) {
    log('configure build/bench');
    sh('cmake', ['-B', 'build/bench', '-S', '.', '-DCMAKE_BUILD_TYPE=Release', '-DBLOOMCUCKOO_BENCH=ON',
      '-DCMAKE_CXX_FLAGS=-march=native']);
  }
  log('native bench build');
  sh('cmake', ['--build', 'build/bench', '-j2', '--target', 'bloomcuckoo_bench']);
}

if (!args.render && args.only !== 'node') {
  for (let rep = 1; rep <= reps; rep++) {
    // alternate which side goes first
    const order = rep % 2 ? ['native', 'wasm'] : ['wasm', 'native'];
    for (const side of order) {
      log(`rep ${rep}/${reps}: ${side}`);
      if (side === 'native') {
        sh(`${root}build/bench/bloomcuckoo_bench`, ['--benchmark_min_time=0.05',
          `--benchmark_out=${resultsDir}/native-r${rep}.json`, '--benchmark_out_format=json'],
        { env: { ...process.env, BC_BENCH_NS: ns }, stdio: ['ignore', 'ignore', 'inherit'] });
      } else {
        sh(process.execPath, ['tests/bench/wasm-core.mjs', `--ns=${ns}`, '--inner=1', `--out=${resultsDir}/wasm-r${rep}.json`],
          { stdio: ['ignore', 'ignore', 'ignore'] });
      }
    }
  }
  writeFileSync(`${resultsDir}/core-meta.json`, JSON.stringify({ reps, ns }));
}
if (!args.render && args.only !== 'native') {
  log('node-bench (peers)');
  const nodeArgs = ['--expose-gc', 'tests/bench/node-bench.mjs', `--reps=${reps}`, `--out=${resultsDir}/node.json`];
  if (quick) nodeArgs.push('--n=100000', '--peerN=10000', '--xorN=2000');
  sh(process.execPath, nodeArgs, { stdio: ['ignore', 'inherit', 'ignore'] });
}

// ---- render -----------------------------------------------------------------------------------
function readJson(p) { return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null; }

function coreResults() {
  const meta = readJson(`${resultsDir}/core-meta.json`) ?? { reps: 0 };
  const native = {};
  const wasm = {};
  for (let rep = 1; rep <= meta.reps; rep++) {
    const nr = readJson(`${resultsDir}/native-r${rep}.json`);
    for (const b of nr?.benchmarks ?? []) {
      const name = b.name.replace(/\/manual_time$/, '');
      const ms = b.real_time * (b.time_unit === 'ms' ? 1 : b.time_unit === 'us' ? 1e-3 : 1e-6);
      (native[name] ??= []).push({ ms, n: b.n, bits: b.bits_per_key, fpr: b.fpr, hits: b.hits });
    }
    const wr = readJson(`${resultsDir}/wasm-r${rep}.json`);
    for (const [name, v] of Object.entries(wr?.results ?? {})) (wasm[name] ??= []).push(v);
  }
  const med = (list) => list && { ms: median(list.map((x) => x.ms)), bits: list[0].bits ?? list[0].bits_per_key, fpr: list[0].fpr, hits: list[0].hits, reps: list.length };
  const N = {};
  const W = {};
  for (const k of Object.keys(native)) N[k] = med(native[k]);
  for (const k of Object.keys(wasm)) W[k] = med(wasm[k]);
  return { N, W, meta };
}

const FILTERS = ['bloom', 'blocked', 'counting', 'scalable', 'cuckoo', 'fuse8', 'fuse16'];
const nsPer = (r, n) => (r ? (r.ms * 1e6) / n : undefined);

function fastFilterTable(N, group, keys, n) {
  const rows = [];
  for (const f of FILTERS) {
    const ins = N[`${group}/${f}/${keys}/${n}/insert`];
    const q0 = N[`${group}/${f}/${keys}/${n}/query0`];
    const q100 = N[`${group}/${f}/${keys}/${n}/query100`];
    if (!ins) continue;
    const eps = q0?.fpr;
    const optimal = eps > 0 ? Math.log2(1 / eps) : undefined;
    const wasted = optimal ? (100 * (ins.bits - optimal)) / optimal : undefined;
    rows.push([f, fmt(nsPer(ins, n), 1), fmt(nsPer(q0, n), 1), fmt(nsPer(q100, n), 1),
      eps === undefined ? '–' : (100 * eps).toFixed(4), fmt(ins.bits, 2), fmt(optimal, 2), fmt(wasted, 0), (n / 1e6).toString()]);
  }
  return table(['filter', 'add ns/key', 'find 0% ns', 'find 100% ns', 'ε %', 'bits/item', 'optimal bits/item', 'wasted space %', 'million keys'], rows);
}

function wasmNativeTable(N, W, keys, n) {
  const rows = [];
  for (const f of FILTERS) {
    const cells = [f];
    for (const op of ['insert', 'query0', 'query100']) {
      const a = N[`batch/${f}/${keys}/${n}/${op}`];
      const b = W[`batch/${f}/${keys}/${n}/${op}`];
      cells.push(fmt(nsPer(a, n), 1), fmt(nsPer(b, n), 1), a && b ? `${(b.ms / a.ms).toFixed(2)}×` : '–');
    }
    rows.push(cells);
  }
  return table(['filter', 'insert native ns', 'insert wasm ns', 'wasm/native', 'query 0% native', 'query 0% wasm', 'wasm/native', 'query 100% native', 'query 100% wasm', 'wasm/native'], rows);
}

function ratioSummary(N, W, n) {
  const ratios = [];
  for (const keys of ['u64', 'str']) {
    for (const f of FILTERS) {
      for (const op of ['insert', 'query0', 'query100']) {
        const a = N[`batch/${f}/${keys}/${n}/${op}`];
        const b = W[`batch/${f}/${keys}/${n}/${op}`];
        if (a && b) ratios.push({ f, keys, op, r: b.ms / a.ms });
      }
    }
  }
  return ratios;
}

function referenceTable(N) {
  const n = 1000000;
  const ref = [
    ['BlockedBloom add (blocked, 1%)', 'mix/blocked/u64/1000000/insert', 3.5],
    ['BlockedBloom query 0% (blocked, 1%)', 'mix/blocked/u64/1000000/query0', 4.5, 5.7],
    ['BlockedBloom query 100% (blocked, 1%)', 'mix/blocked/u64/1000000/query100', 4.5, 5.7],
    ['Cuckoo12 add (cuckoo, 1% → 12-bit)', 'mix/cuckoo/u64/1000000/insert', 46],
    ['Cuckoo12 query 0% (cuckoo)', 'mix/cuckoo/u64/1000000/query0', 10],
    ['Cuckoo12 query 100% (cuckoo)', 'mix/cuckoo/u64/1000000/query100', 10],
    ['BinaryFuse8 build (fuse8)', 'mix/fuse8/u64/1000000/insert', 56, 59],
    ['BinaryFuse8 query 0% (fuse8)', 'mix/fuse8/u64/1000000/query0', 7],
    ['BinaryFuse8 query 100% (fuse8)', 'mix/fuse8/u64/1000000/query100', 7],
  ];
  const rows = ref.map(([label, key, lo, hi]) => {
    const ours = nsPer(N[key], n);
    const refv = hi ?? lo;  // the slower end of the reference range
    const r = ours / refv;
    return [label, fmt(ours, 1), hi ? `${lo}–${hi}` : String(lo), ours === undefined ? '–' : `${r.toFixed(2)}×`, r <= 1.3 ? 'met' : '**not met**'];
  });
  return table(['shape (FastFilter name → ours)', 'ours ns/key', 'FastFilter ns/key', 'ours/ref (ref = slower end)', '≤ 1.3×'], rows);
}

function environment() {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const emcc = spawnSync('emcc', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] ?? '?';
  const gxx = spawnSync('g++', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] ?? '?';
  const gb = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'libbenchmark-dev'], { encoding: 'utf8' }).stdout ?? '?';
  const pkgs = ['bloomfilter', 'bloom-filters', '@ceramicnetwork/wasm-bloom-filter'].map((p) => {
    const j = readJson(`${root}node_modules/${p}/package.json`);
    return `${p}@${j?.version}`;
  });
  return [
    `- Machine: ${cpu}, ${os.cpus().length} cores (shared with other work while measured; load average at render ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`,
    `- Node ${process.version}; ${emcc}; ${gxx}; Google Benchmark (Debian libbenchmark-dev) ${gb}`,
    `- Peers: ${pkgs.join(', ')}`,
  ].join('\n');
}

function coreSection() {
  const { N, W, meta } = coreResults();
  if (!meta.reps) return '(no native/wasm results: run `npm run bench`)';
  const out = [];
  const sizes = String(meta.ns).split(',').map(Number);
  out.push(`Medians of ${meta.reps} alternating repetitions (native process, wasm process, …); one pass over n keys per figure; CPU time.`);
  for (const n of sizes) {
    out.push(`\n#### Native, FastFilter shape (mix: random 64-bit keys, 2 inline 64-bit mixers, one call per key), n = ${n.toLocaleString('en-US')}\n`);
    out.push(fastFilterTable(N, 'mix', 'u64', n));
  }
  for (const n of sizes) {
    for (const keys of ['u64', 'str']) {
      out.push(`\n#### Library path (batch: keys packed, MurmurHash3_x64_128 per key), ${keys === 'u64' ? '8-byte integer keys' : 'short string keys "key:" + i'}, n = ${n.toLocaleString('en-US')}: native vs wasm\n`);
      out.push(wasmNativeTable(N, W, keys, n));
    }
  }
  const all = sizes.flatMap((n) => ratioSummary(N, W, n).map((x) => ({ ...x, n })));
  if (all.length) {
    const met = all.filter((x) => x.r <= 1.5).length;
    const rs = all.map((x) => x.r);
    out.push(`\nwasm/native over all ${all.length} figures: median ${median(rs).toFixed(2)}×, best ${Math.min(...rs).toFixed(2)}×, worst ${Math.max(...rs).toFixed(2)}×; ${met} of ${all.length} within the 1.5× target.`);
  }
  out.push('\n#### Native core against FastFilter\'s own benchmark (reference points from the issue, n = 10^6)\n');
  out.push(referenceTable(N));
  return { text: out.join('\n'), N, W };
}

const core = coreSection();
const nodeRes = readJson(`${resultsDir}/node.json`);
const nodeText = nodeRes ? renderNode(nodeRes) : '(no Node results: run `npm run bench`)';
const generated = [
  `Generated by \`npm run bench\` (tests/bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}.`,
  '',
  environment(),
  '',
  '### Node: bloomcuckoo against its peers',
  '',
  nodeText,
  '',
  '### Native vs wasm: the same C++ core',
  '',
  typeof core === 'string' ? core : core.text,
].join('\n');
writeFileSync(`${resultsDir}/tables.md`, generated + '\n');
log(`wrote ${resultsDir}/tables.md`);
if (args['write-docs']) {
  const docPath = `${root}docs/BENCHMARKS.md`;
  const doc = readFileSync(docPath, 'utf8');
  const begin = '<!-- generated:begin -->';
  const end = '<!-- generated:end -->';
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < 0) throw new Error('docs/BENCHMARKS.md lacks the generated markers');
  writeFileSync(docPath, `${doc.slice(0, a + begin.length)}\n${generated}\n${doc.slice(b)}`);
  log('updated docs/BENCHMARKS.md');
  // the sections with their own markers: the RedisBloom bridge (a note where no RedisBloom runs),
  // write-through with and without `wait` (a primary and a replica), bytes at scale, one key at a
  // time, the shipped size, and how cost grows with n (10^5 … 10^8) plus the CLI at 10^8 lines (~11
  // minutes), and what opening a replica holds the server for (10^7, 10^8 keys)
  for (const [script, quickFlag] of [['redis-bench.mjs', true], ['replica-bench.mjs', true], ['wait-bench.mjs', true], ['snapshot-bench.mjs', true], ['bytes-bench.mjs', false],
    ['percall-bench.mjs', false], ['keylength-bench.mjs', false], ['size-bench.mjs', false], ['scale-bench.mjs', true]]) {
    const extra = quickFlag && args.quick ? ['--quick'] : [];
    const r = spawnSync(process.execPath, [`${root}tests/bench/${script}`, '--write-docs', ...extra], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`tests/bench/${script} failed`);
  }
} else {
  process.stdout.write(generated + '\n');
}
