// One process of the test fleet (tests/js/redis-fleet.test.js): a client of the matrix
// (tests/redis/clients.mjs: node-redis 4, 5 or 6, ioredis 5 or 6, by its alias) that reconnects on
// its own, one openReplica of a key, and the parent's requests over IPC, each answered with
// { id, ok, value } or { id, ok: false, code, message }. Requests: add / remove (keys: each one
// written through, its own reply), has (keys: answered locally), sync, dump (the local copy's
// [iterator, hex] chunks), stats (with the last 12 'error' and 'resync' events), close (the replica and the client, then nothing: the process
// must exit by itself). Its first message is { ready: true, client: the client's name and version }.
//   node tests/fleet/worker.mjs <port> <key> <server: 2.6 | 8> <client alias> <options JSON> [<client options JSON>]
// (the client options are given to its constructor, e.g. ioredis's autoResendUnfulfilledCommands)
import { init } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { closeAll, serveRequests } from '../redis/ipc-serve.mjs';

const [port, key, server, alias, optionsJson, clientJson = '{}'] = process.argv.slice(2);
const kind = CLIENTS.find((c) => c.alias === alias);
if (!kind) throw new Error(`worker: no client '${alias}' in tests/redis/clients.mjs (${CLIENTS.map((c) => c.alias)})`);
await init();
const { c: client, close: closeClient } = await kind.connect(Number(port), JSON.parse(clientJson));
const errors = {};
const replica = await openReplica(client, key, { server, ...JSON.parse(optionsJson) });
const recent = [];   // the last 12 'error' and 'resync' events, for a failure's message
const note = (line) => { recent.push(`${new Date().toISOString().slice(11, 23)} ${line}`); if (recent.length > 12) recent.shift(); };
replica.on('error', (err) => { errors[err.code] = (errors[err.code] ?? 0) + 1; note(`error ${err.code}: ${err.message}`); });
replica.on('resync', (reason) => note(`resync: ${reason}`));

const settle = (promises) => Promise.allSettled(promises).then((all) => all.map((r) => (r.status === 'fulfilled' ? r.value : `error ${r.reason?.code ?? r.reason?.message}`)));

const handlers = {
  add: ({ keys }) => settle(keys.map((k) => replica.add(k))),
  remove: ({ keys }) => settle(keys.map((k) => replica.remove(k))),
  has: ({ keys }) => keys.map((k) => replica.has(k)),
  sync: () => replica.sync(),
  dump: () => replica.filter.toRedisDump().map(([it, d]) => [it, Buffer.from(d).toString('hex')]),
  stats: () => ({ ...replica.stats, lastError: undefined, errors, recent }),
  close: () => closeAll(replica, closeClient),
};

serveRequests(handlers, { client: kind.name });
