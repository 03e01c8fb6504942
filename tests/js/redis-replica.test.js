// openReplica (js/redis/replica.js) against both live RedisBloom servers, with every client of
// the peer range (node-redis 4, 5 and 6, ioredis 5 and 6, by exact version): answers and bytes
// equal to the server's, read-your-writes, a refused write, and the faults a single process can make (the key deleted,
// replaced by another type or written around, a dropped connection, a restart without AOF). The
// multi-process fleet with kills and a crash is tests/js/redis-fleet.test.js.
import { FilterError, RedisBloomFilter, init } from '../../js/main/index.js';
import { openReplica, pullFilter, pushFilter } from '../../js/redis/index.js';
import { companionKey } from '../../js/redis/keyslot.js';
import { CLIENTS as ALL_CLIENTS } from '../redis/clients.mjs';
import { replicaOpener, scanDump } from '../redis/helpers.mjs';
import { oracleSkips, redisServerPath, startPlainRedis, startRedisBloom } from '../redis/server.mjs';

beforeAll(() => init());

// one SKIP line for this file when an oracle is missing (a clone with nothing beside it)
const SKIPS = await oracleSkips('tests/js/redis-replica.test.js');

// every client of the peer range by exact version (tests/redis/clients.mjs), by name
const CLIENTS = Object.fromEntries(ALL_CLIENTS.map((c) => [c.name, c]));
const NODE_REDIS = ALL_CLIENTS.find((c) => c.alias === 'redis').name;
const IOREDIS = ALL_CLIENTS.find((c) => c.alias === 'ioredis').name;

const keys = (p, n) => Array.from({ length: n }, (_, i) => `${p}:${i}`);
const hex = (chunks) => chunks.filter(([it]) => it !== 0).map(([it, d]) => [it, Buffer.from(d).toString('hex')]);
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms).unref(); });
const codeOf = async (p) => { try { await p; } catch (e) { return e instanceof FilterError ? e.code : `${e.name}: ${e.message}`; } return 'no error'; };
/** Resolves once `cond()` holds, polling; rejects after `ms`. */
async function until(cond, ms = 5000) {
  for (const end = Date.now() + ms; !(await cond());) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${cond}`);
    await sleep(20);
  }
}

(redisServerPath() ? test : test.skip)('a Redis without the bloom module: REDIS, saying what to load, before anything is created', async () => {
  const plain = await startPlainRedis();
  try {
    for (const call of [
      () => openReplica(plain.client, 'k'),
      () => openReplica(plain.client, 'k', { create: { type: 'BF', errorRate: 0.01, capacity: 10 } }),
      () => pullFilter(plain.client, 'k'),
    ]) {
      const err = await call().then(() => null, (e) => e);
      expect(err).toBeInstanceOf(FilterError);
      expect(err.code).toBe('REDIS');
      expect(err.message).toMatch(/no BF\/CF commands: load the RedisBloom module .* or use Redis 8/);
    }
    expect(await plain.client.sendCommand(['DBSIZE'])).toBe(0);
  } finally {
    await plain.client.quit().catch(() => {});
    await plain.stop();
  }
});

for (const [oracle] of [['2.6', '2.6'], ['v8', '8']]) {
  const skip = SKIPS[oracle];
  const live = skip ? test.skip : test;
  describe(`openReplica on RedisBloom ${oracle}`, () => {
    let rb;
    let n = 0;
    const opener = replicaOpener(() => rb.port);
    const connect = (kind = NODE_REDIS) => opener.connect(CLIENTS[kind]);
    const { replicaOf } = opener;
    /** A new client's `reserve` command (BF.RESERVE / CF.RESERVE key ...) and a replica of that key. */
    const reserved = async (reserve) => {
      const c = await connect();
      await c.sendCommand(reserve);
      return { c, r: await replicaOf(c, reserve[1]) };
    };
    /** The replica's filter holds the server's exact bytes of `key`. */
    const sameBytes = async (r, prefix, key) => {
      expect(hex(r.filter.toRedisDump())).toEqual(hex(await scanDump(rb.client, prefix, key)));
    };
    beforeAll(async () => { if (!skip) rb = await startRedisBloom({ oracle }); }, 30000);
    afterAll(async () => { await rb?.client.quit().catch(() => {}); await rb?.stop(); });

    for (const kind of Object.keys(CLIENTS)) {
      live(`${kind}: two replicas of a BF and of a CF answer as the server and hold its exact bytes`, async () => {
        const c = await connect(kind);
        const bf = `bf${n++}`;
        const cf = `cf${n++}`;
        await rb.client.sendCommand(['BF.RESERVE', bf, '0.01', '200']);
        await replicaOf(c, cf, { create: { type: 'CF', capacity: 300, bucketSize: 2, expansion: 2 } });
        const [a, b] = [await replicaOf(c, bf), await replicaOf(await connect(kind), bf)];
        const [x, y] = [await replicaOf(c, cf), await replicaOf(await connect(kind), cf)];
        // read-your-writes: the answer is the server's, and the local copy has it when it resolves
        expect(await a.add('k')).toBe(true);
        expect(a.has('k')).toBe(true);
        expect(await b.add('k')).toBe(false);
        expect(await a.addAll(keys('k', 2500))).toBe(await (async () => { await b.sync(); return b.filter.size - 1; })());
        expect(await x.add('k')).toBe(true);
        expect(await y.addUnique('k')).toBe(false);
        expect(await x.addAll([...keys('c', 700), 'k'])).toBe(701);
        expect(await y.remove('c:1')).toBe(true);
        expect(await y.remove('never added')).toBe(false);
        for (const r of [a, b, x, y]) await r.sync();
        expect(x.count('k')).toBe(2);
        expect(y.count('k')).toBe(2);
        const probes = [...keys('k', 2500), ...keys('c', 700), ...keys('probe', 2000)];
        const admin = rb.client;
        const bfServer = (await admin.sendCommand(['BF.MEXISTS', bf, ...probes])).map((v) => Number(v) === 1);
        const cfServer = (await admin.sendCommand(['CF.MEXISTS', cf, ...probes])).map((v) => Number(v) === 1);
        for (const r of [a, b]) expect(probes.map((k) => r.has(k))).toEqual(bfServer);
        for (const r of [x, y]) expect(probes.map((k) => r.has(k))).toEqual(cfServer);
        const bfBytes = hex(await scanDump(admin, 'BF', bf));
        const cfBytes = hex(await scanDump(admin, 'CF', cf));
        for (const r of [a, b]) expect(hex(r.filter.toRedisDump())).toEqual(bfBytes);
        for (const r of [x, y]) expect(hex(r.filter.toRedisDump())).toEqual(cfBytes);
        expect(a.stats).toMatchObject({ resyncs: 0, writeArounds: 0 });
        expect(b.stats.applied).toBeGreaterThan(0);
      }, 30000);
    }

    live('a write the server refuses: a full CF with EXPANSION 0 resolves false, a full NONSCALING BF rejects FULL; nothing applied', async () => {
      const c = await connect();
      await c.sendCommand(['CF.RESERVE', 'cf-full', '4', 'BUCKETSIZE', '1', 'EXPANSION', '0']);
      await c.sendCommand(['BF.RESERVE', 'bf-full', '0.01', '10', 'NONSCALING']);
      const cf = await replicaOf(c, 'cf-full');
      const bf = await replicaOf(c, 'bf-full');
      const results = [];
      for (const k of keys('f', 12)) results.push(await cf.add(k));
      expect(results).toContain(false);
      expect(results.filter(Boolean).length).toBe(Number((await c.sendCommand(['CF.INFO', 'cf-full']))['Number of items inserted']));
      expect(await codeOf(bf.addAll(keys('b', 30)))).toBe('FULL');
      expect(await codeOf(bf.add('one more'))).toBe('FULL');
      await cf.sync();
      await bf.sync();
      await sameBytes(cf, 'CF', 'cf-full');
      await sameBytes(bf, 'BF', 'bf-full');
      expect(cf.stats.resyncs + bf.stats.resyncs).toBe(0);
    });

    // The reset is seen by more than one check (the timer's, sync()'s): a check sent before the
    // snapshot began compared the copy that snapshot replaces, so what it saw is no reason for
    // another. Here a sync() is called as each snapshot begins: its check is sent first and
    // answered while the snapshot is read. Seen failing (resyncs 2) before the replica ordered its
    // dues by when their checks were sent.
    live('a key lost and re-created is one resync, however many checks saw it before the snapshot began', async () => {
      const { c, r } = await reserved(['BF.RESERVE', 'reset-once', '0.01', '100']);
      r.on('error', () => {});
      await r.addAll(keys('o', 30));
      const copy = RedisBloomFilter.fromRedisDump(r.filter.toRedisDump());
      const syncs = [];
      r.on('resync', () => { if (syncs.length < 3) syncs.push(r.sync()); });
      await c.sendCommand(['DEL', 'reset-once', companionKey('reset-once', ':bloomcuckoo-log')]);   // as FLUSHALL would
      await pushFilter(c, 'reset-once', copy);
      copy.free();
      await r.sync();
      await Promise.all(syncs);
      expect(await r.add('after')).toBe(true);
      expect(r.stats.resyncs).toBe(1);
      await sameBytes(r, 'BF', 'reset-once');
    });

    live('writes around the library (BF.ADD, CF.DEL from another client) are seen within checkInterval, without a sync()', async () => {
      const { c, r } = await reserved(['BF.RESERVE', 'around', '0.01', '100']);
      await r.add('mine');
      await c.sendCommand(['BF.ADD', 'around', 'theirs']);
      await until(() => r.has('theirs'));
      expect(r.stats.writeArounds).toBe(1);
      await sameBytes(r, 'BF', 'around');
      const cf = await replicaOf(c, 'cf-around', { create: { type: 'CF', capacity: 100 } });
      await cf.addAll(['p', 'q']);
      await c.sendCommand(['CF.DEL', 'cf-around', 'p']);
      await until(() => cf.stats.writeArounds === 1);
      await cf.sync();
      await sameBytes(cf, 'CF', 'cf-around');
    });

    live('the key deleted, then of another type: reported, the copy keeps answering, writes refused; a filter back is followed', async () => {
      const { c, r } = await reserved(['BF.RESERVE', 'gone', '0.01', '100']);
      const errors = [];
      r.on('error', (e) => errors.push(e));
      await r.addAll(keys('g', 50));
      const copy = RedisBloomFilter.fromRedisDump(r.filter.toRedisDump());
      await c.sendCommand(['DEL', 'gone']);
      await until(() => errors.length > 0);
      expect(errors[0]).toBeInstanceOf(FilterError);
      expect(errors[0].code).toBe('REDIS');
      expect(errors[0].message).toMatch(/'gone' is gone/);
      expect(keys('g', 50).every((k) => r.has(k))).toBe(true);
      expect(await codeOf(r.add('x'))).toBe('REDIS');
      expect(await codeOf(r.sync())).toBe('REDIS');
      await c.sendCommand(['SET', 'gone', 'a string']);
      await until(() => errors.some((e) => /holds a string/.test(e.message)));
      expect(await codeOf(r.add('x'))).toBe('REDIS');
      expect(r.has('g:1')).toBe(true);
      // someone puts the filter back (here: the copy this replica had): followed again
      await c.sendCommand(['DEL', 'gone']);
      await pushFilter(c, 'gone', copy);
      copy.free();
      await r.sync();
      expect(await r.add('after')).toBe(true);
      expect(r.stats.resyncs).toBe(1);
      await sameBytes(r, 'BF', 'gone');
    });

    live('with no error listener, one process warning per code, however often it is reported; never thrown', async () => {
      const { c, r } = await reserved(['BF.RESERVE', 'unheard', '0.01', '100']);
      // what the replica hands to process.emitWarning (under Jest, process is the test realm's
      // copy, whose 'warning' events do not reach listeners here)
      const warnings = [];
      const emitWarning = process.emitWarning;
      process.emitWarning = (message, options) => { warnings.push({ message, ...options }); };
      try {
        await c.sendCommand(['DEL', 'unheard']);
        // the key's check runs every 100 ms: let it report the loss many times
        await until(() => warnings.length > 0);
        await sleep(600);
        expect(warnings.map((w) => [w.type, w.code])).toEqual([['FilterError', 'REDIS']]);
        expect(warnings[0].message).toMatch(/'unheard' is gone/);
        expect(await codeOf(r.sync())).toBe('REDIS');
        expect(warnings).toHaveLength(1);
      } finally {
        process.emitWarning = emitWarning;
      }
    });

    live('a dropped connection (CLIENT KILL of every client): the replica reconnects and catches up', async () => {
      const { r } = await reserved(['CF.RESERVE', 'drop', '100']);
      const other = await replicaOf(await connect(IOREDIS), 'drop');
      let reported = 0;
      r.on('error', () => { reported++; });
      other.on('error', () => {});
      await r.addAll(keys('d', 20));
      await rb.client.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
      await until(async () => (await codeOf(other.add('after drop'))) === 'no error');
      await r.sync();
      expect(r.has('after drop')).toBe(true);
      expect(reported).toBeGreaterThan(0);
      await sameBytes(r, 'CF', 'drop');
    });

    live('a client that does not reconnect (node-redis reconnectStrategy false, ioredis retryStrategy null) and its replica\'s tail connection killed: the replica makes a new one and follows the log', async () => {
      const { r: writer } = await reserved(['BF.RESERVE', 'noreconnect', '0.01', '1000']);
      for (const alias of ['redis', 'ioredis']) {
        const mod = await import(alias);
        let c;
        if (alias === 'redis') {
          c = mod.createClient({ socket: { host: '127.0.0.1', port: rb.port, reconnectStrategy: false } });
          c.on('error', () => {});
          await c.connect();
        } else {
          const IORedis = mod.default?.default ?? mod.default ?? mod.Redis;
          c = new IORedis({ host: '127.0.0.1', port: rb.port, retryStrategy: () => null, lazyConnect: true, disconnectTimeout: 50 });
          c.on('error', () => {});
          await c.connect();
        }
        const clients = async () => String(await rb.client.sendCommand(['CLIENT', 'LIST'])).split('\n').filter(Boolean)
          .map((l) => ({ id: /\bid=(\d+)/.exec(l)[1], xread: / cmd=xread /.test(l) }));
        const before = new Set((await clients()).map((x) => x.id));
        try {
          const r = await openReplica(c, 'noreconnect', { checkInterval: 100000, block: 200, syncTimeout: 8000 });
          r.on('error', () => {});
          try {
            // its tail: the connection made by openReplica that reads the log (XREAD BLOCK)
            let tail;
            await until(async () => {
              tail = (await clients()).find((x) => x.xread && !before.has(x.id));
              return tail !== undefined;
            });
            await rb.client.sendCommand(['CLIENT', 'KILL', 'ID', tail.id]);
            expect(await writer.add(`after ${alias}`)).toBe(true);
            await r.sync();
            expect([alias, r.has(`after ${alias}`)]).toEqual([alias, true]);
          } finally {
            await r.close();
          }
        } finally {
          if (alias === 'redis') await c.quit().catch(() => {}); else c.disconnect();
        }
      }
    });

    live('bad input: a missing key, another type, unknown options, a client of no kind, use after close()', async () => {
      const c = await connect();
      await c.sendCommand(['SET', 'plain', 'x']);
      expect(await codeOf(openReplica(c, 'nothing here'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(openReplica(c, 'plain'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(openReplica(c, 'plain', { checkInterval: 0 }))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(openReplica(c, 'plain', { chekInterval: 10 }))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(openReplica({}, 'plain'))).toBe('INVALID_ARGUMENT');
      const r = await replicaOf(c, 'fresh', { create: { type: 'BF', errorRate: 0.01, capacity: 100 } });
      expect(await codeOf(r.remove('x'))).toBe('INVALID_ARGUMENT');
      await expect(r.addAll('one string')).rejects.toThrow(TypeError);
      await r.close();
      expect(() => r.has('x')).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
      expect(await codeOf(r.add('x'))).toBe('DISPOSED');
    });

    for (const kind of [NODE_REDIS, IOREDIS]) {
      live(`${kind}: nothing is sent on the caller's client once close() resolved, a checkpoint being written included (its QUIT right after is clean)`, async () => {
        const c = await connect(kind);
        const late = [];
        let closed = false;
        const method = kind === IOREDIS ? 'callBuffer' : 'sendCommand';
        const original = c[method].bind(c);
        c[method] = (...args) => {
          if (closed) late.push(String(kind === IOREDIS ? args[0] : args[0][0]));
          return original(...args);
        };
        // 1.8 MB: its first checkpoint (written after the open, 1 MiB a step) is still going when close() is called
        const r = await openReplica(c, `quiet${n++}`, { create: { type: 'BF', errorRate: 0.001, capacity: 1_000_000 } });
        r.on('error', () => {});
        await r.add('one');
        await r.close();
        closed = true;
        await sleep(300);
        expect(late).toEqual([]);
        c[method] = original;
        if (kind === IOREDIS) expect(await c.quit()).toBe('OK'); else await c.quit();
      });
    }

    live("a listener that throws ('applied', 'resync') changes no write's outcome: reported on 'error', the copy keeps following", async () => {
      const c = await connect();
      const r = await replicaOf(c, `loud${n++}`, { create: { type: 'BF', errorRate: 0.01, capacity: 100 } });
      const errors = [];
      r.on('error', (e) => errors.push(e));
      r.on('applied', () => { throw new Error('a listener bug'); });
      let resyncs = 0;
      r.on('resync', () => { resyncs++; throw new Error('a listener bug'); });
      expect(await codeOf(r.add('first'))).toBe('no error');
      expect(r.has('first')).toBe(true);
      expect(await r.addAll(['a', 'b'])).toBe(2);
      await c.sendCommand(['BF.ADD', r.key, 'around']);   // a write the tail brings
      const w = await connect();
      const other = await replicaOf(w, r.key);
      await other.add('theirs');
      await r.sync();
      expect(['first', 'a', 'b', 'theirs', 'around'].every((k) => r.has(k))).toBe(true);
      expect(resyncs).toBeGreaterThan(0);   // the write around the library: a snapshot, its listener threw
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e.message === 'a listener bug')).toBe(true);
    });

    live('create: every field checked before anything is sent (INVALID_ARGUMENT naming it, no key made); a pool refused before create runs', async () => {
      const c = await connect();
      const messageOf = async (p) => { try { await p; } catch (e) { return `${e.code ?? e.name}: ${e.message}`; } return 'no error'; };
      const cases = [
        [{ type: 'BF', error_rate: 0.01, capacity: 100 }, /unknown field 'error_rate'/],
        [{ type: 'BF', capacity: 100 }, /errorRate/],
        [{ type: 'BF', errorRate: '0.01', capacity: 100 }, /errorRate/],
        [{ type: 'BF', errorRate: 1.5, capacity: 100 }, /errorRate/],
        [{ type: 'BF', errorRate: 0.01, capacity: 1.5 }, /capacity/],
        [{ type: 'BF', errorRate: 0.01, capacity: 100, nonScaling: 'yes' }, /nonScaling/],
        [{ type: 'BF', errorRate: 0.01, capacity: 100, expansion: -1 }, /expansion/],
        [{ type: 'CF', capacity: 100, bucketsize: 4 }, /unknown field 'bucketsize'/],
        [{ type: 'CF', capacity: 100, maxIterations: NaN }, /maxIterations/],
        [{ type: 'CF' }, /capacity/],
      ];
      for (const [create, named] of cases) {
        const key = `spec${n++}`;
        const got = await messageOf(openReplica(c, key, { create }));
        expect(got).toMatch(/^INVALID_ARGUMENT: /);
        expect(got).toMatch(named);
        expect(await c.sendCommand(['EXISTS', key])).toBe(0);
      }
      const { createClientPool } = await import('redis');
      const pool = await createClientPool({ url: `redis://127.0.0.1:${rb.port}` }).connect();
      try {
        const got = await messageOf(openReplica(pool, 'pooled', { create: { type: 'BF', errorRate: 0.01, capacity: 100 } }));
        expect(got).toMatch(/^INVALID_ARGUMENT: .*createClientPool/);
        expect(await c.sendCommand(['EXISTS', 'pooled'])).toBe(0);
      } finally {
        pool.destroy();
      }
    });

    live('Redis restarted without AOF: the filter is lost there; reported, the copy answers; pushing it back is followed', async () => {
      const { r } = await reserved(['BF.RESERVE', 'volatile', '0.01', '100']);
      const errors = [];
      r.on('error', (e) => errors.push(e.message));
      await r.addAll(keys('v', 300));
      rb = Object.assign(await rb.restart('SIGKILL'), { info: rb.info });
      await until(() => errors.some((m) => /'volatile' is gone/.test(m)), 10000);
      expect(keys('v', 300).every((k) => r.has(k))).toBe(true);
      // another process puts its copy back (here a pull of this one's bytes): the replica follows
      const c2 = await connect();
      await pushFilter(c2, 'volatile', RedisBloomFilter.fromRedisDump(r.filter.toRedisDump()));
      await until(async () => (await codeOf(r.sync())) === 'no error', 10000);
      expect(await r.add('new')).toBe(true);
      await sameBytes(r, 'BF', 'volatile');
      expect(await pullFilter(c2, 'volatile').then((f) => keys('v', 300).every((k) => f.has(k)))).toBe(true);
    }, 30000);

    // the server loses the key and its log, the key is re-created with the same parameters and
    // more writes follow than the replica's old position: its history is not the server's any
    // more, whatever the counts say; sync() must not resolve on it
    for (const cause of ['FLUSHALL', 'a restart without persistence', 'DEL of the key and its log', 'DEL of both, other parameters']) {
      live(`history lost (${cause}), re-created, more writes than before: detected, the replica resyncs to the server's bytes`, async () => {
        const key = `hist${n++}`;
        const create = { type: 'BF', errorRate: 0.01, capacity: 1000 };
        const r = await replicaOf(await connect(), key, { create, checkInterval: 100000 });
        r.on('error', () => {});
        for (const k of keys(`old${n}`, 20)) await r.add(k);
        expect(r.stats.seq).toBe(20);
        if (cause === 'FLUSHALL') await rb.client.sendCommand(['FLUSHALL']);
        else if (cause.startsWith('DEL')) await rb.client.sendCommand(['DEL', key, `{${key}}:bloomcuckoo-log`]);
        else rb = Object.assign(await rb.restart('SIGKILL'), { info: rb.info });
        // another process re-creates it (with other parameters: another capacity, error rate and
        // expansion) and writes more than 20 entries
        const other = await replicaOf(await connect(), key, {
          create: cause.includes('other') ? { type: 'BF', errorRate: 0.001, capacity: 5000, expansion: 4 } : create, checkInterval: 100000,
        });
        for (const k of keys(`new${n}`, 30)) await other.add(k);
        await until(async () => (await codeOf(r.sync())) === 'no error', 15000);
        await sameBytes(r, 'BF', key);
        expect(r.stats.resyncs).toBeGreaterThan(0);
        expect(await r.add('after')).toBe(true);
        await other.sync();
        await sameBytes(other, 'BF', key);
      }, 30000);
    }

    // CLIENT PAUSE (every client, the replicas' tails included): a write sent during it waits for the
    // server, within `timeout`: one with a longer timeout resolves after the pause with the copy
    // holding it; one with a shorter timeout rejects REDIS saying the server may or may not have
    // applied it (it is applied after the pause, and the copy gets it through the log)
    live('CLIENT PAUSE 1.5 s: a write with timeout 10 s resolves after it; one with timeout 500 ms rejects saying it may have been applied; then every copy converges', async () => {
      const key = `pause${n++}`;
      const create = { type: 'BF', errorRate: 0.01, capacity: 1000 };
      const patient = await replicaOf(await connect(), key, { create });
      const hasty = await replicaOf(await connect(IOREDIS), key, { timeout: 500 });
      hasty.on('error', () => {});
      patient.on('error', () => {});
      await patient.addAll(keys('before', 10));
      const admin = await connect();
      await admin.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
      const started = Date.now();
      const slow = patient.add('during');
      const err = await hasty.add('hasty').then(() => null, (e) => e);
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
      expect(err.message).toMatch(/got no answer: .*the server may or may not have applied it/);
      expect(await slow).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);   // it waited out the pause
      expect(patient.has('during')).toBe(true);
      await until(async () => (await codeOf(hasty.sync())) === 'no error', 10000);
      await patient.sync();
      // the acknowledged writes in every copy; the one that timed out in every copy exactly when
      // the server applied it (it may not have: a loaded run saw its connection dropped first)
      const applied = Number(await admin.sendCommand(['BF.EXISTS', key, 'hasty'])) === 1;
      for (const r of [patient, hasty]) {
        expect(['during', ...keys('before', 10)].filter((k) => !r.has(k))).toEqual([]);
        expect(r.has('hasty')).toBe(applied);
        await sameBytes(r, 'BF', key);
      }
    }, 30000);

    // the key deleted alone (its log left beside it) and re-created by another process's
    // openReplica({ create }) before any check dropped the log: the old log must not be continued
    // (the next write starts a new epoch), and a replica of the old history resyncs
    for (const type of ['BF', 'CF']) {
      live(`${type}: deleted alone and re-created by openReplica({ create }) before a check: a new epoch, not the old log; the old replica resyncs`, async () => {
        const key = `stale${n++}`;
        const log = `{${key}}:bloomcuckoo-log`;
        const create = type === 'BF' ? { type, errorRate: 0.01, capacity: 1000 } : { type, capacity: 1000 };
        const epochOf = async () => String(await rb.client.sendCommand(['EVAL', `local i = redis.call('XINFO', 'STREAM', KEYS[1])
for j = 1, #i, 2 do if i[j] == 'last-generated-id' then return i[j + 1] end end`, '1', log])).split('-');
        const r = await replicaOf(await connect(), key, { create, checkInterval: 100000 });
        r.on('error', () => {});
        for (const k of keys(`old${n}`, 20)) await r.add(k);
        const [old] = await epochOf();
        await rb.client.sendCommand(['DEL', key]);
        expect(Number(await rb.client.sendCommand(['EXISTS', log]))).toBe(1);
        const other = await replicaOf(await connect(IOREDIS), key, { create, checkInterval: 100000 });
        // dropped as the key was made: a new log with no entry, of another epoch
        expect([Number(await rb.client.sendCommand(['XLEN', log])), (await epochOf())[0] === old]).toEqual([0, false]);
        expect(await other.add('new')).toBe(true);
        const [epoch, seq] = await epochOf();
        expect([epoch === old, seq]).toEqual([false, '1']);
        await until(async () => (await codeOf(r.sync())) === 'no error', 15000);
        expect(r.has('new')).toBe(true);
        expect(r.stats.resyncs).toBeGreaterThan(0);
        await sameBytes(r, type, key);
        // a create that finds the key keeps it and its log
        const third = await replicaOf(await connect(), key, { create, checkInterval: 100000 });
        expect(await epochOf()).toEqual([epoch, '1']);
        expect(third.has('new')).toBe(true);
      }, 30000);
    }
  });
}
