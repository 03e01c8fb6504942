// Durable writes (openReplica's `wait: { replicas: 1, timeout }`) against the same writes without
// `wait` and against plain BF.ADD / pipelined BF.MADD, side by side in one run, on a primary and
// one replica (two redis-servers with RedisBloom started here on loopback, the second made a
// replica with REPLICAOF). The contenders alternate round by round; medians of the rounds.
//   node tests/bench/wait-bench.mjs [--quick] [--write-docs]
import { performance } from 'node:perf_hooks';
import { init } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';
import { replicate, skipReason, startRedisBloom } from '../redis/server.mjs';
import { median, stringKeys, table, writeDocSection } from './lib.mjs';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 5;
const ONE = quick ? 200 : 1000;          // awaited single adds per round and contender
const MANY = quick ? 5000 : 20000;       // keys per addAll per round and contender
const log = (s) => process.stderr.write(`[wait-bench] ${s}\n`);

await init();
const primary = await startRedisBloom();
const replica = primary ? await startRedisBloom() : null;
if (!primary || !replica) {
  log(`SKIP: no RedisBloom (${skipReason() ?? 'module not found'})`);
  await primary?.stop();
  process.exit(0);
}
try {
  await replicate(primary, replica);
  const c = primary.client;
  const create = { type: 'BF', errorRate: 0.01, capacity: 10_000_000 };
  const plain = await openReplica(c, 'bench:plain', { create });
  const durable = await openReplica(c, 'bench:durable', { create, wait: { replicas: 1, timeout: 5000 } });
  await c.sendCommand(['BF.RESERVE', 'bench:cmd', '0.01', '10000000']);
  const rows = { addCmd: [], add: [], addWait: [], maddCmd: [], addAll: [], addAllWait: [] };
  const us = (ms, n) => (ms * 1e3) / n;
  for (let round = 0; round < ROUNDS; round++) {
    const ks = stringKeys(ONE, round * 1e6);
    const runs = [
      ['addCmd', async (k) => c.sendCommand(['BF.ADD', 'bench:cmd', k])],
      ['add', (k) => plain.add(k)],
      ['addWait', (k) => durable.add(k)],
    ];
    for (const [name, fn] of round % 2 ? runs.reverse() : runs) {
      const t = performance.now();
      for (const k of ks) await fn(`${name}:${k}`);
      rows[name].push(us(performance.now() - t, ks.length));
    }
    const many = stringKeys(MANY, round * 1e6 + 5e5);
    const batches = [
      ['maddCmd', async (list) => {
        const p = [];
        for (let i = 0; i < list.length; i += 1000) p.push(c.sendCommand(['BF.MADD', 'bench:cmd', ...list.slice(i, i + 1000)]));
        await Promise.all(p);
      }],
      ['addAll', (list) => plain.addAll(list)],
      ['addAllWait', (list) => durable.addAll(list)],
    ];
    for (const [name, fn] of round % 2 ? batches.reverse() : batches) {
      const list = many.map((k) => `${name}:${k}`);
      const t = performance.now();
      await fn(list);
      rows[name].push(us(performance.now() - t, list.length));
    }
    log(`round ${round + 1}/${ROUNDS}`);
  }
  await plain.close();
  await durable.close();
  const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
  const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const md = [
    `Servers: a primary and one replica (REPLICAOF), each Debian's redis-server with RedisBloom 2.6.12, on loopback on this 2-core machine; client: node-redis (\`redis\`); Node ${process.version}; ${ROUNDS} rounds, the contenders alternating, medians. \`wait\` is \`{ replicas: 1, timeout: 5000 }\` (every write here was confirmed).`,
    '',
    table(['write (µs/key)', 'plain command', 'write-through', 'write-through with `wait`', '`wait` / write-through'], [
      [`one key, awaited (${ONE} per round): \`BF.ADD\`, \`replica.add\``, f(m.addCmd), f(m.add), f(m.addWait), `${(m.addWait / m.add).toFixed(2)}×`],
      [`many keys (${MANY} per round): pipelined \`BF.MADD\` of 1,000, \`replica.addAll\``, f(m.maddCmd), f(m.addAll), f(m.addAllWait), `${(m.addAllWait / m.addAll).toFixed(2)}×`],
    ]),
    '',
    'An awaited write with `wait` adds one `WAIT` round trip, in which the replica receives and applies the write; the `WAIT`s of `addAll`\'s pipelined batches overlap, so there it costs little.',
  ].join('\n');
  process.stdout.write(`${md}\n`);
  if (process.argv.includes('--write-docs')) {
    writeDocSection('wait', md, 'Durable writes: write-through with and without `wait`', '`node tests/bench/wait-bench.mjs --write-docs`.');
  }
} finally {
  await replica.stop();
  await primary.stop();
}
