#!/usr/bin/env node
// Starts a Redis Cluster on loopback for a person to try bloomcuckoo/redis against: 3 primaries
// + 3 replicas with RedisBloom loaded on each (tests/redis/cluster.mjs), prints its ports, and
// runs until Ctrl-C (or SIGTERM), then stops every node and removes their temp dirs.
//
//   node scripts/redis-cluster.mjs [--oracle 2.6|v8]
//   redis-cli -c -p <any printed port> BF.ADD k hello
import { clusterSkipReason, startCluster } from '../tests/redis/cluster.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--oracle');
const oracle = at >= 0 ? args[at + 1] : '2.6';
if (args.includes('--help') || !['2.6', 'v8'].includes(oracle) || args.length !== (at >= 0 ? 2 : 0)) {
  console.error('usage: node scripts/redis-cluster.mjs [--oracle 2.6|v8]\n'
    + '  2.6: Debian redis-server 7.0 + ../shared/redisbloom/redisbloom.so (RedisBloom 2.6.12)\n'
    + '  v8:  ../shared/redisbloom/v8 (Redis 7.4.1 + RedisBloom 8.9.80)');
  process.exit(args.includes('--help') ? 0 : 2);
}
const why = clusterSkipReason({ oracle });
if (why) {
  console.error(`cannot start a cluster: ${why}`);
  process.exit(1);
}
const cluster = await startCluster({ oracle });
const primaries = await cluster.primaries();
const replicas = await cluster.replicas();
for (const p of primaries) {
  const slots = p.slots.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');
  console.log(`primary 127.0.0.1:${p.port} slots ${slots}`);
}
for (const r of replicas) {
  console.log(`replica 127.0.0.1:${r.port} of ${primaries.find((p) => p.id === r.primary)?.port ?? r.primary}`);
}
console.log(`ports ${cluster.ports.join(' ')}`);
console.log('cluster_state:ok on every node; Ctrl-C stops it');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  console.log('stopped');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30);   // stay alive until a signal
