// A server that names a new checkpoint at every open script, each one gone when read (js/redis/
// replica.js #take): the opener tries each once and stops trying at half of syncTimeout, then
// reads the key itself. Every loop bounded: on a fake RESP server (tests/redis/fake-resp.mjs).
import { randomBytes } from 'node:crypto';
import { RedisBloomFilter, init } from '../../js/main/index.js';
import { openReplica } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { startFakeRedis } from '../redis/fake-resp.mjs';

beforeAll(() => init());

for (const client of CLIENTS.filter((c) => ['redis', 'ioredis'].includes(c.alias))) {
  test(`${client.name}: checkpoints named anew at every open, each gone when read: openReplica resolves after half of syncTimeout with the key read itself`, async () => {
    const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
    f.addAll(['a', 'b', 'c']);
    const whole = f.toRedisDump().map(([it, d]) => [it, Buffer.from(d)]);
    const i = f.info();
    f.free();
    const counts = [i.capacity, i.size, i.filters, i.items].join(',');
    const after = [0, ...whole.map(([it]) => it)];   // SCANDUMP(after[j]) replies whole[j]
    let opens = 0;
    const fake = await startFakeRedis((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'EVALSHA' || cmd === 'EVAL') {
        const keys = Number(args[2]);
        if (keys === 4) {
          opens++;
          return ['MBbloom--', '5-3', '5-1', 'a', '5-3', randomBytes(8).toString('hex'), -2, counts];
        }
        if (keys === 7) return 'ok';
        if (keys === 1) return 1;
        return ['MBbloom--', '5-3', counts];   // the check
      }
      if (cmd === 'HMGET') return args.slice(2).map((name) => (name === 't' ? 'BF' : name === 'id' ? 'ffffffffffffffff' : null));
      if (cmd === 'BF.SCANDUMP') return whole[after.indexOf(Number(args[2]))] ?? [0, ''];
      if (cmd === 'XREAD') return new Promise((res) => { setTimeout(() => res(null), 50); });
      if (cmd === 'SET') return { simple: 'OK' };
      if (['HSET', 'PEXPIRE', 'UNLINK', 'DEL'].includes(cmd)) return 1;
      if (cmd === 'GET') return null;
      return undefined;
    });
    const { c, close } = await client.connect(fake.port);
    let timer;
    try {
      const opening = openReplica(c, 'k', { server: '2.6', syncTimeout: 2000, checkInterval: 100, block: 100 });
      const r = await Promise.race([opening, new Promise((res) => { timer = setTimeout(() => res('still opening after 10 s'), 10000); })]);
      if (typeof r === 'string') {
        opening.then((x) => x.close(), () => {});
        throw new Error(`${r} (${opens} open scripts)`);
      }
      r.on('error', () => {});
      expect([r.stats.fromCheckpoint, ['a', 'b', 'c'].map((k) => r.has(k))]).toEqual([0, [true, true, true]]);
      await r.close();
    } finally {
      clearTimeout(timer);
      await close();
      await fake.stop();
    }
  }, 20000);
}
