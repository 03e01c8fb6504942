// Helpers the RedisBloom tests share: fixture bytes, dump comparison, and a live server's
// SCANDUMP / LOADCHUNK in the shape fromRedisDump / toRedisDump use.
import { readdirSync, readFileSync } from 'node:fs';
import { FilterError, deserialize, fromRedisDump, kindOf } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';
import { skipReason, startRedisBloom } from './server.mjs';

/** Hex as written in the fixtures ('-' is empty) → Uint8Array. */
export const fromHex = (h) => (h === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(h, 'hex')));

const FIXTURES = new URL('../fixtures/redis/', import.meta.url);

/** The capture fixtures (scripts/capture-redis-bf.mjs, capture-redis-cf.mjs) named `prefix`*, sorted. */
export const fixtureNames = (prefix) => readdirSync(FIXTURES).filter((n) => n.startsWith(prefix)).sort();

/**
 * Reads a capture fixture: a line a record, `<tag> <fields...>`. The 'chunk' lines become
 * `chunks` ([iterator, bytes]: the server's SCANDUMP, the final [0, empty] included) and the
 * 'probes' line `answers` (the server's 0/1 for each probe); a line of another tag goes to
 * parsers[tag](f, fields), which fills in the rest of f (starting from `start`); lines of no
 * parser's tag (comments) are passed over. Returns f: { name, chunks, answers, ... }.
 */
export function readFixture(name, parsers = {}, start = {}) {
  const f = { name, chunks: [], ...start };
  for (const line of readFileSync(new URL(name, FIXTURES), 'utf8').split('\n')) {
    const [tag, ...fields] = line.split(' ');
    if (tag === 'chunk') f.chunks.push([Number(fields[0]), fromHex(fields[1])]);
    else if (tag === 'probes') f.answers = fields[1];
    else if (Object.hasOwn(parsers, tag)) parsers[tag](f, fields);
  }
  return f;
}

const enc = new TextEncoder();
/** What the captures probe: "probe:<i>" for i < 1000, then `keys` (bytes). */
export const fixtureProbes = (keys) => [...Array.from({ length: 1000 }, (_, i) => enc.encode(`probe:${i}`)), ...keys];

/**
 * The tests of one capture fixture `fx`, a describe.each body (redis-bloom.test.js and
 * redis-cuckoo.test.js): its dump read with fromRedisDump (with and without the final
 * [0, empty]) is a `Cls` answering every probe as the server did (hasAll and has), with info()
 * the server's INFO (`pick` of it); replay(f) does the captured operations on a new Cls with the
 * fixture's options and checks the replies, after which its dump, info() and answers are the
 * server's; our own format of the dump read (kind `kind`) keeps its answers and dump, and each
 * of `others` refuses those bytes. counts(f) checks what a class adds (a CF: CF.COUNT of the
 * probes) wherever answers are checked. `answeredAs` names the server's replies in a title.
 */
export function captureTests(fx, { Cls, kind, pick, replay, counts = () => {}, others, answeredAs, info }) {
  const answers = (f) => expect(Array.from(f.hasAll(fx.probes)).join('')).toBe(fx.answers);
  const dump = fx.chunks.slice(0, -1);

  test(`a dump read with fromRedisDump answers every probe as ${answeredAs} did, and info() is ${info}`, () => {
    for (const chunks of [fx.chunks, dump]) {   // with and without the final [0, empty]
      const f = fromRedisDump(chunks);
      expect(f).toBeInstanceOf(Cls);
      answers(f);
      expect(fx.probes.map((p) => (f.has(p) ? 1 : 0)).join('')).toBe(fx.answers);
      counts(f);
      expect(pick(f.info())).toEqual(fx.info);
      f.free();
    }
  });

  test('the same operations done locally give the same replies op by op and a byte-identical dump', () => {
    const f = new Cls(fx.options);
    replay(f);
    expect(sameChunks(f.toRedisDump(), dump)).toBe(true);
    expect(pick(f.info())).toEqual(fx.info);
    answers(f);
    counts(f);
    f.free();
  });

  test(`our own format (kind ${kind}) keeps every answer`, () => {
    const f = fromRedisDump(fx.chunks);
    const bytes = f.serialize();
    expect(kindOf(bytes)).toBe(kind);
    const g = deserialize(bytes);
    expect(g).toBeInstanceOf(Cls);
    answers(g);
    counts(g);
    expect(sameChunks(g.toRedisDump(), dump)).toBe(true);
    for (const Other of others) expect(codeOf(() => Other.deserialize(bytes))).toBe('INVALID_ARGUMENT');
    f.free();
    g.free();
  });
}

/** Two lists of [iterator, bytes] with the same iterators and the same bytes. */
export const sameChunks = (a, b) => a.length === b.length
  && a.every(([it, d], i) => it === b[i][0] && Buffer.compare(Buffer.from(d), Buffer.from(b[i][1])) === 0);

/** The FilterError code fn throws ('no error' when it does not; name and message for others). */
export const codeOf = (fn) => {
  try { fn(); } catch (e) { return e instanceof FilterError ? e.code : `${e.name}: ${e.message}`; }
  return 'no error';
};

/**
 * Loads `chunks` with each bit of the header chunk flipped in turn: each load either throws
 * FilterError CORRUPT_DATA or gives a filter that use(f) can still query. Returns how many of the
 * flips were refused.
 */
export function flipHeaderBits(chunks, load, use) {
  const header = chunks[0][1];
  let rejected = 0;
  for (let bit = 0; bit < header.length * 8; bit++) {
    const h = Uint8Array.from(header);
    h[bit >> 3] ^= 1 << (bit & 7);
    try {
      const f = load([[1, h], ...chunks.slice(1)]);
      use(f);
      f.free();
    } catch (err) {
      expect(err).toBeInstanceOf(FilterError);
      expect(err.code).toBe('CORRUPT_DATA');
      rejected++;
    }
  }
  return rejected;
}

/** `${prefix}.SCANDUMP` to the end: [iterator, bytes] pairs, the final [0, empty] included. */
export async function scanDump(client, prefix, key) {
  const out = [];
  for (let it = 0; ;) {
    const [next, data] = await client.sendCommand([`${prefix}.SCANDUMP`, key, String(it)]);
    it = Number(next);
    out.push([it, data ?? new Uint8Array(0)]);
    if (it === 0) return out;
  }
}

/** `${prefix}.LOADCHUNK` of every [iterator, bytes] pair, in order. */
export async function loadChunks(client, prefix, key, chunks) {
  for (const [it, d] of chunks) {
    await client.sendCommand([`${prefix}.LOADCHUNK`, key, String(it), Buffer.from(d.buffer, d.byteOffset, d.byteLength)]);
  }
}

/**
 * A dump in several chunks both ways: our filter `f` (freed here) with `keys` added dumps as the
 * server's `server` (SCANDUMP of `key`, the final [0, empty] included); the server's dump read
 * back holds every key; ours LOADCHUNKed into `${key}2` is dumped back as the server's. Both keys
 * are deleted after.
 */
export async function sameBothWays(client, prefix, key, f, keys, server) {
  f.addAll(keys);
  const mine = f.toRedisDump();
  expect(sameChunks(mine, server.slice(0, -1))).toBe(true);
  const pulled = fromRedisDump(server);
  expect(Array.from(pulled.hasAll(keys)).every((v) => v === 1)).toBe(true);
  await loadChunks(client, prefix, `${key}2`, mine);
  expect(sameChunks(await scanDump(client, prefix, `${key}2`), server)).toBe(true);
  f.free();
  pulled.free();
  await client.sendCommand(['DEL', key, `${key}2`]);
}

/**
 * A describe() block against a live RedisBloom, started before and stopped after it. Returns
 * live(name, fn(client), timeout): a test that runs when a server could be started; otherwise one
 * SKIP line is printed for the block and its tests pass without running.
 */
export function liveSuite(title, body, { oracle = '2.6' } = {}) {
  let rb = null;
  const live = (name, fn, timeout) => test(name, async () => {
    if (rb) await fn(rb.client);
  }, timeout);
  describe(title, () => {
    beforeAll(async () => {
      rb = await startRedisBloom({ oracle });
      if (!rb) console.log(`SKIP ${title}: ${skipReason() ?? 'no RedisBloom module found'} (fixtures still checked)`);
    }, 30000);
    afterAll(async () => { if (rb) await rb.stop(); });
    body(live);
  });
}

/** The rejection of `promise` (fails when it resolves). */
export async function rejection(promise) {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('resolved, expected a rejection');
}

/**
 * What a describe block of live openReplica tests opens, closed after each test (an afterEach it
 * adds, newest first): connect(kind, auth) connects `kind` (a client of tests/redis/clients.mjs,
 * `client` by default; `auth` an ACL login) to the server on portOf() and gives its `.c`;
 * replicaOf(c, key, options) is openReplica with `defaults` (checkInterval 100) under `options`.
 */
export function replicaOpener(portOf, client, defaults = { checkInterval: 100 }) {
  const open = [];
  afterEach(async () => { for (const o of open.splice(0).reverse()) await o.close(); });
  return {
    connect: async (kind = client, auth = undefined) => {
      const x = await kind.connect(portOf(), auth);
      open.push(x);
      return x.c;
    },
    replicaOf: async (c, key, options) => {
      const r = await openReplica(c, key, { ...defaults, ...options });
      open.push({ close: () => r.close() });
      return r;
    },
  };
}

/** SCANDUMP steps as [iterator, hex] without the end marker (iterator 0), for comparing dumps. */
export const hex = (chunks) => chunks.filter(([it]) => it !== 0).map(([it, d]) => [it, Buffer.from(d).toString('hex')]);

/** n key names `${p}:0` … `${p}:${n - 1}`. */
export const keys = (p, n) => Array.from({ length: n }, (_, i) => `${p}:${i}`);
