// Before and after a change, on one machine in one run: the one-key path (add/has per call) and
// the batch path (addAll/hasAll) of every class, from this tree's build and from another
// revision's, measured in alternation.
//   node tests/bench/revisions-bench.mjs --base=<rev> [--n=200000] [--rounds=5] [--reps=5]
//     [--classes=BloomFilter,...] [--base-dir=<a built checkout of rev>] [--batch=<keys per addAll/hasAll call>]
//     [--write-docs]
// The base revision is checked out into a git worktree outside the repository (the system's temp
// folder, bloomcuckoo-revisions/<rev>, where no linter or test runner of this tree looks) and built
// there (BUILD_NATIVE=0 scripts/build.sh); this tree must be built already (npm run build). Each
// measurement is its own process for one class that loads both builds (each its own module and
// wasm instance), warms each up, then runs them in turns, pass by pass, keeping each one's
// fastest of `reps` passes: a slow spell of a shared machine, which lasts longer than a pass,
// weighs on both alike. Per class, `rounds` such processes (which build goes first alternates):
// the ns/key figures are the medians over them (with their range), the ratio the median of the
// processes' after/before ratios (with their range).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { fmt, median, now, parseArgs, stringKeys, table, writeDocSection } from './lib.mjs';

const root = new URL('../..', import.meta.url).pathname;
const args = parseArgs(process.argv.slice(2), { base: '', 'base-dir': '', batch: 0, n: 200000, rounds: 5, reps: 5, child: '', class: '', classes: '', 'write-docs': false });
const ALL = ['BloomFilter', 'BlockedBloomFilter', 'CountingBloomFilter', 'ScalableBloomFilter',
  'CuckooFilter', 'RedisBloomFilter', 'RedisCuckooFilter', 'BinaryFuseFilter'];
const CLASSES = args.classes ? ALL.filter((c) => args.classes.split(',').includes(c)) : ALL;
const PATHS = ['add', 'has', 'addAll', 'hasAll'];

/** A new filter of class `name` sized for `n` keys at 1% (the options every revision takes). */
function make(lib, name, n) {
  if (name === 'RedisCuckooFilter') return new lib.RedisCuckooFilter({ capacity: n });
  return new lib[name]({ capacity: n, errorRate: 0.01 });
}

/** CPU nanoseconds per key of `fn` over `n` keys. */
function perKey(fn, n) {
  const t0 = now();
  fn();
  return ((now() - t0) * 1e6) / n;
}

/**
 * Child process: one class, both builds (`entries`, each its own module and wasm instance);
 * prints [{path: ns per key}, ...] per entry, the fastest of `reps` passes after one pass to warm
 * up (the JIT, the wasm tiers, the heap). The builds take turns pass by pass, so a slow spell of
 * the machine that lasts longer than a pass weighs on both alike.
 */
async function measure(entries, name, n, reps) {
  const libs = [];
  for (const entry of entries) {
    const lib = await import(entry);
    await lib.init();
    libs.push(lib);
  }
  const keys = stringKeys(n);
  const probes = keys.concat(stringKeys(n, n)); // half present, half absent
  // addAll/hasAll take the keys `args.batch` at a time (all at once by default)
  const slices = (list) => Array.from({ length: Math.ceil(list.length / (args.batch || list.length)) },
    (_, i) => list.slice(i * (args.batch || list.length), (i + 1) * (args.batch || list.length)));
  const keyBatches = slices(keys);
  const probeBatches = slices(probes);
  const fuse = name === 'BinaryFuseFilter';
  const best = libs.map(() => ({}));
  const pass = (lib) => {
    const a = fuse ? undefined : make(lib, name, n);
    const b = fuse ? lib.BinaryFuseFilter.build(keys) : make(lib, name, n);
    const times = {
      add: fuse ? undefined : perKey(() => { for (const k of keys) a.add(k); }, n),
      addAll: fuse ? perKey(() => lib.BinaryFuseFilter.build(keys).free(), n) : perKey(() => { for (const k of keyBatches) b.addAll(k); }, n),
      has: perKey(() => { for (const k of probes) b.has(k); }, probes.length),
      hasAll: perKey(() => { for (const p of probeBatches) b.hasAll(p); }, probes.length),
    };
    a?.free();
    b.free();
    return times;
  };
  for (let i = 0; i <= reps; i++) {
    const order = libs.map((_, s) => s);
    if (i % 2) order.reverse();
    for (const s of order) {
      const times = pass(libs[s]);
      if (i === 0) continue;
      for (const [p, t] of Object.entries(times)) if (t !== undefined) best[s][p] = Math.min(best[s][p] ?? Infinity, t);
    }
  }
  process.stdout.write(JSON.stringify(best));
}

function sh(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status})`);
  return r.stdout;
}
const log = (s) => process.stderr.write(`[revisions] ${s}\n`);

/** A built checkout of `rev`; returns its root. */
function checkout(rev) {
  const sha = sh('git', ['rev-parse', '--short', `${rev}^{commit}`]).trim();
  const parent = `${os.tmpdir()}/bloomcuckoo-revisions`;
  const dir = `${parent}/${sha}`;
  if (!existsSync(dir)) {
    mkdirSync(parent, { recursive: true });
    sh('git', ['worktree', 'add', '--detach', dir, sha]);
    symlinkSync(`${root}node_modules`, `${dir}/node_modules`);
  }
  if (![`${dir}/dist/wasm/bloomcuckoo.wasm`, `${dir}/js/wasm/bloomcuckoo.wasm`].some((f) => existsSync(f))) {
    log(`building ${sha} in ${dir}`);
    sh('bash', ['scripts/build.sh'], { cwd: dir, env: { ...process.env, BUILD_NATIVE: '0' }, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { sha, dir };
}

async function main() {
  if (args.child) return measure(args.child.split(','), args.class, args.n, args.reps);
  if (!args.base) throw new Error('--base=<rev> is required');
  // --base-dir: a checkout of --base already built elsewhere (dist/index.min.js and dist/wasm/)
  const base = args['base-dir']
    ? { sha: sh('git', ['rev-parse', '--short', `${args.base}^{commit}`]).trim(), dir: args['base-dir'] }
    : checkout(args.base);
  const head = sh('git', ['rev-parse', '--short', 'HEAD']).trim();
  const sides = [
    { label: `before (${base.sha})`, entry: [`${base.dir}/dist/index.min.js`, `${base.dir}/js/index.min.js`].find((f) => existsSync(f)) ?? `${base.dir}/dist/index.min.js` },
    { label: `after (${head}${sh('git', ['status', '--porcelain', '--', 'cpp', 'bindings', 'js']).trim() ? ', with changes' : ''})`, entry: `${root}dist/index.min.js` },
  ];
  const runs = sides.map(() => Object.fromEntries(CLASSES.map((c) => [c, Object.fromEntries(PATHS.map((p) => [p, []]))])));
  for (let round = 0; round < args.rounds; round++) {
    for (const name of CLASSES) {
      // one process measures both builds; which one loads and runs first alternates
      const order = (round + CLASSES.indexOf(name)) % 2 ? [1, 0] : [0, 1];
      const entries = order.map((s) => sides[s].entry).join(',');
      const out = JSON.parse(sh(process.execPath, [new URL(import.meta.url).pathname, `--child=${entries}`, `--class=${name}`, `--n=${args.n}`, `--reps=${args.reps}`, `--batch=${args.batch}`]));
      order.forEach((s, i) => { for (const p of PATHS) runs[s][name][p].push(out[i][p]); });
    }
    log(`round ${round + 1}/${args.rounds} done`);
  }
  const rows = [];
  for (const name of CLASSES) {
    for (const p of PATHS) {
      const [before, after] = runs.map((r) => r[name][p]);
      if (before[0] === undefined) continue;
      const what = name === 'BinaryFuseFilter' && p === 'addAll' ? 'build' : p;
      const spread = (xs, f) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
      const ratios = after.map((a, i) => a / before[i]);
      const times = (x) => `${x.toFixed(2)}×`;
      rows.push([`${name} \`${what}\``, `${fmt(median(before))} (${spread(before, fmt)})`, `${fmt(median(after))} (${spread(after, fmt)})`,
        `${times(median(ratios))} (${spread(ratios, times)})`]);
    }
  }
  const md = `${table(['class, path', `${sides[0].label} ns/key (range)`, `${sides[1].label} ns/key (range)`, 'after / before, per process (range)'], rows)}\n\n` +
    `${args.n.toLocaleString('en-US')} string keys (\`key:i\`), 1% target; \`has\`/\`hasAll\` probe the ${args.n.toLocaleString('en-US')} keys and as many absent ones` +
    `${args.batch ? ` (\`addAll\`/\`hasAll\` given ${args.batch.toLocaleString('en-US')} keys a call)` : ''}. ` +
    `CPU time; per class ${args.rounds} processes, each loading both builds and running them in turns (after a pass to warm up) for ${args.reps} passes each, keeping each build's fastest; the median over the processes (and the range); the ratio is the median of the processes' after / before (and its range); ` +
    `${os.cpus()[0].model.trim()}, ${os.cpus().length} cores, Node ${process.version}.`;
  process.stdout.write(`${md}\n`);
  if (args['write-docs']) {
    writeDocSection('revisions', md, 'Before and after a change (one run)',
      `\`node tests/bench/revisions-bench.mjs --base=<rev> --write-docs\` (builds <rev> in a worktree first).`);
  }
}

await main();
