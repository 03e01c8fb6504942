// bloomcuckoo/redis: RedisBloom filters between a live Redis and this process, for Node.
// pullFilter reads a BF or CF key with its SCANDUMP loop; pushFilter loads a filter with LOADCHUNK
// into a temporary key in the same hash slot and renames it over the target, so no reader ever
// sees a half-loaded filter; openReplica keeps a local copy of a key fresh (js/redis/replica.js).
// Works with node-redis 4, 5 and 6 (the `redis` package) and ioredis 5 and 6, told apart by the client
// object. The shipped build (dist/redis.min.js) imports the package's main entry, so there is one
// wasm instance and one init().
import { FilterError, RedisBloomFilter, RedisCuckooFilter, fromRedisDump, init } from '../main/index.js';
import {
  NO_MODULE, besideKey, bounded, commandsOf, confirmWrite, prefixFor, run, scanDumpVia, serverVia, textOf, timeoutOf, waitOf, waiterOf,
} from './client.js';

import { token } from './checkpoint.js';
import { loadInto } from './replica.js';

export { commandsOf } from './client.js';
export { openReplica } from './replica.js';

/** '8' for Redis 8's bloom module (RedisBloom 8.x, module version 80000 and up), else '2.6'. */
export function serverOf(client) {
  return serverVia(commandsOf(client));
}

/** Refuses options other than `known` (INVALID_ARGUMENT naming them). */
function knownOptions(where, options, known) {
  for (const name of Object.keys(options ?? {})) {
    if (!known.includes(name)) throw new FilterError('INVALID_ARGUMENT', `${where}: unknown option '${name}' (known: ${known.join(', ')})`);
  }
  return options ?? {};
}

/** `key` as the commands take it: a non-empty string or bytes (a Buffer); anything else is a TypeError, as openReplica's. */
function keyOf(key) {
  if ((typeof key === 'string' || key instanceof Uint8Array) && key.length > 0) return key;
  throw new TypeError('bloomcuckoo/redis: key is a non-empty string (or Buffer)');
}

/**
 * The filter at `key` (a RedisBloom BF or CF), read with SCANDUMP, answering as the server does.
 * `server` ('2.6' or '8') defaults to what MODULE LIST says; `timeout` (ms, 10000) bounds each
 * command's wait for its reply (FilterError REDIS after it). Calls init() itself.
 */
export async function pullFilter(client, key, options) {
  const { server, timeout } = knownOptions('pullFilter', options, ['server', 'timeout']);
  keyOf(key);
  const send = bounded(commandsOf(client), timeoutOf(timeout, 'pullFilter'));
  await init();
  const rules = server ?? await serverVia(send);
  const prefix = prefixFor(key, textOf(await run(send, ['TYPE', key]), `TYPE '${key}'`));
  const chunks = await scanDumpVia(send, prefix, key);
  if (chunks.length === 1) {
    throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' is a CF with no items, which the server `
      + 'does not dump; create it with new RedisCuckooFilter(options)');
  }
  return fromRedisDump(chunks, { server: rules });
}

/**
 * Loads `filter` (a RedisBloomFilter or RedisCuckooFilter) into `key`: LOADCHUNK into a temporary
 * key in the same hash slot, then RENAME (with `replace`) or RENAMENX over `key`. An existing key
 * is kept unless `replace`. A CF is re-written with DUMP + RESTORE before the rename: RedisBloom
 * before 8.9.80 replicates only the header chunk of CF.LOADCHUNK, which left replicas and the AOF
 * with an empty filter. Over a key replicas follow (a log or a checkpoint beside it) the rename
 * starts a new log identity and `filter` is written as its checkpoint (loadInto in replica.js).
 * Resolves to the bytes sent.
 */
export async function pushFilter(client, key, filter, options) {
  const { replace = false, timeout, wait: waitOption } = knownOptions('pushFilter', options, ['replace', 'timeout', 'wait']);
  const ms = timeoutOf(timeout, 'pushFilter');
  const wait = waitOf(waitOption, 'pushFilter');
  keyOf(key);
  let prefix;
  if (filter instanceof RedisBloomFilter) prefix = 'BF';
  else if (filter instanceof RedisCuckooFilter) prefix = 'CF';
  else throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: only a RedisBloomFilter or RedisCuckooFilter loads into Redis');
  const chunks = filter.toRedisDump();
  if (chunks.length === 0) throw new FilterError('INVALID_ARGUMENT', 'bloomcuckoo/redis: a CF with no items has no dump; CF.RESERVE it instead');
  const send = bounded(commandsOf(client), ms);
  if (!replace && Number(await run(send, ['EXISTS', key])) === 1) {
    throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' exists; pass { replace: true } to overwrite it`);
  }
  // a name of its own (random: two pushes of one key in the same millisecond must not share one)
  const tmp = besideKey(key, `:bloomcuckoo-push-${process.pid}-${token()}`);
  let sent = 0;
  const waiter = wait ? waiterOf(client) : null;
  let conn = null;
  try {
    for (const [iterator, data] of chunks) {
      try {
        await run(send, [`${prefix}.LOADCHUNK`, tmp, String(iterator), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
      } catch (err) {
        // the first chunk to a Redis with no RedisBloom: say what to load, as pullFilter does
        if (sent === 0 && /unknown command/i.test(err.message)) throw new FilterError('REDIS', NO_MODULE);
        throw err;
      }
      sent += data.byteLength;
    }
    if (prefix === 'CF') {
      const dump = await run(send, ['DUMP', tmp]);
      await run(send, ['RESTORE', tmp, '0', dump, 'REPLACE']);
    }
    // with `wait`: the id of the connection the rename goes through, for its WAIT to be on the same one
    if (wait) conn = await run(() => waiter.id(key, ms), ['CLIENT', 'ID']);
    if (!(await loadInto(send, tmp, key, filter, chunks, replace, ms))) {
      throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: '${key}' was created while loading; pass { replace: true } to overwrite it`);
    }
  } catch (err) {
    await Promise.resolve(send(['DEL', tmp])).catch(() => {});
    throw err;
  }
  if (wait) await confirmWrite(waiter, key, wait, ms, conn, `bloomcuckoo/redis: '${key}' was loaded on the primary`, 'the RENAME');
  return sent;
}
