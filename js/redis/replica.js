// openReplica: a local copy of one RedisBloom BF or CF key that answers has/hasAll/count from this
// process's memory and stays fresh through Redis itself, for a fleet of processes sharing a filter.
//
// How: every write goes through one Lua script that runs the filter command (BF.INSERT / CF.INSERT
// / CF.INSERTNX with NOCREATE, or CF.DEL) and, when something changed, appends the items that
// changed it to a stream beside the key (`{key}:bloomcuckoo-log`, same hash slot, MAXLEN ~) with
// the ID <epoch>-<n>: n counts the writes, so a gap is seen, and the epoch (the server's time in
// µs when the log was made) tells a re-created log, a lost history, from the one the copy has. Replaying those items in order on the
// local copy gives the server's bytes exactly (the adds and deletions of both types are
// deterministic). A replica starts from the key's checkpoint (js/redis/checkpoint.js: a copy exact
// at a log position, read one SCANDUMP step per command) and the log after it, or, when there is no
// usable checkpoint, from a snapshot taken in one script (DUMP + RESTORE into a temporary key, with
// the stream's last ID, read with SCANDUMP; it holds the server for the whole filter, so it runs
// under a lock and its replica then writes the checkpoint), then tails the stream with
// XREAD BLOCK on a connection of its own. A gap (its position trimmed away, the stream replaced),
// a server that went back (restarted and lost writes), a log of another epoch, an entry at the copy's
// position that is not the one it applied or a next entry whose p (its predecessor's t) is not the
// t of the copy's (a failover lost entries and the new primary reused their IDs), or a changed BF.INFO / CF.INFO at the same
// position (someone wrote around the library, checked every `checkInterval`) makes it take a new
// snapshot. A missing key or one of another type is reported; the copy keeps answering as it was
// until a filter is back at the key.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { FilterError, RedisCuckooFilter, fromRedisDump, init } from '../main/index.js';
import {
  RELEASE, RENEW, Unusable, checkpointKeys, emptyBf, emptyCf, emptyCfHeader, holdLock, leaseOf, openScript, publishScript, readCheckpoint,
  writeCheckpoint,
} from './checkpoint.js';
import {
  NoReply, TYPES, arrayOf, badReply, besideKey, bounded, cfSlots, commandsOf, confirmWrite, countOf, duplicateOf, fieldsOf, prefixFor,
  reasonOf, requireDuplicable, run, scanDumpVia, serverVia, text, textOf, timed, timeoutOf, waitOf, waiterOf, writerOf,
} from './client.js';

/** Keys per write script: each is one atomic step and one stream entry. */
const BATCH = 1000;

const LAST_ID = `local function last(log)
  if redis.call('EXISTS', log) == 0 then return '0-0' end
  local info = redis.call('XINFO', 'STREAM', log)
  for i = 1, #info, 2 do if info[i] == 'last-generated-id' then return info[i + 1] end end
  return '0-0'
end
local t = redis.call('TYPE', KEYS[1])['ok']
`;
// a key that is no filter any more: its log describes a history that is gone, so it is dropped
// (the next write starts a new one, with a new epoch), and so are its checkpoints (up to twice the
// filter's memory, of a history no replica can use): their names are the log's with ckpt, -a, -b
// for log (besideKey: the same prefix, so the same hash slot)
const IS_FILTER = `if t ~= 'MBbloom--' and t ~= 'MBbloomCF' then
  local p = string.sub(KEYS[2], 1, #KEYS[2] - ${':bloomcuckoo-log'.length}) .. ':bloomcuckoo-ckpt'
  redis.call('DEL', KEYS[2])
  redis.call('UNLINK', p, p .. '-a', p .. '-b')
  return { t }
end
`;

// KEYS: key, log. ARGV: op (bi, ci, cn, cd), stream length, items. Logs under IDs <epoch>-<n> the
// fields o (op), t (the server's time in ms), p (the previous entry's t: a chain, so a copy that
// reads an entry after its position sees whether it follows the entry it has there), k per key.
// Replies { id or nil, the command's reply per item (an error as -2), the last per-item error or
// nil, the log position when nothing was logged (what the server had then: read-your-writes waits
// for it too), the entry's t and p (the copy knows the identity of the entry it applies) }.
const WRITE = `${LAST_ID}-- the log's last ID and its last entry's t, from the one XINFO STREAM
local function tip(log)
  if redis.call('EXISTS', log) == 0 then return '0-0', '' end
  local info, id, pt = redis.call('XINFO', 'STREAM', log), '0-0', ''
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then id = info[i + 1]
    elseif info[i] == 'last-entry' and type(info[i + 1]) == 'table' and info[i + 1][1] == id then
      local f = info[i + 1][2]
      for j = 1, #f, 2 do if f[j] == 't' then pt = f[j + 1]; break end end
    end
  end
  return id, pt
end
local want = ARGV[1] == 'bi' and 'MBbloom--' or 'MBbloomCF'
if t ~= want then return redis.error_reply('WRONGTYPE bloomcuckoo: the key holds ' .. t .. ', not ' .. want) end
local cmd = ({ bi = 'BF.INSERT', ci = 'CF.INSERT', cn = 'CF.INSERTNX', cd = 'CF.DEL' })[ARGV[1]]
-- all or nothing: the user's rights to every command below, checked before the first one writes
-- (Redis 7's redis.acl_check_cmd; Redis 6 has none: there a refused XADD leaves the filter written)
if redis.acl_check_cmd then
  local no, x = {}, ARGV[3] or ''
  local function need(key, ...)
    if not redis.acl_check_cmd(...) then no[#no + 1] = (...) .. (key and (" on '" .. key .. "'") or '') end
  end
  if ARGV[1] == 'cd' then need(KEYS[1], cmd, KEYS[1], x) else need(KEYS[1], cmd, KEYS[1], 'NOCREATE', 'ITEMS', x) end
  need(KEYS[2], 'EXISTS', KEYS[2])
  need(KEYS[2], 'XINFO', 'STREAM', KEYS[2])
  need(nil, 'TIME')
  need(KEYS[2], 'XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'o', ARGV[1], 't', '0', 'p', '0', 'k', x)
  if #no > 0 then return redis.error_reply('NOPERM bloomcuckoo: this user may not run ' .. table.concat(no, ', ') .. '; nothing was written') end
end
local out, err = {}, false
if ARGV[1] == 'cd' then
  for i = 3, #ARGV do out[i - 2] = redis.call('CF.DEL', KEYS[1], ARGV[i]) end
else
  local r = redis.pcall(cmd, KEYS[1], 'NOCREATE', 'ITEMS', unpack(ARGV, 3))
  if r['err'] then return r end
  for i = 1, #r do
    if type(r[i]) == 'table' then out[i] = -2; err = r[i]['err'] else out[i] = r[i] end
  end
end
-- IDs <epoch>-<n>: the epoch is the log's (its last ID's first part), or, for a new log, the
-- server's time in microseconds: a log re-created after a loss has another epoch
local tid, pt = tip(KEYS[2])
local next = string.match(tid, '^(%d+)-') .. '-*'
if redis.call('EXISTS', KEYS[2]) == 0 then
  local now = redis.call('TIME')
  next = now[1] .. string.format('%06d', tonumber(now[2])) .. '-1'   -- a new log's first write is 1
end
local x = { KEYS[2], 'MAXLEN', '~', ARGV[2], next, 'o', ARGV[1], 't', '', 'p', pt }
for i = 1, #out do
  if out[i] == 1 then x[#x + 1] = 'k'; x[#x + 1] = ARGV[i + 2] end
end
local id = false
if #x > 11 then
  local now = redis.call('TIME')
  x[9] = tostring(now[1] * 1000 + math.floor(now[2] / 1000))
  id = redis.call('XADD', unpack(x))
end
return { id, out, err, id or last(KEYS[2]), x[9], pt }`;

// The identity of the log's entry at ID `id`: the SHA-1 of its fields and values in order, each as
// <byte length>:<bytes>, then ':' and its t (identityOf computes the same here); an entry is
// replicated verbatim, so it is the same on every node, and its t (the primary's time in ms), p
// and keys tell it from another entry logged under the same ID in another history. '' when the
// log has no entry at or before `id` (none yet, or trimmed past it: not checkable), 'gone' when it
// has earlier ones but none at `id`.
const IDENT = `local function ident(log, id)
  local e = redis.call('XRANGE', log, id, id)
  if #e == 0 then
    if id ~= '0-0' and #redis.call('XRANGE', log, '-', id, 'COUNT', 1) == 1 then return 'gone' end
    return ''
  end
  local s, f, t = {}, e[1][2], ''
  for i = 1, #f do
    s[#s + 1] = #f[i] .. ':' .. f[i]
    if i % 2 == 1 and f[i] == 't' then t = f[i + 1] end
  end
  return redis.sha1hex(table.concat(s)) .. ':' .. t
end
`;

// KEYS: key, log, snapshot key. ARGV: the snapshot's TTL in ms. Replies { type, stream position,
// the identity of the entry there }.
const SNAPSHOT = `${LAST_ID}${IDENT}${IS_FILTER}redis.call('RESTORE', KEYS[3], ARGV[1], redis.call('DUMP', KEYS[1]), 'REPLACE')
local at = last(KEYS[2])
return { t, at, ident(KEYS[2], at) }`;

// KEYS: key, log. ARGV: the copy's position. Replies { type, stream position, the counts of
// BF.INFO / CF.INFO, the identity of the log's entry at the copy's position }.
const CHECK = `${LAST_ID}${IDENT}${IS_FILTER}local info = redis.call(t == 'MBbloomCF' and 'CF.INFO' or 'BF.INFO', KEYS[1])
local sig = {}
for i = 2, (t == 'MBbloomCF' and 10 or 8), 2 do sig[#sig + 1] = tostring(info[i]) end
return { t, last(KEYS[2]), table.concat(sig, ','), ident(KEYS[2], ARGV[1] or '0-0') }`;

// ARGV: commands, each as n, its name in a message, its n words. Replies { 'unchecked' } on a
// Redis without redis.acl_check_cmd (before 7), else { 'checked', the name of each this user may
// not run, ... } (a command the server does not know is left for the command itself to report).
const RIGHTS = `if not redis.acl_check_cmd then return { 'unchecked' } end
local no, i = { 'checked' }, 1
while i < #ARGV do
  local n = tonumber(ARGV[i])
  local ok, allowed = pcall(redis.acl_check_cmd, unpack(ARGV, i + 2, i + 1 + n))
  if ok and not allowed then no[#no + 1] = ARGV[i + 1] end
  i = i + 2 + n
end
return no`;

// A new log identity for `log` beside a key made or loaded anew: an empty stream whose last ID is
// <epoch>-0, the epoch the server's time in µs (so the next write logs <epoch>-1), and none of the
// checkpoints (pointer, a, b) of an earlier history. Replicas of the old history see another epoch
// at their next check, whatever the counts say. Returns the epoch.
const NEW_LOG = `local function newLog(log, pointer, a, b)
  redis.call('DEL', log)
  redis.call('UNLINK', pointer, a, b)
  local now = redis.call('TIME')
  local epoch = now[1] .. string.format('%06d', tonumber(now[2]))
  redis.call('XADD', log, 'MAXLEN', '0', epoch .. '-0', 'o', 'new')
  return epoch
end
`;

// KEYS: key, log, pointer, a, b. ARGV: BF.RESERVE / CF.RESERVE and its words. Makes the key unless
// it exists, with a new log identity (NEW_LOG: a log and checkpoints an earlier key left beside it,
// deleted alone, are dropped). Replies the new log's epoch when made, 0 when the key existed.
const CREATE = `${NEW_LOG}if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call(unpack(ARGV))
return newLog(KEYS[2], KEYS[3], KEYS[4], KEYS[5])`;

// KEYS: loaded (a temporary key), key, log, pointer, a, b. ARGV: 'nx' (RENAMENX) or 'replace'.
// pushFilter's rename: 0 when 'nx' finds the key; else the key replaced, and, when a log or a
// checkpoint was beside it (replicas follow it), a new log identity (NEW_LOG: its epoch replied),
// else '' (nothing made beside a key no replica follows).
const LOAD = `${NEW_LOG}if ARGV[1] == 'nx' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local followed = redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[4]) == 1
-- all or nothing: the rights to the new log's commands checked before the rename (Redis 7)
if followed and redis.acl_check_cmd then
  local no = {}
  local function need(key, ...) if not redis.acl_check_cmd(...) then no[#no + 1] = (...) .. " on '" .. key .. "'" end end
  need(KEYS[3], 'DEL', KEYS[3])
  need(KEYS[4], 'UNLINK', KEYS[4], KEYS[5], KEYS[6])
  need(KEYS[3], 'XADD', KEYS[3], 'MAXLEN', '0', '1-0', 'o', 'new')
  if not redis.acl_check_cmd('TIME') then no[#no + 1] = 'TIME' end
  if #no > 0 then return redis.error_reply('NOPERM bloomcuckoo: this user may not run ' .. table.concat(no, ', ') .. '; nothing was loaded') end
end
redis.call('RENAME', KEYS[1], KEYS[2])
if not followed then return '' end
return newLog(KEYS[3], KEYS[4], KEYS[5], KEYS[6])`;

const sha = (script) => createHash('sha1').update(script).digest('hex');
const OPEN = openScript(`${LAST_ID}${IDENT}${IS_FILTER}`);
const PUBLISH = publishScript(`${LAST_ID}${IDENT}`);
const SCRIPTS = Object.fromEntries(Object.entries({ WRITE, SNAPSHOT, CHECK, RIGHTS, CREATE, LOAD, OPEN, PUBLISH, RELEASE, RENEW }).map(([k, s]) => [k, { s, sha: sha(s) }]));

/** Runs script `name` with EVALSHA, or EVAL when the server does not have it (NOSCRIPT). */
async function evalOf(send, name, keys, args) {
  const { s, sha: digest } = SCRIPTS[name];
  const tail = [String(keys.length), ...keys, ...args];
  try {
    return await send(['EVALSHA', digest, ...tail]);
  } catch (err) {
    if (!/NOSCRIPT/.test(text(err?.message))) throw err;
    return send(['EVAL', s, ...tail]);
  }
}

/**
 * A log position from a stream ID <epoch>-<n>: the log's epoch (which history) and n, the writes
 * logged in it; CORRUPT_DATA for anything that is not a stream ID.
 */
function posOf(id, what) {
  const m = /^([0-9]{1,20})-([0-9]{1,16})$/.exec(textOf(id, what));
  if (!m || !Number.isSafeInteger(Number(m[2]))) throw badReply(what, `'${text(id).slice(0, 40)}', not a stream ID`);
  return { epoch: m[1], n: Number(m[2]) };
}

const bufferOf = (v) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : Buffer.from(String(v)));

/**
 * The identity of a log entry from its fields and values in order (as IDENT computes it on the
 * server): the SHA-1 of each as <byte length>:<bytes>, then ':' and its t.
 */
function identityOf(fields) {
  const h = createHash('sha1');
  let t = '';
  fields.forEach((v, i) => {
    const b = bufferOf(v);
    h.update(`${b.length}:`);
    h.update(b);
    if (i % 2 === 0 && b.toString() === 't') t = text(fields[i + 1]);
  });
  return `${h.digest('hex')}:${t}`;
}

/** An identity in a script's reply: a SHA-1 in hex and ':' t, 'gone', or '' (none known: null). */
function identOf(reply, what) {
  if (reply === undefined) return null;   // a server that does not say (an older script's reply shape)
  const s = textOf(reply, what);
  if (s !== '' && s !== 'gone' && !/^[0-9a-f]{40}:[0-9]{0,20}$/.test(s)) throw badReply(what, `an entry identity '${s.slice(0, 64)}'`);
  return s === '' ? null : s;
}

/** BF.INFO / CF.INFO's counts of a local copy, as CHECK joins the server's. */
function countsOf(filter) {
  const i = filter.info();
  return (filter instanceof RedisCuckooFilter
    ? [i.size, i.buckets, i.filters, i.items, i.itemsDeleted] : [i.capacity, i.size, i.filters, i.items]).join(',');
}

/** A server's error reply → FilterError: FULL for a filter that cannot take the key, else REDIS. */
function serverError(err, what) {
  if (err instanceof FilterError) return err;
  const message = reasonOf(err);
  const code = /full|Maximum expansions/i.test(message) ? 'FULL' : 'REDIS';
  return new FilterError(code, `bloomcuckoo/redis: ${what}: ${message}`);
}

/** An error reply of the server (the command ran and failed), as node-redis and ioredis name it. */
const isReply = (err) => /ReplyError|ErrorReply|SimpleError|BlobError/.test(err?.constructor?.name ?? '');

/** Errors of a check that got no answer (no reply in time, the connection gone): sync() asks again. */
const unanswered = new WeakSet();

const bytesOf = (key) => {
  if (typeof key === 'string') return key;
  if (key instanceof Uint8Array) return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  throw new TypeError(`bloomcuckoo/redis: a key is a string or a Uint8Array, not ${key === null ? 'null' : typeof key}`);
};

function listOf(keys) {
  if (typeof keys === 'string' || keys == null || typeof keys[Symbol.iterator] !== 'function') {
    throw new TypeError('bloomcuckoo/redis: keys is an iterable of strings or Uint8Arrays (wrap one key in [ ])');
  }
  return Array.from(keys, bytesOf);
}

/** Whether the open script's reply `o` has the BF.INFO / CF.INFO counts that a read of the key is checked by. */
const readable = (o) => o.counts.split(',').length === (o.prefix === 'CF' ? 5 : 4);

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms).unref(); });

export class RedisReplica extends EventEmitter {
  #send; #tail = null; #writer; #write1; #key; #log; #server; #o; #waiter = null;
  #filter = null; #seq = 0; #epoch = '0'; #closed = false; #resync = 'start'; #pending = null; #lost = false;
  // the identity of the log entry at this copy's position (identityOf: a string, the entry's fields
  // not yet hashed, or null when not known) and how many snapshots were installed
  #ident = null; #gen = 0;
  // stamps in the order this replica sends on its connection (a check's send, a snapshot's start:
  // Redis runs one connection's commands in that order): the newest due's, and the installed
  // snapshot's start (a check sent before it saw an older server than the copy holds)
  #stamp = 0; #dueAt = 0; #readAt = 0;
  #waiters = []; #timer = null; #loop = null; #warned = new Set(); #tailId = null;
  // checkpoints: their keys, whether the next snapshot must not use one, a write of one under way,
  // the position a refused one was written at (not written again there), the position openReplica waits for
  #ck; #atomic = false; #serving = false; #refusedAt = null; #target = 0;
  // the checkpoint locks this replica holds (holdLock's holders, renewed while held; dropped by close())
  #held = new Set();
  // what runs beside the caller's calls and sends on the caller's client (a checkpoint written, a
  // lock dropped, a tail unblocked): close() waits for it, so that nothing is sent once it resolved
  #background = new Set();
  #stats = { seq: 0, lag: 0, lastSync: 0, resyncs: 0, bytesPulled: 0, applied: 0, writeArounds: 0, fromCheckpoint: 0, checkpoints: 0 };

  /** Use openReplica(client, key, options). */
  constructor(client, key, server, options) {
    super();
    this.#send = bounded(commandsOf(client), options.timeout);
    // writes (and their WAIT) through a connection that sends each at most once (writerOf)
    this.#writer = writerOf(client, (err) => this.#report(serverError(err, 'the replica\'s write connection')));
    this.#write1 = bounded(this.#writer.send, options.timeout);
    if (options.wait) this.#waiter = waiterOf(this.#writer.client, this.#writer.send);
    this.#key = key;
    this.#log = besideKey(key, ':bloomcuckoo-log');
    this.#ck = checkpointKeys(key);
    this.#server = server;
    this.#o = options;
  }

  /** The key in Redis this replica follows. */
  get key() { return this.#key; }

  /** The local copy (a RedisBloomFilter or RedisCuckooFilter): read it, do not change or free it. */
  get filter() { return this.#live(); }

  /**
   * { seq: writes applied (the stream position), lag: ms from the server's write of the newest
   * applied entry to its arrival here, lastSync: Date.now() of the last snapshot or completed
   * sync(), resyncs: snapshots after the first, bytesPulled: snapshot bytes read, applied: stream
   * entries applied, writeArounds: writes seen that bypassed the library, fromCheckpoint: snapshots
   * read from a checkpoint, checkpoints: checkpoints written }
   */
  get stats() { return { ...this.#stats, seq: this.#seq }; }

  /** As the local copy's has(): no round trip. */
  has(key) { return this.#live().has(key); }

  /** As the local copy's hasAll(): no round trip. */
  hasAll(keys) { return this.#live().hasAll(keys); }

  /** As CF.COUNT, from the local copy (a CF replica only). */
  count(key) { return this.#cf('count').count(key); }

  /**
   * As BF.ADD / CF.ADD on the server (written through, the server's reply is the answer), then
   * applied here: resolves once the local copy has it. A CF that cannot take the key resolves
   * false; a full non-scaling BF or a CF at its last sub-filter rejects with FilterError FULL.
   */
  async add(key) {
    return (await this.#write(this.#filter instanceof RedisCuckooFilter ? 'ci' : 'bi', [bytesOf(key)])) === 1;
  }

  /**
   * As add for every key, in atomic batches of 1000 (BF.INSERT / CF.INSERT, pipelined, applied in
   * order); resolves how many were added. On an error the other batches still apply; it rejects
   * with the first error, saying how many keys they added.
   */
  async addAll(keys) {
    return this.#writeAll(this.#filter instanceof RedisCuckooFilter ? 'ci' : 'bi', listOf(keys));
  }

  /** As CF.ADDNX (a CF replica only): false when the key may already be present. */
  async addUnique(key) {
    this.#cf('addUnique');
    return (await this.#write('cn', [bytesOf(key)])) === 1;
  }

  /** As CF.DEL (a CF replica only): removes one copy of the key's fingerprint; false when none matches. */
  async remove(key) {
    this.#cf('remove');
    return (await this.#write('cd', [bytesOf(key)])) === 1;
  }

  /**
   * Resolves once this copy holds every write the server had acknowledged (to any process) when
   * it was called, and checks for writes around the library on the way. Rejects with FilterError
   * REDIS when the key is gone or the server cannot be reached within `syncTimeout`.
   */
  async sync() {
    this.#live();
    const end = Date.now() + this.#o.syncTimeout;
    let target;
    // a check that got no answer (its reply lost with the connection, or none in `timeout`) is
    // asked again, every 50 ms, until syncTimeout: a server reachable again in time is not a failure
    for (let last = null; target === undefined;) {
      try {
        if (Date.now() >= end) throw new NoReply();
        target = await timed(this.#check(true), Math.max(1, end - Date.now()), 'no answer to the check');
      } catch (err) {
        if (unanswered.has(err) && Date.now() + 50 < end) {
          last = err;
          await sleep(50);
          continue;
        }
        if (!(err instanceof NoReply) && !unanswered.has(err)) throw err;
        throw new FilterError('REDIS', `bloomcuckoo/redis: sync() of '${this.#key}' got no answer from the server within ${this.#o.syncTimeout} ms`
          + `${(last ?? err).message ? ` (${(last ?? err).message})` : ''}`);
      }
    }
    await this.#reach(target, Math.max(1, end - Date.now()), (at) => `bloomcuckoo/redis: sync() of '${this.#key}' did not reach write ${target} `
      + `within ${this.#o.syncTimeout} ms (at ${at}${this.#resync ? `; waiting for a snapshot: ${this.#resync}` : ''})`);
    this.#stats.lastSync = Date.now();
  }

  /** Stops following the key: closes the replica's connection, its timer, and frees the copy. */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    for (const h of [...this.#held]) this.#release(h);
    this.#tail?.close();
    this.#writer.close();
    for (const w of this.#waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new FilterError('DISPOSED', 'bloomcuckoo/redis: the replica was closed'));
    }
    // the tail stops at its next await; a command of it still in flight (a stalled server, a
    // connection being re-made) is not waited for: close() returns at once, and whatever that
    // command brings later is dropped (#snapshot frees a copy that arrives after close)
    await Promise.race([Promise.allSettled([this.#loop, ...this.#background]), sleep(50)]);
    this.#filter?.free();
    this.#filter = null;
  }

  /** As close(): `await using replica = await openReplica(...)` closes it at the end of the block. */
  [Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose')]() { return this.close(); }

  /**
   * Takes the first snapshot, starts the tail and the check timer (openReplica calls it), and,
   * when the snapshot was a checkpoint, replays the log up to where the server was when it was
   * read (bounded by `syncTimeout`).
   */
  async start() {
    try {
      this.#tail = await this.#connectTail();
    } catch (err) {
      this.#writer.close();
      throw err;
    }
    try {
      await this.#snapshot();
    } catch (err) {
      this.#tail.close();
      this.#writer.close();
      throw err;
    }
    this.#timer = setInterval(() => {
      this.#track(this.#check(false).catch((err) => this.#report(err)));
      this.#track(this.#serve());
    }, this.#o.checkInterval);
    this.#timer.unref();
    this.#loop = this.#follow();
    try {
      await this.#reach(this.#target, this.#o.syncTimeout, (at) => `bloomcuckoo/redis: openReplica('${this.#key}') read a checkpoint, `
        + `but did not replay the log to the server's write ${this.#target} within ${this.#o.syncTimeout} ms (at ${at})`);
    } catch (err) {
      await this.close();
      throw err;
    }
    return this;
  }

  /** The tail's own connection: its XREAD BLOCK bounded by `block` + `timeout`. */
  async #connectTail() {
    let tail;
    try {
      tail = await duplicateOf(this.#o.client, (err) => this.#report(serverError(err, 'the replica connection')), this.#o.timeout);
    } catch (err) {
      throw serverError(err, 'the replica\'s own connection');   // refused, or not connected in time
    }
    return { send: bounded(tail.send, this.#o.block + this.#o.timeout), close: tail.close, alive: tail.alive };
  }

  #live() {
    if (!this.#filter) throw new FilterError('DISPOSED', 'bloomcuckoo/redis: the replica was closed');
    return this.#filter;
  }

  #cf(what) {
    if (!(this.#live() instanceof RedisCuckooFilter)) throw new FilterError('INVALID_ARGUMENT', `bloomcuckoo/redis: ${what} is for a CF replica`);
    return this.#filter;
  }

  /** Reports an error: the 'error' event when someone listens, else one process warning per code. */
  #report(err) {
    if (this.#closed) return;
    this.#stats.lastError = err;
    if (this.listenerCount('error') > 0) this.emit('error', err);
    else if (!this.#warned.has(err.code)) {
      this.#warned.add(err.code);
      // as a message, type and code: Node refuses an Error object of another realm (a vm context,
      // as under Jest) and would warn about the argument instead
      process.emitWarning(err.message, { type: 'FilterError', code: err.code });
    }
  }

  #eval(send, name, keys, args) { return evalOf(send, name, keys, args); }

  /**
   * Batches of BATCH keys, pipelined (each its own atomic script and log entry, run in order);
   * resolves how many were added, or rejects with the first error once every batch is answered.
   */
  async #writeAll(op, items) {
    const batches = [];
    for (let i = 0; i < items.length; i += BATCH) batches.push(this.#write(op, items.slice(i, i + BATCH), true));
    let added = 0;
    let error = null;
    for (const r of await Promise.allSettled(batches)) {
      if (r.status === 'rejected') error ??= r.reason;
      else for (const x of r.value) if (x === 1) added++;
    }
    if (error) {
      error.message += ` (${added} keys added by the other batches of this addAll)`;
      throw error;
    }
    return added;
  }

  /** One write script; applies what changed here; resolves the reply (all of it with `all`). */
  async #write(op, items, all = false) {
    this.#live();
    // with `wait`: the id of the connection the write goes through, for its WAIT to be on the same
    // one; asked first (queued ahead of the write on a single client; awaited on a cluster)
    let conn = null;
    if (this.#waiter) {
      conn = this.#waiter.id(this.#key, this.#o.timeout);
      conn.catch(() => {});   // awaited by confirmWrite, unless the write fails first
      if (!this.#waiter.pipelined) {
        try {
          await conn;
        } catch (err) {
          throw new FilterError('REDIS', `bloomcuckoo/redis: a write to '${this.#key}' was not sent: the CLIENT ID before it (for its WAIT) failed: ${reasonOf(err)}`);
        }
      }
    }
    let reply;
    try {
      reply = await this.#eval(this.#write1, 'WRITE', [this.#key, this.#log], [op, String(this.#o.maxLength), ...items]);
    } catch (err) {
      if (isReply(err)) throw serverError(err, `a write to '${this.#key}' (refused by the server: not applied)`);
      throw new FilterError('REDIS', `bloomcuckoo/redis: a write to '${this.#key}' got no answer: ${reasonOf(err)}; `
        + 'the server may or may not have applied it');
    }
    const what = `the write script of '${this.#key}'`;
    const [id, out, err, position, time, prev] = arrayOf(reply, what, 3);
    const results = arrayOf(out, `${what} (its per-key replies)`).map((r) => {
      if (typeof r !== 'number' || ![-2, -1, 0, 1].includes(r)) throw badReply(what, `a per-key reply that is ${typeof r === 'number' ? r : typeof r}, not -2, -1, 0 or 1`);
      return r;
    });
    // as many replies as keys, or fewer when the command stopped at an error (BF.INSERT on a full non-scaling filter)
    if (results.length > items.length || (results.length < items.length && err == null)) {
      throw badReply(what, `${results.length} per-key replies for ${items.length} keys`);
    }
    let at = null;
    if (id != null) {
      const { n, epoch } = posOf(id, what);
      at = `was applied by the primary (write ${n})`;
      // a copy already at or past write n (the tail brought it first) has every key it added; one
      // that lacks one had another write n: the server's log went back (a failover, a restart that
      // kept less) under the same epoch, and a snapshot is due before this write resolves
      if (this.#sameHistory(epoch, n, 'a write') && n <= this.#seq && op !== 'cd' && this.#filter !== null
        && items.some((k, i) => results[i] === 1 && !this.#filter.has(k))) {
        this.#due(`the server logged a write as ${epoch}-${n}, which this copy at ${this.#epoch}-${this.#seq} lacks: its log went back`);
      }
      if (n === this.#seq + 1 && !this.#resync && this.#follows(prev == null ? null : textOf(prev, what), epoch, n, 'a write')) {
        const logged = items.filter((_, i) => results[i] === 1);
        // the entry as WRITE logged it: o, t, p, then k per key that changed the filter
        this.#ident = time == null || prev == null ? null : ['o', op, 't', textOf(time, what), 'p', textOf(prev, what), ...logged.flatMap((k) => ['k', k])];
        this.#apply(n, op, logged, 0);
      }
      await this.#reach(n, this.#o.timeout, (at) => `bloomcuckoo/redis: a write to '${this.#key}' was applied by the server (write ${n}), `
        + `but this copy did not reach it within ${this.#o.timeout} ms (at ${at})`).catch((e) => {
        if (e.code !== 'DISPOSED') throw e;
        throw new FilterError('DISPOSED', `bloomcuckoo/redis: the replica was closed before its copy had a write to '${this.#key}' the server applied (write ${n})`);
      });
    } else if (position != null) {
      // nothing changed (the key was there, or did not fit): the copy still waits for everything
      // the server had when it answered, so has(key) agrees with that answer
      const { n, epoch } = posOf(position, what);
      this.#sameHistory(epoch, n, 'a write');
      at = `changed nothing on the primary (at write ${n})`;
      await this.#reach(n, this.#o.timeout, (at) => `bloomcuckoo/redis: a write to '${this.#key}' changed nothing on the server, `
        + `but this copy did not reach the server's write ${n} within ${this.#o.timeout} ms (at ${at})`);
    }
    if (this.#waiter) {
      await confirmWrite(this.#waiter, this.#key, this.#o.wait, this.#o.timeout, conn,
        `bloomcuckoo/redis: a write to '${this.#key}' ${at ?? 'was answered by the primary'}`, 'the write');
    }
    if (err != null) throw serverError(err, `a write to '${this.#key}' (${results.filter((r) => r === 1).length} added before it)`);
    return all ? results : results[0];
  }

  /** Replays entry n's changed items on the copy; a different outcome means the copy diverged. */
  #apply(n, op, items, time) {
    if (this.#closed) return;
    const f = this.#filter;
    let same = true;
    try {
      // every logged key changed the server's filter, so each must change the copy: one batch
      // for the adds (BF.INSERT / CF.INSERT[NX] semantics), one remove per key (no CF removeAll)
      if (op === 'cd') for (const k of items) same = f.remove(k) && same;
      else same = (op === 'bi' ? f.addAll(items) : f.addAll(items, { unique: op === 'cn' })) === items.length;
    } catch {
      same = false;
    }
    this.#seq = n;
    this.#stats.applied++;
    if (time) this.#stats.lag = Date.now() - time;
    if (!same) {
      this.#atomic = true;   // a checkpoint would not have the write around: the next snapshot reads the key itself
      this.#due('the copy differed from the server after a write (a write around the library)');
    }
    else if (this.#pending?.seq === n) this.#compare(this.#pending.counts);
    this.#wake();
    this.#tell('applied', n);
  }

  /** Emits `event`: a listener that throws changes no write's outcome and no state; its error is reported (#report). */
  #tell(event, arg) {
    try {
      this.emit(event, arg);
    } catch (err) {
      this.#report(err);
    }
  }

  #compare(counts) {
    this.#pending = null;
    if (countsOf(this.#filter) !== counts) {
      this.#stats.writeArounds++;
      this.#atomic = true;
      this.#due(`BF.INFO / CF.INFO of '${this.#key}' changed with no write through the library`);
    }
  }

  /**
   * The server's stream position (and a check of its counts when this copy is there); a lost or
   * replaced key is reported, a server behind this copy triggers a snapshot.
   */
  async #check(strict) {
    const before = this.#seq;
    const mine = { epoch: this.#epoch, ident: this.#ident, gen: this.#gen };
    let reply;
    let sent = 0;
    try {
      reply = await this.#eval((args) => { sent = ++this.#stamp; return this.#send(args); }, 'CHECK', [this.#key, this.#log], [`${this.#epoch}-${before}`]);
    } catch (err) {
      const e = serverError(err, `the check of '${this.#key}'`);
      if (!(err instanceof FilterError) && !isReply(err)) unanswered.add(e);
      throw e;
    }
    // closed while the check was under way: its copy is gone, nothing to compare
    if (this.#closed) throw new FilterError('DISPOSED', 'bloomcuckoo/redis: the replica was closed');
    const what = `the check script of '${this.#key}'`;
    arrayOf(reply, what, 1);
    const type = textOf(reply[0], what);
    if (reply.length === 1) {
      this.#lost = true;
      const err = new FilterError('REDIS', `bloomcuckoo/redis: '${this.#key}' ${type === 'none' ? 'is gone' : `holds a ${type} now`}; `
        + 'the replica answers from its last copy until a filter is back');
      if (strict) throw err;
      this.#report(err);
      return before;
    }
    if (reply.length !== 3 && reply.length !== 4) throw badReply(what, `an array of ${reply.length}, not { type, position, counts, identity }`);
    const { n: at, epoch } = posOf(reply[1], what);
    const theirs = identOf(reply[3], what);
    // a snapshot read after this check was sent replaced the copy it compared: nothing to conclude
    // (the next check compares the new copy; a snapshot under way meets a due of what this one saw)
    if (sent < this.#readAt) return at;
    const waiting = this.#resync !== null;
    if (this.#lost || TYPES[type] !== this.#prefix()) {
      this.#lost = false;
      this.#due(`'${this.#key}' is a filter again`, sent);
    }
    // the timer's check while a snapshot is due compared the copy that snapshot replaces: nothing
    // more to conclude (the first check after it compares the new one; sync()'s conclude as ever)
    if (!strict && waiting) {
      this.#unblock();
      return at;
    }
    this.#sameHistory(epoch, at, 'the check', sent);
    if (at >= before && !this.#resync && mine.gen === this.#gen && epoch === mine.epoch && before > 0 && theirs !== null) {
      // the entry at this copy's position must be the one it applied: another one under the same
      // ID is another history (a failover lost the entries up to here and the new primary logged
      // other writes under their IDs), whatever the position and the counts say
      // ('gone': no entry at that ID any more, while the log has earlier ones)
      const ours = this.#identity(mine.ident);
      if (ours !== null && ours !== theirs) {
        this.#due(`the log at this copy's position ${epoch}-${before} is another history (writes lost in a failover, their IDs reused)`, sent);
      } else if (ours === null && theirs !== 'gone' && this.#seq === before && this.#ident === mine.ident) this.#ident = theirs;   // not known here: learnt
    }
    if (at < before) this.#due(`the server is at write ${at}, behind this copy's ${before} (restarted, or the log was replaced)`, sent);
    else if (at === this.#seq && !this.#resync) this.#compare(textOf(reply[2], what));
    else if (at > this.#seq) this.#pending = { seq: at, counts: textOf(reply[2], what) };
    if (this.#resync) this.#unblock();
    return at;
  }

  /**
   * Whether a position of the server's log is in this copy's history: the same epoch, or the first
   * entry of a log begun after this copy's snapshot of a key with none (then its epoch is taken).
   * Otherwise the log was re-created (the key and its log lost: FLUSHALL, a restart without
   * persistence, a DEL) and a snapshot is due, whatever the counts say.
   */
  #sameHistory(epoch, n, where, seen) {
    if (epoch === this.#epoch) return true;
    if (this.#seq === 0 && this.#epoch === '0' && n >= 1 && !this.#resync) {
      if (where === 'the check') return true;   // the tail will bring entry 1 and take the epoch
      if (n === 1) {
        this.#epoch = epoch;
        return true;
      }
    }
    if (this.#seq === 0 && this.#epoch === '0' && epoch === '0') return true;
    this.#due(`the server's log is another history than this copy's (${where} saw ${epoch}-${n}, this copy is at ${this.#epoch}-${this.#seq}): `
      + 'the key and its log were lost and re-created', seen);
    this.#unblock();
    return false;
  }

  #prefix() { return this.#filter instanceof RedisCuckooFilter ? 'CF' : 'BF'; }

  /** Ends the tail's XREAD BLOCK (a snapshot is due): CLIENT UNBLOCK on the node of the log's slot, where the tail reads. */
  #unblock() {
    if (this.#tailId) this.#track(run((args) => this.#send(args, this.#log), ['CLIENT', 'UNBLOCK', this.#tailId]).catch(() => {}));
  }

  /**
   * Whether an entry n whose p (its predecessor's t) is `prev` follows the entry this copy has at
   * n - 1: a different t there is another history (a failover lost the entries up to here and
   * the new primary logged others under their IDs, then more): a snapshot is made due.
   */
  #follows(prev, epoch, n, where) {
    const ours = this.#tOf(this.#ident);
    if (prev === null || ours === null || this.#seq === 0 || prev === ours) return true;
    this.#due(`the log at this copy's position ${this.#epoch}-${this.#seq} is another history (writes lost in a failover, their IDs reused: `
      + `${where} saw ${epoch}-${n} follow an entry of time ${prev}, this copy's is of ${ours})`);
    this.#unblock();
    return false;
  }

  /** The t of the entry of identity `x` (fields or identityOf's string), null when not known. */
  #tOf(x) {
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i += 2) if (text(x[i]) === 't') return text(x[i + 1]);
      return null;
    }
    return x == null ? null : x.slice(41);
  }

  /** The identity `x` (this.#ident as it was) as a string, or null when not known; caches the current one. */
  #identity(x) {
    if (!Array.isArray(x)) return x;
    const s = identityOf(x);
    if (this.#ident === x) this.#ident = s;
    return s;
  }

  /**
   * Makes a snapshot due, for `reason`, seen by what was sent at stamp `seen` (default: now): a
   * snapshot under way clears it only when it began after that.
   */
  #due(reason, seen = ++this.#stamp) {
    this.#resync = reason;
    this.#dueAt = Math.max(this.#dueAt, seen);
  }

  /**
   * Resolves once the copy is at write n or later with no snapshot due; rejects with FilterError
   * REDIS, message(at), after `ms`, or DISPOSED at once when the replica is closed.
   */
  #reach(n, ms, message) {
    // closed (a write's or a sync()'s reply came after close()): nothing will bring the copy there
    if (this.#closed) return Promise.reject(new FilterError('DISPOSED', 'bloomcuckoo/redis: the replica was closed'));
    if (this.#seq >= n && !this.#resync) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { n, resolve, reject, timer: null };
      w.timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        reject(new FilterError('REDIS', message(this.#seq)));
      }, ms);
      w.timer.unref();
      this.#waiters.push(w);
    });
  }

  #wake() {
    if (this.#resync) return;
    this.#waiters = this.#waiters.filter((w) => {
      if (this.#seq < w.n) return true;
      clearTimeout(w.timer);
      w.resolve();
      return false;
    });
  }

  /**
   * A snapshot in place of the copy: the key's checkpoint when one is usable (then the log from its
   * position), else one atomic snapshot (#atomicSnapshot) under the checkpoint lock, after which
   * this replica writes the checkpoint the others wait for.
   */
  async #snapshot() {
    const start = ++this.#stamp;
    const atomic = this.#atomic;
    this.#atomic = false;
    let s;
    try {
      s = await this.#take(atomic);
    } catch (err) {
      this.#atomic ||= atomic;
      throw err;
    }
    if (this.#closed) {   // closed while reading: nothing to replace
      s.filter.free();
      if (s.lock) this.#release(s.lock);
      return;
    }
    const old = this.#filter;
    const first = old === null;
    this.#filter = s.filter;
    this.#seq = s.n;
    this.#epoch = s.epoch;
    this.#ident = s.ident === 'gone' ? null : s.ident ?? null;
    this.#gen++;
    this.#pending = null;
    this.#lost = false;
    this.#target = Math.max(s.n, s.target ?? 0);
    // made due by what was seen after this one began (a write or check saw another history): another one
    this.#readAt = start;
    if (this.#dueAt < start) this.#resync = null;
    old?.free();
    if (!first) this.#stats.resyncs++;
    this.#stats.lastSync = Date.now();
    if (s.counts !== undefined) {
      // a checkpoint: the server's counts when it was read are checked once the log brings the copy
      // there (a write around the library since the checkpoint shows as a difference)
      if (s.checkpoint) this.#stats.fromCheckpoint++;
      if (s.target > s.n) this.#pending = { seq: s.target, counts: s.counts };
      else if (!this.#resync) this.#compare(s.counts);
    }
    this.#wake();
    if (s.lock) this.#track(this.#publish(s.lock));
  }

  /**
   * Runs script `name` (OPEN or SNAPSHOT, called `label` in messages), whose reply starts with the
   * key's type: { reply, what, prefix }. A key that is no filter marks the copy lost and is
   * FilterError INVALID_ARGUMENT (prefixFor); a failure to run it is REDIS.
   */
  async #snapshotScript(name, label, keys, args) {
    let reply;
    try {
      reply = await this.#eval(this.#send, name, keys, args);
    } catch (err) {
      throw serverError(err, `the snapshot of '${this.#key}'`);
    }
    const what = `the ${label} script of '${this.#key}'`;
    arrayOf(reply, what, 1);
    if (reply.length === 1) this.#lost = this.#filter !== null;
    return { reply, what, prefix: prefixFor(this.#key, textOf(reply[0], what)) };
  }

  /** The OPEN script's reply: the key's type and log, and its checkpoint pointer and lock. */
  async #openInfo() {
    const { reply, what, prefix } = await this.#snapshotScript('OPEN', 'open', [this.#key, this.#log, this.#ck.pointer, this.#ck.lock], []);
    if (reply.length !== 8 && reply.length !== 10) {
      throw badReply(what, `an array of ${reply.length}, not { type, last, first, checkpoint, position, id, lock, counts, identities }`);
    }
    const cur = textOf(reply[3], what);
    const id = textOf(reply[5], what);
    if (!['', 'a', 'b'].includes(cur) || (cur !== '' && !/^[0-9a-f]{16}$/.test(id))) throw badReply(what, `a checkpoint pointer '${cur.slice(0, 10)}' of id '${id.slice(0, 20)}'`);
    const ttl = typeof reply[6] === 'number' ? reply[6] : Number(textOf(reply[6], what));
    if (!Number.isSafeInteger(ttl) || ttl < -2) throw badReply(what, `a lock PTTL of ${text(reply[6]).slice(0, 20)}`);
    return {
      prefix, last: posOf(reply[1], what), first: posOf(reply[2], what), cur, id, at: cur ? posOf(reply[4], what) : null,
      locked: ttl !== -2, counts: textOf(reply[7], what), atIdent: identOf(reply[8], what), lastIdent: identOf(reply[9], what),
    };
  }

  /**
   * The snapshot #snapshot installs: { filter, n, epoch } and, read from a checkpoint, the server's
   * position and counts when it was read (target, counts), or, read by this replica itself, the
   * lock it holds to write the checkpoint. Waits (polling, bounded by half of `syncTimeout`) while
   * another process writes a checkpoint. The key itself is read (#read: built from its header when
   * it has no items, else SCANDUMP kept when nothing changed it meanwhile) under the lock; when
   * writes went on during that read, the replicas that made them hold exact copies: it asks them
   * for a checkpoint (the request key) and waits for one, reading once more after that wait. The
   * one-script snapshot runs only when none of that gave a copy: a write around the library (which
   * no checkpoint has) with writes going on during the read; two reads spoilt by writes with no
   * replica answering the request; or, past half of `syncTimeout` (the lock held all along, as by
   * a process that died holding it), one more read without the lock spoilt too.
   */
  async #take(atomic) {
    const ck = this.#ck;
    // waiting for another's checkpoint (or a lock left by a holder whose release was lost with its
    // connection) ends at half of syncTimeout, so that the one-script snapshot after it still fits
    // in a sync()'s syncTimeout
    const deadline = Date.now() + this.#o.syncTimeout / 2;
    // how long a stale checkpoint waits for a live replica to write a new one (they look every checkInterval)
    const patience = () => Date.now() + 2 * this.#o.checkInterval + 500;
    let grace = patience();
    const tried = new Set();
    let asked = false;
    let spoilt = 0;   // reads of the key that writes spoilt
    const ask = async () => {
      asked = true;
      await run(this.#send, ['SET', ck.want, '1', 'PX', String(this.#o.syncTimeout)]);
    };
    for (;;) {
      const o = await this.#openInfo();
      // of this history: its epoch, and the entry at its position the one it was written at
      const of = o.cur !== '' && !tried.has(o.id) && (o.at.epoch === o.last.epoch || (o.at.epoch === '0' && o.at.n === 0)) && o.atIdent !== 'gone';
      // usable: of this history, and the log holds every entry after it (not trimmed past it)
      if (!atomic && of && o.at.n <= o.last.n && (o.at.n === o.last.n || o.first.n <= o.at.n + 1)) {
        try {
          const filter = await readCheckpoint(this.#send, o.cur === 'a' ? ck.a : ck.b, o.id, o.prefix, this.#server, (bytes) => { this.#stats.bytesPulled += bytes; });
          return { filter, n: o.at.n, epoch: o.at.epoch, ident: o.atIdent, target: o.last.n, counts: o.counts, checkpoint: true };
        } catch (err) {
          if (!(err instanceof Unusable) && err?.code !== 'CORRUPT_DATA') throw err;
          if (!(err instanceof Unusable)) this.#report(err);   // a checkpoint not to trust: another snapshot
          tried.add(o.id);
          if (Date.now() <= deadline) continue;   // bounded: a server that keeps naming new ones ends at the deadline below
        }
      }
      if (!atomic && of && !asked) await ask();   // stale: ask the live replicas for a new one
      if ((atomic || (!of && spoilt === 0) || Date.now() > grace) && !o.locked) {
        const lock = await this.#hold();
        if (lock) {
          try {
            const s = await this.#read(o);
            if (s) return { ...s, lock };
            spoilt++;
            if (atomic || spoilt > 1 || !readable(o)) return { ...(await this.#atomicSnapshot()), lock };
          } catch (err) {
            this.#release(lock);
            throw err;
          }
          // writes went on during the read: the replicas writing have exact copies; one writes a
          // checkpoint when asked (at its next check), this one waits for it, then reads once more
          this.#release(lock);
          await ask();
          grace = patience();
        }
      }
      if (Date.now() > deadline) return (await this.#read(await this.#openInfo())) ?? this.#atomicSnapshot();
      await sleep(100);
    }
  }

  /**
   * The key read by this replica as it is, exact at the open script's reply `o` (#empty,
   * #quietRead); null when writes spoilt the read, or when `o` has no counts to check a read by
   * (a server that does not reply them; then only the one-script snapshot is exact).
   */
  async #read(o) {
    if (!readable(o)) return null;
    return (await this.#empty(o)) ?? this.#quietRead(o);
  }

  /**
   * A key with no items (BF.INFO / CF.INFO count none at the position `o`) built here from its
   * header (a BF: SCANDUMP's first step; a CF: CF.INFO) and zeros, with no read of its data: as
   * made by BF.RESERVE / CF.RESERVE (openReplica's create), or a CF whose items were all deleted.
   * Exact at `o` when the copy has `o`'s counts (a BF's items only grow, a CF's inserts and
   * deletions only grow, and a BF with no item has no bit set, a CF with none no slot). Else null.
   */
  async #empty(o) {
    if (o.counts.split(',')[3] !== '0') return null;
    let filter;
    if (o.prefix === 'CF') filter = await this.#emptyCf(this.#key);
    else {
      const what = `BF.SCANDUMP of '${this.#key}' (its header)`;
      const [it, header] = arrayOf(await run(this.#send, ['BF.SCANDUMP', this.#key, '0']), what, 2);
      if (countOf(it, what) !== 1 || !(header instanceof Uint8Array)) throw badReply(what, 'no header chunk');
      this.#stats.bytesPulled += header.length;
      filter = emptyBf(header, this.#server, what);
    }
    if (filter && countsOf(filter) === o.counts) return { filter, n: o.last.n, epoch: o.last.epoch, ident: o.lastIdent };
    filter?.free();
    return null;
  }

  /**
   * The key read with SCANDUMP as it is, exact at the position `o` (the open script's reply) when
   * nothing changed it meanwhile: the open script after the read replies the same position and the
   * same BF.INFO / CF.INFO counts, and the copy has those counts. A write through the library
   * logs an entry (the position moves); one around it changes the counts (a BF's items only grow;
   * a CF's deletions only grow and its items move with every change). Else null.
   */
  async #quietRead(o) {
    let filter = null;
    try {
      const chunks = await scanDumpVia(this.#send, o.prefix, this.#key);
      filter = chunks.length > 1 ? fromRedisDump(chunks, { server: this.#server }) : await this.#emptyCf(this.#key);
      const after = await this.#openInfo();
      if (after.prefix !== o.prefix || after.last.epoch !== o.last.epoch || after.last.n !== o.last.n || after.counts !== o.counts
        || after.lastIdent !== o.lastIdent || countsOf(filter) !== o.counts) {
        filter.free();
        return null;
      }
      for (const [, d] of chunks) this.#stats.bytesPulled += d.length;
      return { filter, n: o.last.n, epoch: o.last.epoch, ident: o.lastIdent };
    } catch (err) {
      filter?.free();
      if (err?.code === 'CORRUPT_DATA') return null;   // read while it changed (a chunk of another size): the snapshot script
      throw err;
    }
  }

  /**
   * The checkpoint lock, taken for a short lease (leaseOf(syncTimeout)) and renewed while held
   * (holdLock): a holder { token, release } to give #release, or null when another holds it.
   */
  async #hold() {
    const h = await holdLock(this.#send, (name, keys, args) => this.#eval(this.#send, name, keys, args), this.#ck.lock, leaseOf(this.#o.syncTimeout));
    if (h) this.#held.add(h);
    return h;
  }

  /** Stops renewing the checkpoint lock of holder `lock` and drops it if this replica still holds it. */
  #release(lock) {
    this.#held.delete(lock);
    return this.#track(lock.release());
  }

  /** `task` (a promise that never rejects) kept in #background until it settles; returns it. */
  #track(task) {
    this.#background.add(task);
    const done = () => this.#background.delete(task);
    task.then(done, done);
    return task;
  }

  /**
   * Writes a checkpoint of the copy as it is now (exact at its position: no snapshot due) and
   * publishes it, holding the lock `lock`, which it then drops. Failures are reported, not thrown.
   */
  async #publish(lock) {
    try {
      if (this.#closed || this.#resync || this.#lost || !this.#filter) return;
      const ck = this.#ck;
      const at = `${this.#epoch}-${this.#seq}`;
      const ident = this.#identity(this.#ident) ?? '';   // of the entry at `at`: checked and kept with the checkpoint
      const done = await writeCheckpoint(this.#send, this.#key, this.#filter, at, this.#o.syncTimeout * 2, (tmp, id) => this.#eval(this.#send, 'PUBLISH',
        [this.#key, this.#log, ck.pointer, tmp, ck.a, ck.b, ck.want], [at, id, ident]), undefined, () => !this.#closed);
      if (text(done) === 'ok') this.#stats.checkpoints++;
      else this.#refusedAt = at;   // stale already, or a newer one there: not again from here
    } catch (err) {
      this.#report(serverError(err, `a checkpoint of '${this.#key}'`));
    } finally {
      await this.#release(lock);
    }
  }

  /** On the check timer: a replica with an exact copy writes a checkpoint when an opening one asked. */
  async #serve() {
    if (this.#serving || this.#closed || this.#resync || this.#lost || !this.#filter || this.#refusedAt === `${this.#epoch}-${this.#seq}`) return;
    this.#serving = true;
    try {
      if (text(await run(this.#send, ['GET', this.#ck.want])) !== '1') return;
      const lock = await this.#hold();
      if (lock) await this.#publish(lock);
    } catch (err) {
      this.#report(serverError(err, `a checkpoint of '${this.#key}'`));
    } finally {
      this.#serving = false;
    }
  }

  /**
   * The key at its stream position in one script (DUMP + RESTORE into a temporary key, which holds
   * the server as long as the filter is large: only when no checkpoint will do), read with SCANDUMP.
   */
  async #atomicSnapshot() {
    const snap = besideKey(this.#key, `:bloomcuckoo-snap-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const { reply, what, prefix } = await this.#snapshotScript('SNAPSHOT', 'snapshot', [this.#key, this.#log, snap], ['600000']);
    if (reply.length !== 2 && reply.length !== 3) throw badReply(what, `an array of ${reply.length}, not { type, position, identity }`);
    const { n, epoch } = posOf(reply[1], what);
    const ident = identOf(reply[2], what);
    let filter;
    try {
      const chunks = await scanDumpVia(this.#send, prefix, snap);
      for (const [, d] of chunks) this.#stats.bytesPulled += d.length;
      filter = chunks.length > 1 ? fromRedisDump(chunks, { server: this.#server }) : await this.#emptyCf(snap);
    } finally {
      await Promise.resolve(this.#send(['DEL', snap])).catch(() => {});
    }
    return { filter, n, epoch, ident };
  }

  /**
   * A CF with no items (the server dumps nothing of it): its dump made from CF.INFO, a header as
   * docs/FORMAT.md gives it and empty slots (CF.DEL leaves none behind), so the copy's counts match.
   */
  async #emptyCf(snap) {
    const what = `CF.INFO of the snapshot of '${this.#key}'`;
    const reply = await run(this.#send, ['CF.INFO', snap]);
    if (reply === null || typeof reply !== 'object') throw badReply(what, `${typeof reply}, not name/value pairs`);
    const fields = fieldsOf(reply);
    const v = (name) => countOf(fields[name], `${what} (${name})`);
    const buckets = v('Number of buckets');
    const filters = v('Number of filters');
    const bucketSize = v('Bucket size');
    const expansion = v('Expansion rate');
    const maxIterations = v('Max iterations');
    const itemsDeleted = v('Number of items deleted');
    if (maxIterations < 1 || maxIterations > 65535 || expansion > 32768) throw badReply(what, `max iterations ${maxIterations}, expansion ${expansion}`);
    // every field in the server's ranges, and the byte count it reports (40 + 16 per sub-filter +
    // the slots) adding up, before anything is allocated; past 4 GiB is OUT_OF_MEMORY
    const slots = cfSlots(buckets, filters, bucketSize, expansion, what);
    if (v('Size') !== 40 + 16 * filters + slots) throw badReply(what, `Size ${v('Size')}, not 40 + 16 × ${filters} + ${slots} slots`);
    return emptyCf(emptyCfHeader({ buckets, itemsDeleted, filters, bucketSize, maxIterations, expansion }), this.#server, what);
  }

  /** The tail: snapshots when one is due, else XREAD BLOCK a page of the stream and apply it. */
  async #follow() {
    let backoff = 50;
    while (!this.#closed) {
      try {
        if (this.#resync && !this.#lost) {
          const reason = this.#resync;
          this.#tell('resync', reason);
          await this.#snapshot();
          continue;
        }
        this.#tailId ??= String(countOf(await this.#tail.send(['CLIENT', 'ID'], this.#log), 'CLIENT ID'));
        const reply = await this.#tail.send(['XREAD', 'COUNT', String(this.#o.pageSize), 'BLOCK', String(this.#o.block),
          'STREAMS', this.#log, `${this.#epoch}-${this.#seq}`]);
        backoff = 50;
        for (const [id, fields] of entriesOf(reply)) {
          const { n, epoch } = posOf(id, `XREAD of '${this.#log}'`);
          if (!this.#sameHistory(epoch, n, 'the log') || this.#resync) break;
          if (n <= this.#seq) continue;
          if (n !== this.#seq + 1) {
            this.#due(`write ${this.#seq + 1} is no longer in the log (trimmed or replaced; next is ${n})`);
            break;
          }
          let op = '';
          let time = 0;
          let prev = null;
          const items = [];
          for (let i = 0; i < fields.length; i += 2) {
            const f = text(fields[i]);
            if (f === 'k') items.push(fields[i + 1]);
            else if (f === 'o') op = text(fields[i + 1]);
            else if (f === 't') time = Number(text(fields[i + 1]));
            else if (f === 'p') prev = text(fields[i + 1]);
          }
          if (!this.#follows(prev, epoch, n, 'the log')) break;
          if (!['bi', 'ci', 'cn', 'cd'].includes(op) || !(time >= 0)) throw badReply(`XREAD of '${this.#log}'`, `entry ${n} with op '${op.slice(0, 10)}' at time ${time}`);
          this.#ident = fields;   // hashed only when a check asks
          this.#apply(n, op, items, time);
        }
      } catch (err) {
        if (this.#closed) break;
        this.#tailId = null;
        // no answer in time, or the connection closed for good (a client made not to reconnect:
        // its duplicate does not either): a new connection. The old one may never answer. One
        // that reconnects by itself is left to it (destroying a node-redis client while it
        // connects can leave its new socket open)
        if (err instanceof NoReply || !this.#tail.alive()) {
          this.#tail.close();
          // not connected in time either (the server still down or stalled): a stand-in whose every
          // command is NoReply, so the next round (after the backoff) tries to connect again
          this.#tail = await this.#connectTail().catch((e) => {
            this.#report(serverError(e, 'the replica connection'));
            return { send: () => Promise.reject(new NoReply(e.message)), close: () => {}, alive: () => false };
          });
          if (this.#closed) this.#tail.close();
        }
        this.#report(err instanceof FilterError ? err : serverError(err, `following '${this.#key}'`));
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 2000);
      }
    }
  }
}



/**
 * XREAD's reply of one stream → its entries as [id, fields]: RESP2's [[name, entries]], a RESP3 map
 * (a Map or an object), or that map flattened to [name, entries] (ioredis 6's RESP3 `callBuffer`).
 * Any other shape is FilterError CORRUPT_DATA.
 */
function entriesOf(reply) {
  if (reply == null) return [];
  let entries;
  if (Array.isArray(reply)) entries = Array.isArray(reply[0]) ? reply[0][1] : reply[1];
  else if (reply instanceof Map) entries = [...reply.values()][0];
  else if (typeof reply === 'object') entries = Object.values(reply)[0];
  const bad = (what) => new FilterError('CORRUPT_DATA', `bloomcuckoo/redis: XREAD replied ${what}, not a stream's entries`);
  if (!Array.isArray(entries)) throw bad(typeof entries);
  for (const e of entries) {
    if (!Array.isArray(e) || e.length !== 2 || !Array.isArray(e[1]) || e[1].length % 2 !== 0) throw bad('an entry that is not [id, [field, value, ...]]');
  }
  return entries;
}

/**
 * A replica of the RedisBloom BF or CF at `key`, kept fresh through Redis: resolves once it holds
 * a snapshot (calling init() itself). See RedisReplica and docs/API.md for what a reader may see
 * and when.
 */
export async function openReplica(client, key, given) {
  const options = given ?? {};   // null as none, as pullFilter and pushFilter take it
  const send = commandsOf(client);
  if (typeof key !== 'string' || key === '') throw new TypeError('bloomcuckoo/redis: key is a non-empty string');
  const known = ['server', 'checkInterval', 'maxLength', 'pageSize', 'block', 'syncTimeout', 'timeout', 'create', 'wait'];
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new FilterError('INVALID_ARGUMENT', `openReplica: unknown option '${name}' (known: ${known.join(', ')})`);
  }
  const o = {
    checkInterval: positive('checkInterval', options.checkInterval, 1000),
    maxLength: positive('maxLength', options.maxLength, 10000),
    pageSize: positive('pageSize', options.pageSize, 1000),
    block: positive('block', options.block, 2000),
    syncTimeout: positive('syncTimeout', options.syncTimeout, 30000),
    timeout: timeoutOf(options.timeout, 'openReplica'),
    wait: waitOf(options.wait, 'openReplica'),
    client,
  };
  const reserve = options.create ? reserveArgs(key, options.create) : null;
  requireDuplicable(client);   // before create runs: a client of no connection of its own is refused first
  await init();
  const timedSend = bounded(send, o.timeout);
  await preflight(timedSend, key, options, o, reserve);
  const server = options.server ?? await serverVia(timedSend);
  if (reserve) await create(timedSend, key, reserve);
  return new RedisReplica(client, key, server, o).start();
}

function positive(name, value, fallback) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new FilterError('INVALID_ARGUMENT', `openReplica: ${name} is a positive integer, not ${value}`);
  return value;
}

// create's fields per type: each field's check (what it must be) and its RESERVE argument
const CREATE_FIELDS = {
  BF: { errorRate: ['a number above 0 and below 1', (v) => typeof v === 'number' && v > 0 && v < 1],
    capacity: ['a positive integer', (v) => Number.isSafeInteger(v) && v > 0],
    expansion: ['a non-negative integer', (v) => Number.isSafeInteger(v) && v >= 0, 'EXPANSION'],
    nonScaling: ['a boolean', (v) => typeof v === 'boolean', 'NONSCALING'] },
  CF: { capacity: ['a positive integer', (v) => Number.isSafeInteger(v) && v > 0],
    bucketSize: ['a positive integer', (v) => Number.isSafeInteger(v) && v > 0, 'BUCKETSIZE'],
    maxIterations: ['a positive integer', (v) => Number.isSafeInteger(v) && v > 0, 'MAXITERATIONS'],
    expansion: ['a non-negative integer', (v) => Number.isSafeInteger(v) && v >= 0, 'EXPANSION'] },
};

/**
 * BF.RESERVE / CF.RESERVE of `spec`, every field checked before anything is sent (INVALID_ARGUMENT
 * naming the field: an unknown one, a missing errorRate or capacity, a value of another type; the
 * server judges the ranges it has rules for, e.g. EXPANSION).
 */
function reserveArgs(key, spec) {
  const fields = CREATE_FIELDS[spec?.type];
  const refuse = (what) => new FilterError('INVALID_ARGUMENT', `openReplica: create ${what}`);
  if (!fields) throw refuse("is { type: 'BF', errorRate, capacity, ... } or { type: 'CF', capacity, ... }");
  for (const name of Object.keys(spec)) {
    if (name !== 'type' && !fields[name]) throw refuse(`has an unknown field '${name}' (a ${spec.type} takes ${Object.keys(fields).join(', ')})`);
  }
  const args = [`${spec.type}.RESERVE`, key];
  for (const [name, [must, ok, option]] of Object.entries(fields)) {
    const v = spec[name];
    if (v === undefined && option) continue;
    if (!ok(v)) throw refuse(`.${name} is ${must}, not ${typeof v === 'string' ? `'${v}'` : String(v)}`);
    if (!option) args.push(String(v));
    else if (name === 'nonScaling') args.push(...(v ? [option] : []));
    else args.push(option, String(v));
  }
  return args;
}

/**
 * Runs `args` (BF.RESERVE / CF.RESERVE) unless the key exists (which is then used as it is, with its
 * log), in one script that drops a log left by an earlier key (CREATE).
 */
async function create(send, key, args) {
  const ck = checkpointKeys(key);
  try {
    await evalOf(send, 'CREATE', [key, besideKey(key, ':bloomcuckoo-log'), ck.pointer, ck.a, ck.b], args);
  } catch (err) {
    throw serverError(err, `${args[0]} '${key}'`);
  }
}

/** The temporary checkpoint key's TTL while pushFilter writes one (the replicas' default syncTimeout). */
const LOAD_TTL_MS = 30000;

/**
 * pushFilter's last step: renames the loaded temporary key `tmp` over `key` (RENAMENX unless
 * `replace`) in one script that, when replicas follow the key (a log or a checkpoint beside it),
 * starts a new log identity; then writes `filter` (`chunks`, its dump as loaded) as the checkpoint at its
 * position 0, so replicas open from it rather than read the key. Resolves false when the key
 * exists and not `replace`. A user who may not run EVAL / EVALSHA gets the plain RENAME / RENAMENX
 * (nothing beside the key changed: replicas see the new filter by its counts only).
 */
export async function loadInto(send, tmp, key, filter, chunks, replace, ms) {
  const ck = checkpointKeys(key);
  const log = besideKey(key, ':bloomcuckoo-log');
  let epoch;
  try {
    epoch = await evalOf(send, 'LOAD', [tmp, key, log, ck.pointer, ck.a, ck.b], [replace ? 'replace' : 'nx']);
  } catch (err) {
    if (!/NOPERM/.test(reasonOf(err)) || !/'eval(sha)?' command/i.test(reasonOf(err))) {
      throw err instanceof FilterError ? err : new FilterError('REDIS', `bloomcuckoo/redis: loading '${key}' (renaming it over the key) failed: ${reasonOf(err)}`);
    }
    if (replace) await run(send, ['RENAME', tmp, key]);
    else return Number(await run(send, ['RENAMENX', tmp, key])) === 1;
    return true;
  }
  const what = `the load script of '${key}'`;
  if (typeof epoch === 'number') {   // 0: RENAMENX found the key
    if (epoch !== 0) throw badReply(what, `${epoch}, not 0, '' or an epoch`);
    return false;
  }
  const e = textOf(epoch, what);
  if (e === '') return true;
  if (!/^[0-9]{1,20}$/.test(e)) throw badReply(what, `'${e.slice(0, 40)}', not an epoch`);
  // the loaded key is exact at <epoch>-0: its checkpoint, under the lock when it is free (replicas
  // opening meanwhile wait for it), published only while that position is still in the log
  // (the lock for the replicas' default lease, renewed while held)
  let lock = null;
  try {
    lock = await holdLock(send, (name, keys, args) => evalOf(send, name, keys, args), ck.lock, leaseOf(LOAD_TTL_MS));
    const at = `${e}-0`;
    await writeCheckpoint(send, key, filter, at, Math.max(LOAD_TTL_MS, 2 * ms), (t, id) => evalOf(send, 'PUBLISH',
      [key, log, ck.pointer, t, ck.a, ck.b, ck.want], [at, id, '']), chunks);
  } catch {
    // the key is loaded, with its new log: without this checkpoint a replica reads the key itself
    // (the checkpoint saves that read, it decides nothing), so the push does not fail for it
  } finally {
    await lock?.release();
  }
  return true;
}

/**
 * Every command a replica of `key` sends, as [its name in a message, ...its words with the real
 * key names]: the scripts (and each command they run), the snapshot's reads, the tail's, WAIT with
 * `wait`, MODULE LIST without `server`, the create's RESERVE. `prefix` ('BF', 'CF' or undefined
 * when the key's type is not known) adds that type's commands.
 */
function replicaCommands(key, prefix, options, reserve) {
  const log = besideKey(key, ':bloomcuckoo-log');
  const snap = besideKey(key, `:bloomcuckoo-snap-${process.pid}-0`);
  const ck = checkpointKeys(key);
  const tmp = besideKey(key, ':bloomcuckoo-ckpt-tmp-0');
  const on = (...keys) => ` on ${keys.map((k) => `'${k}'`).join(', ')}`;
  // [name, words]: the name is the command (its first two words for XINFO / CLIENT / MODULE) and the key it names
  const named = (k, ...words) => [`${words.slice(0, /^(XINFO|CLIENT|MODULE)$/.test(words[0]) ? 2 : 1).join(' ')}${k ? on(k) : ''}`, ...words];
  const pattern = besideKey(key, ':bloomcuckoo-snap-*');   // the snapshot keys' names, in a message
  const ckpt = besideKey(key, ':bloomcuckoo-ckpt*');       // the checkpoint's keys (pointer, a, b, lock, want, temporary)
  const keys = [key, log, snap, ck.pointer, ck.lock, tmp, ck.a, ck.b, ck.want];
  const shown = `${on(key, log, pattern, ckpt)}`;
  const c = [
    [`EVALSHA${shown}`, 'EVALSHA', SCRIPTS.SNAPSHOT.sha, String(keys.length), ...keys],
    [`EVAL${shown}`, 'EVAL', SCRIPTS.SNAPSHOT.s, String(keys.length), ...keys],
    named(key, 'TYPE', key), named(log, 'EXISTS', log), named(log, 'XINFO', 'STREAM', log), named(log, 'DEL', log),
    named(log, 'XRANGE', log, '-', '+', 'COUNT', '1'),
    named(null, 'TIME'), named(key, 'DUMP', key), named(pattern, 'RESTORE', snap, '600000', 'x', 'REPLACE'), named(pattern, 'DEL', snap),
    named(log, 'XADD', log, 'MAXLEN', '~', '1', '*', 'o', 'bi', 't', '0', 'k', 'x'),
    named(log, 'XREAD', 'COUNT', '1', 'BLOCK', '1', 'STREAMS', log, '0-0'), named(null, 'CLIENT', 'ID'),
    // the checkpoint: its pointer and two generations read and published, a lock, a request, a temporary copy
    named(ckpt, 'HMGET', ck.pointer, 'cur'), named(ckpt, 'HMGET', ck.a, 't'), named(ckpt, 'HSET', ck.pointer, 'cur', 'a'),
    named(ckpt, 'PTTL', ck.lock), named(ckpt, 'SET', ck.lock, 'x', 'NX', 'PX', '1'), named(ckpt, 'GET', ck.lock), named(ckpt, 'DEL', ck.lock),
    named(ckpt, 'PEXPIRE', ck.lock, '1'),
    named(ckpt, 'SET', ck.want, '1', 'PX', '1'), named(ckpt, 'GET', ck.want), named(ckpt, 'DEL', ck.want),
    named(ckpt, 'HSET', tmp, 'n', 'x'), named(ckpt, 'PEXPIRE', tmp, '1'), named(ckpt, 'EXISTS', tmp), named(ckpt, 'UNLINK', tmp),
    named(ckpt, 'RENAME', tmp, ck.a), named(ckpt, 'PERSIST', ck.a), named(ckpt, 'UNLINK', ck.a),
    // a key found gone or of another type, or made anew (create): its checkpoints dropped
    named(ckpt, 'UNLINK', ck.pointer, ck.a, ck.b),
  ];
  if (prefix) {
    c.push(named(pattern, `${prefix}.SCANDUMP`, snap, '0'), named(key, `${prefix}.SCANDUMP`, key, '0'), named(key, `${prefix}.INFO`, key));
    if (prefix === 'BF') c.push(named(key, 'BF.INSERT', key, 'NOCREATE', 'ITEMS', 'x'));
    else {
      c.push(named(pattern, 'CF.INFO', snap), named(key, 'CF.DEL', key, 'x'));
      for (const w of ['CF.INSERT', 'CF.INSERTNX']) c.push(named(key, w, key, 'NOCREATE', 'ITEMS', 'x'));
    }
  }
  if (options.wait) c.push(named(null, 'WAIT', '1', '1'));
  if (!options.server) c.push(named(null, 'MODULE', 'LIST'));
  if (reserve) c.push(named(key, 'EXISTS', key), named(key, ...reserve));
  return c;
}

/**
 * Refuses (FilterError REDIS naming each) a Redis user who may not run every command a replica of
 * `key` sends, before anything is created: one script of Redis 7's redis.acl_check_cmd (on a
 * Redis without it, only EVAL and EVALSHA themselves are checked, by running them). A reply it
 * does not understand leaves the checks to the commands themselves (each refusal a FilterError).
 */
async function preflight(send, key, options, o, reserve) {
  let prefix = reserve?.[0].slice(0, 2);
  if (!prefix) {
    try {
      prefix = TYPES[text(await send(['TYPE', key]))];
    } catch (err) {
      if (err instanceof NoReply) throw new FilterError('REDIS', `openReplica: ${err.message}`);
      // refused (no right to TYPE the key): the check names it
    }
  }
  const argv = replicaCommands(key, prefix, options, reserve).flatMap(([what, ...cmd]) => [String(cmd.length), what, ...cmd]);
  const missing = [];
  let reply = null;
  for (const args of [['EVAL', RIGHTS], ['EVALSHA', SCRIPTS.RIGHTS.sha]]) {
    try {
      reply = await send([...args, '0', ...argv]);
      break;
    } catch (err) {
      if (err instanceof NoReply) throw new FilterError('REDIS', `openReplica: ${err.message}`);
      if (!/NOPERM/.test(reasonOf(err))) break;   // e.g. NOSCRIPT: EVALSHA may run
      missing.push(args[0]);
    }
  }
  const checked = Array.isArray(reply) && ['checked', 'unchecked'].includes(text(reply[0]));
  if (checked) for (const name of reply.slice(1)) missing.push(textOf(name, 'the check of the user\'s rights'));
  if (missing.length === 0) return;
  throw new FilterError('REDIS', `openReplica: this Redis user may not run what a replica of '${key}' sends: ${[...new Set(missing)].join(', ')}`
    + `${checked ? '' : ' (the other rights could not be checked without EVAL or EVALSHA)'}; grant them (ACL SETUSER) or use another user`);
}
