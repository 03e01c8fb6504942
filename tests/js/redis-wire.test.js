// bloomcuckoo/redis against replies no real server sends (tests/redis/fake-resp.mjs plays them):
// a SCANDUMP that never ends or repeats an iterator, headers and CF.INFO replies declaring more
// than is sent or than 4 GiB, nil / integer / nested / negative replies where a string, an array or
// a count belongs, error replies, bad stream IDs. Every one is a FilterError (CORRUPT_DATA for a
// reply of the wrong shape, REDIS for an error reply or a lost connection, OUT_OF_MEMORY for a size
// past 4 GiB), after a bounded number of commands and with no large allocation; and a server that
// stalls: every wait bounded (timeout, syncTimeout), close() at once. No Redis needed.
import { createHash } from 'node:crypto';
import { FilterError, RedisBloomFilter, init } from '../../js/main/index.js';
import { openReplica, pullFilter, pushFilter } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { NO_REPLY, noCheckpoint, startFakeRedis as startBare, withoutCheckpoint } from '../redis/fake-resp.mjs';

await init();

// every fake here answers a replica's checkpoint commands as a server with none (the replica then
// takes its snapshot with the snapshot script, as these fakes play it); the checkpoint fakes are
// at the end
const startFakeRedis = (script) => startBare(withoutCheckpoint(script));

// node-redis 6 and ioredis 5 (the two reply paths: typeMapping and callBuffer)
const USED = CLIENTS.filter((c) => c.alias === 'redis' || c.alias === 'ioredis');

const errorOf = async (p) => { try { await p; } catch (e) { return e; } return null; };

/**
 * A real BF holding `keys`: its SCANDUMP chunks, [[1, header], [it, data]...], and its counts as the
 * check script joins BF.INFO's (capacity, size, filters, items).
 */
function bfState(keys = ['a', 'b', 'c']) {
  const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
  f.addAll(keys);
  const chunks = f.toRedisDump().map(([it, d]) => [it, Buffer.from(d)]);
  const i = f.info();
  f.free();
  return { chunks, counts: [i.capacity, i.size, i.filters, i.items].join(',') };
}
const bfDump = (keys) => bfState(keys).chunks;

/** The reply to SCANDUMP key `it` of a one-chunk dump `chunks` (bfDump's): header, data, then the end. */
const stepOf = (chunks, it) => (it === 0 ? chunks[0] : it === 1 ? chunks[1] : [0, '']);

/** A replica of 'k' opened with `client` on a fake playing `script`; fn(replica), then all closed. */
async function withFakeReplica(client, script, fn) {
  const fake = await startFakeRedis(script);
  const { c, close } = await client.connect(fake.port);
  try {
    const r = await openReplica(c, 'k', { server: '2.6', block: 100, checkInterval: 100000 });
    r.on('error', () => {});
    await fn(r);
    await r.close();
  } finally {
    await close();
    await fake.stop();
  }
}

/** Read-your-writes: the copy lacks `key`, add(key) resolves `added` (the server's answer), then the copy has it. */
async function readsItsWrite(r, key, added) {
  expect(r.has(key)).toBe(false);
  expect(await r.add(key)).toBe(added);
  expect(r.has(key)).toBe(true);
}

/** A BF header of one link declaring `bytes` of bitmap (the rest of the record as a real one). */
function bfHeader(bytes) {
  const h = Buffer.from(bfDump()[0][1]);
  h.writeBigUInt64LE(BigInt(bytes), 20);
  return h;
}

/** A fake answering TYPE with `type` and SCANDUMP with scandump(iterator); everything else as `rest`. */
const dumpServer = (type, scandump, rest = () => undefined) => startFakeRedis((args) => {
  const cmd = args[0].toUpperCase();
  if (cmd === 'TYPE') return typeof type === 'string' ? { simple: type } : type;
  if (cmd.endsWith('.SCANDUMP')) return scandump(Number(args[2]));
  return rest(args);
});

describe.each(USED.map((c) => [c.name, c]))('%s against a fake server', (_, client) => {
  let fake = null;
  let conn = null;
  afterEach(async () => {
    await conn?.close();
    await fake?.stop();
    conn = null;
    fake = null;
  });
  const connect = async (server) => {
    fake = await server;
    conn = await client.connect(fake.port);
    return conn.c;
  };
  const scandumps = () => fake.commands.filter((a) => /\.SCANDUMP$/i.test(a[0])).length;

  test('a SCANDUMP whose iterator never reaches 0: CORRUPT_DATA once more than the header declares came', async () => {
    const [header, data] = bfDump();
    const c = await connect(dumpServer('MBbloom--', (it) => (it === 0 ? header
      : [it + data[1].length, data[1]])));   // always one more chunk
    const err = await errorOf(pullFilter(c, 'k', { server: '2.6' }));
    expect(err).toBeInstanceOf(FilterError);
    expect(err.code).toBe('CORRUPT_DATA');
    expect(scandumps()).toBeLessThanOrEqual(3);
  });

  test('an iterator stuck at 1, or a chunk numbered wrong, or data after the declared end: CORRUPT_DATA at once', async () => {
    const [header, data] = bfDump();
    for (const play of [
      (it) => (it === 0 ? header : [1, data[1]]),                       // stuck at 1
      (it) => (it === 0 ? header : [it + 5, data[1]]),                  // not 1 + end offset
      (it) => (it === 0 ? header : it === 1 ? [1 + data[1].length, data[1]] : [0, Buffer.from('x')]),   // bytes with iterator 0
      (it) => (it === 0 ? header : [0, '']),                             // ends before the declared bytes
      (it) => (it === 0 ? header : [it + 1, '']),                        // an empty data chunk, forever
    ]) {
      const c = await connect(dumpServer('MBbloom--', play));
      const err = await errorOf(pullFilter(c, 'k', { server: '2.6' }));
      expect(err).toBeInstanceOf(FilterError);
      expect(err.code).toBe('CORRUPT_DATA');
      expect(scandumps()).toBeLessThanOrEqual(3);
      await conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
  });

  test('a header declaring 64 MiB sent in 1-byte or 4 KiB chunks (a server splits a run of a link or sub-filter only at 1 MiB or more): CORRUPT_DATA at once, not millions of round trips and chunk records', async () => {
    for (const size of [1, 4096]) {
      let sent = 0;
      const c = await connect(dumpServer('MBbloom--', (it) => {
        if (it === 0) return [1, bfHeader(2 ** 26)];
        if (++sent > 2000) return { error: 'ERR the fake stops here' };   // the bound this test needs, not the library
        return [it + size, Buffer.alloc(size)];
      }));
      const err = await errorOf(pullFilter(c, 'k', { server: '2.6' }));
      expect([err?.constructor.name, err?.code, scandumps()]).toEqual(['FilterError', 'CORRUPT_DATA', 2]);
      await conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
  });

  test('a header declaring more than 4 GiB: refused before any data is read', async () => {
    const c = await connect(dumpServer('MBbloom--', (it) => (it === 0 ? [1, bfHeader(2 ** 33)] : [it + 64, Buffer.alloc(64)])));
    const err = await errorOf(pullFilter(c, 'k', { server: '2.6' }));
    expect(err).toBeInstanceOf(FilterError);
    expect(err.code).toBe('OUT_OF_MEMORY');
    expect(scandumps()).toBe(1);
  });

  test('nil, integer, nested and negative replies where a type, a pair or a count belongs: FilterError, never TypeError', async () => {
    const [header] = bfDump();
    const plays = [
      [null, () => header], [5, () => header], [['MBbloom--'], () => header],
      ['MBbloom--', () => null], ['MBbloom--', () => 7], ['MBbloom--', () => [[1, 2]]],
      ['MBbloom--', () => [-1, '']], ['MBbloom--', () => ['1.5', header[1]]], ['MBbloom--', () => [1, 12]],
      ['MBbloom--', () => [1, header[1], 'extra']], ['MBbloom--', () => ({ error: 'ERR boom' })],
    ];
    for (const [type, scandump] of plays) {
      const c = await connect(dumpServer(type === null ? null : typeof type === 'string' ? type : type, scandump));
      const err = await errorOf(pullFilter(c, 'k', { server: '2.6' }));
      expect([err?.constructor.name, err?.code, err?.message]).toEqual(['FilterError', expect.stringMatching(/^(CORRUPT_DATA|REDIS)$/), expect.any(String)]);
      await conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
  });

  /** A fake for openReplica: the snapshot script replies `snapshot`, CF.INFO `info`, XREAD `xread`. */
  const replicaServer = ({ snapshot, scandump = () => [0, ''], info, xread = () => new Promise((r) => { setTimeout(() => r(null), 50); }), write }) => startFakeRedis((args) => {
    const cmd = args[0].toUpperCase();
    if (cmd === 'EVALSHA' || cmd === 'EVAL') {
      const keys = Number(args[2]);
      if (keys === 3) return snapshot();
      return args.length > 5 && write ? write(args) : { error: 'ERR not played' };
    }
    if (cmd.endsWith('.SCANDUMP')) return scandump(Number(args[2]));
    if (cmd === 'CF.INFO') return info();
    if (cmd === 'XREAD') return xread();
    if (cmd === 'DEL') return 1;
    return undefined;
  });

  const cfInfo = ({ size, buckets, filters = 1, bucketSize, expansion = 1 }) => ['Size', size, 'Number of buckets', buckets,
    'Number of filters', filters, 'Number of items inserted', 0, 'Number of items deleted', 0, 'Bucket size', bucketSize,
    'Expansion rate', expansion, 'Max iterations', 20];

  test('pushFilter over a followed key: the key loaded, but the checkpoint lock\'s SET fails: the push resolves (the checkpoint only saves replicas a read)', async () => {
    const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
    f.addAll(['a', 'b']);
    const bytes = f.toRedisDump().reduce((n, [, d]) => n + d.length, 0);
    // a bare fake (no checkpoint replies played): the load script starts a new log, SET fails
    const c = await connect(startBare((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'EXISTS') return 0;
      if ((cmd === 'EVALSHA' || cmd === 'EVAL') && args[2] === '6') return '1700000000000001';
      if (cmd === 'SET') return { error: 'ERR the lock is refused' };
      if (cmd === 'EVALSHA' || cmd === 'EVAL') return args[2] === '7' ? 'ok' : 1;
      if (['HSET', 'PEXPIRE', 'UNLINK', 'DEL'].includes(cmd)) return 1;
      return undefined;
    }));
    try {
      expect(await pushFilter(c, 'k', f)).toBe(bytes);
      expect(fake.commands.some((a) => a[0].toUpperCase() === 'SET')).toBe(true);
    } finally {
      f.free();
    }
  });

  test('pushFilter: a load script reply that is neither an epoch, \'\' nor 0 (an integer 7, a nested array): CORRUPT_DATA, not \'created while loading\'', async () => {
    const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
    f.addAll(['a']);
    try {
      for (const reply of [7, [['x']]]) {
        const c = await connect(startBare((args) => {
          const cmd = args[0].toUpperCase();
          if (cmd === 'EXISTS') return 0;
          if ((cmd === 'EVALSHA' || cmd === 'EVAL') && args[2] === '6') return reply;
          if (cmd === 'DEL') return 1;
          return undefined;
        }));
        const err = await errorOf(pushFilter(c, 'k', f));
        expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'CORRUPT_DATA']);
        await conn.close();
        await fake.stop();
      }
    } finally {
      f.free();
      conn = null;
      fake = null;
    }
  });

  test('a CF.INFO of 100 bytes claiming 2^22 buckets × 255 or 2^36 buckets: refused before anything is allocated', async () => {
    for (const [claim, code] of [
      [{ size: 1080, buckets: 2 ** 22, bucketSize: 255 }, 'CORRUPT_DATA'],   // Size does not add up
      [{ size: 40 + 16 + 2 ** 36 * 2, buckets: 2 ** 36, bucketSize: 2 }, 'OUT_OF_MEMORY'],
      [{ size: 1080, buckets: 512, bucketSize: 0 }, 'CORRUPT_DATA'],
      [{ size: 1080, buckets: 500, bucketSize: 2 }, 'CORRUPT_DATA'],
      [{ size: -5, buckets: 512, bucketSize: 2 }, 'CORRUPT_DATA'],
    ]) {
      const before = process.memoryUsage().arrayBuffers;
      const c = await connect(replicaServer({ snapshot: () => ['MBbloomCF', '0-0'], info: () => cfInfo(claim) }));
      const err = await errorOf(openReplica(c, 'k', { server: '2.6' }));
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', code]);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 2 ** 20);
      await conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
  });

  test('a reply to the checkpoint lock\'s SET NX that is neither OK nor nil (an integer, another string): CORRUPT_DATA, not taken as the lock', async () => {
    for (const reply of [1, 'maybe']) {
      const c = await connect(startBare((args) => {
        const cmd = args[0].toUpperCase();
        if (cmd === 'SET') return reply;
        const r = noCheckpoint(args);
        if (r !== undefined) return r;
        if ((cmd === 'EVALSHA' || cmd === 'EVAL') && args[2] === '3') return ['MBbloom--', '0-0'];
        if (cmd === 'BF.SCANDUMP') return stepOf(bfDump(), Number(args[2]));
        if (cmd === 'XREAD') return new Promise((res) => { setTimeout(() => res(null), 50); });
        if (cmd === 'DEL') return 1;
        return undefined;
      }));
      const err = await errorOf(openReplica(c, 'k', { server: '2.6' }).then((r) => r.close()));
      expect([err?.constructor.name, err?.code, err?.message]).toEqual(['FilterError', 'CORRUPT_DATA', expect.stringMatching(/SET .*lock/)]);
      await conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
  });

  test('openReplica given options null opens as given none (as pullFilter and pushFilter take null), never a TypeError', async () => {
    const c = await connect(startFakeRedis((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'MODULE') return [['name', 'bf', 'ver', 20612]];
      if ((cmd === 'EVALSHA' || cmd === 'EVAL') && args[2] === '3') return ['MBbloomCF', '0-0'];
      if (cmd === 'CF.INFO') return cfInfo({ size: 1080, buckets: 512, bucketSize: 2 });
      if (cmd === 'CF.SCANDUMP') return [0, ''];   // a CF with no items
      if (cmd === 'XREAD') return new Promise((r) => { setTimeout(() => r(null), 50); });
      if (cmd === 'DEL') return 1;
      return undefined;
    }));
    const r = await openReplica(c, 'k', null);
    expect(r.filter.info()).toMatchObject({ buckets: 512, size: 1080 });
    await r.close();
  });

  test('a consistent empty CF from CF.INFO opens (the path the refusals guard)', async () => {
    const c = await connect(replicaServer({ snapshot: () => ['MBbloomCF', '0-0'], info: () => cfInfo({ size: 1080, buckets: 512, bucketSize: 2 }) }));
    const r = await openReplica(c, 'k', { server: '2.6' });
    expect(r.filter.info()).toMatchObject({ buckets: 512, size: 1080 });
    await r[Symbol.asyncDispose]();   // as close(): for await using
    expect(() => r.has('x')).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  });

  test('snapshot and write script replies of the wrong shape, bad stream IDs, error replies: FilterError, no NaN position', async () => {
    const dump = bfDump();
    const scandump = (it) => stepOf(dump, it);
    for (const snapshot of [() => null, () => 5, () => [['x']], () => ['MBbloom--', 'not-an-id'], () => ['MBbloom--', '0-x'],
      () => ['MBbloom--', -3], () => ['MBbloom--'], () => ({ error: 'ERR script failed' })]) {
      const c = await connect(replicaServer({ snapshot, scandump }));
      const err = await errorOf(openReplica(c, 'k', { server: '2.6' }));
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', expect.stringMatching(/^(CORRUPT_DATA|REDIS|INVALID_ARGUMENT)$/)]);
      if (err.code === 'INVALID_ARGUMENT') expect(err.message).toMatch(/holds a|no key/);
      await conn.close();
      await fake.stop();
    }
    for (const write of [() => null, () => 5, () => ['0-1'], () => ['0-x', [1], null], () => [null, 'nope', null], () => [null, [1, 2, 3], null],
      () => [null, [[1]], null], () => ['nan', [1], null]]) {
      const c = await connect(replicaServer({ snapshot: () => ['MBbloom--', '0-0'], scandump, write }));
      const r = await openReplica(c, 'k', { server: '2.6' });
      r.on('error', () => {});
      const err = await errorOf(r.add('x'));
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', expect.stringMatching(/^(CORRUPT_DATA|REDIS)$/)]);
      expect(Number.isInteger(r.stats.seq)).toBe(true);
      await r.close();
      await conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
  });
});

// ---- every wait bounded: a server that stalls --------------------------------------------------

const STALLING = CLIENTS.filter((c) => ['redis4', 'redis', 'ioredis'].includes(c.alias));
/** Generous ceilings for "within the timeout" (the timeouts below are 300-500 ms). */
const CEILING = 5000;

describe.each(STALLING.map((c) => [c.name, c]))('%s against a server that stalls', (_, client) => {
  let fake = null;
  let conn = null;
  afterEach(async () => {
    conn?.close();
    await fake?.stop();
    conn = null;
    fake = null;
  });
  // the client dropped at once (a QUIT to a stalled server would wait for good)
  const connect = async (server) => {
    fake = await server;
    const { c } = await client.connect(fake.port);
    conn = {
      c,
      close: () => {
        try {
          if (typeof c.destroy === 'function') c.destroy();
          else Promise.resolve(c.disconnect()).catch(() => {});
          c.connector?.stream?.destroy?.();   // ioredis: else a 2 s timer waits for the peer to close
        } catch { /* closed */ }
      },
    };
    return c;
  };
  /** ms that `p` took to settle, and its error (null when it resolved). */
  const settle = async (p) => {
    const t0 = Date.now();
    let err = null;
    try { await p; } catch (e) { err = e; }
    return { ms: Date.now() - t0, err };
  };
  const dump = bfDump();
  const scandump = (it) => stepOf(dump, it);

  test('pullFilter: no answer at TYPE, or mid-SCANDUMP: REDIS within the timeout; unknown options refused', async () => {
    for (const stallAt of ['TYPE', 'BF.SCANDUMP']) {
      const c = await connect(startFakeRedis((args) => {
        if (args[0] === 'TYPE') return stallAt === 'TYPE' ? NO_REPLY : { simple: 'MBbloom--' };
        if (args[0] === 'BF.SCANDUMP') return args[2] === '0' ? dump[0] : NO_REPLY;
        return undefined;
      }));
      const { ms, err } = await settle(pullFilter(c, 'k', { server: '2.6', timeout: 300 }));
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
      expect(err.message).toMatch(new RegExp(`no reply to ${stallAt.replace('.', '\\.')} within 300 ms`));
      expect(ms).toBeLessThan(CEILING);
      conn.close();
      await fake.stop();
    }
    conn = null;
    fake = null;
    expect(await settle(pullFilter({ sendCommand() {}, duplicate() {} }, 'k', { sever: '8' })))
      .toMatchObject({ err: expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/unknown option 'sever'/) }) });
  });

  test('openReplica: the replica\'s own connection refused or never connecting: FilterError REDIS, not the client\'s error', async () => {
    // a client whose duplicate() cannot connect (the server went away between the two connections)
    const stub = (connect) => ({
      sendCommand: async () => null, withTypeMapping() { return this; }, on() {},
      duplicate() { return { on() {}, connect, sendCommand: async () => null, withTypeMapping() { return this; }, destroy() {} }; },
    });
    const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
    for (const connectWith of [refused, () => new Promise(() => {})]) {
      const { ms, err } = await settle(openReplica(stub(connectWith), 'k', { server: '8', timeout: 300 }));
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
      expect(err.message).toMatch(/replica/);
      expect(ms).toBeLessThan(CEILING);
    }
  });

  test('openReplica: no answer to the snapshot script: REDIS within the timeout', async () => {
    const c = await connect(startFakeRedis((args) => (args[0] === 'EVALSHA' ? NO_REPLY : undefined)));
    const { ms, err } = await settle(openReplica(c, 'k', { server: '2.6', timeout: 300 }));
    expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
    expect(ms).toBeLessThan(CEILING);
  });

  test('a replica whose server stops answering: sync() rejects within syncTimeout, a write settles saying what the server did, close() returns at once', async () => {
    let stalled = false;
    let written = 0;
    const c = await connect(startFakeRedis((args) => {
      if (stalled) return NO_REPLY;
      if (args[0] === 'EVALSHA') {
        if (args[2] === '3') return ['MBbloom--', '0-0'];
        // a write, applied as write n after 4 by other processes (which the tail never brings)
        if (args.length > 5) { written += 5; return [`0-${written}`, [1], null]; }
        return ['MBbloom--', `0-${written}`, 'x'];                                  // the check
      }
      if (args[0] === 'BF.SCANDUMP') return scandump(Number(args[2]));
      if (args[0] === 'XREAD') return NO_REPLY;   // the tail never delivers
      if (args[0] === 'DEL') return 1;
      return undefined;
    }));
    const r = await openReplica(c, 'k', { server: '2.6', timeout: 300, syncTimeout: 500, block: 100, checkInterval: 100000 });
    r.on('error', () => {});
    // the server applied the write (write 1) but the tail never brings it: REDIS saying so
    let { ms, err } = await settle(r.add('x'));
    expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
    expect(err.message).toMatch(/was applied by the server \(write 5\), but this copy did not reach it within 300 ms/);
    expect(ms).toBeLessThan(CEILING);
    stalled = true;
    ({ ms, err } = await settle(r.sync()));
    expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
    expect(ms).toBeLessThan(CEILING);
    ({ ms, err } = await settle(r.add('y')));
    expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
    expect(err.message).toMatch(/got no answer: .*the server may or may not have applied it/);
    expect(ms).toBeLessThan(CEILING);
    ({ ms } = await settle(r.close()));
    expect(ms).toBeLessThan(1000);
  });

  test('the tail\'s new connection does not connect in time (after its XREAD got no answer): it is tried again, and the replica follows the log once the server answers', async () => {
    const counts = bfState(['a', 'b', 'c', 'theirs']).counts;
    let stalledTail = null;   // the connection whose XREAD got no answer
    let refused = null;       // the first connection made after that: it never answers (the new tail's connect)
    let delivered = false;
    const c = await connect(startFakeRedis((args, conn) => {
      if (stalledTail !== null && refused === null && conn.id > stalledTail) refused = conn.id;
      if (conn.id === refused || conn.id === stalledTail) return NO_REPLY;
      const cmd = args[0].toUpperCase();
      if (cmd === 'EVALSHA' || cmd === 'EVAL') {
        if (args[2] === '3') return ['MBbloom--', '0-0'];
        if (args[2] === '2') return ['MBbloom--', '0-1', counts];   // the check: write 1, by another process
      }
      if (cmd === 'BF.SCANDUMP') return scandump(Number(args[2]));
      if (cmd === 'XREAD') {
        if (stalledTail === null) {
          stalledTail = conn.id;
          return NO_REPLY;
        }
        const first = !delivered;
        delivered = true;
        return new Promise((res) => { setTimeout(() => res(first ? [['{k}:bloomcuckoo-log', [['0-1', ['o', 'bi', 't', '1', 'k', 'theirs']]]]] : null), 50); });
      }
      if (cmd === 'DEL') return 1;
      return undefined;
    }));
    const r = await openReplica(c, 'k', { server: '2.6', timeout: 300, syncTimeout: 4000, block: 100, checkInterval: 100000 });
    r.on('error', () => {});
    while (refused === null) await new Promise((res) => { setTimeout(res, 20); });
    await r.sync();
    expect([r.has('theirs'), r.stats.seq, delivered]).toEqual([true, 1, true]);
    await r.close();
  });

  test('a write and a sync() in flight when close() is called settle at once (DISPOSED, saying the server applied the write; or the write connection\'s loss), not after their timeouts', async () => {
    let written = 0;
    let checks = 0;
    const c = await connect(startFakeRedis((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'EVALSHA' || cmd === 'EVAL') {
        if (args[2] === '3') return ['MBbloom--', '0-0'];
        // the write, applied as write 1, and the check, at write 5: both answered late
        if (args.length > 6) { written++; return new Promise((res) => { setTimeout(() => res(['0-1', [1], null]), 200); }); }
        // the checks: the first at the copy's own position (its counts compared), the next at write 5
        if (args[2] === '2') { const at = checks++ === 0 ? '0-0' : '0-5'; return new Promise((res) => { setTimeout(() => res(['MBbloom--', at, 'x']), 200); }); }
      }
      if (cmd === 'BF.SCANDUMP') return scandump(Number(args[2]));
      if (cmd === 'XREAD') return new Promise((res) => { setTimeout(() => res(null), 50); });
      if (cmd === 'DEL') return 1;
      return undefined;
    }));
    const r = await openReplica(c, 'k', { server: '2.6', timeout: 8000, syncTimeout: 8000, block: 100, checkInterval: 100000 });
    r.on('error', () => {});
    const write = settle(r.add('x'));
    const syncs = [settle(r.sync()), settle(r.sync())];
    // closed once the server has the write: every reply (the fake answers a connection's commands
    // one after the other, 200 ms each) comes after close()
    while (written === 0) await new Promise((res) => { setTimeout(res, 5); });
    await r.close();
    const [w, ...s] = await Promise.all([write, ...syncs]);
    expect(s.map(({ err }) => [err?.constructor.name, err?.code])).toEqual([['FilterError', 'DISPOSED'], ['FilterError', 'DISPOSED']]);
    expect(w.err?.constructor.name).toBe('FilterError');
    // node-redis: the reply came (applied); ioredis: the write connection closed with it pending
    if (w.err.code === 'DISPOSED') expect(w.err.message).toMatch(/closed before its copy had a write to 'k' the server applied \(write 1\)/);
    else expect([w.err.code, w.err.message]).toEqual(['REDIS', expect.stringMatching(/may or may not have applied it/)]);
    expect([w.ms, ...s.map(({ ms }) => ms)].every((ms) => ms < CEILING)).toBe(true);
  });

  test('close() while the tail is re-made and the client cannot reach the server: returns at once', async () => {
    const c = await connect(startFakeRedis((args) => {
      if (args[0] === 'EVALSHA') return args[2] === '3' ? ['MBbloom--', '0-0'] : ['MBbloom--', '0-0', 'x'];
      if (args[0] === 'BF.SCANDUMP') return scandump(Number(args[2]));
      if (args[0] === 'XREAD') return new Promise((res) => { setTimeout(() => res(null), 100); });
      if (args[0] === 'DEL') return 1;
      return undefined;
    }));
    const r = await openReplica(c, 'k', { server: '2.6', timeout: 300, block: 100 });
    r.on('error', () => {});
    await fake.stop();   // every connection gone, and no server to reconnect to
    fake = null;
    await new Promise((res) => { setTimeout(res, 200); });
    const { ms } = await settle(r.close());
    expect(ms).toBeLessThan(1000);
  });
});

// ---- read-your-writes when the write changed nothing ----------------------------------------

describe.each(USED.map((c) => [c.name, c]))('%s: read-your-writes', (_, client) => {
  test('an add that resolves false (another process had added the key) resolves once the copy has the key', async () => {
    const dump = bfDump();
    let delivered = false;
    await withFakeReplica(client, (args) => {
      if (args[0] === 'EVALSHA' || args[0] === 'EVAL') {
        if (args[2] === '3') return ['MBbloom--', '0-0'];
        if (args.length > 5) return [null, [0], null, '0-1'];   // the server had it: write 1, by someone else
        return ['MBbloom--', '0-1', 'x'];
      }
      if (args[0] === 'BF.SCANDUMP') return stepOf(dump, Number(args[2]));
      if (args[0] === 'XREAD') {
        // the tail brings write 1 late, once
        return new Promise((res) => {
          setTimeout(() => {
            const first = !delivered;
            delivered = true;
            res(first ? [['{k}:bloomcuckoo-log', [['0-1', ['o', 'bi', 't', '1', 'k', 'theirs']]]]] : null);
          }, 300);
        });
      }
      if (args[0] === 'DEL') return 1;
      return undefined;
    }, async (r) => {
      await readsItsWrite(r, 'theirs', false);
    });
  });
});

// ---- a write the server logs at or before this copy's position --------------------------------

describe.each(USED.map((c) => [c.name, c]))('%s: the server\'s log went back', (_, client) => {
  test('a write logged at or before the copy\'s position (same epoch) resolves only after a fresh snapshot has it', async () => {
    // the copy's snapshot is at write 5; then the server lost writes 3-5 (a failover to a replica
    // behind it, an AOF that kept less) and logs 'mine' as a new write 3 of the same epoch
    const snapshots = [['7-5', bfDump(['a', 'b', 'c', 'lost'])], ['7-3', bfDump(['a', 'b', 'c', 'mine'])]];
    let taken = 0;
    let dump = null;
    await withFakeReplica(client, (args) => {
      if (args[0] === 'EVALSHA' || args[0] === 'EVAL') {
        if (args[2] === '3') {
          const [position, chunks] = snapshots[Math.min(taken++, 1)];
          dump = chunks;
          return ['MBbloom--', position];
        }
        if (args.length > 5) return ['7-3', [1], null];
        return ['MBbloom--', '7-5', 'x'];
      }
      if (args[0] === 'BF.SCANDUMP') return stepOf(dump, Number(args[2]));
      if (args[0] === 'XREAD') return new Promise((res) => setTimeout(() => res(null), 100));
      if (args[0] === 'DEL') return 1;
      return undefined;
    }, async (r) => {
      await readsItsWrite(r, 'mine', true);
      expect(taken).toBe(2);
    });
  });
});

// ---- another history seen while a snapshot is read ---------------------------------------------

describe.each(USED.map((c) => [c.name, c]))('%s: a snapshot under way when the history changes', (_, client) => {
  test('a write that sees another history during a snapshot of the old one resolves only after a snapshot of the new', async () => {
    // 1: the open (7-5); 2: after a gap in the log, still the old history (7-7), read slowly; while
    // it is read the key and its log are lost and re-created and 'mine' is written as 9-1; 3: 9-1
    const snapshots = [['7-5', bfDump(['a'])], ['7-7', bfDump(['a', 'b'])], ['9-1', bfDump(['mine'])]];
    let taken = 0;
    let dump = null;
    let gapSent = false;
    let startedSecond = null;
    const second = new Promise((res) => { startedSecond = res; });
    await withFakeReplica(client, (args) => {
      if (args[0] === 'EVALSHA' || args[0] === 'EVAL') {
        if (args[2] === '3') {
          const [position, chunks] = snapshots[Math.min(taken++, 2)];
          dump = chunks;
          if (taken === 2) startedSecond();
          return ['MBbloom--', position];
        }
        if (args.length > 5) return ['9-1', [1], null];
        return ['MBbloom--', '7-5', 'x'];
      }
      if (args[0] === 'BF.SCANDUMP') {
        const it = Number(args[2]);
        const reply = stepOf(dump, it);
        // the second snapshot's header comes late, so the write is answered while it is read
        return taken === 2 && it === 0 ? new Promise((res) => setTimeout(() => res(reply), 300)) : reply;
      }
      if (args[0] === 'XREAD') {
        if (!gapSent) {   // write 7 with write 6 gone: a snapshot is due
          gapSent = true;
          return [['{k}:bloomcuckoo-log', [['7-7', ['o', 'bi', 't', '1', 'k', 'b']]]]];
        }
        return new Promise((res) => setTimeout(() => res(null), 100));
      }
      if (args[0] === 'DEL') return 1;
      return undefined;
    }, async (r) => {
      await second;
      expect(await r.add('mine')).toBe(true);
      expect(r.has('mine')).toBe(true);
      expect(taken).toBe(3);
    });
  });
});

// ---- checkpoints a server plays ------------------------------------------------------------------

describe.each(USED.map((c) => [c.name, c]))('%s: checkpoints from a fake server', (_, client) => {
  // the key holds a, b, c; its log is at 5-3 (5-1 the first entry kept); write 5-3 added 'c'
  const { chunks: whole, counts } = bfState(['a', 'b', 'c']);
  /** A checkpoint's hash fields holding `chunks` (its SCANDUMP steps), of type t and id. */
  const fieldsFor = (chunks, { t = 'BF', id = '0123456789abcdef' } = {}) => {
    const fields = { t, id, at: '5-2' };
    let it = 0;
    for (const [next, d] of [...chunks, [0, '']]) {
      fields[`n${it}`] = String(next);
      fields[`d${it}`] = d;
      it = next;
    }
    return fields;
  };
  const good = fieldsFor(bfDump(['a', 'b']));

  /**
   * Opens a replica of 'k' on a fake whose pointer is { cur, at, id } and whose checkpoint 'a' is
   * `fields` (read with HMGET, `replace(fields)` giving its fields from the second read on);
   * resolves what the fake saw and the replica (closed) or the error.
   */
  async function open({ cur = 'a', at = '5-2', id = '0123456789abcdef', first = '5-1', fields = good, replace = null, idents = [] }) {
    const seen = { snapshots: 0, hmget: 0, want: 0 };
    let delivered = false;
    const fake = await startBare((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'EVALSHA' || cmd === 'EVAL') {
        const keys = Number(args[2]);
        if (keys === 4) return ['MBbloom--', '5-3', first, cur, at, id, -2, counts, ...idents];
        if (keys === 3) { seen.snapshots++; return ['MBbloom--', '5-3']; }
        if (keys === 7) return 'ok';
        if (keys === 1) return 1;
        return ['MBbloom--', '5-3', counts];   // the check
      }
      if (cmd === 'HMGET') {
        if (args[1] !== '{k}:bloomcuckoo-ckpt-a') return args.slice(2).map(() => null);
        const f = seen.hmget++ > 0 && replace ? replace(fields) : fields;
        return args.slice(2).map((name) => f[name] ?? null);
      }
      if (cmd === 'BF.SCANDUMP') {
        const it = Number(args[2]);
        if (args[1] === 'k' && it === 0) seen.snapshots++;   // a snapshot read from the key itself, as the snapshot script's
        return stepOf(whole, it);
      }
      if (cmd === 'XREAD') {
        if (args.at(-1) === '5-2' && !delivered) {
          delivered = true;
          return [['{k}:bloomcuckoo-log', [['5-3', ['o', 'bi', 't', '1', 'k', 'c']]]]];
        }
        return new Promise((res) => { setTimeout(() => res(null), 50); });
      }
      if (cmd === 'SET') {
        if (args[1] === '{k}:bloomcuckoo-ckpt-want') seen.want++;
        return { simple: 'OK' };
      }
      if (['HSET', 'PEXPIRE', 'UNLINK', 'DEL'].includes(cmd)) return 1;
      if (cmd === 'GET') return null;
      return undefined;
    });
    const { c, close } = await client.connect(fake.port);
    try {
      const r = await openReplica(c, 'k', { server: '2.6', block: 100, checkInterval: 100, syncTimeout: 5000 });
      r.on('error', () => {});
      const out = { ...seen, r: { seq: r.stats.seq, fromCheckpoint: r.stats.fromCheckpoint, has: ['a', 'b', 'c'].map((k) => r.has(k)), bytes: r.filter.toRedisDump() } };
      await r.close();
      return out;
    } catch (err) {
      return { ...seen, err };
    } finally {
      await close();
      await fake.stop();
    }
  }
  const sameAsKey = (bytes) => expect(bytes.map(([it, d]) => [it, Buffer.from(d).toString('hex')]))
    .toEqual(whole.map(([it, d]) => [it, d.toString('hex')]));

  test('a usable checkpoint: read with HMGET, the log replayed from its position to the server\'s, no snapshot script', async () => {
    const o = await open({});
    expect([o.snapshots, o.r.fromCheckpoint, o.r.seq, o.r.has]).toEqual([0, 1, 3, [true, true, true]]);
    sameAsKey(o.r.bytes);
  });

  test('a pointer to a missing checkpoint, one replaced while read, one of the wrong type: not used, one snapshot instead', async () => {
    for (const variant of [{ fields: {} }, { replace: (f) => ({ ...f, id: 'fedcba9876543210' }) }, { fields: { ...good, t: 'CF' } }]) {
      const o = await open(variant);
      expect([o.err, o.snapshots, o.r.fromCheckpoint, o.r.has]).toEqual([undefined, 1, 0, [true, true, true]]);
      sameAsKey(o.r.bytes);
    }
  });

  test('a checkpoint of another epoch, or trimmed out of the log: never read; a stale one asks the live replicas first', async () => {
    let o = await open({ at: '4-2' });
    expect([o.hmget, o.want, o.snapshots, o.r.fromCheckpoint]).toEqual([0, 0, 1, 0]);
    sameAsKey(o.r.bytes);
    o = await open({ at: '5-1', first: '5-3' });
    expect([o.hmget, o.want, o.snapshots, o.r.fromCheckpoint]).toEqual([0, 1, 1, 0]);
    sameAsKey(o.r.bytes);
  });

  test('a checkpoint whose position\'s entry is no longer the one it was written at (\'gone\': a failover reused the ID): never read', async () => {
    let o = await open({ idents: ['gone', ''] });
    expect([o.err, o.hmget, o.snapshots, o.r.fromCheckpoint]).toEqual([undefined, 0, 1, 0]);
    sameAsKey(o.r.bytes);
    o = await open({ idents: [`${'ab'.repeat(20)}:1`, ''] });   // the same entry: read
    expect([o.err, o.snapshots, o.r.fromCheckpoint]).toEqual([undefined, 0, 1]);
    o = await open({ idents: ['not an identity', ''] });
    expect([o.err?.constructor.name, o.err?.code]).toEqual(['FilterError', 'CORRUPT_DATA']);
  });

  test('a bogus pointer (position, name, id) or a checkpoint step of the wrong shape: FilterError, never a TypeError', async () => {
    for (const bad of [{ at: 'zz' }, { at: '5-x' }, { cur: 'q' }, { id: 'short' }]) {
      const o = await open(bad);
      expect([o.err?.constructor.name, o.err?.code]).toEqual(['FilterError', 'CORRUPT_DATA']);
    }
    // a step whose iterator is not a count, or a header declaring more than 4 GiB
    for (const [fields, code] of [[{ ...good, n1: 'x' }, null], [{ ...good, d0: bfHeader(2 ** 33) }, 'OUT_OF_MEMORY']]) {
      const o = await open({ fields });
      if (code) expect([o.err?.constructor.name, o.err?.code]).toEqual(['FilterError', code]);
      else expect([o.err, o.snapshots, o.r.fromCheckpoint]).toEqual([undefined, 1, 0]);   // reported, not trusted
    }
  });
});

// ---- an entry at the copy's position that is not the one it applied ---------------------------------

describe.each(USED.map((c) => [c.name, c]))('%s: the log at the copy\'s position replaced under the same ID', (_, client) => {
  // the identity of an entry (the SHA-1 of its fields and values, each as <byte length>:<bytes>,
  // then ':' and its t), computed here as the server's script does
  const identity = (fields) => `${createHash('sha1').update(fields.map((v) => `${Buffer.byteLength(v)}:${v}`).join('')).digest('hex')}:${fields[3]}`;
  const applied = ['o', 'bi', 't', '1', 'k', 'c'];   // write 5-3 as this copy got it
  const other = ['o', 'bi', 't', '2', 'k', 'd'];     // another write logged as 5-3 after a failover

  test('the check says so, counts and position alike: a new snapshot before sync() resolves', async () => {
    const { chunks: whole, counts } = bfState(['a', 'b', 'c']);
    let snapshots = 0;
    let there = applied;   // the entry the server has at 5-3
    const fake = await startFakeRedis((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'EVALSHA' || cmd === 'EVAL') {
        if (args[2] === '3') { snapshots++; return ['MBbloom--', '5-3', identity(there)]; }
        if (args[2] === '2') return ['MBbloom--', '5-3', counts, args.at(-1) === '5-3' ? identity(there) : ''];   // the check
      }
      if (cmd === 'BF.SCANDUMP') return stepOf(whole, Number(args[2]));
      if (cmd === 'XREAD') return new Promise((res) => { setTimeout(() => res(null), 50); });
      if (cmd === 'DEL') return 1;
      return undefined;
    });
    const { c, close } = await client.connect(fake.port);
    try {
      const r = await openReplica(c, 'k', { server: '2.6', block: 100, checkInterval: 100000, syncTimeout: 3000 });
      const reasons = [];
      r.on('resync', (why) => reasons.push(why));
      await r.sync();
      expect([snapshots, reasons]).toEqual([1, []]);   // the same entry: nothing to do
      there = other;
      await r.sync();
      expect(snapshots).toBe(2);
      expect(reasons).toEqual([expect.stringMatching(/the log at this copy's position 5-3 is another history \(writes lost in a failover/)]);
      await r.sync();   // the new snapshot knows the entry now there
      expect(snapshots).toBe(2);
      await r.close();
    } finally {
      await close();
      await fake.stop();
    }
  });
});
