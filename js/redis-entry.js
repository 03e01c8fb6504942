// bloomcuckoo/redis: RedisBloom filters between a live Redis and this process, for Node.
// pullFilter reads a BF or CF key with its SCANDUMP loop; pushFilter loads a filter with LOADCHUNK
// into a temporary key in the same hash slot and renames it over the target, so no reader ever
// sees a half-loaded filter. Works with node-redis 4 and later (the `redis` package) and ioredis 5,
// told apart by the client object. Imports the package's main entry, so there is one wasm
// instance and one init().
import { FilterError, RedisBloomFilter, RedisCuckooFilter, fromRedisDump } from './index.min.js';

// node-redis's RESP_TYPES.BLOB_STRING (the RESP type byte '$'), so this module needs no import of it.
const RESP_BLOB_STRING = 36;

/** Redis TYPE names of RedisBloom's types → command prefix. */
const TYPES = { 'MBbloom--': 'BF', MBbloomCF: 'CF' };

/**
 * A `send(args)` for `client` that resolves binary replies as Buffers: node-redis 5+ (through a
 * type-mapped view of the same connection), node-redis 4 (`commandOptions({ returnBuffers })`),
 * ioredis 5 (`callBuffer`). Anything else is FilterError INVALID_ARGUMENT.
 */
export function commandsOf(client) {
  if (client && typeof client.callBuffer === 'function') {           // ioredis
    return (args) => client.callBuffer(args[0], ...args.slice(1));
  }
  if (client && typeof client.sendCommand === 'function') {          // node-redis
    if (typeof client.withTypeMapping === 'function') {              // v5 and later
      const mapped = client.withTypeMapping({ [RESP_BLOB_STRING]: Buffer });
      return (args) => mapped.sendCommand(args);
    }
    return (args) => client.sendCommand(args, { returnBuffers: true });   // v4
  }
  throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: pass a connected node-redis client '
    + "(createClient() of the 'redis' package, 4 or later) or an ioredis 5 client");
}
const text = (v) => (v == null ? '' : Buffer.isBuffer(v) ? v.toString() : String(v));

/** Runs one command; a server or connection error becomes FilterError with what failed. */
async function run(send, args) {
  try {
    return await send(args);
  } catch (err) {
    throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: ${args[0]} ${args[1] ?? ''} failed: ${err?.message ?? err}`);
  }
}

async function prefixOf(send, key) {
  const type = text(await run(send, ['TYPE', key]));
  if (type === 'none') throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: no key '${key}'`);
  const prefix = TYPES[type];
  if (!prefix) throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' holds a ${type}, not a RedisBloom BF or CF filter`);
  return prefix;
}

/** '8' for Redis 8's bloom module (RedisBloom 8.x, module version 80000 and up), else '2.6'. */
export function serverOf(client) {
  return serverVia(commandsOf(client));
}

async function serverVia(send) {
  const mods = await run(send, ['MODULE', 'LIST']);
  for (const m of mods ?? []) {
    const entry = Array.isArray(m) ? Object.fromEntries(m.flatMap((v, i) => (i % 2 ? [] : [[text(v), m[i + 1]]]))) : m;
    if (text(entry.name) === 'bf') return Number(text(entry.ver)) >= 80000 ? '8' : '2.6';
  }
  return '8';   // no module listed: Redis 8 with bloom built in
}

/**
 * The filter at `key` (a RedisBloom BF or CF), read with SCANDUMP, answering as the server does.
 * `server` ('2.6' or '8') defaults to what MODULE LIST says.
 */
export async function pullFilter(client, key, { server } = {}) {
  const send = commandsOf(client);
  const prefix = await prefixOf(send, key);
  const chunks = [];
  for (let it = 0; ;) {
    const reply = await run(send, [`${prefix}.SCANDUMP`, key, String(it)]);
    it = Number(text(reply[0]));
    chunks.push([it, reply[1] ?? Buffer.alloc(0)]);
    if (it === 0) break;
  }
  if (chunks.length === 1) {
    throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' is a CF with no items, which the server `
      + 'does not dump; create it with new RedisCuckooFilter(options)');
  }
  return fromRedisDump(chunks, { server: server ?? await serverVia(send) });
}

/** A temporary key in the same cluster slot as `key` (its hash tag, or `{key}`). */
function tempKeyFor(key) {
  const suffix = `:bloomcuckoo-push-${process.pid}-${Date.now().toString(36)}`;
  return /\{[^}]+\}/.test(key) ? `${key}${suffix}` : `{${key}}${suffix}`;
}

/**
 * Loads `filter` (a RedisBloomFilter or RedisCuckooFilter) into `key`: LOADCHUNK into a temporary
 * key in the same hash slot, then RENAME (with `replace`) or RENAMENX over `key`. An existing key
 * is kept unless `replace`. A CF is re-written with DUMP + RESTORE before the rename: RedisBloom
 * before 8.9.80 replicates only the header chunk of CF.LOADCHUNK, which left replicas and the AOF
 * with an empty filter. Resolves to the bytes sent.
 */
export async function pushFilter(client, key, filter, { replace = false } = {}) {
  let prefix;
  if (filter instanceof RedisBloomFilter) prefix = 'BF';
  else if (filter instanceof RedisCuckooFilter) prefix = 'CF';
  else throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: only a RedisBloomFilter or RedisCuckooFilter loads into Redis');
  const chunks = filter.toRedisDump();
  if (chunks.length === 0) throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: a CF with no items has no dump; CF.RESERVE it instead');
  const send = commandsOf(client);
  if (!replace && Number(await run(send, ['EXISTS', key])) === 1) {
    throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' exists; pass { replace: true } to overwrite it`);
  }
  const tmp = tempKeyFor(key);
  let sent = 0;
  try {
    for (const [iterator, data] of chunks) {
      await run(send, [`${prefix}.LOADCHUNK`, tmp, String(iterator), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
      sent += data.byteLength;
    }
    if (prefix === 'CF') {
      const dump = await run(send, ['DUMP', tmp]);
      await run(send, ['RESTORE', tmp, '0', dump, 'REPLACE']);
    }
    if (replace) {
      await run(send, ['RENAME', tmp, key]);
    } else if (Number(await run(send, ['RENAMENX', tmp, key])) !== 1) {
      throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' was created while loading; pass { replace: true } to overwrite it`);
    }
  } catch (err) {
    await Promise.resolve(send(['DEL', tmp])).catch(() => {});
    throw err;
  }
  return sent;
}
