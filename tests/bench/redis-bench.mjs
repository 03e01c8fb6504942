// RedisBloom bridge benchmark: local answers on a pulled filter against the server's round trip
// over loopback, and the time to pull (SCANDUMP) and push (LOADCHUNK) 10^6- and 10^7-key filters.
// Starts its own redis-server with the RedisBloom module (tests/redis/server.mjs).
//   node tests/bench/redis-bench.mjs [--quick] [--write-docs]
// Writes tests/bench/results/redis.json and, with --write-docs, the section of docs/BENCHMARKS.md
// between <!-- redis:begin --> and <!-- redis:end -->.
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fromRedisDump, init, RedisBloomFilter, RedisCuckooFilter } from '../../js/main/index.js';
import { benchRedisBloom } from '../redis/server.mjs';
import { median, publishSection, stringKeys, table } from './lib.mjs';

const root = new URL('../..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const REPS = quick ? 1 : 3;

await init();
const rb = await benchRedisBloom('redis-bench');
const client = rb.client;
const cmd = (args) => client.sendCommand(args);

async function scanDump(prefix, key) {
  const chunks = [];
  for (let it = 0; ;) {
    const [next, data] = await cmd([`${prefix}.SCANDUMP`, key, String(it)]);
    it = Number(next);
    chunks.push([it, data]);
    if (it === 0) return chunks;
  }
}

async function loadChunks(prefix, key, chunks) {
  for (const [it, data] of chunks) {
    await cmd([`${prefix}.LOADCHUNK`, key, String(it), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
  }
}

const results = { lookups: [], transfer: [] };

// ---- lookups: 10^6-key BF, 1% -----------------------------------------------------------------
{
  const n = quick ? 100_000 : 1_000_000;
  const local = new RedisBloomFilter({ capacity: n, errorRate: 0.01 });
  const keys = stringKeys(n);
  local.addAll(keys);
  await cmd(['DEL', 'bench:bf']);
  await loadChunks('BF', 'bench:bf', local.toRedisDump());
  const pulled = fromRedisDump(await scanDump('BF', 'bench:bf'));
  const probes = stringKeys(quick ? 2_000 : 10_000, n / 2);   // half present, half absent
  // one key: local has() vs BF.EXISTS, one round trip per key
  const oneLocal = [];
  const oneServer = [];
  for (let r = 0; r < REPS; r++) {
    let t = performance.now();
    let hitsL = 0;
    for (let i = 0; i < 50; i++) for (const k of probes) hitsL += pulled.has(k) ? 1 : 0;
    oneLocal.push(((performance.now() - t) * 1e3) / (50 * probes.length));
    t = performance.now();
    let hitsS = 0;
    for (const k of probes) hitsS += Number(await cmd(['BF.EXISTS', 'bench:bf', k]));
    oneServer.push(((performance.now() - t) * 1e3) / probes.length);
    if (hitsS * 50 !== hitsL) throw new Error(`local and server disagree: ${hitsL / 50} vs ${hitsS}`);
  }
  // batches of 1,000: hasAll vs pipelined BF.MEXISTS
  const batch = 1000;
  const big = stringKeys(quick ? 20_000 : 100_000, n / 2);
  const batchLocal = [];
  const batchServer = [];
  for (let r = 0; r < REPS; r++) {
    let t = performance.now();
    let hitsL = 0;
    for (let i = 0; i < big.length; i += batch) hitsL += pulled.hasAll(big.slice(i, i + batch)).reduce((a, b) => a + b, 0);
    batchLocal.push(((performance.now() - t) * 1e3) / big.length);
    t = performance.now();
    const replies = [];
    for (let i = 0; i < big.length; i += batch) replies.push(cmd(['BF.MEXISTS', 'bench:bf', ...big.slice(i, i + batch)]));
    let hitsS = 0;
    for (const rep of await Promise.all(replies)) for (const v of rep) hitsS += Number(v);
    batchServer.push(((performance.now() - t) * 1e3) / big.length);
    if (hitsS !== hitsL) throw new Error(`local and server disagree on batches: ${hitsL} vs ${hitsS}`);
  }
  results.lookups.push({ n, oneLocalUs: median(oneLocal), oneServerUs: median(oneServer),
    batchLocalUs: median(batchLocal), batchServerUs: median(batchServer) });
  local.free();
  pulled.free();
}

// ---- pull and push ----------------------------------------------------------------------------
for (const n of quick ? [100_000] : [1_000_000, 10_000_000]) {
  for (const [prefix, Cls, opts] of [
    ['BF', RedisBloomFilter, { capacity: n, errorRate: 0.01 }],
    ['CF', RedisCuckooFilter, { capacity: n }],
  ]) {
    const local = new Cls(opts);
    const keys = stringKeys(n);
    for (let i = 0; i < n; i += 100_000) local.addAll(keys.slice(i, i + 100_000));
    const dump = local.toRedisDump();
    const bytes = dump.reduce((a, [, d]) => a + d.byteLength, 0);
    const push = [];
    const pull = [];
    for (let r = 0; r < REPS; r++) {
      await cmd(['DEL', 'bench:x']);
      let t = performance.now();
      await loadChunks(prefix, 'bench:x', local.toRedisDump());
      push.push(performance.now() - t);
      t = performance.now();
      const f = fromRedisDump(await scanDump(prefix, 'bench:x'));
      pull.push(performance.now() - t);
      if (f.size !== local.size) throw new Error('pulled filter differs');
      f.free();
    }
    results.transfer.push({ kind: prefix, n, bytes, chunks: dump.length, pushMs: median(push), pullMs: median(pull) });
    local.free();
  }
}
await cmd(['DEL', 'bench:bf', 'bench:x']);
await rb.stop();

mkdirSync(`${root}tests/bench/results`, { recursive: true });
writeFileSync(`${root}tests/bench/results/redis.json`, JSON.stringify(results, null, 2));

const f2 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const L = results.lookups[0];
const md = [
  `Server: Debian's redis-server 7.0 with RedisBloom 2.6.12, on loopback, started by the benchmark; client: node-redis (\`redis\`). ` +
  `Medians of ${REPS}. A BF of ${L.n.toLocaleString('en-US')} keys at 1%, built locally, loaded with BF.LOADCHUNK and pulled back with BF.SCANDUMP; ` +
  'probes are half present, half absent, and the local answers are checked equal to the server\'s.',
  '',
  table(['lookup', 'local (µs/key)', 'Redis over loopback (µs/key)', 'local is faster by'], [
    ['one key: `has` vs `BF.EXISTS`', f2(L.oneLocalUs), f2(L.oneServerUs), `${(L.oneServerUs / L.oneLocalUs).toFixed(0)}×`],
    ['batches of 1,000: `hasAll` vs pipelined `BF.MEXISTS`', f2(L.batchLocalUs), f2(L.batchServerUs), `${(L.batchServerUs / L.batchLocalUs).toFixed(0)}×`],
  ]),
  '',
  table(['filter', 'keys', 'dump bytes', 'chunks', 'push (LOADCHUNK) ms', 'pull (SCANDUMP + fromRedisDump) ms'],
    results.transfer.map((t) => [t.kind, t.n.toLocaleString('en-US'), t.bytes.toLocaleString('en-US'), String(t.chunks), f2(t.pushMs), f2(t.pullMs)])),
].join('\n');
publishSection('redis', md, 'RedisBloom bridge: local answers vs the server');
