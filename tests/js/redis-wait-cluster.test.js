// Durable writes on Redis Cluster when the node connection is re-established between a write and
// its WAIT. Redis's WAIT counts only the writes of the connection it runs on, so a WAIT on a node
// connection that made no write answers at once with every connected replica. A relay
// (tests/redis/relay.mjs) in front of every node, the clients pointed at them (ioredis natMap,
// node-redis nodeAddressMap), replaces the server connection of the node client that sent the
// write right after the write's reply; the key's replica is SIGSTOPped, so nothing was
// replicated: with every cluster client of the matrix the write must reject REDIS, not confirmed.
import { init } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';
import { keySlot } from '../../js/redis/keyslot.js';
import { clusterSkipReason, ioredisCluster, nodeRedisCluster, startCluster, withTimeout } from '../redis/cluster.mjs';
import { rejection } from '../redis/helpers.mjs';
import { startRelay } from '../redis/relay.mjs';

beforeAll(() => init());
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const oracle = '2.6';
const why = clusterSkipReason({ oracle });
if (why) console.log(`SKIP Redis Cluster wait tests: ${why}`);

(why ? describe.skip : describe)(`wait on Redis Cluster (3 primaries, 3 replicas, RedisBloom ${oracle}), a node connection re-established between a write and its WAIT`, () => {
  let cluster = null;
  const relays = new Map();   // a node's port → its relay
  beforeAll(async () => {
    cluster = await startCluster({ oracle, timeout: 150_000 });
    for (const n of cluster.nodes) relays.set(n.port, await startRelay(n.port));
  }, 180_000);
  afterAll(async () => {
    for (const r of relays.values()) await r.close();
    if (cluster) await cluster.stop();
  }, 60_000);

  const map = () => Object.fromEntries([...relays].map(([port, r]) => [`127.0.0.1:${port}`, { host: '127.0.0.1', port: r.port }]));
  const seeds = () => [...relays.values()].slice(0, 3).map((r) => ({ host: '127.0.0.1', port: r.port }));
  const ioredis = (pkg) => () => ioredisCluster(pkg, { natMap: map() })(seeds());
  const nodeRedis = (pkg) => () => nodeRedisCluster(pkg, { nodeAddressMap: map() })(seeds());
  const CLIENTS = [
    { name: 'ioredis 5.11.1 Cluster', make: ioredis('ioredis') },
    { name: 'ioredis 6.0.0 Cluster', make: ioredis('ioredis6') },
    { name: 'node-redis 6.3.1 createCluster', make: nodeRedis('redis') },
    { name: 'node-redis 5.12.1 createCluster', make: nodeRedis('redis5') },
    { name: 'node-redis 4.7.1 createCluster', make: nodeRedis('redis4') },
  ];

  for (const c of CLIENTS) {
    test(`${c.name}: with wait, a write whose WAIT ran on a re-established node connection rejects REDIS, not confirmed`, async () => {
      const key = `swap:${c.name.replace(/[^0-9a-z]+/gi, '-')}`;
      const { client, close } = await c.make();
      let r = null;
      let stopped = null;
      try {
        r = await openReplica(client, key, { create: { type: 'BF', errorRate: 0.01, capacity: 1000 }, wait: { replicas: 1, timeout: 500 } });
        r.on('error', () => {});
        expect(await withTimeout(r.add('a'), 20_000, 'add')).toBe(true);   // confirmed through the relays
        // the checkpoint the open writes in the background is done (a write on the new connection
        // before the WAIT would make the WAIT cover the add too)
        for (let i = 0; i < 250 && Number(await cluster.sendToOwner(key, ['EXISTS', `{${key}}:bloomcuckoo-ckpt-lock`])) === 1; i++) await sleep(20);
        const primary = (await cluster.primaries()).find((p) => p.slots.some(([lo, hi]) => keySlot(key) >= lo && keySlot(key) <= hi));
        const replica = (await cluster.replicas()).find((x) => x.primary === primary.id);
        stopped = cluster.nodes.find((x) => x.port === replica.port);
        process.kill(stopped.pid, 'SIGSTOP');
        const marker = `swapped-${key}`;
        const swapped = Promise.race([...relays.values()].map((x) => x.newConnectionAfter(marker)));
        const err = await rejection(withTimeout(r.add(marker), 20_000, 'add'));
        await withTimeout(swapped, 5000, 'the relay swap');
        expect(err.code).toBe('REDIS');
        expect(err.message).toMatch(/applied by the primary/);
        expect(err.message).toMatch(/not confirmed/);
        expect(Number(await cluster.sendToOwner(key, ['BF.EXISTS', key, marker]))).toBe(1);
      } finally {
        if (stopped) process.kill(stopped.pid, 'SIGCONT');
        if (r) await withTimeout(r.close(), 20_000, 'close').catch(() => {});
        await withTimeout(Promise.resolve(close()), 10_000, 'close').catch(() => {});
      }
    }, 120_000);
  }
});
