// Side-by-side twins for tests/js/redis-flow.test.js: one key on a live RedisBloom and our
// RedisBloomFilter / RedisCuckooFilter built with the same options. Every command is sent to the
// server and done on our filters, and the two replies must be equal; dump() compares SCANDUMP with
// toRedisDump(), reads the server's dump back and loads ours into the server.
//
// Each twin keeps two filters of ours: `one` does a command key by key (add / addUnique), `all`
// does it as one batch (addAll), so both paths are held to the server's replies and bytes.
import { createCipheriv } from 'node:crypto';
import { ErrorReply } from 'redis';
import { FilterError, RedisBloomFilter, RedisCuckooFilter } from '../../js/main/index.js';
import { loadChunks, sameChunks, scanDump } from './helpers.mjs';

const PROBES = Array.from({ length: 300 }, (_, i) => `probe:${i}`);

/** An error's text as the server words it: no "ERR ", no "Class.method: ", no detail after ": ". */
export function errText(message) {
  return String(message)
    .replace(/^ERR /, '')
    .replace(/^Redis\w+Filter\.\w+: /, '')
    .replace(/ \(\d+ keys handled.*$/, '')
    .split(': ')[0];
}

/** A reply as compared here: booleans 1/0, errors 'E <text>', strings as text, arrays element-wise. */
export function norm(v) {
  if (v instanceof ErrorReply) return `E ${errText(v.message)}`;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  if (Array.isArray(v)) return v.map(norm);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), norm(x)]));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
  return v;
}

const arg = (x) => (Buffer.isBuffer(x) || x instanceof Uint8Array ? Buffer.from(x) : String(x));

/** Sends a command; resolves to its normalized reply ('E <text>' for an error reply). */
export async function send(client, args) {
  try {
    return norm(await client.sendCommand(args.map(arg)));
  } catch (err) {
    if (!(err instanceof ErrorReply)) throw err;   // a lost connection is not a reply
    return `E ${errText(err.message)}`;
  }
}

/** Sends many commands at once (one pipeline); their normalized replies in order. */
export function sendAll(client, list) {
  return Promise.all(list.map((args) => send(client, args)));
}

/** fn()'s value, or 'E <text>' when it throws a FilterError (FULL, OUT_OF_MEMORY, ...). */
export function attempt(fn) {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FilterError) return `E ${errText(err.message)}`;
    throw err;
  }
}

/** 'OK' when fn() makes a filter (freed at once), 'E' when it throws a FilterError. */
export function creation(fn) {
  try {
    fn().free();
    return 'OK';
  } catch (err) {
    if (err instanceof FilterError) return 'E';
    throw err;
  }
}

/** An INFO reply (RESP3 map or RESP2 flat array) as an object. */
export function infoObject(reply) {
  if (Array.isArray(reply)) return Object.fromEntries(reply.flatMap((v, i) => (i % 2 ? [] : [[String(v), reply[i + 1]]])));
  return reply;
}

/** C's printf("%g", x) (RedisBloom's BF.DEBUG ratio). */
export function printfG(x) {
  if (x === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [m, e] = x.toExponential(5).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const n = Number(e);
    return `${mant}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  const s = x.toFixed(Math.max(0, 5 - exp));
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** At most n of keys, spread evenly (a probe set for big fills). */
export function sample(keys, n) {
  if (keys.length <= n) return keys;
  const step = keys.length / n;
  return Array.from({ length: n }, (_, i) => keys[Math.floor(i * step)]);
}

/** A seeded PRNG (mulberry32): the same "random" chunks every run. */
export { prng } from '../prng.mjs';

/** A seeded byte stream (AES-128-CTR over zeros): n => the next n "random" bytes, the same every run. */
export function byteStream(seed) {
  const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16));
  return (n) => cipher.update(Buffer.alloc(n));
}

const bytesOf = (chunks) => chunks.filter(([it]) => it !== 0);
/**
 * Runs `steps` on twin `t` in order, each [verb, key, reply]: t[verb](key) (which checks the
 * server's reply against ours) must give `reply`; a step that does not is named in the failure.
 */
export async function replies(t, steps) {
  for (const [verb, key, reply] of steps) expect([verb, key, await t[verb](key)]).toEqual([verb, key, reply]);
}

/** A server error as send() gives it: 'E <message>'. */
export const isError = (r) => typeof r === 'string' && r.startsWith('E ');

/** The [word, value] pairs whose value is given, flattened: the optional arguments of a RESERVE. */
const given = (pairs) => pairs.filter(([, v]) => v !== undefined).flat();

/**
 * A key on the server and our filters of the subclass's `Cls` with `options` (the server's
 * options, `server` among them), commands prefixed `prefix` ('BF' / 'CF'). With `one`, that filter
 * of ours answers (a twin of a copy of another twin's key) and no other is made.
 */
class Twin {
  constructor(client, key, options, { batch = true, one = null } = {}) {
    const { Cls, prefix } = this.constructor;
    this.client = client;
    this.key = key;
    this.prefix = prefix;
    this.options = options;
    this.one = one ?? new Cls(options);
    this.all = batch && !one ? new Cls(options) : null;
    this.keys = new Set();
  }

  get filters() { return [this.one, this.all].filter(Boolean); }

  /** Where a reply differs, the failure names the command. */
  same(args, ours, server) {
    const cmd = args.slice(0, 6).map(String).join(' ') + (args.length > 6 ? ` … (${args.length - 2} args)` : '');
    expect({ cmd, reply: ours }).toEqual({ cmd, reply: server });
  }

  note(items) { for (const k of items) this.keys.add(k); }

  async cmd(args) { return send(this.client, args); }

  /** `args` to the server and ours(f) on each of our filters: the replies must be equal. */
  async both(args, ours) {
    const server = await this.cmd(args);
    for (const f of this.filters) this.same(args, ours(f), server);
    return server;
  }

  /** `name` key item for every item, pipelined, against ours(f, item) item by item. */
  async bothEach(name, items, ours) {
    const server = await sendAll(this.client, items.map((k) => [name, this.key, k]));
    for (const f of this.filters) this.same([`${name} ×${items.length}`, this.key], items.map((k) => ours(f, k)), server);
    return server;
  }

  /** RESERVE with the options (reserveArgs of the subclass); both must succeed. */
  async reserve() {
    expect(await this.cmd([`${this.prefix}.RESERVE`, this.key, ...this.reserveArgs(this.options)])).toBe('OK');
  }

  /** EXISTS on the server and has() on ours. */
  exists(item) {
    this.note([item]);
    return this.both([`${this.prefix}.EXISTS`, this.key, item], (f) => (f.has(item) ? 1 : 0));
  }

  /** MEXISTS on the server and hasAll() on ours. */
  mexists(items) {
    return this.both([`${this.prefix}.MEXISTS`, this.key, ...items], (f) => Array.from(f.hasAll(items)));
  }

  /** EXISTS of every item, pipelined, against has() one by one. */
  existsEach(items) {
    return this.bothEach(`${this.prefix}.EXISTS`, items, (f, k) => (f.has(k) ? 1 : 0));
  }

  /** INFO [field]: every field the server replies, from infoOf(f) (without a field, all of infoOf). */
  async info(field) {
    const args = [`${this.prefix}.INFO`, this.key, ...(field ? [field] : [])];
    const server = await this.cmd(args);
    if (typeof server === 'string') return server;
    const obj = infoObject(server);
    for (const f of this.filters) {
      const mine = this.constructor.infoOf(f);
      this.same(args, field ? Object.fromEntries(Object.keys(obj).map((k) => [k, mine[k]])) : mine, obj);
    }
    return obj;
  }

  /** DEBUG: the server's reply, from info() (debugOf of the subclass). */
  debug() {
    return this.both([`${this.prefix}.DEBUG`, this.key], (f) => this.constructor.debugOf(f.info()));
  }

  /** The server's SCANDUMP: ours must be the same bytes (and, with `roundTrip`, more: see below). */
  async dump({ roundTrip = true } = {}) {
    const server = await scanDump(this.client, this.prefix, this.key);
    const data = bytesOf(server);
    for (const f of this.filters) {
      const mine = f.toRedisDump();
      expect({ key: this.key, chunks: mine.length, same: sameChunks(mine, data) })
        .toEqual({ key: this.key, chunks: data.length, same: true });
    }
    if (roundTrip) await this.roundTrip(server);
    return server;
  }

  /**
   * The server's dump read back with fromRedisDump answers as the server does, and our dump
   * loaded with LOADCHUNK into another key (`copy`, kept with `keep`: see loadOurs) is dumped by
   * the server as the same bytes.
   */
  async roundTrip(server, copy = {}) {
    await this.readBack(server);
    await this.loadOurs(bytesOf(server), copy);
  }

  fromDump(chunks) { return this.constructor.Cls.fromRedisDump(chunks, { server: this.options.server }); }

  /**
   * fromRedisDump(server's chunks): the same bytes, INFO and answers (MEXISTS of `probes`: by
   * default of the keys sent and PROBES) and, a CF, counts (CF.COUNT of `counted`).
   */
  async readBack(server, {
    probes = [...sample([...this.keys], 2000), ...PROBES],
    counted = [...sample([...this.keys], 500), ...PROBES.slice(0, 100)],
  } = {}) {
    if (bytesOf(server).length === 0) return;
    const back = this.fromDump(server);
    try {
      expect(sameChunks(back.toRedisDump(), bytesOf(server))).toBe(true);
      const answers = await this.cmd([`${this.prefix}.MEXISTS`, this.key, ...probes]);
      expect(Array.from(back.hasAll(probes))).toEqual(answers);
      await this.sameInfo(back);
      await this.sameCounts(back, counted);
    } finally {
      back.free();
    }
  }

  /** What a filter read back counts, against the server (a BF counts nothing). */
  async sameCounts() {}

  /**
   * Our dump through LOADCHUNK into `copy`: the server dumps it back as `data`. The copy is
   * deleted after unless `keep`.
   */
  async loadOurs(data, { copy = `${this.key}:ours`, keep = false } = {}) {
    await this.cmd(['DEL', copy]);
    const mine = this.one.toRedisDump();
    if (mine.length === 0) {   // a CF with no items: no dump, on both sides
      expect(data).toEqual([]);
      return;
    }
    await loadChunks(this.client, this.prefix, copy, mine);
    const again = await scanDump(this.client, this.prefix, copy);
    expect(sameChunks(bytesOf(again), data)).toBe(true);
    if (!keep) await this.cmd(['DEL', copy]);
  }

  /** A twin of the server's key `copy` (our dump loaded there, kept) answered by our filter `one`. */
  twinAt(copy) { return new this.constructor(this.client, copy, this.options, { one: this.one }); }

  /** INFO on the server: `f`'s info() (as the subclass's infoOf renders it) says the same. */
  async sameInfo(f) {
    const obj = infoObject(await this.cmd([`${this.prefix}.INFO`, this.key]));
    expect(this.constructor.infoOf(f)).toEqual(obj);
  }

  /**
   * RedisBloom's SCANDUMP round trip: `items` added and checked; SCANDUMP and LOADCHUNK refuse
   * malformed arguments; the server's chunks LOADCHUNKed into the deleted key bring every item
   * back, with INFO and a second dump still ours.
   */
  async dumpAndReload(items) {
    await this.addEach(items);
    await this.existsEach(items);
    for (const args of [[this.key], [this.key, 'str'], ['noexist', '0']]) {
      expect(isError(await this.cmd([`${this.prefix}.SCANDUMP`, ...args]))).toBe(true);
    }
    const chunks = await this.dump();
    await this.cmd(['DEL', this.key]);
    for (const args of [[this.key], [this.key, 'str']]) {
      expect(isError(await this.cmd([`${this.prefix}.LOADCHUNK`, ...args]))).toBe(true);
    }
    await loadChunks(this.client, this.prefix, this.key, bytesOf(chunks));
    expect((await this.existsEach(items)).every((r) => r === 1)).toBe(true);
    await this.info();
    await this.dump();
  }

  free() { for (const f of this.filters) f.free(); this.one = null; this.all = null; }
}

/**
 * A BF key and our RedisBloomFilter with `options` (the server's options: errorRate, capacity,
 * expansion, nonScaling, server). The key is created by the test (reserve(), or a first add).
 */
export class BloomTwin extends Twin {
  static Cls = RedisBloomFilter;
  static prefix = 'BF';

  reserveArgs(o) { return [o.errorRate, o.capacity, ...given([['EXPANSION', o.expansion]]), ...(o.nonScaling ? ['NONSCALING'] : [])]; }

  /** BF.ADD: 1 / 0 / the error. */
  add(item) {
    this.note([item]);
    return this.both(['BF.ADD', this.key, item], (f) => attempt(() => (f.add(item) ? 1 : 0)));
  }

  /** BF.ADD of every item, pipelined, compared reply by reply. */
  addEach(items) {
    this.note(items);
    return this.bothEach('BF.ADD', items, (f, k) => attempt(() => (f.add(k) ? 1 : 0)));
  }

  /** BF.MADD (or BF.INSERT with `insert` options before ITEMS): one reply per item up to an error. */
  async madd(items, insert = null) {
    this.note(items);
    const args = insert ? ['BF.INSERT', this.key, ...insert, 'ITEMS', ...items] : ['BF.MADD', this.key, ...items];
    const server = await this.cmd(args);
    // key by key, stopping where the server stops (a full NONSCALING filter)
    const mine = [];
    for (const k of items) {
      const r = attempt(() => (this.one.add(k) ? 1 : 0));
      mine.push(r);
      if (r === 'E non scaling filter is full') break;
    }
    this.same(args, mine, server);
    if (this.all) {
      // as one batch: the count of 1s, or the error after the keys before it
      const err = Array.isArray(server) ? server.find((r) => typeof r === 'string') : server;
      const got = attempt(() => this.all.addAll(items));
      this.same([...args.slice(0, 2), '(addAll)'], got, err ?? server.filter((r) => r === 1).length);
    }
    return server;
  }

  /** BF.INSERT key <options> ITEMS ...items. */
  insert(items, options = []) { return this.madd(items, options); }

  /** BF.CARD and size. */
  card() { return this.both(['BF.CARD', this.key], (f) => f.size); }

  static infoOf(f) {
    const i = f.info();
    return { Capacity: i.capacity, Size: i.size, 'Number of filters': i.filters, 'Number of items inserted': i.items, 'Expansion rate': i.expansion };
  }

  /** BF.DEBUG: "size:N" then each link's bytes, bits, hashes, capacity, items and error ratio. */
  static debugOf(i) {
    return [`size:${i.items}`, ...i.links.map((l) => `bytes:${l.bytes} bits:${l.bits} hashes:${l.hashes} hashwidth:64 capacity:${l.capacity} size:${l.items} ratio:${printfG(l.errorRate)}`)];
  }
}

/**
 * A CF key and our RedisCuckooFilter with `options` (capacity, bucketSize, maxIterations,
 * expansion, server).
 */
export class CuckooTwin extends Twin {
  static Cls = RedisCuckooFilter;
  static prefix = 'CF';

  reserveArgs(o) {
    return [o.capacity, ...given([['BUCKETSIZE', o.bucketSize], ['MAXITERATIONS', o.maxIterations], ['EXPANSION', o.expansion]])];
  }

  // our reply to CF.ADD / CF.ADDNX: 1 added, 0 present (ADDNX), else the server's error
  static addReply(f, item, nx) {
    return attempt(() => {
      const had = nx && f.has(item);
      if (nx ? f.addUnique(item) : f.add(item)) return 1;
      return had ? 0 : 'E Filter is full';
    });
  }

  /** CF.ADD (CF.ADDNX with nx). */
  add(item, nx = false) {
    this.note([item]);
    return this.both([nx ? 'CF.ADDNX' : 'CF.ADD', this.key, item], (f) => CuckooTwin.addReply(f, item, nx));
  }

  addnx(item) { return this.add(item, true); }

  /** CF.ADD (or CF.ADDNX) of every item, pipelined, compared reply by reply. */
  addEach(items, nx = false) {
    this.note(items);
    return this.bothEach(nx ? 'CF.ADDNX' : 'CF.ADD', items, (f, k) => CuckooTwin.addReply(f, k, nx));
  }

  /**
   * CF.INSERT (CF.INSERTNX with nx) key <options> ITEMS ...items: `all` does it as addAll (the
   * sub-filter limit checked once), `one` key by key (per-key replies: 1 added; INSERT: 0 did not
   * fit; INSERTNX: 0 present, -1 did not fit). If one CF.INSERT grows past 32 sub-filters, which
   * key-by-key adds refuse, `one` is dropped for the rest of the test.
   */
  async insert(items, { nx = false, options = [] } = {}) {
    this.note(items);
    const args = [nx ? 'CF.INSERTNX' : 'CF.INSERT', this.key, ...options, 'ITEMS', ...items];
    const server = await this.cmd(args);
    const added = Array.isArray(server) ? server.filter((r) => r === 1).length : server;
    if (this.all) this.same([...args.slice(0, 2), '(addAll)'], attempt(() => this.all.addAll(items, { unique: nx })), added);
    if (this.one) {
      if (typeof server === 'string') {
        this.same([...args.slice(0, 2), '(one)'], attempt(() => this.one.addAll(items, { unique: nx })), server);
      } else {
        const mine = [];
        let diverged = false;
        for (const k of items) {
          const r = CuckooTwin.addReply(this.one, k, nx);
          if (r === 'E Maximum expansions reached') { diverged = true; break; }
          mine.push(r === 'E Filter is full' ? (nx ? -1 : 0) : r);
        }
        if (diverged) {
          this.one.free();
          this.one = null;
          this.swap();
        } else {
          this.same(args, mine, server);
        }
      }
    }
    return server;
  }

  // keep `one` the filter that dump() loads into the server
  swap() { if (!this.one) { this.one = this.all; this.all = null; } }

  insertnx(items, options = []) { return this.insert(items, { nx: true, options }); }

  /** CF.COUNT and count(). */
  count(item) { return this.both(['CF.COUNT', this.key, item], (f) => f.count(item)); }

  /** CF.COUNT of every item, pipelined. */
  countEach(items) { return this.bothEach('CF.COUNT', items, (f, k) => f.count(k)); }

  /** CF.DEL and remove(). */
  del(item) { return this.both(['CF.DEL', this.key, item], (f) => (f.remove(item) ? 1 : 0)); }

  /** CF.DEL of every item, pipelined. */
  delEach(items) { return this.bothEach('CF.DEL', items, (f, k) => (f.remove(k) ? 1 : 0)); }

  /** CF.COMPACT and compact(). */
  compact() { return this.both(['CF.COMPACT', this.key], (f) => (f.compact(), 'OK')); }

  static infoOf(f) {
    const i = f.info();
    return { Size: i.size, 'Number of buckets': i.buckets, 'Number of filters': i.filters, 'Number of items inserted': i.items,
      'Number of items deleted': i.itemsDeleted, 'Bucket size': i.bucketSize, 'Expansion rate': i.expansion, 'Max iterations': i.maxIterations };
  }

  /** CF.DEBUG's one line. */
  static debugOf(i) {
    return `bktsize:${i.bucketSize} buckets:${i.buckets} items:${i.items} deletes:${i.itemsDeleted} filters:${i.filters} max_iterations:${i.maxIterations} expansion:${i.expansion}`;
  }

  /** CF.COUNT of `items`, pipelined, as `back` (a dump read back) counts them. */
  async sameCounts(back, items) {
    const counts = await sendAll(this.client, items.map((k) => ['CF.COUNT', this.key, k]));
    expect(items.map((k) => back.count(k))).toEqual(counts);
  }
}

const MAX_CHUNK = 16 * 1024 * 1024;

/**
 * What `${prefix}.SCANDUMP key iter` replies for any iterator, worked out from our filter `f`: its
 * dump bytes and the sizes of its links (BF) or sub-filters (CF), as RedisBloom seeks in them.
 * A BF reply runs from the offset to the end of its link; a CF reply is the whole sub-filter the
 * offset falls in (pieces of 16 MiB only for larger ones), the iterator moved on by its length.
 * Returns iter => reply (the dump is read once).
 */
export function scanner(prefix, f) {
  const dump = f.toRedisDump();
  const info = f.info();
  const sizes = prefix === 'BF' ? info.links.map((l) => l.bytes) : info.subFilters.map((s) => s.bytes);
  const data = Buffer.concat(dump.slice(1).map(([, d]) => Buffer.from(d.buffer, d.byteOffset, d.byteLength)));
  const none = prefix === 'BF' ? [0, ''] : [0, null];
  return (iter) => {
    if (prefix === 'CF') {
      if (iter < 0) return 'E Invalid position';
      if (info.items === 0) return [0, null];
    }
    if (iter === 0) return [1, Buffer.from(dump[0][1]).toString('latin1')];
    if (iter < 1) return none;
    let offset = iter - 1;
    let start = 0;
    for (const size of sizes) {
      if (offset < size) {
        let from = offset;
        let len = Math.min(MAX_CHUNK, size - offset);
        if (prefix === 'CF' && size <= MAX_CHUNK) { from = 0; len = size; }
        return [iter + len, data.subarray(start + from, start + from + len).toString('latin1')];
      }
      offset -= size;
      start += size;
    }
    return none;
  };
}
