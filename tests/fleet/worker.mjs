// One process of the test fleet (tests/js/redis-fleet.test.js): a node-redis client that
// reconnects, one openReplica of a key, and the parent's requests over IPC, each answered with
// { id, ok, value } or { id, ok: false, code, message }. Requests: add / remove (keys: each one
// written through, its own reply), has (keys: answered locally), sync, dump (the local copy's
// [iterator, hex] chunks), stats, close (the replica and the client, then nothing: the process
// must exit by itself).
//   node tests/fleet/worker.mjs <port> <key> <server: 2.6 | 8> <options JSON>
import { createClient } from 'redis';
import { init } from '../../js/index.js';
import { openReplica } from '../../js/redis-entry.js';

const [port, key, server, optionsJson] = process.argv.slice(2);
await init();
const client = createClient({ socket: { host: '127.0.0.1', port: Number(port), reconnectStrategy: (n) => Math.min(20 * (n + 1), 200) } });
client.on('error', () => {});   // reconnects; failed commands reject and are reported to the parent
await client.connect();
const errors = {};
const replica = await openReplica(client, key, { server, ...JSON.parse(optionsJson) });
replica.on('error', (err) => { errors[err.code] = (errors[err.code] ?? 0) + 1; });

const settle = (promises) => Promise.allSettled(promises).then((all) => all.map((r) => (r.status === 'fulfilled' ? r.value : `error ${r.reason?.code ?? r.reason?.message}`)));

const handlers = {
  add: ({ keys }) => settle(keys.map((k) => replica.add(k))),
  remove: ({ keys }) => settle(keys.map((k) => replica.remove(k))),
  has: ({ keys }) => keys.map((k) => replica.has(k)),
  sync: () => replica.sync(),
  dump: () => replica.filter.toRedisDump().map(([it, d]) => [it, Buffer.from(d).toString('hex')]),
  stats: () => ({ ...replica.stats, lastError: undefined, errors }),
  close: async () => {
    await replica.close();
    await client.quit();
    process.removeAllListeners('message');
    process.disconnect();
  },
};

process.on('message', async (msg) => {
  try {
    const value = await handlers[msg.op](msg);
    if (msg.op !== 'close') process.send({ id: msg.id, ok: true, value });
  } catch (err) {
    process.send({ id: msg.id, ok: false, code: err?.code, message: String(err?.message ?? err) });
  }
});
process.send({ ready: true });
