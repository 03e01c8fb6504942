// Snapshots that never stall Redis (issue 33 item 9): a replica opens from a checkpoint (written
// chunk by chunk from a copy exact at a log position) and replays the log from there, so no command
// of the library holds the server much longer than one SCANDUMP chunk of the same filter, and no
// DUMP / RESTORE runs once a checkpoint exists. Read from the server itself: SLOWLOG (every command
// with its duration) and INFO commandstats (commands run inside scripts included). Both oracles,
// BF and CF, writes going on while replicas open; 16 replicas opening at once.
import { fork } from 'node:child_process';
import { RedisBloomFilter, RedisCuckooFilter, init } from '../../js/main/index.js';
import { RELEASE, RENEW, holdLock, leaseOf } from '../../js/redis/checkpoint.js';
import { commandsOf, fieldsOf } from '../../js/redis/client.js';
import { pushFilter } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { hex, keys, replicaOpener, scanDump } from '../redis/helpers.mjs';
import { oracleSkips, startRedisBloom } from '../redis/server.mjs';
import { startProxy } from '../fleet/proxy.mjs';

const WORKER = new URL('../fleet/worker.mjs', import.meta.url).pathname;

beforeAll(() => init());

const SKIPS = await oracleSkips('tests/js/redis-snapshot.test.js');
const NODE_REDIS = CLIENTS.find((c) => c.alias === 'redis');
const IOREDIS = CLIENTS.find((c) => c.alias === 'ioredis');


/**
 * Starts `replica` adding batches of `size` keys (`prefix` + the batch's number) one after the
 * other, and resolves once three are written (rejects if a write fails); stop() ends the loop and
 * resolves with how many batches were written.
 */
async function keepWriting(replica, prefix, size) {
  let writing = true;
  let written = 0;
  const busy = (async () => { for (let i = 0; writing; i++) { await replica.addAll(keys(`${prefix}${i}`, size)); written++; } })();
  while (written < 3) await Promise.race([busy, new Promise((r) => { setTimeout(r, 5); })]);
  return { stop: async () => { writing = false; await busy; return written; } };
}

/**
 * A BF or a CF built here with `n` keys: big (a BF of 2.5·10^7 capacity, ~30 MB; a CF of 2^23
 * buckets × 4, 32 MiB; two SCANDUMP chunks each), or small (~1.2 MB, ~1 MiB).
 */
function bigFilter(type, n, capacity = 25_000_000) {
  const f = type === 'BF' ? new RedisBloomFilter({ errorRate: 0.01, capacity })
    : new RedisCuckooFilter({ capacity, bucketSize: 4 });
  for (let i = 0; i < n; i += 100_000) f.addAll(keys(`pre${i}`, 100_000));
  return f;
}

/** Calls of `cmd` (lower case) in INFO commandstats (commands run from scripts included). */
async function callsOf(admin, cmd) {
  const m = new RegExp(`cmdstat_${cmd.replace('.', '\\.')}:calls=(\\d+)`).exec(String(await admin.sendCommand(['INFO', 'commandstats'])));
  return m ? Number(m[1]) : 0;
}

/** SLOWLOG's entries since the last reset as { ms, cmd }, the SLOWLOG / CONFIG / INFO of the test left out. */
async function slowlog(admin) {
  const entries = await admin.sendCommand(['SLOWLOG', 'GET', '100000']);
  // an entry may name no arguments (seen once under load, on 2.6.12's Redis 7.0): kept, shown as such
  return entries.map((e) => ({ ms: Number(e[2]) / 1000, cmd: Array.isArray(e[3]) && e[3].length ? e[3].map(String) : ['(no arguments)'] }))
    .filter((e) => !['SLOWLOG', 'CONFIG', 'INFO'].includes(e.cmd[0].toUpperCase()));
}

async function resetStats(admin) {
  await admin.sendCommand(['CONFIG', 'SET', 'slowlog-log-slower-than', '0']);
  await admin.sendCommand(['CONFIG', 'SET', 'slowlog-max-len', '100000']);
  await admin.sendCommand(['SLOWLOG', 'RESET']);
  await admin.sendCommand(['CONFIG', 'RESETSTAT']);
}

/** `promise`, or a rejection saying `what` did not happen within `ms`. */
const within = (promise, ms, what) => Promise.race([promise,
  new Promise((_, reject) => { setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref(); })]);

for (const oracle of ['2.6', 'v8']) {
  const live = SKIPS[oracle] ? test.skip : test;
  describe(`replica snapshots on RedisBloom ${oracle}`, () => {
    let rb;
    let admin;   // the server's own client (rb.client): SLOWLOG, INFO, the reference SCANDUMPs
    const { connect, replicaOf } = replicaOpener(() => rb.port, NODE_REDIS);
    /** `key` loaded (pushFilter) with a bigFilter(type, n, capacity) built here. */
    const load = async (key, type, n, capacity) => {
      const f = bigFilter(type, n, capacity);
      try {
        await pushFilter(await connect(), key, f, { replace: true });
      } finally {
        f.free();
      }
    };
    beforeAll(async () => {
      if (SKIPS[oracle]) return;
      rb = await startRedisBloom({ oracle });
      admin = rb.client;
    }, 30000);
    afterAll(async () => { await rb?.stop(); });

    for (const type of ['BF', 'CF']) {
      live(`${type}: once a checkpoint exists, opening replicas while others write runs no DUMP / RESTORE, no command longer than a few SCANDUMP chunks, and every copy is the server's bytes`, async () => {
        const key = `big${type}`;
        await load(key, type, 500_000);
        const first = await replicaOf(await connect(), key);   // the first open may snapshot (no checkpoint yet)
        // the reference: SCANDUMPs of the same filter, chunk by chunk (the longest of three)
        await resetStats(admin);
        for (let i = 0; i < 3; i++) await scanDump(admin, type, key);
        const chunk = Math.max(...(await slowlog(admin)).filter((e) => e.cmd[0].endsWith('.SCANDUMP')).map((e) => e.ms));
        await resetStats(admin);
        // writes through the first replica all along, while two more open (another client too)
        const writes = await keepWriting(first, 'w', 50);
        const others = [await replicaOf(await connect(), key), await replicaOf(await connect(IOREDIS), key)];
        const written = await writes.stop();
        expect(others.map((r) => r.stats.fromCheckpoint)).toEqual([1, 1]);
        const log = await slowlog(admin);
        const longest = log.reduce((a, e) => (e.ms > a.ms ? e : a), { ms: 0, cmd: [] });
        // generous: 5 chunks of the same filter, at least 100 ms: on a shared 2-core machine one
        // command of ~1 ms was measured to show up to 60 ms (the server descheduled); the DUMP +
        // RESTORE this replaces held it over 200 ms for a filter of this size on a quiet machine
        const bound = Math.max(5 * chunk, 100);
        if (longest.ms > bound) throw new Error(`${longest.cmd.slice(0, 2).join(' ')} held the server ${longest.ms} ms; a SCANDUMP chunk ${chunk} ms`);
        expect(await callsOf(admin, 'dump')).toBe(0);
        expect(await callsOf(admin, 'restore')).toBe(0);
        // exact: every copy is the server's bytes once synced
        const server = hex(await scanDump(admin, type, key));
        for (const r of [first, ...others]) {
          await r.sync();
          expect(hex(r.filter.toRedisDump())).toEqual(server);
        }
        expect(written).toBeGreaterThan(2);
      }, 120000);
    }

    live('a key with no checkpoint: its first replica reads it with SCANDUMP when nothing writes meanwhile, and, when writes go on, opens from the checkpoint it asks the writing replica for; no DUMP / RESTORE either way, for a filter over 1 MiB and one under; exact', async () => {
      for (const [key, writes, capacity] of [['quiet', false, 4_000_000], ['busy', true, 4_000_000], ['small-quiet', false, 100_000], ['small-busy', true, 100_000]]) {
        await load(key, 'CF', Math.min(100_000, capacity / 2), capacity);
        const c = await connect();
        const writer = await replicaOf(c, key);   // the checkpoint it writes is dropped below
        while (writer.stats.checkpoints === 0) await new Promise((r) => { setTimeout(r, 10); });
        await admin.sendCommand(['DEL', `{${key}}:bloomcuckoo-ckpt`]);
        const busy = writes ? await keepWriting(writer, 'b', 20) : null;
        await resetStats(admin);
        const r = await replicaOf(await connect(IOREDIS), key);
        await busy?.stop();
        expect([key, await callsOf(admin, 'dump'), await callsOf(admin, 'restore'), r.stats.fromCheckpoint]).toEqual([key, 0, 0, writes ? 1 : 0]);
        await r.sync();
        expect(hex(r.filter.toRedisDump())).toEqual(hex(await scanDump(admin, 'CF', key)));
      }
    }, 120000);

    live('writes going on and no replica answering the request for a checkpoint (its checkInterval too long): the one-script snapshot after two spoilt reads, exact', async () => {
      const key = 'unanswered';
      await load(key, 'CF', 100_000, 4_000_000);
      const writer = await replicaOf(await connect(), key, { checkInterval: 100000 });
      while (writer.stats.checkpoints === 0) await new Promise((r) => { setTimeout(r, 10); });
      await admin.sendCommand(['DEL', `{${key}}:bloomcuckoo-ckpt`]);   // the checkpoint it wrote on opening
      const busy = await keepWriting(writer, 'u', 20);
      await resetStats(admin);
      const r = await replicaOf(await connect(IOREDIS), key);
      await busy.stop();
      expect([await callsOf(admin, 'dump'), await callsOf(admin, 'restore'), r.stats.fromCheckpoint]).toEqual([1, 1, 0]);
      expect(await callsOf(admin, 'cf.scandump')).toBeGreaterThan(2);   // its two reads of the key, then the snapshot's
      await r.sync();
      expect(hex(r.filter.toRedisDump())).toEqual(hex(await scanDump(admin, 'CF', key)));
    }, 60000);

    live('a checkpoint lock left by a process that died holding it: a replica opens within syncTimeout without DUMP / RESTORE, and exact', async () => {
      const key = 'deadlock';
      await load(key, 'BF', 100_000, 1_000_000);
      await admin.sendCommand(['SET', `{${key}}:bloomcuckoo-ckpt-lock`, 'dead', 'PX', '600000']);
      await resetStats(admin);
      const r = await replicaOf(await connect(IOREDIS), key, { syncTimeout: 3000 });
      expect([await callsOf(admin, 'dump'), await callsOf(admin, 'restore')]).toEqual([0, 0]);
      expect(hex(r.filter.toRedisDump())).toEqual(hex(await scanDump(admin, 'BF', key)));
    }, 60000);

    live('the checkpoint lock: taken for a short lease (a quarter of syncTimeout, 0.2 to 5 s), kept past several leases while its holder lives, dropped by release(), and neither renewed nor dropped once another holds it', async () => {
      expect([leaseOf(30000), leaseOf(8000), leaseOf(100), leaseOf(1e9)]).toEqual([5000, 2000, 200, 5000]);
      const send = commandsOf(await connect());
      const script = (name, keys, args) => send(['EVAL', name === 'RENEW' ? RENEW : RELEASE, String(keys.length), ...keys, ...args]);
      const lock = '{lease}:bloomcuckoo-ckpt-lock';
      const get = async () => String(await admin.sendCommand(['GET', lock]));
      const pttl = async () => Number(await admin.sendCommand(['PTTL', lock]));
      const h = await holdLock(send, script, lock, 600);
      expect(await holdLock(send, script, lock, 600)).toBe(null);
      await new Promise((r) => { setTimeout(r, 2000); });   // over three leases: renewed every 200 ms
      expect([await get(), (await pttl()) > 0 && (await pttl()) <= 600]).toEqual([h.token, true]);
      await h.release();
      expect(Number(await admin.sendCommand(['EXISTS', lock]))).toBe(0);
      // a holder whose lease lapsed (another took the lock) renews and drops nothing of the other's
      const late = await holdLock(send, script, lock, 600);
      await admin.sendCommand(['SET', lock, 'other', 'PX', '600000']);
      await new Promise((r) => { setTimeout(r, 500); });
      expect([await get(), (await pttl()) > 500000]).toEqual(['other', true]);
      await late.release();
      expect(await get()).toBe('other');
    }, 30000);

    live('a replica process SIGKILLed mid-SCANDUMP holding the checkpoint lock, writes going on: the lock outlives it by a short lease only, and the next replica takes it, reads the key with SCANDUMP and opens from the checkpoint it asks for, no DUMP / RESTORE, well within syncTimeout; exact', async () => {
      const key = 'killedholder';
      const lockKey = `{${key}}:bloomcuckoo-ckpt-lock`;
      await load(key, 'BF', 100_000, 1_000_000);
      const writer = await replicaOf(await connect(), key);
      while (writer.stats.checkpoints === 0) await new Promise((r) => { setTimeout(r, 10); });
      await admin.sendCommand(['DEL', `{${key}}:bloomcuckoo-ckpt`]);   // no usable checkpoint: an opener reads the key under the lock
      const busy = await keepWriting(writer, 'k', 20);
      // the holder: a real openReplica in another process (tests/fleet/worker.mjs, node-redis), its
      // connection through a proxy that withholds the server's replies from its first SCANDUMP on
      // (the server stalled, as that process sees it): it holds the lock mid-read, then is SIGKILLed
      const proxy = await startProxy(rb.port);
      const held = proxy.holdRepliesAfter('*3\r\n$11\r\nBF.SCANDUMP');
      // its syncTimeout the default (30 s), as the opener's below
      const child = fork(WORKER, [String(proxy.port), key, oracle === 'v8' ? '8' : '2.6', 'redis', JSON.stringify({})],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const exited = new Promise((resolve) => { child.on('exit', (code, signal) => resolve(signal ?? code)); });
      try {
        await within(held, 20000, 'the other process\'s SCANDUMP');
        const token = String(await admin.sendCommand(['GET', lockKey]));
        expect(token).toMatch(/^[0-9a-f]{16}$/);
        child.kill('SIGKILL');
        expect(await within(exited, 10000, 'the SIGKILLed process\'s exit')).toBe('SIGKILL');
        expect(String(await admin.sendCommand(['GET', lockKey]))).toBe(token);   // it died holding it
        await resetStats(admin);
        const started = Date.now();
        const r = await replicaOf(await connect(IOREDIS), key);   // syncTimeout 30 s (the default)
        const took = Date.now() - started;
        const written = await busy.stop();
        expect([await callsOf(admin, 'dump'), await callsOf(admin, 'restore')]).toEqual([0, 0]);
        expect(await callsOf(admin, 'bf.scandump')).toBeGreaterThan(0);   // its own read of the key, under the lock
        // a generous ceiling: the dead holder's lease, a read and the wait for a checkpoint take a few
        // seconds; waiting out a lock that lives the holder's whole syncTimeout took 15 s and more
        if (took > 10000) throw new Error(`openReplica took ${took} ms after the holder died`);
        await writer.sync();
        await r.sync();
        const server = hex(await scanDump(admin, 'BF', key));
        expect(hex(r.filter.toRedisDump())).toEqual(server);
        expect(hex(writer.filter.toRedisDump())).toEqual(server);
        expect(written).toBeGreaterThan(2);
      } finally {
        child.kill('SIGKILL');
        await busy.stop().catch(() => {});
        await proxy.close();
      }
    }, 90000);

    live('a replica closed while it writes the checkpoint (right after its first open): the write stops there, nothing published, its temporary key dropped', async () => {
      const key = 'closedwriting';
      await load(key, 'BF', 100_000, 10_000_000);   // ~12 MB: 12 steps of 1 MiB
      await resetStats(admin);
      const r = await replicaOf(await connect(), key);
      await r.close();   // its checkpoint write began as openReplica resolved
      await new Promise((res) => { setTimeout(res, 1000); });
      const tmp = await admin.sendCommand(['KEYS', `{${key}}:bloomcuckoo-ckpt-tmp-*`]);
      expect([await callsOf(admin, 'hset') <= 2, Number(await admin.sendCommand(['EXISTS', `{${key}}:bloomcuckoo-ckpt`])), tmp])
        .toEqual([true, 0, []]);
    }, 60000);

    live('16 replicas of a key with no checkpoint opening at once: at most one snapshot on the server, all the server\'s bytes', async () => {
      const key = 'many';
      await load(key, 'BF', 200_000, 1_000_000);
      await resetStats(admin);
      const clients = await Promise.all(Array.from({ length: 16 }, (_, i) => connect(i % 2 ? IOREDIS : NODE_REDIS)));
      const replicas = await Promise.all(clients.map((c) => replicaOf(c, key)));
      expect(await callsOf(admin, 'dump')).toBeLessThanOrEqual(1);
      expect(await callsOf(admin, 'restore')).toBeLessThanOrEqual(1);
      const server = hex(await scanDump(admin, 'BF', key));
      // at most one checkpoint written: one HSET per step (the header, each MiB of data, the end)
      // and the pointer's, once
      const stepsOf = 1 + (await scanDump(admin, 'BF', key)).reduce((n, [, d]) => n + Math.ceil(d.length / 2 ** 20), 0) + 1;
      expect(await callsOf(admin, 'hset')).toBeLessThanOrEqual(stepsOf + 1);
      for (const r of replicas) expect(hex(r.filter.toRedisDump())).toEqual(server);
      // and 16 more with the checkpoint there: no snapshot, no checkpoint written
      await resetStats(admin);
      const more = await Promise.all(clients.map((c) => replicaOf(c, key)));
      expect([await callsOf(admin, 'dump'), await callsOf(admin, 'restore'), await callsOf(admin, 'hset')]).toEqual([0, 0, 0]);
      for (const r of more) expect([r.stats.fromCheckpoint, hex(r.filter.toRedisDump())]).toEqual([1, server]);
    }, 120000);

    live('a CF with no items (the server dumps none of it): its checkpoint is its header, and a replica opened from it has the server\'s counts', async () => {
      const key = 'emptyCF';
      await admin.sendCommand(['CF.RESERVE', key, '100000', 'BUCKETSIZE', '2', 'EXPANSION', '2']);
      const first = await replicaOf(await connect(), key);
      expect(await first.add('x')).toBe(true);
      expect(await first.remove('x')).toBe(true);   // no items, one deleted
      await first.sync();
      await resetStats(admin);
      const next = await replicaOf(await connect(IOREDIS), key);
      expect([await callsOf(admin, 'dump'), next.stats.fromCheckpoint]).toEqual([0, 1]);
      const server = Object.fromEntries(Object.entries(fieldsOf(await admin.sendCommand(['CF.INFO', key]))).map(([k, v]) => [k, Number(v)]));
      const mine = next.filter.info();
      expect([mine.buckets, mine.items, mine.itemsDeleted, mine.filters, mine.size])
        .toEqual([server['Number of buckets'], server['Number of items inserted'], server['Number of items deleted'], server['Number of filters'], server.Size]);
      expect(await next.add('y')).toBe(true);
      await first.sync();
      expect(hex(next.filter.toRedisDump())).toEqual(hex(await scanDump(admin, 'CF', key)));
    }, 60000);

    live('a write around the library after the checkpoint: openReplica resolves only with it (its own read of the key, no DUMP / RESTORE), and the next opens from a checkpoint that has it', async () => {
      const key = 'around';
      await admin.sendCommand(['BF.RESERVE', key, '0.01', '10000']);
      const first = await replicaOf(await connect(), key, { checkInterval: 100000 });
      await first.addAll(keys('a', 100));
      await admin.sendCommand(['BF.ADD', key, 'around']);   // not logged: a checkpoint lacks it
      await resetStats(admin);
      const next = await replicaOf(await connect(IOREDIS), key);
      expect([next.has('around'), next.stats.fromCheckpoint, await callsOf(admin, 'dump')]).toEqual([true, 1, 0]);
      const third = await replicaOf(await connect(), key);
      expect([third.has('around'), third.stats.fromCheckpoint]).toEqual([true, 1]);
      expect(hex(third.filter.toRedisDump())).toEqual(hex(await scanDump(admin, 'BF', key)));
    }, 60000);

    live('a checkpoint trimmed out of the log: a live replica writes a new one for the next open, no DUMP / RESTORE', async () => {
      const key = 'trimmed';
      await admin.sendCommand(['CF.RESERVE', key, '20000', 'BUCKETSIZE', '2']);
      const c = await connect();
      const first = await replicaOf(c, key, { maxLength: 50 });
      for (let i = 0; i < 400; i++) await first.add(`t${i}`);   // 400 log entries: the first ones trimmed
      await first.remove('t3');
      await resetStats(admin);
      const next = await replicaOf(await connect(IOREDIS), key, { maxLength: 50 });
      expect([await callsOf(admin, 'dump'), await callsOf(admin, 'restore')]).toEqual([0, 0]);
      expect(hex(next.filter.toRedisDump())).toEqual(hex(await scanDump(admin, 'CF', key)));
      expect(next.has('t3')).toBe(false);
    }, 60000);
  });
}
