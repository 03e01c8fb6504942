// One writer process of the cluster failover run (tests/js/redis-cluster.test.js): a cluster client
// of the given package (ioredis / ioredis6: `Cluster`; redis / redis5 / redis4: `createCluster`),
// one openReplica of the key, adds of `w<id>:<i>` one after another from 'start' until 'stop'.
// Over IPC: 'start' → { started }; 'count' → how many acknowledged so far; 'stop' → { acked: the keys whose add resolved (the exact oracle),
// failed: how many rejected }; 'check' (keys) → after sync(), { missing: the keys its copy lacks,
// dump: the copy's [iterator, hex] chunks }; 'close' → closes and exits by itself.
//   node tests/redis/cluster-writer.mjs <package> <seeds JSON> <key> <server> <options JSON> <id>
import { init } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';
import { closeAll, serveRequests } from './ipc-serve.mjs';

const [pkg, seedsJson, key, server, optionsJson, id] = process.argv.slice(2);
const seeds = JSON.parse(seedsJson);
const bounded = (p, ms, what) => Promise.race([p, new Promise((_, reject) => { setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref(); })]);

await init();
// with BLOOMCUCKOO_WAIT_VERBOSE set, the client's errors (a node's connection closed, ...) on stderr
const onError = process.env.BLOOMCUCKOO_WAIT_VERBOSE
  ? (e) => process.stderr.write(`[writer ${id} ${pkg}] ${e?.constructor?.name}: ${e?.message}\n`) : () => {};
let client;
let closeClient;
if (pkg.startsWith('ioredis')) {
  const mod = await import(pkg);
  const Cluster = mod.Cluster ?? mod.default.Cluster;
  client = new Cluster(seeds, { enableReadyCheck: true });
  client.on('error', onError);
  await bounded(new Promise((resolve) => { client.once('ready', resolve); }), 30_000, 'Cluster ready');
  closeClient = () => client.disconnect();
} else {
  const { createCluster } = await import(pkg);
  client = createCluster({ rootNodes: seeds.map((socket) => ({ socket: { ...socket, connectTimeout: 10_000 } })) });
  client.on('error', onError);
  await bounded(client.connect(), 30_000, 'createCluster connect');
  closeClient = () => (typeof client.destroy === 'function' ? client.destroy() : client.disconnect());
}
const replica = await openReplica(client, key, { server, ...JSON.parse(optionsJson) });
replica.on('error', () => {});

const acked = [];
let failed = 0;
let stop = false;
let writing = Promise.resolve();
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

const handlers = {
  start: () => {
    writing = (async () => {
      for (let i = 0; !stop && i < 1_000_000; i++) {
        try {
          await replica.add(`w${id}:${i}`);
          acked.push(`w${id}:${i}`);
        } catch {
          failed++;   // not acknowledged: the oracle leaves it out
          await sleep(20);
        }
      }
    })();
    return { started: true };
  },
  count: () => acked.length,
  stop: async () => {
    stop = true;
    await writing;
    return { acked, failed };
  },
  check: async ({ keys }) => {
    await replica.sync();
    return { missing: keys.filter((k) => !replica.has(k)), dump: replica.filter.toRedisDump().map(([it, d]) => [it, Buffer.from(d).toString('hex')]) };
  },
  close: () => closeAll(replica, closeClient),
};

serveRequests(handlers);
