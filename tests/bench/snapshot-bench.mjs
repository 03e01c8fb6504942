// How long opening a replica holds the server (issue 33 item 9), read from the server itself:
// SLOWLOG (every command with its duration; slowlog-log-slower-than 0) and INFO commandstats
// (commands run inside scripts included), and the worst PING another client saw meanwhile. For a
// BF of 10^7 and of 10^8 keys at 1% (built here, filled to capacity, loaded with pushFilter), side
// by side in one run: a SCANDUMP of it chunk by chunk (the reference), the old way to open (one
// script of DUMP + RESTORE into a temporary key, as openReplica did before checkpoints), the first
// openReplica (no checkpoint yet), an openReplica once the checkpoint is there, and 16 opening at
// once (10^7: with the checkpoint there, and on a copy of the key with none).
//   node tests/bench/snapshot-bench.mjs [--quick] [--write-docs]   (--quick: 10^6 and 10^7)
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { RedisBloomFilter, init } from '../../js/main/index.js';
import { openReplica, pushFilter } from '../../js/redis/index.js';
import { benchRedisBloom } from '../redis/server.mjs';
import { median, publishSection, stringKeys, table } from './lib.mjs';

const quick = process.argv.includes('--quick');
const SIZES = quick ? [1e6, 1e7] : [1e7, 1e8];
const MANY = 16;
const REPS = 3;   // the SCANDUMP, the old script and the open from the checkpoint: medians of 3 (this machine is shared)
const log = (s) => process.stderr.write(`[snapshot-bench] ${s}\n`);

await init();
const rb = await benchRedisBloom('snapshot-bench');
const admin = rb.client;
const extra = [];
const extraClient = async () => {
  const c = await rb.connect();
  extra.push(c);
  return c;
};

/** The script names by key count (js/redis/replica.js, js/redis/checkpoint.js). */
const SCRIPT = { 1: 'release', 2: 'write/check', 3: 'snapshot (DUMP + RESTORE)', 4: 'open', 5: 'create', 6: 'load', 7: 'publish' };
const nameOf = (cmd) => (/^EVAL/i.test(cmd[0]) ? `${cmd[0]} ${SCRIPT[cmd[2]] ?? cmd[2]}` : cmd[0]);

async function reset() {
  await admin.sendCommand(['CONFIG', 'SET', 'slowlog-log-slower-than', '0']);
  await admin.sendCommand(['CONFIG', 'SET', 'slowlog-max-len', '100000']);
  await admin.sendCommand(['SLOWLOG', 'RESET']);
  await admin.sendCommand(['CONFIG', 'RESETSTAT']);
}

/** SLOWLOG since the reset: the longest command (ms, name) and the longest of each kind. */
async function slowlog() {
  const entries = (await admin.sendCommand(['SLOWLOG', 'GET', '100000'])).map((e) => ({ ms: Number(e[2]) / 1000, cmd: e[3].map(String) }))
    .filter((e) => !['SLOWLOG', 'CONFIG', 'INFO', 'PING'].includes(e.cmd[0].toUpperCase()));
  const by = {};
  for (const e of entries) by[nameOf(e.cmd)] = Math.max(by[nameOf(e.cmd)] ?? 0, e.ms);
  const longest = entries.reduce((a, e) => (e.ms > a.ms ? e : a), { ms: 0, cmd: ['none'] });
  return { ms: longest.ms, name: nameOf(longest.cmd), by };
}

async function calls(cmd) {
  const m = new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(String(await admin.sendCommand(['INFO', 'commandstats'])));
  return m ? Number(m[1]) : 0;
}

// another process PINGs the server in a loop (in this one, the replica's own work on its copy would
// delay the pings too) and prints `<Date.now() at send> <round trip ms>` for each round trip of 1 ms or more
const pings = [];
const pinger = spawn(process.execPath, ['--input-type=module', '-e', `
  const { createClient } = await import('redis');
  const c = createClient({ socket: { host: '127.0.0.1', port: ${rb.port} } });
  await c.connect();
  for (;;) {
    const at = Date.now();
    const t = performance.now();
    await c.ping();
    const ms = performance.now() - t;
    if (ms >= 1) process.stdout.write(at + ' ' + ms.toFixed(2) + '\\n');
  }`], { cwd: new URL('../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'inherit'] });
let partial = '';
pinger.stdout.on('data', (d) => {
  const lines = (partial + d).split('\n');
  partial = lines.pop();
  for (const l of lines) { const [at, ms] = l.split(' ').map(Number); pings.push({ at, ms }); }
});
await new Promise((r) => { setTimeout(r, 500); });

/** Runs `fn`: { result, ms (wall), ping (the worst round trip of the other process's PINGs sent meanwhile, ms) }. */
async function measured(fn) {
  const from = Date.now();
  const t = performance.now();
  const result = await fn();
  const ms = performance.now() - t;
  const to = Date.now();
  await new Promise((r) => { setTimeout(r, 100); });   // a ping under way at the end is answered
  const ping = pings.filter((p) => p.at >= from && p.at <= to).reduce((a, p) => Math.max(a, p.ms), 0);
  return { result, ms, ping };
}

const rows = [];
const many = [];
try {
  for (const n of SIZES) {
    const key = `snap:${n}`;
    log(`building a BF of ${n} keys`);
    const f = new RedisBloomFilter({ errorRate: 0.01, capacity: n });
    for (let i = 0; i < n; i += 1e6) f.addAll(stringKeys(Math.min(1e6, n - i), i));
    const bytes = f.toRedisDump().reduce((s, [, d]) => s + d.length, 0);
    await pushFilter(await extraClient(), key, f, { replace: true, timeout: 60000 });
    f.free();
    const c = await extraClient();
    const opts = { timeout: 60000, syncTimeout: 120000 };

    // the reference: SCANDUMP chunk by chunk; the old open: one script of DUMP + RESTORE (the read
    // of the copy after it is SCANDUMP again); in turns, REPS times each
    const scans = [];
    const olds = [];
    for (let rep = 0; rep < REPS; rep++) {
      await reset();
      const scan = await measured(async () => {
        for (let it = 0; ;) {
          const [next] = await c.sendCommand(['BF.SCANDUMP', key, String(it)]);
          it = Number(next);
          if (it === 0) return;
        }
      });
      scans.push({ ...scan, log: await slowlog() });
      await reset();
      const old = await measured(() => c.sendCommand(['EVAL', "redis.call('RESTORE', KEYS[2], '600000', redis.call('DUMP', KEYS[1]), 'REPLACE') return 1",
        '2', key, `{${key}}:old-snapshot`]));
      olds.push({ ...old, log: await slowlog() });
      await c.sendCommand(['UNLINK', `{${key}}:old-snapshot`]);
    }
    const mid = (xs, f) => median(xs.map(f));
    const scan = { ms: mid(scans, (x) => x.ms), ping: mid(scans, (x) => x.ping) };
    const scanLog = { ms: mid(scans, (x) => x.log.ms) };
    const old = { ms: mid(olds, (x) => x.ms), ping: mid(olds, (x) => x.ping) };
    const oldLog = { ms: mid(olds, (x) => x.log.ms) };
    // the first open: no checkpoint (one snapshot under the lock, then its checkpoint is written)
    await reset();
    const first = await measured(() => openReplica(c, key, opts));
    for (let i = 0; i < 600 && first.result.stats.checkpoints === 0; i++) await new Promise((r) => { setTimeout(r, 100); });
    const firstLog = await slowlog();
    // opens with the checkpoint there, REPS times
    const nexts = [];
    let nextDumps = 0;
    for (let rep = 0; rep < REPS; rep++) {
      await reset();
      const one = await measured(() => openReplica(c, key, opts));
      nexts.push({ ...one, log: await slowlog() });
      nextDumps += (await calls('dump')) + (await calls('restore'));
      await one.result.close();
    }
    nexts.sort((a, b) => a.log.ms - b.log.ms);
    const next = { ms: mid(nexts, (x) => x.ms), ping: mid(nexts, (x) => x.ping) };
    const nextLog = nexts[nexts.length >> 1].log;
    rows.push({ n, bytes, scan, scanLog, old, oldLog, first, firstLog, next, nextLog, nextDumps });
    log(`${n}: SCANDUMP chunk ${scanLog.ms} ms, old ${oldLog.ms} ms, first open ${firstLog.ms} (${firstLog.name}), next ${nextLog.ms} (${nextLog.name})`);

    if (n <= 1e7) {
      // 16 at once with the checkpoint there, then 16 at once on a copy of the key with none; REPS
      // times each, in turns (a new copy each time), the run with the median longest command shown
      const clients = await Promise.all(Array.from({ length: MANY }, () => extraClient()));
      const runs = { 'checkpoint there': [], 'no checkpoint': [], 'no checkpoint, writes going on': [] };
      for (let rep = 0; rep < REPS; rep++) {
        for (const label of Object.keys(runs)) {
          const target = label === 'checkpoint there' ? key : `${key}:fresh${rep}:${label.length}`;
          if (target !== key) await c.sendCommand(['RESTORE', target, '0', await c.sendCommand(['DUMP', key]), 'REPLACE']);
          let writer = null;
          let writing = false;
          let busy = null;
          if (label.includes('writes')) {
            // a replica that writes all along; its checkpoint dropped, so the 16 find none
            writer = await openReplica(await extraClient(), target, opts);
            while (writer.stats.checkpoints === 0) await new Promise((r) => { setTimeout(r, 10); });
            await c.sendCommand(['DEL', `{${target}}:bloomcuckoo-ckpt`]);
            writing = true;
            busy = (async () => { for (let i = 0; writing; i++) await writer.addAll(stringKeys(20, 1e9 + i * 20)); })();
          }
          await reset();
          const all = await measured(() => Promise.all(clients.map((x) => openReplica(x, target, opts))));
          writing = false;
          await busy;
          await writer?.close();
          await new Promise((r) => { setTimeout(r, 500); });   // the checkpoint the first one writes
          const l = await slowlog();
          runs[label].push({ n, label, all, l, dumps: await calls('dump'), hsets: await calls('hset'), read: all.result.reduce((s, r) => s + r.stats.fromCheckpoint, 0) });
          for (const r of all.result) await r.close();
        }
      }
      for (const list of Object.values(runs)) many.push(list.sort((a, b) => a.l.ms - b.l.ms)[list.length >> 1]);
    }
    await first.result.close();
    await c.sendCommand(['UNLINK', key]);
  }
} finally {
  pinger.kill();
  for (const x of extra) await x.quit().catch(() => {});
  await rb.stop();
}

const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const sci = (n) => `10^${Math.round(Math.log10(n))}`;
const md = [
  `Server: Debian's redis-server 7.0 with RedisBloom 2.6.12 on loopback, started by the benchmark, on this shared 2-core machine; client: node-redis (\`redis\`); Node ${process.version}; the SCANDUMP, the old script and the open from the checkpoint ${REPS} times each in turns, medians (the rest once). A BF at 1% filled to capacity, built here and loaded with \`pushFilter\`. "Held" is SLOWLOG's duration of the longest command (the server runs nothing else meanwhile); "PING" is the worst round trip of another process's client pinging in a loop meanwhile. 16 opening at once: ${REPS} times each, the run with the median longest command shown.`,
  '',
  table(['BF of', 'bytes', 'SCANDUMP, longest chunk', 'old open: DUMP + RESTORE script', 'first open (no checkpoint): longest', 'open from the checkpoint: longest', 'open ms: old script / from the checkpoint', 'PING worst: old / from the checkpoint'],
    rows.map((r) => [`${sci(r.n)} keys`, r.bytes.toLocaleString('en-US'), `${ms(r.scanLog.ms)} ms`, `${ms(r.oldLog.ms)} ms`,
      `${ms(r.firstLog.ms)} ms (${r.firstLog.name})`, `${ms(r.nextLog.ms)} ms (${r.nextLog.name})${r.nextDumps ? ` ⚠ ${r.nextDumps} DUMP/RESTORE` : ''}`,
      `${ms(r.old.ms + r.scan.ms)} / ${ms(r.next.ms)}`, `${ms(r.old.ping)} / ${ms(r.next.ping)} ms`])),
  '',
  'The checkpoint\'s own commands in the first open (it writes the checkpoint after its read of the key): '
    + rows.map((r) => `${sci(r.n)}: longest HSET ${ms(r.firstLog.by.HSET ?? 0)} ms, publish script ${ms(r.firstLog.by['EVALSHA publish'] ?? r.firstLog.by['EVAL publish'] ?? 0)} ms; reading it: longest HMGET ${ms(r.nextLog.by.HMGET ?? 0)} ms`).join('; ')
    + '.',
  '',
  `Opening a replica from the checkpoint, the longest command was ${rows.map((r) => `${ms(r.nextLog.ms)} ms at ${sci(r.n)} keys (${r.nextLog.name})`).join(' and ')}, `
    + `against ${rows.map((r) => `${ms(r.scanLog.ms)} ms`).join(' and ')} for one SCANDUMP chunk of the same filter and ${rows.map((r) => `${ms(r.oldLog.ms)} ms`).join(' and ')} `
    + 'for the one script of DUMP + RESTORE every open ran before; no DUMP or RESTORE ran'
    + `${rows.some((r) => r.nextDumps) ? ' (except where marked ⚠)' : ''}. A key's first open (no checkpoint yet, nothing writing) read the key itself with SCANDUMP `
    + `(longest ${rows.map((r) => `${ms(r.firstLog.ms)} ms, ${r.firstLog.name}`).join('; ')}) and its replica then wrote the checkpoint in 1 MiB steps; `
    + 'with writes going on during that read it asks the writing replica for a checkpoint and opens from it (the 16-at-once rows below). '
    + 'The PING column is another process\'s round trip: on this shared 2-core machine it also waits for a core while the opening process works on its copy (138 MB at 10^8), so it is not the server\'s hold alone; SLOWLOG is.',
  '',
  table([`${MANY} replicas opening at once`, 'longest command', 'DUMP calls', 'HSET calls (checkpoint writes)', 'opened from the checkpoint', 'ms until all open', 'PING worst'],
    many.map((m) => [`${sci(m.n)} keys, ${m.label}`, `${ms(m.l.ms)} ms (${m.l.name})`, m.dumps, m.hsets, `${m.read} of ${MANY}`, ms(m.all.ms), `${ms(m.all.ping)} ms`])),
  '',
  `${MANY} opening at once: one of them (holding the lock) reads the key and writes the checkpoint (one HSET per 1 MiB step, the end and the pointer), `
    + `the ${MANY - 1} others read that checkpoint; with writes going on during its read, the writing replica writes the checkpoint when asked and all ${MANY} read it. `
    + `Each reads the filter once (${MANY} copies leave the server either way). Before this round, writes going on during the first read made it run the DUMP + RESTORE script (382 ms at 10^7 keys); docs/API.md lists the cases where it still can.`,
].join('\n');
publishSection('snapshot', md, 'Opening a replica: what the server is held for');
