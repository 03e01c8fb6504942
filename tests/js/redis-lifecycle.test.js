// A followed key's life beside its log and checkpoints (js/redis/replica.js, checkpoint.js,
// index.js): what a key deleted, overwritten, re-created or re-loaded leaves behind, and how the
// replicas learn it. Both oracles, node-redis and ioredis.
//   - the key deleted or overwritten by another type: a replica's check removes its checkpoints
//     (up to 2× the filter's memory) and its log;
//   - pushFilter over a key replicas follow: a new log identity (a new epoch at position 0) and a
//     checkpoint there, so the replicas resync deterministically, also when the counts coincide;
//   - openReplica({ create }) of a missing key: the stale checkpoints of an earlier key removed, a
//     new log identity, and the first checkpoint written from the empty filter it made (no read of
//     the key, no DUMP / RESTORE), which the next replicas open from;
//   - pushFilter onto a key no replica follows costs nothing beside it (no log, no checkpoint).
import { RedisBloomFilter, RedisCuckooFilter, init } from '../../js/main/index.js';
import { openReplica, pushFilter, serverOf } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { hex, keys, rejection, scanDump } from '../redis/helpers.mjs';
import { oracleSkips, startRedisBloom } from '../redis/server.mjs';

beforeAll(() => init());

const SKIPS = await oracleSkips('tests/js/redis-lifecycle.test.js');
const NODE_REDIS = CLIENTS.find((c) => c.alias === 'redis');
const IOREDIS = CLIENTS.find((c) => c.alias === 'ioredis');

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms).unref(); });
async function until(cond, ms = 5000) {
  for (const end = Date.now() + ms; !(await cond());) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${cond}`);
    await sleep(20);
  }
}
/** The companion keys of `key` (a key with no braces: `{key}` + suffix). */
const beside = (key) => ({
  log: `{${key}}:bloomcuckoo-log`, pointer: `{${key}}:bloomcuckoo-ckpt`, a: `{${key}}:bloomcuckoo-ckpt-a`, b: `{${key}}:bloomcuckoo-ckpt-b`,
});

/** Calls of `cmd` (lower case) in INFO commandstats (commands run from scripts included). */
async function callsOf(admin, cmd) {
  const m = new RegExp(`cmdstat_${cmd.replace('.', '\\.')}:calls=(\\d+)`).exec(String(await admin.sendCommand(['INFO', 'commandstats'])));
  return m ? Number(m[1]) : 0;
}

for (const oracle of ['2.6', 'v8']) {
  const live = SKIPS[oracle] ? test.skip : test;
  describe(`a followed key's lifecycle on RedisBloom ${oracle}`, () => {
    let rb;
    let n = 0;
    const open = [];
    const connect = async (client = NODE_REDIS) => {
      const x = await client.connect(rb.port);
      open.push(x);
      return x.c;
    };
    const replicaOf = async (c, key, options) => {
      const r = await openReplica(c, key, { checkInterval: 100, ...options });
      r.on('error', () => {});
      open.push({ close: () => r.close() });
      return r;
    };
    const cmd = (args) => rb.client.sendCommand(args);
    const exists = async (...names) => Number(await cmd(['EXISTS', ...names]));
    /** The log's last ID as [epoch, n] ('0-0' when there is none). */
    const tipOf = async (key) => String(await cmd(['EVAL', `if redis.call('EXISTS', KEYS[1]) == 0 then return '0-0' end
local i = redis.call('XINFO', 'STREAM', KEYS[1])
for j = 1, #i, 2 do if i[j] == 'last-generated-id' then return i[j + 1] end end`, '1', beside(key).log])).split('-');
    const atOf = async (key) => String(await cmd(['HGET', beside(key).pointer, 'at']));
    beforeAll(async () => { if (!SKIPS[oracle]) rb = await startRedisBloom({ oracle }); }, 30000);
    afterEach(async () => { for (const o of open.splice(0).reverse()) await o.close(); });
    afterAll(async () => { await rb?.stop(); });

    for (const how of ['DEL', 'SET (a string)']) {
      live(`the key ${how === 'DEL' ? 'deleted' : 'overwritten by a string'}: the replica's next check removes its checkpoints and its log`, async () => {
        const key = `gone${n++}`;
        await cmd(['BF.RESERVE', key, '0.01', '10000']);
        const r = await replicaOf(await connect(), key);
        await r.addAll(keys('g', 100));
        await until(() => exists(beside(key).pointer));
        // a second generation: another replica opened after a write around the library writes one
        await cmd(['BF.ADD', key, 'around']);
        await until(() => r.stats.writeArounds === 1);
        await r.sync();
        const errors = [];
        r.on('error', (e) => errors.push(e.message));
        await cmd(how === 'DEL' ? ['DEL', key] : ['SET', key, 'x']);
        await until(() => errors.length > 0);
        await until(async () => (await exists(...Object.values(beside(key)))) === 0, 3000);
        expect(r.has('g:1')).toBe(true);   // the copy still answers as it was
        expect((await rejection(r.sync())).code).toBe('REDIS');
      }, 30000);
    }

    for (const type of ['BF', 'CF']) {
      live(`${type}: pushFilter over a key replicas follow starts a new log identity with a checkpoint at its position 0: a replica resyncs though the counts coincide, and the next opens from it`, async () => {
        const key = `pushed${n++}`;
        const c = await connect();
        const server = await serverOf(c);
        const make = () => (type === 'BF' ? new RedisBloomFilter({ errorRate: 0.01, capacity: 1000, server })
          : new RedisCuckooFilter({ capacity: 1000, bucketSize: 2, server }));
        await cmd(type === 'BF' ? ['BF.RESERVE', key, '0.01', '1000'] : ['CF.RESERVE', key, '1000', 'BUCKETSIZE', '2']);
        const r = await replicaOf(c, key, { checkInterval: 100000 });
        await r.addAll(keys('old', 10));   // one log entry, 10 items
        const [oldEpoch, oldN] = await tipOf(key);
        expect(oldN).toBe('1');
        // another filter of the same parameters with as many other items: the same BF.INFO / CF.INFO counts
        const f = make();
        expect(f.addAll(keys('new', 10))).toBe(10);
        await pushFilter(await connect(IOREDIS), key, f, { replace: true });
        const [epoch, at] = await tipOf(key);
        expect([epoch === oldEpoch, at]).toEqual([false, '0']);
        expect(await atOf(key)).toBe(`${epoch}-0`);
        await r.sync();
        expect([keys('new', 10).every((k) => r.has(k)), r.has('old:3'), r.stats.resyncs]).toEqual([true, false, 1]);
        expect(hex(r.filter.toRedisDump())).toEqual(hex(f.toRedisDump()));
        f.free();
        // the next replica reads the checkpoint (no SCANDUMP of the key, no DUMP / RESTORE) and follows
        await cmd(['CONFIG', 'RESETSTAT']);
        const next = await replicaOf(await connect(IOREDIS), key);
        expect([next.stats.fromCheckpoint, await callsOf(rb.client, `${type.toLowerCase()}.scandump`), await callsOf(rb.client, 'dump')]).toEqual([1, 0, 0]);
        expect(await next.add('after')).toBe(true);
        await r.sync();
        expect(hex(r.filter.toRedisDump())).toEqual(hex(await scanDump(rb.client, type, key)));
      }, 30000);

      live(`${type}: openReplica({ create }) of a missing key writes the first checkpoint from the filter it made (no read of the key, no DUMP / RESTORE) at a new log identity; an earlier key's stale checkpoints are removed`, async () => {
        const key = `made${n++}`;
        const create = type === 'BF' ? { type, errorRate: 0.01, capacity: 20000 } : { type, capacity: 20000 };
        await cmd(['CONFIG', 'RESETSTAT']);
        const r = await replicaOf(await connect(), key, { create });
        await until(() => r.stats.checkpoints === 1);
        const [epoch, at] = await tipOf(key);
        expect([epoch !== '0', at, await atOf(key)]).toEqual([true, '0', `${epoch}-0`]);
        // at most the header of the key read (SCANDUMP 0), never its data, never DUMP
        expect([await callsOf(rb.client, `${type.toLowerCase()}.scandump`) <= 1, await callsOf(rb.client, 'dump')]).toEqual([true, 0]);
        // writes go on while another opens: from the checkpoint
        let writing = true;
        const busy = (async () => { for (let i = 0; writing; i++) await r.addAll(keys(`w${i}`, 20)); })();
        await sleep(30);
        await cmd(['CONFIG', 'RESETSTAT']);
        const next = await replicaOf(await connect(IOREDIS), key);
        writing = false;
        await busy;
        expect([next.stats.fromCheckpoint, await callsOf(rb.client, 'dump')]).toEqual([1, 0]);
        await next.sync();
        expect(hex(next.filter.toRedisDump())).toEqual(hex(await scanDump(rb.client, type, key)));
        // a second generation of checkpoints, then the key deleted alone: a create removes them
        await cmd([`${type}.ADD`, key, 'around']);
        await until(() => r.stats.writeArounds === 1);
        const third = await replicaOf(await connect(), key);
        expect(third.has('around')).toBe(true);
        await until(async () => (await exists(beside(key).a, beside(key).b)) === 2);
        // the replicas that followed the old key closed first: their checks would remove the stale
        // checkpoints themselves, or resync and write the new key's first checkpoint before `again`
        // (once no checkpoint is being written: its lock released)
        await until(async () => (await exists(`{${key}}:bloomcuckoo-ckpt-lock`)) === 0);
        for (const x of [r, next, third]) await x.close();
        await cmd(['DEL', key]);
        expect(await exists(beside(key).a, beside(key).b)).toBe(2);
        const again = await replicaOf(await connect(IOREDIS), key, { create, checkInterval: 100000 });
        expect(again.has('around')).toBe(false);
        await until(() => again.stats.checkpoints === 1);
        const [epoch2] = await tipOf(key);
        expect([epoch2 === epoch, await atOf(key), await exists(beside(key).a, beside(key).b)]).toEqual([false, `${epoch2}-0`, 1]);
      }, 30000);
    }

    live('pushFilter over a followed key by a user who may not run XADD: refused naming it, nothing loaded; by one who may not run EVAL: the plain rename', async () => {
      const key = `acl${n++}`;
      await cmd(['BF.RESERVE', key, '0.01', '1000']);
      const r = await replicaOf(await connect(), key);
      await r.add('old');
      await until(() => exists(beside(key).pointer));
      const before = await tipOf(key);
      const userOf = async (name, rules) => {
        await cmd(['ACL', 'SETUSER', name, 'reset', 'on', '>pw', '~*', '+@all', ...rules]);
        const x = await NODE_REDIS.connect(rb.port, { username: name, password: 'pw' });
        open.push(x);
        return x.c;
      };
      const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 1000, server: await serverOf(rb.client) });
      f.add('new');
      const err = await rejection(pushFilter(await userOf(`noxadd${n}`, ['-xadd']), key, f, { replace: true }));
      expect([err?.constructor.name, err?.code]).toEqual(['FilterError', 'REDIS']);
      expect(err.message).toMatch(/XADD on '\{acl\d+\}:bloomcuckoo-log'.*nothing was loaded/);
      expect([Number(await cmd(['BF.EXISTS', key, 'new'])), Number(await cmd(['BF.EXISTS', key, 'old'])), await tipOf(key)]).toEqual([0, 1, before]);
      expect((await cmd(['KEYS', `*${key}*push*`])).length).toBe(0);
      await pushFilter(await userOf(`noeval${n}`, ['-eval', '-evalsha']), key, f, { replace: true });
      f.free();
      expect([Number(await cmd(['BF.EXISTS', key, 'new'])), await tipOf(key)]).toEqual([1, before]);
    });

    live('two pushFilter of one key at once from one process (replace): each loads through a temporary key of its own, both resolve, the key is one of the two filters whole', async () => {
      const key = `twice${n++}`;
      const c = await connect();
      const server = await serverOf(c);
      const fs = ['x', 'y'].map((p) => {
        const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100, server });
        f.addAll(keys(p, 10));
        return f;
      });
      try {
        const outcomes = await Promise.allSettled(fs.map((f) => pushFilter(c, key, f, { replace: true })));
        expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'loaded' : o.reason.message))).toEqual(['loaded', 'loaded']);
        const dump = hex(await scanDump(rb.client, 'BF', key));
        expect(fs.map((f) => JSON.stringify(hex(f.toRedisDump()))).includes(JSON.stringify(dump))).toBe(true);
      } finally {
        for (const f of fs) f.free();
      }
    });

    live('pushFilter onto a key no replica follows makes nothing beside it (no log, no checkpoint)', async () => {
      const key = `plain${n++}`;
      const c = await connect();
      const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 1000, server: await serverOf(c) });
      f.addAll(keys('p', 10));
      await pushFilter(c, key, f);
      await pushFilter(c, key, f, { replace: true });
      f.free();
      expect(await exists(...Object.values(beside(key)))).toBe(0);
    });
  });
}
