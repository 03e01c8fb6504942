// A failover that lost the log's last entries, whose IDs the new primary then reused for other
// writes (issue 33: "no silent divergence"), reproduced on one live RedisBloom with no cluster: the
// key and its log are put back as they were L writes ago (DUMP + RESTORE, as a lagging replica
// promoted would hold them, the epoch kept), then other writes go through another replica and get
// the IDs of the lost ones. A copy whose position was in the lost range must not keep the lost
// writes: its sync() ends at the server's exact bytes, whatever the BF.INFO / CF.INFO counts say.
import { init } from '../../js/main/index.js';
import { checkpointKeys } from '../../js/redis/checkpoint.js';
import { besideKey } from '../../js/redis/client.js';
import { CLIENTS } from '../redis/clients.mjs';
import { replicaOpener, scanDump } from '../redis/helpers.mjs';
import { oracleSkips, startRedisBloom } from '../redis/server.mjs';

beforeAll(() => init());

const SKIPS = await oracleSkips('tests/js/redis-history.test.js');
const NODE_REDIS = CLIENTS.find((c) => c.alias === 'redis');
const hex = (chunks) => chunks.filter(([it]) => it !== 0).map(([it, d]) => [it, Buffer.from(d).toString('hex')]);

// KEYS: key, log, their saved copies. ARGV: 'save' or 'back'. Copies the key and its log (the log's
// last ID and entries as they are) to the saved names, or back over them (the checkpoint dropped).
const COPY = `local from, to = 1, 3
if ARGV[1] == 'back' then from, to = 3, 1 end
for i = 0, 1 do redis.call('RESTORE', KEYS[to + i], 0, redis.call('DUMP', KEYS[from + i]), 'REPLACE') end
for i = 5, #KEYS do redis.call('DEL', KEYS[i]) end
return 1`;

for (const oracle of ['2.6', 'v8']) {
  const live = SKIPS[oracle] ? test.skip : test;
  describe(`a failover that lost entries whose IDs were reused, on RedisBloom ${oracle}`, () => {
    let rb;
    beforeAll(async () => { rb = SKIPS[oracle] ? null : await startRedisBloom({ oracle }); });
    afterAll(async () => { await rb?.stop(); });
    const { connect, replicaOf } = replicaOpener(() => rb.port, NODE_REDIS);

    for (const prefix of ['BF', 'CF']) {
      for (const extra of [0, 2]) {
        live(`${prefix}: the last 3 entries replaced by 3${extra ? ` + ${extra}` : ''} others under the same IDs, counts alike: sync() ends at the server's bytes`, async () => {
          const key = `reuse:${prefix}:${extra}`;
          const log = besideKey(key, ':bloomcuckoo-log');
          const ck = checkpointKeys(key);
          const names = [key, log, besideKey(key, ':saved'), besideKey(key, ':saved-log'), ck.pointer, ck.a, ck.b, ck.lock, ck.want];
          const copy = (how) => rb.client.sendCommand(['EVAL', COPY, String(names.length), ...names, how]);
          const c = await connect();
          await c.sendCommand(prefix === 'BF' ? ['BF.RESERVE', key, '0.001', '1000'] : ['CF.RESERVE', key, '1000']);
          const w = await replicaOf(c, key);
          // the old copy checks only when asked (sync()): nothing between the loss and the reuse
          const old = await replicaOf(await connect(), key, { checkInterval: 3600000 });
          const reasons = [];
          old.on('resync', (why) => reasons.push(why));
          for (let i = 0; i < 5; i++) await w.add(`kept:${i}`);
          await old.sync();
          await copy('save');                                  // what the promoted replica had
          for (let i = 0; i < 3; i++) await w.add(`lost:${i}`);   // what it never received
          await old.sync();
          expect([old.stats.seq, old.has('lost:2')]).toEqual([8, true]);
          await w.close();
          await copy('back');                                  // the failover: back to write 5, same epoch
          const after = await replicaOf(await connect(), key);
          for (let i = 0; i < 3 + extra; i++) await after.add(`new:${i}`);   // IDs 6, 7, 8 (, 9, 10) again
          // BF.INFO / CF.INFO as a flat array whatever the protocol: item 7 is 'Number of items inserted'
          const info = await rb.client.sendCommand(['EVAL', 'return redis.call(ARGV[1], KEYS[1])', '1', key, `${prefix}.INFO`]);
          expect(String(info[7])).toBe(String(8 + extra));   // as many items as the old copy counts
          await old.sync();
          expect(old.stats.seq).toBe(8 + extra);
          expect(['new:0', 'new:2', 'lost:0'].map((k) => old.has(k))).toEqual([true, true, false]);
          expect(hex(old.filter.toRedisDump())).toEqual(hex(await scanDump(rb.client, prefix, key)));
          expect(reasons).toEqual([expect.stringMatching(/^the log at this copy's position \d+-8 is another history \(writes lost in a failover/)]);
        });
      }
    }
  });
}
