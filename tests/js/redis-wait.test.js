// Durable writes: openReplica's and pushFilter's `wait: { replicas, timeout }` run WAIT after each
// write on the connection that wrote it. Against a real primary + replica pair (a second
// redis-server made a replica with REPLICAOF), on both oracles, with every client of the matrix: a
// write resolves only once the replica has it (read on the replica server right after), and a write
// whose replication is not confirmed (the replica SIGSTOPped, or killed) rejects with FilterError
// REDIS saying the primary applied it and how many replicas confirmed, while the primary and the
// writer's copy have it.
import { FilterError, RedisBloomFilter, init } from '../../js/main/index.js';
import { openReplica, pushFilter } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { rejection, replicaOpener } from '../redis/helpers.mjs';
import { startRelay } from '../redis/relay.mjs';
import { oracleSkips, replicate, startRedisBloom } from '../redis/server.mjs';

beforeAll(() => init());

const keys = (p, n) => Array.from({ length: n }, (_, i) => `${p}:${i}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const skips = await oracleSkips('redis-wait.test.js');

for (const oracle of ['2.6', 'v8']) {
  (skips[oracle] ? describe.skip : describe)(`wait: WAIT after each write, a primary and a replica on RedisBloom ${oracle}`, () => {
    let primary = null;
    let replica = null;
    let n = 0;

    const follow = () => replicate(primary, replica);

    beforeAll(async () => {
      if (skips[oracle]) return;
      primary = await startRedisBloom({ oracle });
      replica = await startRedisBloom({ oracle });
      await follow();
    }, 60_000);
    afterAll(async () => {
      if (replica) { try { process.kill(replica.pid, 'SIGCONT'); } catch { /* gone */ } await replica.stop(); }
      await primary?.stop();
    });

    const { connect, replicaOf } = replicaOpener(() => primary.port, CLIENTS[0], {});
    /** A new BF key (of `capacity`) and a replica of it opened with `kind`'s client and `wait`: { key, r }. */
    const writer = async (kind, wait, capacity = 100) => {
      const key = `w${n++}`;
      return { key, r: await replicaOf(await connect(kind), key, { create: { type: 'BF', errorRate: 0.01, capacity }, wait }) };
    };
    const onReplica = async (key, ks) => (await replica.client.sendCommand(['BF.MEXISTS', key, ...ks])).map(Number);
    const onPrimary = async (key, ks) => (await primary.client.sendCommand(['BF.MEXISTS', key, ...ks])).map(Number);

    for (const kind of CLIENTS) {
      test(`${kind.name}: with wait, an acknowledged add is on the replica server when it resolves; with the replica stopped it rejects saying the primary has it`, async () => {
        const { key, r } = await writer(kind, { replicas: 1, timeout: 1000 }, 5000);
        expect(await r.add('a')).toBe(true);
        expect(await onReplica(key, ['a'])).toEqual([1]);   // read on the replica right after: no waiting
        expect(await r.addAll(keys('k', 2500))).toBe(2500);
        expect((await onReplica(key, keys('k', 2500))).every((x) => x === 1)).toBe(true);
        expect(await r.add('a')).toBe(false);   // nothing changed: still confirmed

        process.kill(replica.pid, 'SIGSTOP');
        try {
          const started = Date.now();
          const err = await rejection(r.add('b'));
          expect(err).toBeInstanceOf(FilterError);
          expect(err.code).toBe('REDIS');
          expect(err.message).toMatch(/applied by the primary/);
          expect(err.message).toMatch(/0 of 1 replicas confirmed/);
          expect(Date.now() - started).toBeLessThan(10_000);   // generous: WAIT's timeout is 1 s
          expect(await onPrimary(key, ['b'])).toEqual([1]);
          expect(r.has('b')).toBe(true);   // the copy has what the server has
        } finally {
          process.kill(replica.pid, 'SIGCONT');
        }
        expect(await r.add('c')).toBe(true);   // confirmed again once the replica is back
        expect(await onReplica(key, ['b', 'c'])).toEqual([1, 1]);
      }, 60_000);
    }

    // Redis's WAIT counts the replicas that have every write *of the connection it runs on*: one
    // on a connection that made no write (the client reconnected between the write's reply and
    // the WAIT) answers at once with every connected replica. The relay replaces the writer's
    // server connection right after the write's reply; the replica is stopped, so nothing was
    // replicated: the write must not be confirmed.
    for (const kind of CLIENTS) {
      for (const how of ['relay', 'client']) {
      test(`${kind.name}: with wait, a write whose WAIT ran on another server connection than the write (${how === 'relay' ? 'the relay reconnected' : 'the client reconnected itself'} in between) rejects REDIS, not confirmed`, async () => {
        const relay = await startRelay(primary.port);
        let c = null;
        let r = null;
        try {
          c = await kind.connect(relay.port);
          const key = `w${n++}`;
          r = await openReplica(c.c, key, { checkInterval: 100, create: { type: 'BF', errorRate: 0.01, capacity: 100 }, wait: { replicas: 1, timeout: 500 } });
          expect(await r.add('a')).toBe(true);   // confirmed through the relay
          // the checkpoint the open writes in the background is done (its lock released): a write on
          // the new connection before the WAIT would make the WAIT cover the add too
          for (let i = 0; i < 250 && Number(await primary.client.sendCommand(['EXISTS', `{${key}}:bloomcuckoo-ckpt-lock`])) === 1; i++) await sleep(20);
          process.kill(replica.pid, 'SIGSTOP');
          const swapped = how === 'relay' ? relay.newConnectionAfter('reconnected-in-between') : relay.closeAfter('reconnected-in-between');
          const err = await rejection(r.add('reconnected-in-between'));
          await swapped;
          expect(err).toBeInstanceOf(FilterError);
          expect(err.code).toBe('REDIS');
          expect(err.message).toMatch(/applied by the primary/);
          // the client's own reconnect: its WAIT went on the new connection (not confirmed), or on
          // the closing one (it failed), as the client's timing has it; never confirmed
          expect(err.message).toMatch(how === 'relay' ? /not confirmed/ : /not confirmed|WAIT failed/);
          expect(err.message).not.toMatch(/no reply/);   // settled when the connection closed, not at the command timeout
          if (process.env.BLOOMCUCKOO_WAIT_VERBOSE) process.stderr.write(`${oracle} ${kind.name} ${how}: ${err.message}\n`);
          expect(await onPrimary(key, ['reconnected-in-between'])).toEqual([1]);
          expect(r.has('reconnected-in-between')).toBe(true);
        } finally {
          process.kill(replica.pid, 'SIGCONT');
          await r?.close();
          await c?.close();
          await relay.close();
        }
      }, 60_000);
      }
    }

    for (const kind of CLIENTS) {
    test(`${kind.name}: pushFilter with wait: the WAIT on another server connection than the RENAME (reconnected in between) rejects REDIS, not confirmed`, async () => {
      const relay = await startRelay(primary.port);
      const c = await kind.connect(relay.port);
      const bf = new RedisBloomFilter({ errorRate: 0.01, capacity: 100, server: oracle === 'v8' ? '8' : '2.6' });
      try {
        bf.addAll(keys('p', 50));
        const key = `push${n++}`;
        process.kill(replica.pid, 'SIGSTOP');
        // the rename: one script (LOAD) naming the key's log beside it, or a plain RENAME without EVAL rights
        const swapped = relay.newConnectionAfter('bloomcuckoo-log');
        const err = await rejection(pushFilter(c.c, key, bf, { wait: { replicas: 1, timeout: 500 } }));
        await swapped;
        expect(err).toBeInstanceOf(FilterError);
        expect(err.code).toBe('REDIS');
        expect(err.message).toMatch(/loaded on the primary.*not confirmed/);
        expect(await onPrimary(key, ['p:1'])).toEqual([1]);
      } finally {
        process.kill(replica.pid, 'SIGCONT');
        bf.free();
        await c.close();
        await relay.close();
      }
    }, 60_000);
    }

    test('pushFilter with wait: resolves once the replica server has the filter; rejects REDIS with the replica stopped', async () => {
      const c = await connect(CLIENTS[0]);
      const bf = new RedisBloomFilter({ errorRate: 0.01, capacity: 100, server: oracle === 'v8' ? '8' : '2.6' });
      bf.addAll(keys('p', 50));
      const key = `push${n++}`;
      expect(await pushFilter(c, key, bf, { wait: { replicas: 1, timeout: 1000 } })).toBeGreaterThan(0);
      expect((await onReplica(key, keys('p', 50))).every((x) => x === 1)).toBe(true);
      process.kill(replica.pid, 'SIGSTOP');
      try {
        const err = await rejection(pushFilter(c, key, bf, { replace: true, wait: { replicas: 1, timeout: 500 } }));
        expect(err).toBeInstanceOf(FilterError);
        expect(err.code).toBe('REDIS');
        expect(err.message).toMatch(/loaded on the primary.*0 of 1 replicas confirmed/);
      } finally {
        process.kill(replica.pid, 'SIGCONT');
      }
      bf.free();
    }, 60_000);

    test('wait asks for more replicas than there are: rejects REDIS, the write applied', async () => {
      const { key, r } = await writer(CLIENTS[2], { replicas: 2, timeout: 300 });
      const err = await rejection(r.add('x'));
      expect(err.code).toBe('REDIS');
      expect(err.message).toMatch(/1 of 2 replicas confirmed/);
      expect(await onPrimary(key, ['x'])).toEqual([1]);
    }, 30_000);

    test('a bad wait option is INVALID_ARGUMENT (no unbounded WAIT 0)', async () => {
      const c = await connect(CLIENTS[2]);
      for (const wait of [{ replicas: 0, timeout: 100 }, { replicas: 1, timeout: 0 }, { replicas: 1 }, { replicas: 1, timeout: 10, x: 1 }, 5, null]) {
        const err = await rejection(openReplica(c, 'never', { wait }));
        expect(err).toBeInstanceOf(FilterError);
        expect(err.code).toBe('INVALID_ARGUMENT');
        const err2 = await rejection(pushFilter(c, 'never', new RedisBloomFilter({ errorRate: 0.01, capacity: 10 }), { wait }));
        expect(err2.code).toBe('INVALID_ARGUMENT');
      }
    }, 30_000);

    // last: it kills the replica server
    test('with the replica killed, a write rejects REDIS within its WAIT timeout and the primary has it', async () => {
      const { key, r } = await writer(CLIENTS[3], { replicas: 1, timeout: 500 });
      expect(await r.add('a')).toBe(true);
      await replica.stop();
      replica = null;
      const err = await rejection(r.add('b'));
      expect(err.code).toBe('REDIS');
      expect(err.message).toMatch(/applied by the primary.*0 of 1 replicas confirmed/);
      expect(await onPrimary(key, ['b'])).toEqual([1]);
      expect(r.has('b')).toBe(true);
    }, 30_000);
  });
}

// The failover: 4 writers (node-redis 4.7.1, 5.12.1, 6.3.1, ioredis 5.11.1, one replica
// each of one BF) add keys while the replica server is stopped (SIGSTOP: it receives nothing), the
// primary cuts its link (CLIENT KILL TYPE replica), the primary is killed (SIGKILL) and the stopped replica, resumed, is promoted (REPLICAOF NO ONE).
// Without `wait` the writes acknowledged during the stop are lost (shown, as README says); with
// `wait` every acknowledged write is on the promoted server (the writes made during the stop were
// rejected, not acknowledged).
for (const oracle of ['2.6', 'v8']) {
  (skips[oracle] ? describe.skip : describe)(`wait and a failover to a replica that missed writes, RedisBloom ${oracle}`, () => {
    for (const withWait of [false, true]) {
      test(`${withWait ? 'with' : 'without'} wait: ${withWait ? 'no acknowledged add is lost' : 'acknowledged adds are lost'} when the primary dies and a lagging replica takes over`, async () => {
        const primary = await startRedisBloom({ oracle });
        const replica = await startRedisBloom({ oracle });
        const open = [];
        try {
          await replicate(primary, replica);
          const key = 'failover';
          const options = { create: { type: 'BF', errorRate: 0.01, capacity: 100_000 }, timeout: 2000, ...(withWait ? { wait: { replicas: 1, timeout: 300 } } : {}) };
          const acked = [];
          let stop = false;
          const writers = [];
          for (const [j, kind] of CLIENTS.slice(0, 4).entries()) {
            const client = await kind.connect(primary.port);
            // dropped, not QUIT: a QUIT to a dead server with reconnects on never settles
            open.push({ close: async () => { try { await Promise.resolve(typeof client.c.destroy === 'function' ? client.c.destroy() : client.c.disconnect()); } catch { /* closed */ } } });
            const r = await openReplica(client.c, key, options);
            open.push({ close: () => r.close() });
            writers.push((async () => {
              for (let i = 0; !stop && i < 100_000; i++) {
                try {
                  await r.add(`w${j}:${i}`);
                  acked.push(`w${j}:${i}`);
                } catch { await sleep(20); }   // not acknowledged: not counted
              }
            })());
          }
          await sleep(300);
          const before = acked.length;
          // the link cut: the replica stopped (it cannot reconnect) and its connection killed on
          // the primary (what was sent before may still arrive; nothing after)
          process.kill(replica.pid, 'SIGSTOP');
          await primary.client.sendCommand(['CLIENT', 'KILL', 'TYPE', 'replica']);
          await sleep(1000);
          process.kill(primary.pid, 'SIGKILL');
          stop = true;
          await Promise.all(writers);
          process.kill(replica.pid, 'SIGCONT');
          await replica.client.sendCommand(['REPLICAOF', 'NO', 'ONE']);
          expect(before).toBeGreaterThan(0);
          const present = (await replica.client.sendCommand(['BF.MEXISTS', key, ...acked])).map(Number);
          const lost = acked.filter((_, i) => present[i] !== 1);
          if (process.env.BLOOMCUCKOO_WAIT_VERBOSE) process.stderr.write(`${oracle} wait=${withWait}: ${acked.length} acknowledged, ${lost.length} lost\n`);
          if (withWait) expect(lost).toEqual([]);
          else expect(lost.length).toBeGreaterThan(0);
        } finally {
          for (const o of open.reverse()) await o.close();
          try { process.kill(replica.pid, 'SIGCONT'); } catch { /* gone */ }
          await replica.stop();
          await primary.stop();
        }
      }, 60_000);
    }
  });
}
