// How cost grows (issue 14, target 5): ns per key of addAll (fuse: the build), hasAll of the
// added keys and hasAll of other keys, for every class at n = 10^5, 10^6, 10^7 and 10^8, with
// bytes per key, against the machine's cache sizes; then the CLI building a 10^8-line file
// (bloom, cuckoo, fuse): time and peak RSS, next to the memory the CLI said it would need.
//   node tests/bench/scale-bench.mjs [--write-docs] [--quick] [--no-cli] [--cli-only] [--render] [--sizes=1e5,1e6] [--cli-keys=1e8]
//   --quick: n = 10^5 and 10^6, one repetition, no CLI run (for trying changes; not for docs)
//   --no-cli / --cli-only: skip the CLI run / run only it (the other part is taken from the last
//   results); --render: measure nothing, render tests/bench/results/scale.json
// Writes tests/bench/results/scale.json and, with --write-docs, the section of docs/BENCHMARKS.md
// between <!-- scale:begin --> and <!-- scale:end --> (adding a "How cost grows" section if missing).
//
// Every (class, n) up to 10^7 runs in its own process, with its keys made once up front; at 10^8
// the keys cannot all be held, so chunks of 10^6 are made as they are needed and the seven dynamic
// classes are filled side by side in one process, in a rotated order per chunk (the fuse filter
// gets its own process: its build needs most of the wasm memory).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fmt, median, now, parseArgs, publishSection, rotate, table } from './lib.mjs';

const root = new URL('../..', import.meta.url).pathname;
const resultsDir = `${root}tests/bench/results`;
const args = parseArgs(process.argv.slice(2), {
  'write-docs': false, quick: false, 'no-cli': false, 'cli-only': false, render: false, sizes: '', 'cli-keys': 1e8, child: '',
});
const log = (s) => process.stderr.write(`[scale-bench] ${s}\n`);

const CHUNK = 1_000_000;   // keys per addAll / hasAll call
// Lookups at 10^8 ask for the first 10^7 added keys and 10^7 others: a lookup in a full filter
// costs the same whichever keys are asked for, and all 10^8 would take minutes per class.
const LOOKUPS = 10_000_000;
const ERROR_RATE = 0.01;
const CLASSES = ['BloomFilter', 'BlockedBloomFilter', 'CountingBloomFilter', 'ScalableBloomFilter',
  'CuckooFilter', 'BinaryFuseFilter', 'RedisBloomFilter', 'RedisCuckooFilter'];
const STATIC = 'BinaryFuseFilter';
const reps = (n) => (args.quick || n >= 1e8 ? 1 : n <= 1e5 ? 5 : 3);

// ---- child: measures one group of classes at one n, prints JSON ------------------------------

/** Keys [first, first + count) as "key:" + i, flattened (so no timed call pays for a cons string). */
function keyChunk(first, count) {
  const keys = new Array(count);
  let sink = 0;
  for (let i = 0; i < count; i++) {
    const k = `key:${first + i}`;
    sink += k.length + (k | 0);   // ToNumber flattens the string now, outside the timing
    keys[i] = k;
  }
  if (sink < 0) throw new Error('unreachable');
  return keys;
}

async function child({ classes, n, reps: repCount, cache }) {
  const lib = await import('../../js/main/index.js');
  await lib.init();
  const options = (cls) => (cls === 'RedisCuckooFilter' ? { capacity: n } : { capacity: n, errorRate: ERROR_RATE });
  const chunks = [];
  for (let s = 0; s < n; s += CHUNK) chunks.push([s, Math.min(CHUNK, n - s)]);
  const cached = new Map();
  const keysOf = (first, count) => {
    if (!cache) return keyChunk(first, count);
    const id = `${first}/${count}`;
    if (!cached.has(id)) cached.set(id, keyChunk(first, count));
    return cached.get(id);
  };
  const lookupChunks = n > LOOKUPS ? chunks.filter(([s]) => s < LOOKUPS) : chunks;
  const lookups = lookupChunks.reduce((a, [, c]) => a + c, 0);
  if (cache) for (const [s, c] of chunks) { keysOf(s, c); keysOf(n + s, c); }

  const out = Object.fromEntries(classes.map((c) => [c, { add: [], hasPos: [], hasNeg: [], addWall: [] }]));
  const alive = new Set(classes);
  const fail = (cls, phase, err) => {
    out[cls].error = `${phase}: ${err?.code ? `${err.code}: ` : ''}${err?.message ?? err}`;
    alive.delete(cls);
  };
  for (let rep = 0; rep < repCount; rep++) {
    const filters = {};
    const builders = {};
    for (const cls of alive) {
      try {
        if (cls === STATIC) builders[cls] = lib.BinaryFuseFilter.builder({ fingerprintBits: 8 }).reserve(n);
        else filters[cls] = new lib[cls](options(cls));
      } catch (err) { fail(cls, 'new', err); }
    }
    const sums = Object.fromEntries(classes.map((c) => [c, { add: 0, addWall: 0, hasPos: 0, hasNeg: 0, fn: 0, fp: 0 }]));
    const timed = (cls, key, fn) => {
      const t0 = now();
      const w0 = performance.now();
      const r = fn();
      sums[cls][key] += now() - t0;
      if (key === 'add') sums[cls].addWall += performance.now() - w0;
      return r;
    };
    // add (fuse: hash into the builder, then build)
    chunks.forEach(([s, c], i) => {
      const keys = keysOf(s, c);
      for (const cls of rotate([...alive], i + rep)) {
        try {
          if (cls === STATIC) timed(cls, 'add', () => builders[cls].addAll(keys));
          else timed(cls, 'add', () => filters[cls].addAll(keys));
        } catch (err) { fail(cls, `addAll after ${s.toLocaleString('en-US')} keys`, err); }
      }
    });
    if (alive.has(STATIC)) {
      try {
        filters[STATIC] = timed(STATIC, 'add', () => builders[STATIC].build());
      } catch (err) { fail(STATIC, `build() of ${n.toLocaleString('en-US')} keys`, err); }
    }
    for (const [phase, offset, count] of [['hasPos', 0, 'fn'], ['hasNeg', n, 'fp']]) {
      lookupChunks.forEach(([s, c], i) => {
        const keys = keysOf(offset + s, c);
        for (const cls of rotate([...alive], i + rep)) {
          const hits = timed(cls, phase, () => filters[cls].hasAll(keys));
          let ones = 0;
          for (let j = 0; j < hits.length; j++) ones += hits[j];
          sums[cls][count] += phase === 'hasPos' ? c - ones : ones;
        }
      });
    }
    for (const cls of classes) {
      const f = filters[cls];
      if (alive.has(cls)) {
        for (const k of ['add', 'addWall', 'hasPos', 'hasNeg']) out[cls][k].push(sums[cls][k]);
        Object.assign(out[cls], { bytes: f.byteLength, size: f.size, lookups, falseNegatives: sums[cls].fn, falsePositives: sums[cls].fp });
      }
      f?.free();
      builders[cls]?.free();
    }
  }
  process.stdout.write(`${JSON.stringify({ n, reps: repCount, results: out })}\n`);
}

if (args.child) {
  await child(JSON.parse(args.child));
  process.exit(0);
}

// ---- parent ---------------------------------------------------------------------------------

function runChild(spec) {
  log(`n = ${spec.n.toLocaleString('en-US')}: ${spec.classes.join(', ')} (${spec.reps} rep${spec.reps > 1 ? 's' : ''})`);
  const r = spawnSync(process.execPath, ['--max-old-space-size=6144', '--max-semi-space-size=64',
    new URL(import.meta.url).pathname, `--child=${JSON.stringify(spec)}`],
  { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = r.stdout?.trim().split('\n').pop();
  if (r.status !== 0 || !line) {
    // the process itself died (e.g. the JS heap): every class of the group gets that as its error
    const why = `the benchmark process exited with ${r.status ?? r.signal}`;
    return { n: spec.n, reps: spec.reps, results: Object.fromEntries(spec.classes.map((c) => [c, { error: why }])) };
  }
  return JSON.parse(line);
}

/** Cache levels of cpu0 from sysfs: [{ level, type, bytes, shared }]. */
function caches() {
  const dir = '/sys/devices/system/cpu/cpu0/cache';
  const list = [];
  try {
    for (const d of readdirSync(dir).filter((x) => x.startsWith('index'))) {
      const read = (f) => readFileSync(`${dir}/${d}/${f}`, 'utf8').trim();
      const size = read('size');
      const bytes = Number.parseInt(size, 10) * (size.endsWith('M') ? 2 ** 20 : size.endsWith('K') ? 1024 : 1);
      let shared = '';
      try { shared = read('shared_cpu_list'); } catch { /* older kernels */ }
      list.push({ level: Number(read('level')), type: read('type'), bytes, shared });
    }
  } catch { /* no sysfs: filled from lscpu below */ }
  if (list.length === 0) {
    const out = spawnSync('lscpu', ['-B'], { encoding: 'utf8' }).stdout ?? '';
    for (const [, name, b] of out.matchAll(/^(L\d[a-z]?) cache:\s+(\d+)/gm)) {
      list.push({ level: Number(name[1]), type: name.endsWith('i') ? 'Instruction' : name.endsWith('d') ? 'Data' : 'Unified', bytes: Number(b), shared: '' });
    }
  }
  return list.sort((a, b) => a.level - b.level);
}

const mib = (b) => (b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(2)} GiB` : b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(b >= 100 * 2 ** 20 ? 0 : 1)} MiB` : `${Math.round(b / 1024)} KiB`);
const pow10 = (n) => { const e = Math.log10(n); return Number.isInteger(e) ? `10^${e}` : n.toLocaleString('en-US'); };

// ---- the CLI at scale -----------------------------------------------------------------------

/** Writes "key:0".."key:<n-1>", one per line, to each file of `files` up to its own count. */
function writeKeyFiles(files) {
  const fds = files.map(([path]) => openSync(path, 'w'));
  const max = Math.max(...files.map(([, n]) => n));
  for (let s = 0; s < max; s += CHUNK) {
    let text = '';
    for (let i = s; i < Math.min(max, s + CHUNK); i++) text += `key:${i}\n`;
    const buf = Buffer.from(text);
    files.forEach(([, n], j) => {
      if (s + CHUNK <= n) writeSync(fds[j], buf);
      else if (s < n) writeSync(fds[j], Buffer.from(text.split('\n').slice(0, n - s).map((l) => `${l}\n`).join('')));
    });
  }
  fds.forEach(closeSync);
}

/** `bloomcuckoo build` under /usr/bin/time -v: wall and CPU seconds, peak RSS, what the CLI said. */
function timeBuild(input, keys, kind, dir) {
  const outFile = join(dir, `out.${kind}`);
  log(`CLI: build --kind ${kind} (${keys.toLocaleString('en-US')} lines)`);
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, `${root}bin/bloomcuckoo.js`, 'build', input, '-o', outFile, '--kind', kind, '--progress'],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'ignore', 'pipe'] });
  const err = r.stderr ?? '';
  const field = (name) => new RegExp(`^\\s*${name}: (.+)$`, 'm').exec(err)?.[1];
  const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')?.split(':').reduce((a, x) => a * 60 + Number(x), 0);
  // eslint-disable-next-line no-control-regex -- the progress line's ANSI erase sequence
  const lines = err.split(/[\r\n]+/).map((l) => l.replace(/\x1b\[K/g, '').trim()).filter(Boolean);
  const said = lines.filter((l) => l.startsWith('memory: '));
  const problem = lines.find((l) => l.startsWith('bloomcuckoo: '));
  const result = {
    kind, keys, status: Number(field('Exit status')), wall,
    cpu: Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)')),
    rssBytes: Number(field('Maximum resident set size \\(kbytes\\)')) * 1024,
    said, error: problem?.replace(/^bloomcuckoo: /, ''), summary: lines.find((l) => l.startsWith(`${kind}: `)),
    fileBytes: existsSync(outFile) ? statSync(outFile).size : null,
  };
  rmSync(outFile, { force: true });
  return result;
}

function runCli(n) {
  const dir = mkdtempSync(join(os.tmpdir(), 'bloomcuckoo-scale-'));
  try {
    // the largest round count of keys the CLI will build a fuse filter from (it says how many fit)
    const fuseKeys = n >= 1e8 ? 8e7 : Math.round(n * 0.8);
    const big = join(dir, 'keys.txt');
    const fuseInput = join(dir, 'keys-fuse.txt');
    log(`CLI: writing ${n.toLocaleString('en-US')} and ${fuseKeys.toLocaleString('en-US')} lines to ${dir}`);
    const t = performance.now();
    writeKeyFiles([[big, n], [fuseInput, fuseKeys]]);
    const generated = { seconds: (performance.now() - t) / 1000, bytes: statSync(big).size };
    const runs = [timeBuild(big, n, 'bloom', dir), timeBuild(big, n, 'cuckoo', dir), timeBuild(big, n, 'fuse', dir)];
    if (runs[2].status !== 0) runs.push(timeBuild(fuseInput, fuseKeys, 'fuse', dir));
    return { n, generated, runs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- run ------------------------------------------------------------------------------------

mkdirSync(resultsDir, { recursive: true });
const sizes = args.sizes ? String(args.sizes).split(',').map(Number) : args.quick ? [1e5, 1e6] : [1e5, 1e6, 1e7, 1e8];
const previous = existsSync(`${resultsDir}/scale.json`) ? JSON.parse(readFileSync(`${resultsDir}/scale.json`, 'utf8')) : null;
let { measured = [], cli = null, minutes = {} } = previous ?? {};
minutes = { sizes: minutes.sizes, load: minutes.load, cli: minutes.cli };
if (!args.render && !args['cli-only']) {
  // sizes measured now replace those of the last results; the other sizes are kept
  measured = measured.filter((m) => !sizes.includes(m.n));
  const keep = (o) => Object.fromEntries(Object.entries(o ?? {}).filter(([n]) => !sizes.includes(Number(n))));
  minutes.sizes = keep(minutes.sizes);
  minutes.load = keep(minutes.load);
  for (const n of sizes) {
    const t = performance.now();
    if (n < 1e8) {
      for (const cls of CLASSES) measured.push(runChild({ classes: [cls], n, reps: reps(n), cache: true }));
    } else {
      measured.push(runChild({ classes: CLASSES.filter((c) => c !== STATIC), n, reps: reps(n), cache: false }));
      measured.push(runChild({ classes: [STATIC], n, reps: reps(n), cache: false }));
    }
    minutes.sizes[n] = (performance.now() - t) / 60000;
    minutes.load[n] = os.loadavg()[1];   // 5-minute load average when that size was done
  }
  measured.sort((a, b) => a.n - b.n);
}
if (!args.render && !args.quick && !args['no-cli']) {
  const t = performance.now();
  cli = runCli(Number(args['cli-keys']));
  minutes.cli = (performance.now() - t) / 60000;
}
const cacheList = caches();
if (!args.render) {
  writeFileSync(`${resultsDir}/scale.json`, JSON.stringify({ date: new Date().toISOString(), caches: cacheList, measured, cli, minutes }, null, 1));
}

// ---- render ---------------------------------------------------------------------------------

const l2 = cacheList.find((c) => c.level === 2 && c.type !== 'Instruction');
const l3 = cacheList.find((c) => c.level === 3);
const where = (b) => (l2 && b <= l2.bytes ? 'L2' : l3 && b <= l3.bytes ? 'L3' : 'RAM');
const cacheText = cacheList.filter((c) => c.type !== 'Instruction')
  .map((c) => `L${c.level}${c.type === 'Data' ? 'd' : ''} ${mib(c.bytes)}${c.shared ? ` (CPUs ${c.shared})` : ''}`).join(', ');

const rows = [];
const byClass = {};
for (const m of measured) {
  for (const [cls, r] of Object.entries(m.results)) {
    (byClass[cls] ??= []).push({ n: m.n, reps: m.reps, ...r });
  }
}
const nsPerKey = (list, n) => (list?.length ? (median(list) * 1e6) / n : undefined);
for (const cls of CLASSES) {
  for (const r of (byClass[cls] ?? []).sort((a, b) => a.n - b.n)) {
    if (r.error) {
      rows.push([`\`${cls}\``, pow10(r.n), '–', '–', '–', `**could not be built**: ${r.error}`, '–', '–', '–']);
      continue;
    }
    rows.push([`\`${cls}\``, pow10(r.n), mib(r.bytes), (r.bytes / r.n).toFixed(2), where(r.bytes),
      fmt(nsPerKey(r.add, r.n)), fmt(nsPerKey(r.hasPos, r.lookups ?? r.n)), fmt(nsPerKey(r.hasNeg, r.lookups ?? r.n)),
      `${((100 * r.falsePositives) / (r.lookups ?? r.n)).toFixed(3)}%${r.falseNegatives ? ` (**${r.falseNegatives} false negatives**)` : ''}`]);
  }
}

/** One sentence per class: where it leaves L2 and L3, and what that does to its cost. */
function cacheProse() {
  const out = [];
  for (const cls of CLASSES) {
    const list = (byClass[cls] ?? []).filter((r) => !r.error).sort((a, b) => a.n - b.n);
    if (list.length < 2) continue;
    const first = list[0];
    const last = list[list.length - 1];
    const leaves = (level) => list.find((r) => where(r.bytes) !== 'L2' && (level === 'L2' || where(r.bytes) === 'RAM'));
    const outL2 = leaves('L2');
    const outL3 = leaves('L3');
    const keysOf = (r, k) => (k === 'add' ? r.n : r.lookups ?? r.n);
    const grow = (k) => (nsPerKey(last[k], keysOf(last, k)) / nsPerKey(first[k], keysOf(first, k))).toFixed(1);
    const parts = [];
    parts.push(outL2 ? `past L2 at ${pow10(outL2.n)} (${mib(outL2.bytes)})` : 'in L2 throughout');
    if (outL2) parts.push(outL3 ? `past L3 at ${pow10(outL3.n)} (${mib(outL3.bytes)})` : 'in L3 up to the largest n measured');
    const failed = (byClass[cls] ?? []).find((r) => r.error);
    out.push(`- \`${cls}\`: ${parts.join(', ')}; from ${pow10(first.n)} to ${pow10(last.n)} keys add ×${grow('add')}, `
      + `hasAll + ×${grow('hasPos')}, hasAll − ×${grow('hasNeg')} per key${failed ? `; not built at ${pow10(failed.n)} (below)` : ''}.`);
  }
  return out.join('\n');
}

function cliTable() {
  if (!cli) return '(no CLI run: `node tests/bench/scale-bench.mjs` without --quick or --no-cli)';
  const rowsCli = cli.runs.map((r) => {
    const said = r.said.map((s) => s.replace(/^memory: /, '').replace(/; the wasm memory limit is .*$/, '')).join(' / ');
    const result = r.status === 0
      ? `ok: ${r.summary?.replace(/^.*→ [^:]+: /, '') ?? ''}`
      : `**refused**: ${r.error}`;
    return [`\`--kind ${r.kind}\``, r.keys.toLocaleString('en-US'), said || '–', r.wall.toFixed(1), r.cpu.toFixed(1), mib(r.rssBytes), result];
  });
  // what the CLI said against what the process used, for the fuse build that ran
  const size = (t) => Number(t.split(' ')[0]) * { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 }[t.split(' ')[1]];
  const fuse = cli.runs.find((r) => r.kind === 'fuse' && r.status === 0);
  const m = fuse && /about ([\d.]+ \S+) of filter memory \(\+ ([\d.]+ \S+) while/.exec(fuse.said[0] ?? '');
  const compare = m ? ` For the fuse build of ${fuse.keys.toLocaleString('en-US')} keys the CLI said ${mib(size(m[1]) + size(m[2]))} of wasm memory `
    + `(filter + building); the whole process peaked at ${mib(fuse.rssBytes)} of RSS, Node and the JS heap included.` : '';
  return [
    `Input: ${cli.n.toLocaleString('en-US')} lines \`key:0\` … \`key:${(cli.n - 1)}\` (${mib(cli.generated.bytes)}), written to a temporary directory (then deleted); `
      + '`/usr/bin/time -v node bin/bloomcuckoo.js build <file> -o <out> --kind <kind> --progress`, one run each; capacity = the line count (a first pass counts the lines). '
      + 'Wall time includes that pass; peak RSS is the whole Node process (wasm memory that was touched, the JS heap, file buffers; '
      + `Node with the module loaded is about 50 MiB).${compare}`,
    '',
    table(['build', 'lines', 'the CLI said first (filter memory, + while building)', 'wall s', 'CPU s', 'peak RSS', 'result'], rowsCli),
  ].join('\n');
}

const fuse8 = byClass[STATIC]?.find((r) => r.n >= 1e8);
const lib = await import('../../js/main/index.js');
await lib.init();
const memory = await import('../../bin/lib/memory.js');

/** Why the fuse filter does not fit at n keys, from the CLI's estimate (bin/lib/memory.js). */
function fuseProse(n, error) {
  const f = memory.fuseMemory(n);
  const total = memory.MODULE_BYTES + f.filter + f.building;
  return `\nThe fuse filter at ${pow10(n)} keys could not be built in wasm: ${error}. Its build keeps the keys' 8-byte hashes in a builder buffer `
    + `reserved for n keys (${mib(f.hashes)}), peels in them, and needs ${mib(f.peeling)} more (\`BinaryFuseFilter.peakBuildBytes\`: the remixed hashes `
    + `and peeling order, and per slot an xor, a count and a stack entry) while the ${mib(f.filter)} filter is filled: about ${mib(total)} in all, `
    + `against the ${memory.LIMIT_TEXT} a wasm32 module can have; beyond that the keys have to be split over several filters.`;
}
const md = [
  `Measured on ${new Date().toISOString().slice(0, 10)}: ${os.cpus()[0]?.model ?? 'CPU'}, ${os.cpus().length} cores shared with other work, `
    + `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}. Caches (cpu0, from /sys/devices/system/cpu/cpu0/cache): ${cacheText}`
    + ' (a virtual machine: the L3 is shared with whatever else the host runs).',
  '',
  `Every class with its defaults at errorRate ${ERROR_RATE} and capacity n (RedisCuckooFilter has no error rate: 8-bit fingerprints, `
    + 'bucket size 2; BinaryFuseFilter: 8-bit fingerprints, no capacity, and "add" is its build: hashing the keys into a builder, then `build()`). '
    + `Keys \`key:0\` … \`key:${'{n − 1}'}\`, fed as strings ${CHUNK.toLocaleString('en-US')} per \`addAll\`/\`hasAll\` call; hasAll + asks for the n added keys, `
    + 'hasAll − for n others (`key:{n}` …), whose hits give the FPR column. ns/key = CPU time of the calls / n; '
    + `medians of ${[...new Set(measured.filter((m) => m.n < 1e8).map((m) => m.reps))].join('/') || '–'} repetitions up to 10^7 (a fresh filter each), `
    + `one repetition at 10^8, where hasAll ± ask for ${pow10(LOOKUPS)} keys each (the first ${pow10(LOOKUPS)} added and as many others: `
    + 'in a full filter a lookup costs the same whichever keys are asked for). Up to 10^7 each class runs in its own process with its keys made in advance; at 10^8 the keys are made a chunk at a time '
    + 'outside the timing, the seven dynamic classes are filled side by side in one process (a rotated order per chunk; all of them are far beyond the caches '
    + 'by then) and the fuse filter runs alone. "in" = the smallest cache level the whole filter fits in.',
  '',
  table(['class', 'n', 'filter bytes', 'bytes/key', 'in', 'add ns/key', 'hasAll + ns/key', 'hasAll − ns/key', 'FPR'], rows),
  '',
  'Where each filter leaves the caches, and what it costs (per-key cost at the largest n over the smallest):',
  '',
  cacheProse(),
  '',
  'Every lookup costs one or more cache misses once the filter is past L2, and misses to RAM once it is past L3: '
    + 'the blocked Bloom filter touches one 32-byte block per key, the cuckoo filter two buckets, the fuse filter three slots, the Bloom and '
    + 'RedisBloom filters k ≈ 7–8 bits in as many lines, the counting filter k counters in a table 4× larger, and the scalable and RedisBloom BF filters '
    + 'check one Bloom layer per key (one layer here: capacity n). While the filter fits in the caches, copying the string into wasm memory '
    + 'and hashing it dominate; past L3 the misses do. The cuckoo filters\' bytes per key move with n because their tables have power-of-two '
    + 'bucket counts; `RedisCuckooFilter` (RedisBloom\'s CF: bucket size 2, 20 kicks) also added a second sub-filter before reaching its capacity at every n here, '
    + 'as RedisBloom does, which doubles its bytes.',
  fuse8?.error ? fuseProse(fuse8.n, fuse8.error) : '',
  '',
  `### The CLI at ${cli ? pow10(cli.n) : '10^8'} lines`,
  '',
  cliTable(),
  '',
  `Before reading any key, \`build\` works out the wasm memory it needs (bin/lib/memory.js: the filter's size from the library's sizing, `
    + 'plus, for the dynamic kinds, the 256 KiB pieces `serializeTo` writes the file in; for fuse, the builder\'s hash buffers and '
    + `\`BinaryFuseFilter.peakBuildBytes(n)\`) and refuses a build that cannot fit the ${memory.LIMIT_TEXT} limit, with the amount it would need. For fuse `
    + 'it counts the lines of a file first and reserves exactly 8 bytes of hash per key (`builder.reserve`); from stdin, where the count is not known, the '
    + 'buffer doubles as keys arrive and the estimate counts all of the free space the doubling leaves behind as lost (it errs high).'
    + ` Largest fuse build it accepts (8-bit fingerprints): ${memory.fuseMaxKeys().toLocaleString('en-US')} keys from a file, `
    + `${memory.fuseMaxKeys(8, false).toLocaleString('en-US')} from stdin.`,
  '',
  `Measuring the classes took ${Object.entries(minutes.sizes ?? {}).map(([n, m]) => `${m < 1 ? `${(m * 60).toFixed(0)} s` : `${m.toFixed(1)} min`} at ${pow10(Number(n))}`
    + `${minutes.load?.[n] === undefined ? '' : ` (load average ${minutes.load[n].toFixed(1)})`}`).join(', ')}; `
    + `the CLI runs ${fmt(minutes.cli, 1)} min (with writing the input). The load average is over the last 5 minutes of each size, on 2 cores: `
    + 'above about 1, other work shared the cores and the L3, which shows most at 10^7, where the filters fit in L3 only while nothing else uses it '
    + '(the per-key times of that row have been seen to vary 2–3× between runs).',
].join('\n');
if (publishSection('scale', md, 'How cost grows',
  '; about 11 minutes; `--render` rewrites the section from the last results')) {
  log('updated docs/BENCHMARKS.md');
}
