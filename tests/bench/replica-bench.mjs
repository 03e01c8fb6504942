// A fleet sharing one filter (bloomcuckoo/redis openReplica) against the server itself, side by
// side in one run on a redis-server with RedisBloom started here (loopback, its own port):
//   - a replica's has() / hasAll() against BF.EXISTS and pipelined BF.MEXISTS;
//   - write-through (replica.add, replica.addAll) against plain BF.ADD and pipelined BF.MADD;
//   - propagation lag: one process adds keys one at a time, 7 others (8 processes) note when each
//     becomes visible in their replica; from the writer's acknowledgement to visible, p50 / p99;
//   - bootstrap (openReplica) of filters sized for 10^6 and 10^8 keys: the first open (no checkpoint:
//     the key read with SCANDUMP, then the checkpoint written) and the opens after it (from the
//     checkpoint, one HMGET per 1 MiB step), with the longest command of each (SLOWLOG);
//   - memory: a replica process's RSS with and without the copy.
//   node tests/bench/replica-bench.mjs [--quick] [--write-docs]
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { init, RedisBloomFilter } from '../../js/main/index.js';
import { openReplica, pushFilter } from '../../js/redis/index.js';
import { skipReason, startRedisBloom } from '../redis/server.mjs';
import { median, publishSection, stringKeys, table } from './lib.mjs';

const root = new URL('../..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const REPS = quick ? 1 : 3;
const log = (s) => process.stderr.write(`[replica-bench] ${s}\n`);
const WORKER = fileURLToPath(new URL('./replica-worker.mjs', import.meta.url));

await init();
const rb = await startRedisBloom();
if (!rb) {
  log(`SKIP: no RedisBloom (${skipReason() ?? 'module not found'})`);
  process.exit(0);
}
const cmd = (args) => rb.client.sendCommand(args);
const results = { lookups: {}, writes: {}, lag: {}, bootstrap: [], memory: {} };
const perKeyUs = (ms, n) => (ms * 1e3) / n;

// ---- lookups: a replica of 10^6 keys --------------------------------------------------------
const N = quick ? 100_000 : 1_000_000;
{
  const f = new RedisBloomFilter({ errorRate: 0.01, capacity: N });
  const keys = stringKeys(N);
  for (let i = 0; i < N; i += 100_000) f.addAll(keys.slice(i, i + 100_000));
  await pushFilter(rb.client, 'bench:look', f, { replace: true });
  f.free();
  const r = await openReplica(rb.client, 'bench:look');
  const probes = stringKeys(quick ? 2_000 : 10_000, N / 2);   // half present, half absent
  const rows = { has: [], exists: [], hasAll: [], mexists: [], own: [] };
  // both batch paths warmed first (a cold first pass is what made hasAll read 0.20 µs/key once)
  const batches = (fn) => { let s = 0; for (let i = 0; i < probes.length; i += 1000) for (const v of fn(probes.slice(i, i + 1000))) s += v; return s; };
  for (let w = 0; w < 3; w++) { batches((b) => r.hasAll(b)); batches((b) => r.filter.hasAll(b)); }
  for (let rep = 0; rep < REPS; rep++) {
    let t = performance.now();
    let hitsL = 0;
    for (let i = 0; i < 20; i++) for (const k of probes) hitsL += r.has(k) ? 1 : 0;
    rows.has.push(perKeyUs(performance.now() - t, 20 * probes.length));
    t = performance.now();
    let hitsS = 0;
    for (const k of probes) hitsS += Number(await cmd(['BF.EXISTS', 'bench:look', k]));
    rows.exists.push(perKeyUs(performance.now() - t, probes.length));
    if (hitsS * 20 !== hitsL) throw new Error(`replica and server disagree: ${hitsL / 20} vs ${hitsS}`);
    // the replica's hasAll and its own filter's (the same batches), in turns, each first as often:
    // whichever runs first after the awaited loop above measured up to 2x slower
    let batchL = 0;
    let batchO = 0;
    for (let turn = 0; turn < 4; turn++) {
      const own = (turn + rep) % 2 === 0;
      t = performance.now();
      const hits = batches((b) => (own ? r.filter.hasAll(b) : r.hasAll(b)));
      (own ? rows.own : rows.hasAll).push(perKeyUs(performance.now() - t, probes.length));
      if (own) batchO = hits;
      else batchL = hits;
    }
    if (batchO !== batchL) throw new Error('the replica and its own filter disagree on batches');
    t = performance.now();
    const replies = [];
    for (let i = 0; i < probes.length; i += 1000) replies.push(cmd(['BF.MEXISTS', 'bench:look', ...probes.slice(i, i + 1000)]));
    let batchS = 0;
    for (const rep of await Promise.all(replies)) for (const v of rep) batchS += Number(v);
    rows.mexists.push(perKeyUs(performance.now() - t, probes.length));
    if (batchS !== batchL) throw new Error('replica and server disagree on batches');
  }
  for (const [k, v] of Object.entries(rows)) results.lookups[k] = median(v);
  await r.close();
}

// ---- writes: write-through against the plain commands ------------------------------------------
{
  const W = quick ? 5_000 : 20_000;
  const rows = { add: [], badd: [], addAll: [], madd: [] };
  for (let rep = 0; rep < REPS; rep++) {
    for (const key of ['bench:w1', 'bench:w2']) {
      await cmd(['DEL', key, `{${key}}:bloomcuckoo-log`]);
      await cmd(['BF.RESERVE', key, '0.01', String(4 * W)]);
    }
    const r = await openReplica(rb.client, 'bench:w1');
    const one = stringKeys(W / 10, rep * 1e7);
    let t = performance.now();
    for (const k of one) await r.add(k);
    rows.add.push(perKeyUs(performance.now() - t, one.length));
    t = performance.now();
    for (const k of one) await cmd(['BF.ADD', 'bench:w2', k]);
    rows.badd.push(perKeyUs(performance.now() - t, one.length));
    const many = stringKeys(W, rep * 1e7 + 5e6);
    t = performance.now();
    await r.addAll(many);
    rows.addAll.push(perKeyUs(performance.now() - t, many.length));
    t = performance.now();
    const replies = [];
    for (let i = 0; i < many.length; i += 1000) replies.push(cmd(['BF.MADD', 'bench:w2', ...many.slice(i, i + 1000)]));
    await Promise.all(replies);
    rows.madd.push(perKeyUs(performance.now() - t, many.length));
    await r.close();
  }
  for (const [k, v] of Object.entries(rows)) results.writes[k] = median(v);
}

// ---- propagation lag: 8 processes ------------------------------------------------------------
{
  await cmd(['DEL', 'bench:lag', '{bench:lag}:bloomcuckoo-log']);
  await cmd(['BF.RESERVE', 'bench:lag', '0.01', '100000']);
  const procs = [];
  const messages = (p) => (op) => new Promise((resolve) => {
    const on = (m) => { if (m.op === op) { p.off('message', on); resolve(m); } };
    p.on('message', on);
  });
  for (let i = 0; i < 8; i++) {
    const p = fork(WORKER, [String(rb.port), 'bench:lag'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    procs.push({ p, next: messages(p) });
  }
  await Promise.all(procs.map((x) => x.next('ready')));
  const keys = stringKeys(quick ? 100 : 400, 9e6);
  const readers = procs.slice(1);
  await Promise.all(readers.map((x) => { const w = x.next('watching'); x.p.send({ op: 'watch', keys }); return w; }));
  const written = procs[0].next('written');
  procs[0].p.send({ op: 'write', keys, gapMs: 2 });
  const { acked } = await written;
  await new Promise((r) => { setTimeout(r, 300); });
  const lags = [];
  let missing = 0;
  for (const x of readers) {
    const report = x.next('seen');
    x.p.send({ op: 'report' });
    const { seen, missing: m } = await report;
    missing += m;
    const at = new Map(seen);
    keys.forEach((k, i) => { if (at.has(k)) lags.push(at.get(k) - acked[i]); });
  }
  lags.sort((a, b) => a - b);
  const q = (p) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))];
  results.lag = { processes: 8, samples: lags.length, missing, p50: q(0.5), p99: q(0.99), max: lags[lags.length - 1] };
  if (missing) throw new Error(`${missing} keys never became visible`);
  for (const x of procs) x.p.send({ op: 'close' });
  await Promise.all(procs.map((x) => new Promise((r) => { if (x.p.exitCode !== null) r(); else x.p.on('exit', r); })));
}

// ---- bootstrap and memory --------------------------------------------------------------------
/** SLOWLOG since the last reset: its longest command other than SLOWLOG / CONFIG, as { ms, name }. */
async function longest() {
  const slow = await cmd(['SLOWLOG', 'GET', '100000']);
  let out = { ms: 0, name: 'none' };
  for (const e of slow) {
    const args = (e[3] ?? e.args ?? e.command ?? []).map(String);
    const name = String(args[0] ?? '').toUpperCase();
    const ms = Number(e[2] ?? e.duration) / 1e3;
    if (!['SLOWLOG', 'CONFIG'].includes(name) && ms > out.ms) out = { ms, name: /^EVAL/.test(name) ? `${name} (${args[2]} keys)` : name };
  }
  return out;
}
await cmd(['CONFIG', 'SET', 'slowlog-max-len', '100000']);
for (const n of quick ? [1e6] : [1e6, 1e8]) {
  const key = `bench:boot:${n}`;
  const f = new RedisBloomFilter({ errorRate: 0.01, capacity: n });
  f.addAll(stringKeys(Math.min(n, 1e6)));
  await pushFilter(rb.client, key, f, { replace: true });
  const bytes = f.byteLength;
  f.free();
  // the first open: no checkpoint yet (the key read with SCANDUMP, then the checkpoint written in 1 MiB steps)
  await cmd(['CONFIG', 'SET', 'slowlog-log-slower-than', '0']);
  await cmd(['SLOWLOG', 'RESET']);
  let t = performance.now();
  const first = await openReplica(rb.client, key);
  const firstMs = performance.now() - t;
  for (let i = 0; i < 600 && first.stats.checkpoints === 0; i++) await new Promise((r) => { setTimeout(r, 100); });
  const firstHeld = await longest();
  // opens with the checkpoint there
  const times = [];
  const held = [];
  for (let rep = 0; rep < REPS; rep++) {
    await cmd(['SLOWLOG', 'RESET']);
    t = performance.now();
    const r = await openReplica(rb.client, key);
    times.push(performance.now() - t);
    if (r.stats.fromCheckpoint !== 1) throw new Error(`open ${rep} of ${key} did not read the checkpoint`);
    held.push(await longest());
    await r.close();
  }
  await first.close();
  await cmd(['CONFIG', 'SET', 'slowlog-log-slower-than', '10000']);
  held.sort((a, b) => a.ms - b.ms);
  results.bootstrap.push({ n, bytes, firstMs, firstHeld, ms: median(times), held: held[held.length >> 1] });
  await cmd(['UNLINK', key, `{${key}}:bloomcuckoo-ckpt`, `{${key}}:bloomcuckoo-ckpt-a`, `{${key}}:bloomcuckoo-ckpt-b`]);
}
{
  // memory: one process holding a replica of the 10^6-key filter against one holding nothing
  const p = fork(WORKER, [String(rb.port), 'bench:look'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((r) => { p.on('message', (m) => { if (m.op === 'ready') r(m); }); });
  p.send({ op: 'close' });
  await new Promise((r) => { p.on('exit', r); });
  results.memory = { rssMiB: ready.rss / 2 ** 20, filterBytes: ready.bytes };
}
await cmd(['DEL', 'bench:look', 'bench:w1', 'bench:w2', 'bench:lag']);
await rb.stop();

mkdirSync(`${root}tests/bench/results`, { recursive: true });
writeFileSync(`${root}tests/bench/results/replica.json`, JSON.stringify(results, null, 2));
const f2 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const L = results.lookups;
const Wr = results.writes;
const md = [
  `Server: Debian's redis-server 7.0 with RedisBloom 2.6.12 on loopback, started by the benchmark; client: node-redis (\`redis\`); Node ${process.version}; ` +
  `medians of ${REPS}. Replicas are \`openReplica\` of \`bloomcuckoo/redis\` with default options.`,
  '',
  table(['lookup (a BF of ' + N.toLocaleString('en-US') + ' keys at 1%)', 'replica (µs/key)', 'Redis (µs/key)', 'replica is faster by'], [
    ['one key: `replica.has` vs `BF.EXISTS`', f2(L.has), f2(L.exists), `${(L.exists / L.has).toFixed(0)}×`],
    ['batches of 1,000: `replica.hasAll` vs pipelined `BF.MEXISTS`', f2(L.hasAll), f2(L.mexists), `${(L.mexists / L.hasAll).toFixed(1)}×`],
  ]),
  '',
  `The replica's \`hasAll\` against its own filter's (\`replica.filter.hasAll\`, the same batches of 1,000, both warmed, in turns with each first as often): ` +
  `${f2(L.hasAll)} vs ${f2(L.own)} µs/key (${(L.hasAll / L.own).toFixed(2)}×): the replica adds only a check that it is open; the 0.20 µs/key once shown was a cold first pass.`,
  '',
  table(['write', 'write-through (µs/key)', 'plain command (µs/key)', 'cost of the write-through'], [
    ['one key, awaited: `replica.add` vs `BF.ADD`', f2(Wr.add), f2(Wr.badd), `${(Wr.add / Wr.badd).toFixed(1)}×`],
    ['many keys: `replica.addAll` (scripts of 1,000, pipelined) vs `BF.MADD` of 1,000, pipelined', f2(Wr.addAll), f2(Wr.madd), `${(Wr.addAll / Wr.madd).toFixed(1)}×`],
  ]),
  '',
  `Propagation, ${results.lag.processes} processes on this 2-core machine: one adds ${(results.lag.samples / 7).toFixed(0)} keys one at a time (2 ms apart), ` +
  `7 watch their replicas; from the writer's acknowledgement to the key visible in another process: p50 ${f2(results.lag.p50)} ms, ` +
  `p99 ${f2(results.lag.p99)} ms, max ${f2(results.lag.max)} ms (${results.lag.samples} samples, none missing; a negative value is a replica that had the key before the writer's reply arrived).`,
  '',
  table(['bootstrap (`openReplica`)', 'filter bytes', 'first open, no checkpoint: ms', 'its longest command (ms)', 'open from the checkpoint: ms', 'its longest command (ms)'],
    results.bootstrap.map((b) => [`BF sized for ${b.n.toExponential(0).replace('e+', '×10^')} keys at 1%, ${Math.min(b.n, 1e6).toExponential(0).replace('e+', '×10^')} in it`,
      b.bytes.toLocaleString('en-US'), f2(b.firstMs), `${f2(b.firstHeld.ms)} (${b.firstHeld.name})`, f2(b.ms), `${f2(b.held.ms)} (${b.held.name})`])),
  '',
  'The longest command is SLOWLOG\'s, over the whole open (the first: until its checkpoint is written). What changed: every open used to run one script of '
    + 'DUMP + RESTORE that held the server for the whole filter (this table showed it); now a replica opens from the key\'s checkpoint (1 MiB per command), '
    + 'and the first open of a key with none reads it with SCANDUMP (one chunk, up to 16 MiB, per command) and writes it '
    + '([Opening a replica](#opening-a-replica-what-the-server-is-held-for)).',
  '',
  `Memory per replica: the copy is the filter's own bytes (${(results.memory.filterBytes / 2 ** 20).toFixed(2)} MiB for ${N.toLocaleString('en-US')} keys at 1%); ` +
  `a whole Node process holding it with its client and the wasm module had an RSS of ${results.memory.rssMiB.toFixed(0)} MiB.`,
].join('\n');
publishSection('replica', md, 'A fleet: replicas kept fresh through Redis');
