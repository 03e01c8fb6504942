// Types of `bloomcuckoo/redis` (js/redis/index.js): RedisBloom filters between a live Redis and
// this process, for Node.
import type { Keys, NotAString, RedisBloomFilter, RedisCuckooFilter, RedisServer } from '../main/index.js';

/**
 * A node-redis client (`createClient()` of the `redis` package, 4, 5 or 6), connected: what
 * bloomcuckoo/redis calls of it.
 */
export interface NodeRedisClient {
  sendCommand(args: string[], options?: object): Promise<unknown>;
  duplicate(): { connect(): Promise<unknown>; on(event: 'error', listener: (err: Error) => void): unknown };
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * A node-redis cluster (`createCluster()` of the `redis` package, 4, 5 or 6), connected: each
 * command is sent with the key it is routed by (its first key; none for MODULE LIST).
 */
export interface NodeRedisCluster {
  sendCommand(firstKey: string | Uint8Array | undefined, isReadonly: boolean | undefined, args: Array<string | Uint8Array>, options?: object): Promise<unknown>;
  getSlotMaster(slot: number): unknown;
  duplicate(): { connect(): Promise<unknown>; on(event: 'error', listener: (err: Error) => void): unknown };
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * An ioredis client or Cluster (5 or 6), connected: what bloomcuckoo/redis calls of it. One made
 * with a `keyPrefix` is refused (FilterError `INVALID_ARGUMENT`): pass the whole key name instead.
 */
export interface IoredisClient {
  callBuffer(command: string, ...args: string[]): Promise<unknown>;
  duplicate(): { on(event: 'error', listener: (err: Error) => void): unknown };
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * A connected Redis client: node-redis 4, 5 or 6 or ioredis 5 or 6, a single client or a cluster
 * (each tested by exact version; a node-redis 4 client made with `legacyMode` is used through its
 * `v4` API). Told apart by its methods; at run time anything else is `FilterError`
 * `INVALID_ARGUMENT`.
 */
export type RedisClient = NodeRedisClient | NodeRedisCluster | IoredisClient;

/**
 * Reads the RedisBloom BF or CF at `key` with its SCANDUMP loop into a filter that answers every
 * `has`/`hasAll` exactly as `BF.EXISTS`/`CF.EXISTS` would, with no round trip.
 * Calls `init()` itself.
 * @param options.server the server's rules ('2.6' or '8'); by default what `MODULE LIST` says.
 * @param options.timeout ms each command waits for its reply (default 10000), then FilterError `REDIS`.
 * @throws FilterError `INVALID_ARGUMENT` for a missing key, a key of another type, a CF with no
 *   items (the server sends no dump for it), an unknown option or an object that is not a client;
 *   `REDIS` for a command that fails or gets no reply within `timeout`, and for a Redis with no
 *   BF/CF commands (the message says what to load); `CORRUPT_DATA` for a dump or reply that fails
 *   validation; `OUT_OF_MEMORY` for a dump declaring more than 4 GiB. TypeError for a key that is
 *   not a non-empty string.
 */
export function pullFilter(client: RedisClient, key: string, options?: { server?: RedisServer; timeout?: number }): Promise<RedisBloomFilter | RedisCuckooFilter>;

/**
 * Loads `filter` into `key`: LOADCHUNK into a temporary key in the same hash slot, then a rename
 * over `key`, so no reader sees a half-loaded filter. A CF is re-written with DUMP + RESTORE first,
 * so replicas and the AOF get its data (RedisBloom before 8.9.80 replicates only the header chunk
 * of CF.LOADCHUNK). Over a key replicas follow (a log or a checkpoint beside it) the rename also
 * starts a new log identity and `filter` is written as its checkpoint: the replicas resync at
 * their next check, whatever the counts say. Resolves to the bytes sent.
 * @param options.replace overwrite an existing `key` (default: refuse it).
 * @param options.timeout ms each command waits for its reply (default 10000), then FilterError `REDIS`.
 * @param options.wait WAIT after the rename: fewer than `replicas` confirmations within `timeout` ms reject with `REDIS` (the key is loaded on the primary).
 * @throws FilterError `INVALID_ARGUMENT` when `key` exists without `replace`, for a filter of
 *   another class, a CF with no items, an unknown option or an object that is not a client;
 *   `REDIS` for a command that fails or gets no reply within `timeout` (the temporary key is
 *   deleted), a Redis with no BF/CF commands (the message says what to load), or, with `wait`,
 *   fewer confirmations than asked (the key is loaded on the primary). TypeError for a key that is
 *   not a non-empty string.
 */
export function pushFilter(client: RedisClient, key: string, filter: RedisBloomFilter | RedisCuckooFilter, options?: { replace?: boolean; timeout?: number; wait?: WaitOption }): Promise<number>;

/** The rules the server follows: '8' for Redis 8's bloom module (RedisBloom 8.x), else '2.6'. */
export function serverOf(client: RedisClient): Promise<RedisServer>;

/**
 * A `send(args)` for the client that resolves binary replies as Buffers (node-redis 5 and 6: a
 * `typeMapping` given with each command; node-redis 4: `returnBuffers`; ioredis: `callBuffer`).
 * @throws FilterError `INVALID_ARGUMENT` for an object that is none of them, naming what to pass.
 */
export function commandsOf(client: RedisClient): (args: Array<string | Uint8Array>) => Promise<unknown>;

/**
 * What a replica creates when `key` does not exist yet (BF.RESERVE / CF.RESERVE, in one script that
 * also drops a log an earlier key left beside it, so the next write starts a new epoch); an
 * existing key is used as it is, with its log.
 */
export type ReplicaCreate =
  | { type: 'BF'; errorRate: number; capacity: number; expansion?: number; nonScaling?: boolean }
  | { type: 'CF'; capacity: number; bucketSize?: number; maxIterations?: number; expansion?: number };

export interface ReplicaOptions {
  /** The server's rules ('2.6' or '8'); by default what `MODULE LIST` says. */
  server?: RedisServer;
  /** ms between checks of the key (its type, the log position, BF.INFO / CF.INFO): how soon a write around the library, a lost key or a server that went back is seen. Default 1000. */
  checkInterval?: number;
  /** Entries the log stream keeps (`XADD MAXLEN ~`); a replica further behind takes a new snapshot. Default 10000. */
  maxLength?: number;
  /** Entries per XREAD. Default 1000. */
  pageSize?: number;
  /** ms an XREAD blocks. Default 2000. */
  block?: number;
  /** ms a `sync()` waits before it rejects with FilterError `REDIS`, whatever the state. Default 30000. */
  syncTimeout?: number;
  /** ms any command waits for its reply, and a write for its local apply, before FilterError `REDIS` (saying whether the server applied it). Default 10000. */
  timeout?: number;
  /** Create the key when it does not exist. */
  create?: ReplicaCreate;
  /**
   * Durable writes: after each write, `WAIT replicas timeout` on the connection that wrote (on a
   * cluster, the key's primary); fewer confirmations reject the write with FilterError `REDIS`
   * saying the primary applied it and how many replicas confirmed. Default: no WAIT.
   */
  wait?: WaitOption;
}

/** `wait` of openReplica and pushFilter: replicas (1..1000) that must confirm, within timeout ms (≥ 1). */
export interface WaitOption {
  replicas: number;
  timeout: number;
}

export interface ReplicaStats {
  /** Writes applied: the log position this copy is at. */
  seq: number;
  /** ms from the server's write of the newest entry applied to its arrival here (one clock on loopback; across machines it includes their clock difference). */
  lag: number;
  /** `Date.now()` of the last snapshot or completed `sync()`. */
  lastSync: number;
  /** Snapshots taken after the first. */
  resyncs: number;
  /** Bytes read by snapshots. */
  bytesPulled: number;
  /** Log entries applied. */
  applied: number;
  /** Writes seen that bypassed the library (each led to a snapshot). */
  writeArounds: number;
  /** Snapshots read from the key's checkpoint (then the log replayed from its position) rather than taken with the snapshot script. */
  fromCheckpoint: number;
  /** Checkpoints of the key this replica wrote and published. */
  checkpoints: number;
  /** The last error reported. */
  lastError?: Error;
}

/**
 * A local copy of a RedisBloom BF or CF key that answers `has`/`hasAll`/`count` from this
 * process's memory and stays fresh through Redis: writes go through one Lua script that applies
 * them and logs what changed to a stream beside the key (`{key}:bloomcuckoo-log`); the replica
 * tails it on a connection of its own. The promise: after `sync()` resolves, `has()` is true for
 * every key whose add any process had seen acknowledged before `sync()` was called (unless a
 * `remove` or a change of the key outside the library took it away since); once writes stop,
 * every replica holds the server's exact bytes. Errors are reported with the `'error'` event (or
 * a process warning when nobody listens) and never end the replica; `'resync'` tells why a new
 * snapshot is taken.
 */
export interface RedisReplica {
  /** The key in Redis this replica follows. */
  readonly key: string;
  /** The local copy: read it (has, info, toRedisDump, serialize); do not change or free it. */
  readonly filter: RedisBloomFilter | RedisCuckooFilter;
  readonly stats: ReplicaStats;
  /** From local memory, no round trip. */
  has(key: string | Uint8Array): boolean;
  /** From local memory, no round trip. */
  hasAll(keys: Keys): Uint8Array;
  /** As CF.COUNT, from local memory (a CF replica). */
  count(key: string | Uint8Array): number;
  /** Written through (BF.ADD / CF.ADD semantics, the server's reply is the answer); resolves once the local copy has it. @throws FilterError `FULL`, `REDIS`, `DISPOSED` (closed before the copy had it: the message says whether the server applied it) */
  add(key: string | Uint8Array): Promise<boolean>;
  /** As add for every key, in atomic batches of 1000; resolves how many were added. One string is refused (TypeError: it would be one key per character): pass `[key]`. */
  addAll(keys: Iterable<string | Uint8Array> & NotAString): Promise<number>;
  /** As CF.ADDNX (a CF replica). */
  addUnique(key: string | Uint8Array): Promise<boolean>;
  /** As CF.DEL (a CF replica). Removing a key never added can remove another key's fingerprint. */
  remove(key: string | Uint8Array): Promise<boolean>;
  /** Resolves once this copy holds every write acknowledged (to any process) before the call. @throws FilterError `REDIS` when the key is gone or `syncTimeout` passes; `DISPOSED` when the replica is (or gets) closed */
  sync(): Promise<void>;
  /** Stops following: closes its connection and timer, drops its checkpoint lock, stops a checkpoint it is writing, frees the copy; returns at once. A write or `sync()` still waiting rejects `DISPOSED` (on ioredis an unanswered write: `REDIS`, maybe applied). */
  close(): Promise<void>;
  /**
   * As close(): `await using replica = await openReplica(...)` closes it when the block ends. The
   * syntax needs TypeScript >= 5.2 (which compiles it for Node 20: Node 20 itself refuses it), Bun
   * or Deno.
   */
  [Symbol.asyncDispose](): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'resync', listener: (reason: string) => void): this;
  /** After each log entry applied here (its position): e.g. to drop a cache built on answers. */
  on(event: 'applied', listener: (seq: number) => void): this;
  off(event: 'error' | 'resync' | 'applied', listener: (...args: any[]) => void): this;
}

/**
 * Opens a replica of the BF or CF at `key`: resolves once it holds a snapshot and follows the
 * key (calling `init()` itself). Writes through other replicas (any process) reach it within the
 * log's lag; writes that bypass the library are seen within `checkInterval`.
 * @throws FilterError `INVALID_ARGUMENT` for a missing key (without `create`), a key of another
 *   type, a bad option or client (a pool, which cannot `duplicate()`, or an ioredis `keyPrefix`
 *   included); `REDIS` for a failing command or no reply within `timeout`, a Redis with no BF/CF
 *   commands, and, before anything is created, for a Redis user who may not run every command the
 *   replica sends (Redis 7's ACLs; the message names each, e.g. "XADD on '{k}:bloomcuckoo-log'").
 *   TypeError for a key that is not a non-empty string.
 */
export function openReplica(client: RedisClient, key: string, options?: ReplicaOptions): Promise<RedisReplica>;
