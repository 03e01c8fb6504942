// One process of the replica benchmark's fleet (tests/bench/replica-bench.mjs): opens a replica of
// a key, then over IPC either writes keys one at a time (reporting the wall time each add was
// acknowledged) or watches for keys (reporting the wall time each became visible, on the
// replica's 'applied' event). Wall time: performance.timeOrigin + performance.now(), one clock
// for every process on this machine.
//   node tests/bench/replica-worker.mjs <port> <key>
import { createClient } from 'redis';
import { init } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';

const [port, key] = process.argv.slice(2);
const wall = () => performance.timeOrigin + performance.now();
await init();
const client = createClient({ socket: { host: '127.0.0.1', port: Number(port) } });
client.on('error', () => {});
await client.connect();
const replica = await openReplica(client, key);
const seen = new Map();
let waiting = new Set();
replica.on('applied', () => {
  for (const k of waiting) if (replica.has(k)) { seen.set(k, wall()); waiting.delete(k); }
});
process.on('message', async (m) => {
  if (m.op === 'watch') {
    waiting = new Set(m.keys);
    process.send({ op: 'watching' });
  } else if (m.op === 'write') {
    const acked = [];
    for (const k of m.keys) {
      await replica.add(k);
      acked.push(wall());
      await new Promise((r) => { setTimeout(r, m.gapMs); });
    }
    process.send({ op: 'written', acked });
  } else if (m.op === 'report') {
    process.send({ op: 'seen', seen: [...seen], missing: waiting.size, rss: process.memoryUsage().rss });
  } else if (m.op === 'close') {
    await replica.close();
    await client.quit();
    process.disconnect();
  }
});
process.send({ op: 'ready', rss: process.memoryUsage().rss, bytes: replica.filter.byteLength });
