// Types of `bloomcuckoo/redis` (js/redis-entry.js): RedisBloom filters between a live Redis and
// this process, for Node.
import type { RedisBloomFilter, RedisCuckooFilter, RedisServer } from './index.js';

/**
 * A connected Redis client: node-redis 4 or later (`createClient()` of the `redis` package) or
 * ioredis 5. Told apart by its methods; anything else is `FilterError` `INVALID_ARGUMENT`.
 */
export type RedisClient = object;

/**
 * Reads the RedisBloom BF or CF at `key` with its SCANDUMP loop into a filter that answers every
 * `has`/`hasAll` exactly as `BF.EXISTS`/`CF.EXISTS` would, with no round trip.
 * @param options.server the server's rules ('2.6' or '8'); by default what `MODULE LIST` says.
 * @throws FilterError `INVALID_ARGUMENT` for a missing key, a key of another type, a CF with no
 *   items (the server sends no dump for it) or a failing command; `CORRUPT_DATA` for a dump that
 *   fails validation.
 */
export function pullFilter(client: RedisClient, key: string, options?: { server?: RedisServer }): Promise<RedisBloomFilter | RedisCuckooFilter>;

/**
 * Loads `filter` into `key`: LOADCHUNK into a temporary key in the same hash slot, then a rename
 * over `key`, so no reader sees a half-loaded filter. A CF is re-written with DUMP + RESTORE first,
 * so replicas and the AOF get its data (RedisBloom before 8.9.80 replicates only the header chunk
 * of CF.LOADCHUNK). Resolves to the bytes sent.
 * @param options.replace overwrite an existing `key` (default: refuse it).
 * @throws FilterError `INVALID_ARGUMENT` when `key` exists without `replace`, for a filter of
 *   another class or a CF with no items, or a failing command (the temporary key is deleted).
 */
export function pushFilter(client: RedisClient, key: string, filter: RedisBloomFilter | RedisCuckooFilter, options?: { replace?: boolean }): Promise<number>;

/** The rules the server follows: '8' for Redis 8's bloom module (RedisBloom 8.x), else '2.6'. */
export function serverOf(client: RedisClient): Promise<RedisServer>;

/**
 * A `send(args)` for the client that resolves binary replies as Buffers (node-redis 5+: a
 * type-mapped view of the same connection; node-redis 4: `returnBuffers`; ioredis: `callBuffer`).
 * @throws FilterError `INVALID_ARGUMENT` for an object that is none of them, naming what to pass.
 */
export function commandsOf(client: RedisClient): (args: Array<string | Uint8Array>) => Promise<unknown>;
