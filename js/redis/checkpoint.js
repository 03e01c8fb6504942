// Checkpoints: how a replica opens without stalling Redis (js/redis/replica.js uses them).
//
// A checkpoint is a copy of a filter exact at a known log position <epoch>-<n>, kept beside the key
// (same hash slot) as a Redis hash of its SCANDUMP steps: field n<it> holds the iterator SCANDUMP(it)
// replies, d<it> its bytes, so one HMGET reads one step (shorter than one SCANDUMP chunk); `t`
// the type, `at` the position, `id` a random name of this checkpoint (checked with every step, so a
// checkpoint replaced while read is seen), `e` the header of a CF with no items (the server dumps
// none). Its steps are 1 MiB (STEP_BYTES), numbered as SCANDUMP would number them. It is written step by step (HSET, each a short command) into a temporary key from a
// replica's copy serialized at one position, then published by one short script that checks the
// position is still in the log (same epoch, not trimmed) and renames it to one of two names, the
// other kept for readers still on it. A pointer hash says which is current. Plain hashes, not
// LOADCHUNK into a filter key: they replicate whole on every RedisBloom (2.6 replicates only a CF
// LOADCHUNK's header) and cost no filter parsing on the server.
import { randomBytes } from 'node:crypto';
import { MAX_CHUNK_BYTES, dataChunks } from '../shared/dump-chunks.js';
import { FilterError, RedisCuckooFilter, fromRedisDump } from '../main/index.js';
import { MIN_RUN_BYTES, arrayOf, badReply, besideKey, countOf, declaredBytes, run, scanDumpVia, text, textOf } from './client.js';

/**
 * Bytes per checkpoint step after the header: 1 MiB, a 16th of a SCANDUMP chunk, so that a replica
 * reading or writing one holds the server ~1/16 as long as a SCANDUMP chunk does (and others'
 * commands get in between those of many replicas opening at once).
 */
export const STEP_BYTES = MIN_RUN_BYTES;   // no shorter: scanDumpVia refuses shorter runs inside a part

/** The [iterator, bytes] pairs of a dump (toRedisDump) with its data in runs of at most STEP_BYTES, numbered as SCANDUMP numbers them. */
export function steps(chunks) {
  const out = chunks.slice(0, 1);
  for (const [it, d] of chunks.slice(1)) {
    const start = it - d.length;   // 1 + the offset the chunk's data starts at
    for (let at = 0; at < d.length; at += STEP_BYTES) {
      const end = Math.min(at + STEP_BYTES, d.length);
      out.push([start + end, d.subarray(at, end)]);
    }
  }
  return out;
}

/** The companion keys of `key`'s checkpoints, all in its hash slot. */
export function checkpointKeys(key) {
  return {
    pointer: besideKey(key, ':bloomcuckoo-ckpt'),
    a: besideKey(key, ':bloomcuckoo-ckpt-a'),
    b: besideKey(key, ':bloomcuckoo-ckpt-b'),
    lock: besideKey(key, ':bloomcuckoo-ckpt-lock'),
    want: besideKey(key, ':bloomcuckoo-ckpt-want'),
  };
}

/** A checkpoint that is gone, replaced while read, or not what its pointer says: not used. */
export class Unusable extends Error {}

// BF.INFO / CF.INFO's counts joined by commas, as the replica's check compares them
const COUNTS = `local info = redis.call(t == 'MBbloomCF' and 'CF.INFO' or 'BF.INFO', KEYS[1])
local sig = {}
for i = 2, (t == 'MBbloomCF' and 10 or 8), 2 do sig[#sig + 1] = tostring(info[i]) end
`;

// the log's first entry's ID ('0-0' for none)
const FIRST = `local function first(log)
  if redis.call('EXISTS', log) == 0 then return '0-0' end
  local e = redis.call('XRANGE', log, '-', '+', 'COUNT', 1)
  if #e == 0 then return '0-0' end
  return e[1][1]
end
`;

/**
 * KEYS: key, log, pointer, lock. Replies { type } for a key that is no filter, else { type, the
 * log's last ID, its first ID, the pointer's current name ('a', 'b' or ''), its position, its id,
 * the lock's PTTL, the counts, the identity of the log's entry at the checkpoint's position, and
 * at its last ID }. `prefix` is the replica's prelude: LAST_ID, IDENT (ident(log, id)), IS_FILTER.
 */
export const openScript = (prefix) => `${prefix}${FIRST}${COUNTS}local p = redis.call('HMGET', KEYS[3], 'cur', 'at', 'id', 'h')
local at, ai = last(KEYS[2]), ''
if p[2] and string.match(p[2], '^%d+%-%d+$') then
  ai = ident(KEYS[2], p[2])
  -- the entry at its position is not the one it was written at (a failover reused the ID): 'gone'
  -- ('' when the log no longer reaches back to it: not checkable, as before identities)
  if p[4] and p[4] ~= '' and ai ~= '' and p[4] ~= ai then ai = 'gone' end
end
return { t, at, first(KEYS[2]), p[1] or '', p[2] or '', p[3] or '', redis.call('PTTL', KEYS[4]), table.concat(sig, ','), ai, ident(KEYS[2], at) }`;

/**
 * KEYS: key, log, pointer, temporary, a, b, want. ARGV: position, id, the identity of the log
 * entry the copy applied at that position ('' when not known). Publishes the temporary key as the
 * current checkpoint when its position is still in the log, with that entry there, and not older
 * than the current one; replies 'ok', or why not (the temporary key then dropped). `prefix`:
 * LAST_ID and IDENT.
 */
export const publishScript = (prefix) => `${prefix}${FIRST}
if t ~= 'MBbloom--' and t ~= 'MBbloomCF' then redis.call('UNLINK', KEYS[4]); return 'the key is no filter' end
if redis.call('EXISTS', KEYS[4]) == 0 then return 'the written copy expired' end
local e, n = string.match(ARGV[1], '^(%d+)-(%d+)$')
local le, ln = string.match(last(KEYS[2]), '^(%d+)-(%d+)$')
n, ln = tonumber(n), tonumber(ln)
local ok = n ~= nil and n <= ln and (e == le or (e == '0' and n == 0))
if ok and n < ln then
  local fe, fn = string.match(first(KEYS[2]), '^(%d+)-(%d+)$')
  ok = tonumber(fn) <= n + 1
end
if not ok then redis.call('UNLINK', KEYS[4]); return 'its position is no longer in the log' end
local h = ARGV[3] or ''
if h ~= '' and n > 0 and ident(KEYS[2], ARGV[1]) ~= h then redis.call('UNLINK', KEYS[4]); return 'its position is another history in the log' end
local p = redis.call('HMGET', KEYS[3], 'cur', 'at')
if p[2] then
  local pe, pn = string.match(p[2], '^(%d+)-(%d+)$')
  if pe == e and tonumber(pn) > n then redis.call('UNLINK', KEYS[4]); return 'a newer one is there' end
end
local name = p[1] == 'a' and 'b' or 'a'
local dest = name == 'a' and KEYS[5] or KEYS[6]
redis.call('UNLINK', dest)
redis.call('RENAME', KEYS[4], dest)
redis.call('PERSIST', dest)
redis.call('HSET', KEYS[3], 'cur', name, 'at', ARGV[1], 'id', ARGV[2], 'h', h)
redis.call('DEL', KEYS[7])
return 'ok'`;

/** KEYS: lock. ARGV: token. Drops the lock if it is still this token's. */
export const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end\nreturn 0";

/** KEYS: lock. ARGV: token, lease (ms). Extends the lock by the lease if it is still this token's: 1, else 0. */
export const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end\nreturn 0";

/** A random name for a lock or a checkpoint. */
export const token = () => randomBytes(8).toString('hex');

/**
 * The checkpoint lock's lease for a holder whose syncTimeout is `syncTimeout`: a quarter of it, at
 * most 5 s and at least 200 ms. The lock is taken for that long and renewed every third of it
 * while held (holdLock), so a holder that dies (SIGKILL, a lost host) leaves it for one lease at
 * most, and a replica waiting for it (up to half of its own syncTimeout) still takes it in time.
 */
export const leaseOf = (syncTimeout) => Math.max(200, Math.min(5000, Math.floor(syncTimeout / 4)));

/**
 * Takes the checkpoint lock `lock` (SET NX PX `lease`) and keeps it while held: RENEW (token-checked
 * PEXPIRE) every lease / 3, one at a time, until release() or until a renewal finds it is no longer
 * this holder's (it expired: a stalled holder; the lock only saves work, whoever takes it next).
 * `script(name, keys, args)` runs the RENEW or RELEASE script. Resolves a holder { token, release }
 * or null when someone else holds it. release() stops the renewals and drops the lock if still held
 * (resolves when the server answered, or failed to: never rejects).
 */
export async function holdLock(send, script, lock, lease) {
  const id = token();
  const taken = await run(send, ['SET', lock, id, 'NX', 'PX', String(lease)]);
  if (taken == null) return null;   // another holds it
  if (textOf(taken, `SET NX of the lock '${lock}'`) !== 'OK') throw badReply(`SET NX of the lock '${lock}'`, `'${text(taken).slice(0, 20)}', not OK or nil`);
  let renewing = false;
  let released = false;
  const timer = setInterval(() => {
    if (renewing) return;
    renewing = true;
    Promise.resolve().then(() => script('RENEW', [lock], [id, String(lease)]))
      .then((held) => { if (Number(held) !== 1) clearInterval(timer); }, () => {})
      .finally(() => { renewing = false; });
  }, Math.max(1, Math.floor(lease / 3)));
  timer.unref();
  return {
    token: id,
    release() {
      clearInterval(timer);
      if (released) return Promise.resolve();
      released = true;
      return Promise.resolve().then(() => script('RELEASE', [lock], [id])).then(() => {}, () => {});
    },
  };
}

/**
 * The header of a CF with no items (docs/FORMAT.md kind 8; 38 bytes): what the server would dump
 * first if it dumped one. Slots of a CF with no items are all zero (CF.DEL clears the slot).
 */
export function emptyCfHeader({ buckets, itemsDeleted, filters, bucketSize, maxIterations, expansion }) {
  const header = Buffer.alloc(38);
  header.writeBigUInt64LE(BigInt(buckets), 8);
  header.writeBigUInt64LE(BigInt(itemsDeleted), 16);
  header.writeBigUInt64LE(BigInt(filters), 24);
  header.writeUInt16LE(bucketSize, 32);
  header.writeUInt16LE(maxIterations, 34);
  header.writeUInt16LE(expansion, 36);
  return header;
}

/** One zeroed chunk shared by every empty CF's slots (read, never written). */
let zeros = null;

/** A CF with no items from its 38-byte header: checked (declaredBytes) before anything is allocated. */
export function emptyCf(header, server, what) {
  const h = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  declaredBytes('CF', h, what);
  if (h.readBigUInt64LE(0) !== 0n) throw badReply(what, 'a header of a CF with items, as one with none');
  const buckets = Number(h.readBigUInt64LE(8));
  const filters = Number(h.readBigUInt64LE(24));
  const bucketSize = h.readUInt16LE(32);
  const expansion = h.readUInt16LE(36);
  zeros ??= new Uint8Array(MAX_CHUNK_BYTES);
  const chunks = dataChunks(filters, (k) => buckets * (expansion === 0 ? 1 : expansion ** k) * bucketSize, (k, at, len) => zeros.subarray(0, len));
  return fromRedisDump([[1, h], ...chunks], { server });
}

/**
 * A BF with no items from its header chunk (SCANDUMP's first step; docs/FORMAT.md kind 7) and
 * zeroed bitmaps: what the server holds while its header counts no item (a BF sets bits only when
 * it counts an item). Checked (declaredBytes) before anything is allocated; null when the header
 * counts items.
 */
export function emptyBf(header, server, what) {
  const h = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  declaredBytes('BF', h, what);
  if (h.readBigUInt64LE(0) !== 0n) return null;
  const links = h.readUInt32LE(8);
  zeros ??= new Uint8Array(MAX_CHUNK_BYTES);
  const chunks = dataChunks(links, (k) => Number(h.readBigUInt64LE(20 + 53 * k)), (k, at, len) => zeros.subarray(0, len));
  return fromRedisDump([[1, h], ...chunks], { server });
}

/**
 * The checkpoint `name` (a key) of id `id` as a filter of type `prefix`: its SCANDUMP steps read
 * with HMGET, each checked as scanDumpVia checks a real SCANDUMP's. Unusable when it is gone or
 * another checkpoint (its id changed: replaced while read); FilterError CORRUPT_DATA for a reply
 * of a wrong shape. `onBytes(n)` counts what was read.
 */
export async function readCheckpoint(send, name, id, prefix, server, onBytes) {
  const what = `the checkpoint '${name}'`;
  const meta = arrayOf(await run(send, ['HMGET', name, 't', 'id', 'e']), what, 3);
  if (meta[1] == null || text(meta[1]) !== id) throw new Unusable(`${what} is gone or another one than its pointer says`);
  if (textOf(meta[0], what) !== prefix) throw badReply(what, `a ${text(meta[0]).slice(0, 10)} checkpoint for a ${prefix} key`);
  if (meta[2] != null) {
    if (prefix !== 'CF' || !(meta[2] instanceof Uint8Array)) throw badReply(what, 'an empty-filter header for a BF, or one that is not bytes');
    onBytes(meta[2].length);
    return emptyCf(meta[2], server, what);
  }
  const step = async (it) => {
    const reply = arrayOf(await run(send, ['HMGET', name, `n${it}`, `d${it}`, 'id']), what, 3);
    if (reply.length !== 3) throw badReply(what, `an array of ${reply.length}, not 3`);
    if (reply[2] == null || text(reply[2]) !== id) throw new Unusable(`${what} was replaced or dropped while read`);
    if (reply[0] == null) throw badReply(what, `no step after iterator ${it}`);
    return [countOf(reply[0], `${what} (an iterator)`), reply[1]];
  };
  const chunks = await scanDumpVia(send, prefix, name, step);
  for (const [, d] of chunks) onBytes(d.length);
  if (chunks.length === 1) throw badReply(what, 'no header');
  return fromRedisDump(chunks, { server });
}

/**
 * Writes `filter`'s bytes (serialized now, so they are exact at `at`; or `chunks`, its dump as
 * taken earlier) as a checkpoint into a new temporary key beside `key`, step by step, then
 * publishes it with `publish(tmp, id)` (the PUBLISH script): resolves what it replied ('ok' or why
 * not). The temporary key expires after `ttl` ms if this process dies before the end. Stops
 * (FilterError DISPOSED, the temporary key dropped) before the next step once `alive()` is false
 * (the replica writing it was closed).
 */
export async function writeCheckpoint(send, key, filter, at, ttl, publish, chunks = filter.toRedisDump(), alive = () => true) {
  // toRedisDump copies: the copy may change once this awaits
  const cf = filter instanceof RedisCuckooFilter;
  const prefix = cf ? 'CF' : 'BF';
  const id = token();
  const tmp = besideKey(key, `:bloomcuckoo-ckpt-tmp-${id}`);
  try {
    // the first HSET also names it (a CF with no items: its header alone), then one per step
    const meta = ['t', prefix, 'at', at, 'id', id, ...(chunks.length === 0 ? ['e', emptyCfHeader(filter.info())] : [])];
    const all = chunks.length === 0 ? [] : [...steps(chunks), [0, new Uint8Array(0)]];
    let it = 0;
    const live = () => { if (!alive()) throw new FilterError('DISPOSED', `bloomcuckoo/redis: closed while writing a checkpoint of '${key}'`); };
    for (let i = 0; i < Math.max(1, all.length); i++) {
      live();
      const step = [];
      if (all.length) {
        const [next, data] = all[i];
        step.push(`n${it}`, String(next), `d${it}`, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        it = next;
      }
      await run(send, ['HSET', tmp, ...(i === 0 ? meta : []), ...step]);
      if (i === 0) await run(send, ['PEXPIRE', tmp, String(ttl)]);
    }
    live();
    return await publish(tmp, id);
  } catch (err) {
    await Promise.resolve(send(['UNLINK', tmp])).catch(() => {});
    throw err instanceof FilterError ? err : new FilterError('REDIS', `bloomcuckoo/redis: writing a checkpoint of '${key}': ${err.message}`);
  }
}
