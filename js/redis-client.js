// What bloomcuckoo/redis needs of a Redis client, whichever it is: a `send(args)` that resolves
// binary replies as Buffers, a second connection of its own (for a blocking read), and the few
// reads every part of the entry shares (the key's type, the server's rules, a SCANDUMP loop).
import { FilterError } from './index.js';

// node-redis's RESP_TYPES.BLOB_STRING (the RESP type byte '$'), so this module needs no import of it.
const RESP_BLOB_STRING = 36;

/** Redis TYPE names of RedisBloom's types → command prefix. */
export const TYPES = { 'MBbloom--': 'BF', MBbloomCF: 'CF' };

const isIoredis = (client) => typeof client?.callBuffer === 'function';

/**
 * A `send(args)` for `client` that resolves binary replies as Buffers: node-redis 5+ (a type
 * mapping given with each command: 5.x's `withTypeMapping(...).sendCommand` ignores the view's
 * mapping), node-redis 4 (`returnBuffers`), ioredis 5 and 6 (`callBuffer`). Anything else is
 * FilterError INVALID_ARGUMENT.
 */
export function commandsOf(client) {
  if (isIoredis(client)) return (args) => client.callBuffer(args[0], ...args.slice(1));
  if (typeof client?.sendCommand === 'function') {                   // node-redis
    if (typeof client.withTypeMapping === 'function') {              // v5 and later
      const options = { typeMapping: { [RESP_BLOB_STRING]: Buffer } };
      return (args) => client.sendCommand(args, options);
    }
    return (args) => client.sendCommand(args, { returnBuffers: true });   // v4
  }
  throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: pass a connected node-redis client '
    + "(createClient() of the 'redis' package, 4 or later) or an ioredis 5 or 6 client");
}

/**
 * A new connection to the same server, connected, with its errors sent to `onError` (a client
 * with no 'error' listener would crash the process), and a `close()` that drops it at once, even
 * in the middle of a blocking command.
 */
export async function duplicateOf(client, onError) {
  const dup = client.duplicate();
  dup.on('error', onError);
  if (!isIoredis(client)) await dup.connect();
  return {
    send: commandsOf(dup),
    close: () => { try { (typeof dup.destroy === 'function' ? dup.destroy() : dup.disconnect()); } catch { /* already closed */ } },
  };
}

export const text = (v) => (v == null ? '' : Buffer.isBuffer(v) ? v.toString() : String(v));

/** A reply of name/value pairs (a RESP2 flat array, a RESP3 map or object) → an object by name. */
export function fieldsOf(reply) {
  const pairs = Array.isArray(reply) ? reply.flatMap((v, i) => (i % 2 ? [] : [[v, reply[i + 1]]]))
    : reply instanceof Map ? [...reply] : Object.entries(reply ?? {});
  return Object.fromEntries(pairs.map(([name, value]) => [text(name), value]));
}

/** Runs one command; a server or connection error becomes FilterError REDIS saying what failed. */
export async function run(send, args) {
  try {
    return await send(args);
  } catch (err) {
    throw new FilterError('REDIS', `bloomcuckoo/redis: ${args[0]} ${args[1] ?? ''} failed: ${err?.message ?? err}`);
  }
}

/** 'BF' or 'CF' for a key of RedisBloom's types; FilterError INVALID_ARGUMENT for none or another type. */
export function prefixFor(key, type) {
  if (type === 'none') throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: no key '${key}'`);
  const prefix = TYPES[type];
  if (!prefix) throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' holds a ${type}, not a RedisBloom BF or CF filter`);
  return prefix;
}

/**
 * '8' for Redis 8's bloom module (RedisBloom 8.x, module version 80000 and up), else '2.6';
 * FilterError REDIS for a Redis without BF/CF commands.
 */
export async function serverVia(send) {
  const mods = await run(send, ['MODULE', 'LIST']);
  for (const m of mods ?? []) {
    const entry = fieldsOf(m);
    if (text(entry.name) === 'bf') return Number(text(entry.ver)) >= 80000 ? '8' : '2.6';
  }
  // no module listed: Redis 8 with bloom built in, or a Redis with no bloom at all
  const info = await run(send, ['COMMAND', 'INFO', 'BF.ADD']);
  if (!Array.isArray(info) || info[0] == null) {
    throw new FilterError('REDIS', 'bloomcuckoo/redis: this Redis has no BF/CF commands: load the RedisBloom module '
      + '(--loadmodule redisbloom.so) or use Redis 8, which has them built in');
  }
  return '8';
}

/** The SCANDUMP loop of `key`: its [iterator, bytes] pairs, the final [0, empty] included. */
export async function scanDumpVia(send, prefix, key) {
  const chunks = [];
  for (let it = 0; ;) {
    const reply = await run(send, [`${prefix}.SCANDUMP`, key, String(it)]);
    it = Number(text(reply[0]));
    chunks.push([it, reply[1] ?? Buffer.alloc(0)]);
    if (it === 0) return chunks;
  }
}

/** A key in the same cluster slot as `key` (its hash tag, or `{key}`), ending in `suffix`. */
export function besideKey(key, suffix) {
  return /\{[^}]+\}/.test(key) ? `${key}${suffix}` : `{${key}}${suffix}`;
}
