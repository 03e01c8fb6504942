// What bloomcuckoo/redis needs of a Redis client, whichever it is: a `send(args)` that resolves
// binary replies as Buffers, a second connection of its own (for a blocking read), and the few
// reads every part of the entry shares (the key's type, the server's rules, a SCANDUMP loop).
import { FilterError } from '../main/index.js';
import { companionKey, keySlot } from './keyslot.js';

// node-redis's RESP_TYPES.BLOB_STRING (the RESP type byte '$'), so this module needs no import of it.
const RESP_BLOB_STRING = 36;

/** Redis TYPE names of RedisBloom's types → command prefix. */
export const TYPES = { 'MBbloom--': 'BF', MBbloomCF: 'CF' };

const isIoredis = (client) => typeof client?.callBuffer === 'function';

/** An ioredis Cluster: its slot table (`slots`: slot → node keys, the primary's first) and a connection per node. */
const isIoredisCluster = (client) => Array.isArray(client.slots) && typeof client.connectionPool?.getInstanceByKey === 'function';

/** A node-redis cluster (createCluster of 4.x, 5.x, 6.x): its sendCommand routes by a key given first. */
const isNodeRedisCluster = (client) => typeof client?.getSlotMaster === 'function' && typeof client.sendCommand === 'function';

/**
 * The key a node-redis cluster routes `args` by: the command's first key (args[1]; EVAL/EVALSHA:
 * the first of KEYS; XREAD: the first after STREAMS), none for the commands here without a key
 * (MODULE LIST, COMMAND INFO, CLIENT ID: any node answers them; every node of a cluster runs
 * the same modules).
 */
export function routingKeyOf(args) {
  const cmd = String(args[0]).toUpperCase();
  if (cmd === 'EVAL' || cmd === 'EVALSHA') return Number(args[2]) > 0 ? args[3] : undefined;
  if (cmd === 'XREAD') {
    const at = args.findIndex((a) => String(a).toUpperCase() === 'STREAMS');
    return at > 0 ? args[at + 1] : undefined;
  }
  return ['MODULE', 'COMMAND', 'CLIENT', 'WAIT'].includes(cmd) ? undefined : args[1];
}

/**
 * Drops every closed per-node client a node-redis cluster still holds (node.client of its
 * masters and replicas), so that its next command to that node makes a new one, as for a node it
 * has not connected yet; whether any was dropped. node-redis 4's createCluster, rediscovering
 * after a MOVED from a node, sets that node client's reconnectStrategy to false (it writes into
 * the client's own options): the next time that node closes the connection the client is closed
 * for good while the slot table still routes to it, and every command for its slots rejects
 * "The client is closed", which node-redis never takes as a reason to rediscover.
 */
function dropClosedNodes(cluster) {
  let dropped = 0;
  for (const node of [...(cluster.masters ?? []), ...(cluster.replicas ?? [])]) {
    const c = node?.client;
    if (c && typeof c.then !== 'function' && c.isOpen === false) {
      node.client = undefined;
      dropped++;
    }
  }
  return dropped > 0;
}

/** The connection an ioredis Cluster sends `key`'s commands through (its slot's primary), or undefined while its slot table names none. */
function ioredisNodeOf(cluster, key) {
  const nodeKey = cluster.slots[keySlot(key)]?.[0];
  return nodeKey === undefined ? undefined : cluster.connectionPool.getInstanceByKey(nodeKey);
}

/** The client a node-redis cluster sends `key`'s commands through (its slot's primary's), or undefined when no primary is known. */
async function nodeRedisNodeOf(cluster, key) {
  const master = cluster.getSlotMaster(keySlot(key));
  return master ? cluster.nodeClient(master) : undefined;
}

/** node-redis's ClientClosedError: rejected before it was written (a closed client sends nothing). */
const isClosedClient = (err) => err?.constructor?.name === 'ClientClosedError' || text(err?.message) === 'The client is closed';

/**
 * `args` through a node-redis cluster, routed by routingKeyOf(args), or to the primary of the slot
 * of `route` (a key) when given. A command rejected because the per-node client it was routed to
 * is closed (while the cluster is open) was never sent: the closed node clients are dropped
 * (dropClosedNodes) and it is sent once more, to a new one.
 */
async function clusterSend(cluster, args, options, route) {
  // a command with a route names no key: node-redis 6 routes such a one by its command table (to any
  // node), whatever key is given, so it goes to the client of the route's slot's primary itself
  const viaNode = async () => (await nodeRedisNodeOf(cluster, route)).sendCommand(args, options);
  const send = () => (route === undefined ? cluster.sendCommand(routingKeyOf(args), false, args, options) : viaNode());
  try {
    return await send();
  } catch (err) {
    if (!isClosedClient(err) || !cluster.isOpen || !dropClosedNodes(cluster)) throw err;
    return send();
  }
}

/**
 * A `send(args, route)` for `client` that resolves binary replies as Buffers: node-redis 5+ (a type
 * mapping given with each command: 5.x's `withTypeMapping(...).sendCommand` ignores the view's
 * mapping), node-redis 4 (`returnBuffers`), a node-redis cluster of either (each command routed by
 * its key, clusterSend), ioredis 5 and 6 (`callBuffer`; an ioredis Cluster routes by the key
 * itself). `route`, a key, sends a command that names none (CLIENT ID, CLIENT UNBLOCK) to the node
 * of that key's slot, on the connection the cluster sends that key's commands through (a single
 * client has one). Anything else is FilterError INVALID_ARGUMENT.
 */
export function commandsOf(client) {
  if (isIoredis(client)) {
    // ioredis prefixes the keys of the commands it knows and not of the rest (BF.*, CF.*, the
    // scripts' KEYS): the key's TYPE would be read at 'app:k' and its SCANDUMP at 'k'
    const prefix = client.options?.keyPrefix || client.options?.redisOptions?.keyPrefix;
    if (prefix) {
      throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: an ioredis client with keyPrefix '${prefix}' would send some `
        + `commands to '${prefix}key' and others to 'key': pass a client without keyPrefix and the whole key name ('${prefix}key')`);
    }
    const node = (route) => (route === undefined || !isIoredisCluster(client) ? client : ioredisNodeOf(client, route) ?? client);
    return (args, route) => node(route).callBuffer(args[0], ...args.slice(1));
  }
  if (typeof client?.sendCommand === 'function') {                   // node-redis
    // node-redis 5+'s client.legacy(): a callback API whose sendCommand returns nothing; the client
    // it wraps is private
    if (client.constructor?.name === 'RedisLegacyClient') {
      throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: a legacy() view of a node-redis client sends commands with '
        + 'callbacks and returns no replies: pass the client itself (createClient())');
    }
    const options = typeof client.withTypeMapping === 'function'     // v5 and later
      ? { typeMapping: { [RESP_BLOB_STRING]: Buffer } } : { returnBuffers: true };   // v4
    if (isNodeRedisCluster(client)) return (args, route) => clusterSend(client, args, options, route);
    // a v4 client made with legacyMode: its sendCommand takes a callback and returns nothing; the
    // promise API is its `v4` (which only such a client has: reading it on another one throws)
    if (client.options?.legacyMode === true && typeof client.v4?.sendCommand === 'function') {
      return (args) => client.v4.sendCommand(args, options);
    }
    return (args) => client.sendCommand(args, options);
  }
  throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: pass a connected node-redis client '
    + "(createClient() or createCluster() of the 'redis' package, 4 or later) or an ioredis 5 or 6 client or Cluster");
}

/**
 * `wait` from options: undefined, or { replicas, timeout } with both positive integers (a WAIT
 * with timeout 0 would block forever, so it is refused); INVALID_ARGUMENT otherwise.
 */
export function waitOf(value, where) {
  if (value === undefined) return undefined;
  const ok = value !== null && typeof value === 'object' && Object.keys(value).every((k) => k === 'replicas' || k === 'timeout')
    && Number.isInteger(value.replicas) && value.replicas >= 1 && value.replicas <= 1000
    && Number.isInteger(value.timeout) && value.timeout >= 1;
  if (!ok) {
    throw new FilterError('INVALID_ARGUMENT', `${where}: wait is { replicas, timeout }: replicas an integer from 1 to 1000, `
      + `timeout a positive integer of ms, not ${JSON.stringify(value)}`);
  }
  return { replicas: value.replicas, timeout: value.timeout };
}

/**
 * The WAIT of the `wait` option for `client`, on the connection that writes `key`: a single client,
 * its connection; a node-redis cluster, the client of the key's slot's primary (getSlotMaster,
 * nodeClient: the one its writes go through); an ioredis Cluster, the connection of the node its
 * slot table names for the key (`slots`, `connectionPool`). WAIT with no key would go to any node,
 * or to all of them.
 *
 * Redis's WAIT counts the replicas that have every write *of the connection it runs on*: on a
 * connection that made no write (the client reconnected after the write's reply, or a cluster
 * re-created its node client) it answers at once with every connected replica, confirming
 * nothing. So the connection is identified: `id(key, ms)` is the CLIENT ID of that connection,
 * asked before the write is sent (a single client: sent at once, so it is queued ahead of the
 * write on the same client, no extra round trip; a cluster, `pipelined` false: to be awaited
 * before the write, which the cluster routes on its own); `wait(key, replicas, ms, bound, id)` sends WAIT
 * and CLIENT ID again, together on the same client, and resolves { confirmed, same }: `same` only
 * when the id is unchanged. Redis hands out increasing ids, never twice while it runs, so the same
 * id before the write and after the WAIT means no reconnect in between: the write and its WAIT
 * ran on one connection. Each bounded: `ms`, and WAIT's own timeout + `bound`. `send` (a single
 * client's; default commandsOf) may be a writerOf's, which rejects what is pending when its
 * connection closes (ioredis would drop it unsettled).
 */
export function waiterOf(client, send = commandsOf(client)) {
  const cluster = isIoredis(client) ? isIoredisCluster(client) : isNodeRedisCluster(client);
  let on;   // (key) → a send on the connection that writes `key`, queueing commands in call order
  if (isIoredis(client) && isIoredisCluster(client)) {
    on = async (key) => {
      // a slot table being refreshed (after a MOVED or a lost node) names no node for a moment: one
      // refresh of it, awaited (the caller's timed bounds it), then the answer stands
      const node = ioredisNodeOf(client, key)
        ?? (await new Promise((resolve) => { client.refreshSlotsCache(() => resolve(ioredisNodeOf(client, key))); }));
      if (!node) throw new FilterError('REDIS', `bloomcuckoo/redis: no known primary for the slot of '${key}' to send WAIT to`);
      return (args) => node.callBuffer(args[0], ...args.slice(1));
    };
  } else if (isNodeRedisCluster(client)) {
    on = async (key) => {
      const node = await nodeRedisNodeOf(client, key);
      if (!node) throw new FilterError('REDIS', `bloomcuckoo/redis: no known primary for the slot of '${key}' to send WAIT to`);
      return (args) => node.sendCommand(args);
    };
  } else {
    on = async () => send;
  }
  const ask = (s) => s(['CLIENT', 'ID']);
  return {
    pipelined: !cluster,
    id: async (key, ms) => countOf(await timed(cluster ? on(key).then(ask) : new Promise((resolve) => { resolve(ask(send)); }),
      ms, `no reply to CLIENT ID within ${ms} ms`), 'CLIENT ID'),
    wait: async (key, replicas, ms, bound, id) => {
      const [count, now] = await timed(on(key).then((s) => Promise.all([s(['WAIT', String(replicas), String(ms)]), s(['CLIENT', 'ID'])])),
        ms + bound, `no reply to WAIT within ${ms + bound} ms`);
      return { confirmed: countOf(count, 'WAIT'), same: countOf(now, 'CLIENT ID') === id };
    },
  };
}

/**
 * The WAIT of a write made with `wait` ({ replicas, timeout }) through `waiter` (waiterOf), `conn`
 * the CLIENT ID (or its promise) of the connection the write went through (waiter.id): resolves
 * when `replicas` replicas confirmed it on that same connection, else rejects REDIS "`done`, but
 * …", `done` saying what the primary has and `write` naming the command ('the write', 'the RENAME').
 */
export async function confirmWrite(waiter, key, { replicas, timeout }, bound, conn, done, write) {
  let confirmed;
  let same;
  try {
    ({ confirmed, same } = await waiter.wait(key, replicas, timeout, bound, await conn));
  } catch (err) {
    throw new FilterError('REDIS', `${done}, but its WAIT failed: ${reasonOf(err)}`);
  }
  if (!same) {
    throw new FilterError('REDIS', `${done}, but its replication was not confirmed: the connection was re-established between ${write} `
      + 'and its WAIT, which counts only its own connection\'s writes; a failover now may lose it');
  }
  if (confirmed < replicas) {
    throw new FilterError('REDIS', `${done}, but only ${confirmed} of ${replicas} replicas confirmed it within ${timeout} ms (WAIT): a failover now may lose it`);
  }
}

/** Default ms any one command waits for its reply (`timeout` of pullFilter, pushFilter, openReplica). */
export const DEFAULT_TIMEOUT = 10000;

/** `timeout` from options: a positive integer of ms, or the default; INVALID_ARGUMENT otherwise. */
export function timeoutOf(value, where) {
  if (value === undefined) return DEFAULT_TIMEOUT;
  if (!Number.isInteger(value) || value < 1) throw new FilterError('INVALID_ARGUMENT', `${where}: timeout is a positive integer of ms, not ${value}`);
  return value;
}

/** An error that says a command got no reply in time (the server stalled, or the link is gone). */
export class NoReply extends Error {}

/**
 * `promise`, or a rejection with NoReply(`message`) after `ms`: every wait bounded. The command
 * itself is not cancelled (no client can take it back); its late reply is dropped.
 */
export function timed(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new NoReply(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** `send` with each command bounded by `ms` (a NoReply saying which command and how long); `route` passed on. */
export function bounded(send, ms) {
  return (args, route) => timed(Promise.resolve().then(() => send(args, route)), ms, `no reply to ${args[0]} within ${ms} ms`);
}

/** Resolves once the ioredis Cluster `c` is ready (its slot table filled); rejects if it ends first. */
function readyOf(c) {
  return c.status === 'ready' ? Promise.resolve() : new Promise((resolve, reject) => {
    c.once('ready', resolve);
    c.once('end', () => reject(new FilterError('REDIS', 'bloomcuckoo/redis: the cluster connection ended before it was ready')));
  });
}

/**
 * Drops `client`'s connection at once, even in the middle of a blocking command or with the server
 * stalled: node-redis 5+ destroy() (a client or a cluster); node-redis 4 disconnect() (a promise: a
 * rejection is dropped, not left unhandled); ioredis disconnect() ends the socket and keeps a 2 s
 * timer until the peer closes it (a stalled or gone server: that long), so its socket is destroyed too.
 */
export function dropClient(client) {
  try {
    if (isIoredis(client)) {
      client.disconnect();
      client.connector?.stream?.destroy?.();
    } else if (typeof client.destroy === 'function') client.destroy();
    else Promise.resolve(client.disconnect()).catch(() => {});
  } catch { /* already closed */ }
}

/** INVALID_ARGUMENT unless `client` can duplicate() itself: openReplica's tail needs a connection of its own. */
export function requireDuplicable(client) {
  if (typeof client.duplicate !== 'function') {
    throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: openReplica needs a client it can duplicate() for a connection '
      + 'of its own (node-redis createClient() or createCluster(), an ioredis client or Cluster); a node-redis createClientPool() '
      + 'pool has none: pass a createClient() client');
  }
}

/**
 * A new connection to the same server, connected, with its errors sent to `onError` (a client
 * with no 'error' listener would crash the process), a `close()` that drops it at once, even
 * in the middle of a blocking command, and `alive()`: false once the client is closed for good
 * (node-redis `isOpen` false, ioredis status 'end': a client made not to reconnect, whose
 * connection was lost), true while it is open or reconnecting by itself.
 */
export async function duplicateOf(client, onError, timeout = DEFAULT_TIMEOUT) {
  requireDuplicable(client);
  const dup = client.duplicate();
  dup.on('error', onError);
  const close = () => dropClient(dup);
  // ioredis connects by itself; a Cluster's duplicate is awaited until ready, as before that its slot
  // table is empty and a command routed to a key's node (CLIENT ID, CLIENT UNBLOCK) goes to any node
  const ready = isIoredis(dup) ? (isIoredisCluster(dup) ? readyOf(dup) : null) : dup.connect();
  if (ready) {
    try {
      await timed(ready, timeout, `the replica's connection did not connect within ${timeout} ms`);
    } catch (err) {
      close();
      throw err;
    }
  }
  const alive = () => (isIoredis(dup) ? dup.status !== 'end' : dup.isOpen !== false);
  return { send: commandsOf(dup), close, alive };
}

/** An error saying the write connection closed with a command unanswered (sent or not: unknown). */
export class ConnectionGone extends Error {}

/**
 * The connection a replica sends its writes (and their WAIT) through, sending each at most once:
 * `{ send, close, client }`, `client` and `send` the ones to give waiterOf. node-redis never sends a command
 * again after a reconnect (it rejects it): the client itself, nothing to close. ioredis does,
 * by default (autoResendUnfulfilledCommands: a write the server applied whose reply was lost
 * would be applied twice), and an ioredis Cluster re-sends a command whose node connection
 * closed (retryDelayOnFailover): a duplicate of the client with both off. ioredis then drops
 * such a command without settling it; each one pending when the connection closes is rejected
 * with ConnectionGone at once.
 */
export function writerOf(client, onError) {
  if (!isIoredis(client)) return { send: commandsOf(client), close: () => {}, client };
  const cluster = isIoredisCluster(client);
  const dup = cluster
    ? client.duplicate([], { retryDelayOnFailover: 0, redisOptions: { ...client.options.redisOptions, autoResendUnfulfilledCommands: false } })
    : client.duplicate({ autoResendUnfulfilledCommands: false });
  dup.on('error', onError);
  const pending = new Set();
  dup.on('close', () => {
    for (const p of [...pending]) p.reject(new ConnectionGone('the connection closed before the reply came'));
  });
  const call = commandsOf(dup);
  const send = (args) => {
    const p = {};
    const gone = new Promise((_, reject) => { p.reject = reject; });
    pending.add(p);
    return Promise.race([Promise.resolve().then(() => call(args)), gone]).finally(() => pending.delete(p));
  };
  const close = () => {
    try {
      dup.disconnect();
      if (!cluster) dup.connector?.stream?.destroy?.();
    } catch { /* already closed */ }
  };
  return { send, close, client: dup };
}

export const text = (v) => (v == null ? '' : Buffer.isBuffer(v) ? v.toString() : String(v));

/** FilterError CORRUPT_DATA: a reply of a shape no Redis sends for `what`. */
export const badReply = (what, detail) => new FilterError('CORRUPT_DATA', `bloomcuckoo/redis: ${what} replied ${detail}`);

const describe = (v) => (v === null || v === undefined ? 'nil' : Array.isArray(v) ? `an array of ${v.length}`
  : Buffer.isBuffer(v) || typeof v === 'string' ? `'${text(v).slice(0, 40)}'` : typeof v);

/** A string reply (simple or bulk; a Buffer as text), else CORRUPT_DATA naming `what`. */
export function textOf(reply, what) {
  if (typeof reply === 'string' || Buffer.isBuffer(reply)) return text(reply);
  throw badReply(what, `${describe(reply)}, not a string`);
}

/** An array reply of at least `min` elements, else CORRUPT_DATA naming `what`. */
export function arrayOf(reply, what, min = 0) {
  if (Array.isArray(reply) && reply.length >= min) return reply;
  throw badReply(what, `${describe(reply)}, not an array of ${min} or more`);
}

/** A non-negative integer (a number, or its decimal text) below 2^53, else CORRUPT_DATA naming `what`. */
export function countOf(reply, what) {
  const s = typeof reply === 'number' ? String(reply) : typeof reply === 'string' || Buffer.isBuffer(reply) ? text(reply) : null;
  if (s !== null && /^[0-9]{1,16}$/.test(s) && Number.isSafeInteger(Number(s))) return Number(s);
  throw badReply(what, `${describe(reply)}, not a non-negative integer`);
}

/** A reply of name/value pairs (a RESP2 flat array, a RESP3 map or object) → an object by name. */
export function fieldsOf(reply) {
  const pairs = Array.isArray(reply) ? reply.flatMap((v, i) => (i % 2 ? [] : [[v, reply[i + 1]]]))
    : reply instanceof Map ? [...reply] : Object.entries(reply ?? {});
  return Object.fromEntries(pairs.map(([name, value]) => [text(name), value]));
}

/** An error's words, never empty (node-redis 6 rejects some with an empty message: its class then). */
export function reasonOf(err) {
  const m = text(err?.message ?? err);
  return m || `${err?.constructor?.name ?? 'Error'} with no message${err?.code ? ` (${err.code})` : ''}`;
}

/** Runs one command; a server or connection error becomes FilterError REDIS saying what failed. */
export async function run(send, args) {
  try {
    return await send(args);
  } catch (err) {
    if (err instanceof FilterError) throw err;
    throw new FilterError('REDIS', `bloomcuckoo/redis: ${args[0]} ${args[1] ?? ''} failed: ${reasonOf(err)}`);
  }
}

/** 'BF' or 'CF' for a key of RedisBloom's types; FilterError INVALID_ARGUMENT for none or another type. */
export function prefixFor(key, type) {
  if (type === 'none') throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: no key '${key}'`);
  const prefix = TYPES[type];
  if (!prefix) throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' holds a ${type}, not a RedisBloom BF or CF filter`);
  return prefix;
}

/** What a Redis with no BF/CF commands gets (pullFilter, openReplica; pushFilter's first LOADCHUNK). */
export const NO_MODULE = 'bloomcuckoo/redis: this Redis has no BF/CF commands: load the RedisBloom module '
  + '(--loadmodule redisbloom.so) or use Redis 8, which has them built in';

/**
 * '8' for Redis 8's bloom module (RedisBloom 8.x, module version 80000 and up), else '2.6';
 * FilterError REDIS for a Redis without BF/CF commands.
 */
export async function serverVia(send) {
  const mods = await run(send, ['MODULE', 'LIST']);
  if (mods != null && !Array.isArray(mods)) throw badReply('MODULE LIST', `${describe(mods)}, not an array`);
  for (const m of mods ?? []) {
    if (m === null || typeof m !== 'object') throw badReply('MODULE LIST', `an entry that is ${describe(m)}`);
    const entry = fieldsOf(m);
    if (text(entry.name) === 'bf') return Number(text(entry.ver)) >= 80000 ? '8' : '2.6';
  }
  // no module listed: Redis 8 with bloom built in, or a Redis with no bloom at all
  const info = await run(send, ['COMMAND', 'INFO', 'BF.ADD']);
  if (!Array.isArray(info) || info[0] == null) {
    throw new FilterError('REDIS', NO_MODULE);
  }
  return '8';
}

/** The most a dump may hold here: 4 GiB (a wasm32 address space), as fromRedisDump. */
export const MAX_DUMP_BYTES = 2 ** 32;

/** Refuses a declared size past MAX_DUMP_BYTES before anything is allocated or read. */
function withinLimit(bytes, what) {
  if (bytes > MAX_DUMP_BYTES) {
    throw new FilterError('OUT_OF_MEMORY', `bloomcuckoo/redis: ${what} declares ${bytes} bytes of data, more than the ${MAX_DUMP_BYTES} a filter here can hold`);
  }
  return bytes;
}

/**
 * The shortest run of data a dump splits a part (a BF link's bitmap, a CF sub-filter's slots) at,
 * other than its last: RedisBloom's SCANDUMP chunks are 16 MiB, a checkpoint's steps 1 MiB
 * (js/redis/checkpoint.js: STEP_BYTES is this). Shorter ones end a part.
 */
export const MIN_RUN_BYTES = 1024 * 1024;

/**
 * The data bytes a SCANDUMP header chunk declares (docs/FORMAT.md, kinds 7 and 8): the sum of a
 * BF's link bitmaps, or of a CF's sub-filters' slots. CORRUPT_DATA for a header of neither shape,
 * OUT_OF_MEMORY past 4 GiB. The full checks are fromRedisDump's; this bounds the loop that reads.
 * `ends`, when given (a Set), gets the offset each part's data ends at.
 */
export function declaredBytes(prefix, header, what, ends = null) {
  const h = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  if (prefix === 'BF') {
    const links = h.length >= 20 ? h.readUInt32LE(8) : -1;
    if (links < 1 || links > 4096 || h.length !== 20 + 53 * links) throw badReply(what, `a ${h.length}-byte header chunk, not a BF header (20 + 53 per link)`);
    let total = 0;
    for (let i = 0; i < links; i++) {
      total += withinLimit(Number(h.readBigUInt64LE(20 + 53 * i)), what);
      ends?.add(total);
    }
    return withinLimit(total, what);
  }
  if (h.length !== 38) throw badReply(what, `a ${h.length}-byte header chunk, not a CF header (38 bytes)`);
  return withinLimit(cfSlots(Number(h.readBigUInt64LE(8)), Number(h.readBigUInt64LE(24)), h.readUInt16LE(32), h.readUInt16LE(36), what, ends), what);
}

/**
 * Slot bytes of a CF of `filters` sub-filters, the first of `buckets` buckets of `bucketSize`,
 * each next `expansion` times larger; stops (OUT_OF_MEMORY) once past 4 GiB, CORRUPT_DATA outside
 * the server's ranges (docs/FORMAT.md kind 8).
 */
export function cfSlots(buckets, filters, bucketSize, expansion, what, ends = null) {
  if (!Number.isSafeInteger(buckets) || buckets < 1 || !Number.isInteger(Math.log2(buckets)) || !Number.isSafeInteger(filters) || filters < 1 || filters > 65535 || bucketSize < 1 || bucketSize > 255
    || (expansion !== 0 && (expansion & (expansion - 1)) !== 0)) {
    throw badReply(what, `a CF of ${buckets} buckets × ${bucketSize}, ${filters} sub-filters, expansion ${expansion}: outside the server's ranges`);
  }
  let total = 0;
  for (let k = 0; k < filters; k++) {
    total += buckets * (expansion === 0 ? 1 : expansion ** k) * bucketSize;
    withinLimit(total, what);
    ends?.add(total);
  }
  return total;
}

/**
 * The SCANDUMP loop of `key`: its [iterator, bytes] pairs, the final [0, empty] included. Bounded
 * by what the header chunk declares (and 4 GiB): each reply must be an [iterator, bytes] pair, each
 * data chunk non-empty, numbered as RedisBloom numbers them (1 + the end offset of its data), and
 * the dump must end, with [0, empty], exactly when the declared bytes are in; a chunk shorter than
 * MIN_RUN_BYTES must end a part (so at most 4 GiB / 1 MiB + one per part are read, not one per
 * byte). Anything else is
 * CORRUPT_DATA (OUT_OF_MEMORY for a header declaring more than 4 GiB), before more is read.
 * `step(it)` replies one [iterator, bytes] pair (a checkpoint's steps are read with HMGET).
 */
export async function scanDumpVia(send, prefix, key, step = (it) => run(send, [`${prefix}.SCANDUMP`, key, String(it)])) {
  const what = `${prefix}.SCANDUMP of '${key}'`;
  const chunks = [];
  let declared = -1;
  let received = 0;
  const ends = new Set();   // where the header's parts end
  for (let it = 0; ;) {
    const reply = arrayOf(await step(it), what, 2);
    if (reply.length !== 2) throw badReply(what, `an array of ${reply.length}, not an [iterator, bytes] pair`);
    const next = countOf(reply[0], `${what} (its iterator)`);
    const data = reply[1] == null ? Buffer.alloc(0) : reply[1];
    if (!(data instanceof Uint8Array)) throw badReply(what, `${describe(data)} as a chunk's data, not bytes`);
    if (next === 0) {
      if (data.length !== 0) throw badReply(what, `iterator 0 with ${data.length} bytes`);
      if (declared >= 0 && received !== declared) throw badReply(what, `the end after ${received} of the ${declared} bytes its header declares`);
      chunks.push([0, data]);
      return chunks;
    }
    if (declared < 0) {
      if (next !== 1) throw badReply(what, `iterator ${next} first, not 1 (the header)`);
      declared = declaredBytes(prefix, data, what, ends);
    } else {
      if (data.length === 0 || received + data.length > declared || next !== 1 + received + data.length) {
        throw badReply(what, `a chunk of ${data.length} bytes at iterator ${next} after ${received} of ${declared} declared bytes`
          + ' (RedisBloom numbers a chunk 1 + the end offset of its data)');
      }
      if (data.length < MIN_RUN_BYTES && !ends.has(received + data.length)) {
        throw badReply(what, `a chunk of ${data.length} bytes ending at ${received + data.length}, inside a link or sub-filter (a dump splits one only in runs of ${MIN_RUN_BYTES} bytes or more)`);
      }
      received += data.length;
    }
    chunks.push([next, data]);
    it = next;
  }
}

/**
 * A key in the same cluster slot as `key`, ending in `suffix`: companionKey of js/redis/keyslot.js
 * (`key + suffix` for a key with a non-empty hash tag, `{key}suffix` for a key hashed whole with no
 * '}', `{A}key suffix` with A a tag of the key's slot otherwise, e.g. 'x{}y', 'a}b', '').
 */
export function besideKey(key, suffix) {
  return companionKey(key, suffix);
}
