// bloomcuckoo/redis (js/redis/index.js) against both live RedisBloom servers (tests/redis/server.mjs):
// pull and push of BF and CF keys, byte for byte; refusals; a replica of the primary getting a
// pushed CF whole. The shipped build (dist/redis.min.js) is checked by the pack suite.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilterError, RedisBloomFilter, RedisCuckooFilter, init } from '../../js/main/index.js';
import { commandsOf, pullFilter, pushFilter, serverOf } from '../../js/redis/index.js';
import { liveSuite, sameChunks, scanDump } from '../redis/helpers.mjs';
import { findV8, redisServerPath } from '../redis/server.mjs';

beforeAll(() => init());

const keys = (p, n) => Array.from({ length: n }, (_, i) => `${p}:${i}`);
const probes = keys('probe', 1000);
const dataOf = (chunks) => chunks.filter(([it]) => it !== 0);
const codeOf = async (p) => { try { await p; } catch (e) { return e instanceof FilterError ? e.code : `${e.name}: ${e.message}`; } return 'no error'; };

test('a client that is none of node-redis or ioredis is refused with what to pass', () => {
  expect(() => commandsOf({})).toThrow(/node-redis client .* or an ioredis 5 or 6 client/);
  expect(() => commandsOf(null)).toThrow(FilterError);
});

for (const [oracle, server] of [['2.6', '2.6'], ['v8', '8']]) {
  liveSuite(`bloomcuckoo/redis on RedisBloom ${oracle}`, (live) => {
    live('MODULE LIST names the server', async (c) => {
      expect(await serverOf(c)).toBe(server);
    });

    live('pullFilter of a grown BF and of a CF with deletes answers as the server, byte for byte', async (c) => {
      await c.sendCommand(['BF.RESERVE', 'bf', '0.01', '100']);
      await c.sendCommand(['BF.MADD', 'bf', ...keys('k', 500)]);
      await c.sendCommand(['CF.RESERVE', 'cf', '64']);
      await c.sendCommand(['CF.INSERT', 'cf', 'ITEMS', ...keys('k', 300)]);
      for (const k of keys('k', 40)) await c.sendCommand(['CF.DEL', 'cf', k]);
      for (const [key, Cls, prefix] of [['bf', RedisBloomFilter, 'BF'], ['cf', RedisCuckooFilter, 'CF']]) {
        const f = await pullFilter(c, key);
        expect(f).toBeInstanceOf(Cls);
        const exists = (await c.sendCommand([`${prefix}.MEXISTS`, key, ...probes, ...keys('k', 500)])).map(Number);
        expect(Array.from(f.hasAll([...probes, ...keys('k', 500)]))).toEqual(exists);
        expect(sameChunks(f.toRedisDump(), dataOf(await scanDump(c, prefix, key)))).toBe(true);
        f.free();
      }
    }, 60_000);

    live('pushFilter loads byte for byte, refuses an existing key unless replace, and refuses a wrong type', async (c) => {
      const bf = new RedisBloomFilter({ errorRate: 0.001, capacity: 1000, server });
      bf.addAll(keys('p', 3000));
      const cf = new RedisCuckooFilter({ capacity: 1000, server });
      cf.addAll(keys('p', 1500));
      expect(await pushFilter(c, 'pushed-bf', bf)).toBeGreaterThan(0);
      await pushFilter(c, 'pushed-cf', cf);
      expect(sameChunks(bf.toRedisDump(), dataOf(await scanDump(c, 'BF', 'pushed-bf')))).toBe(true);
      expect(sameChunks(cf.toRedisDump(), dataOf(await scanDump(c, 'CF', 'pushed-cf')))).toBe(true);
      expect(await codeOf(pushFilter(c, 'pushed-bf', bf))).toBe('INVALID_ARGUMENT');
      cf.add('one more');
      await pushFilter(c, 'pushed-cf', cf, { replace: true });
      expect(Number(await c.sendCommand(['CF.EXISTS', 'pushed-cf', 'one more']))).toBe(1);
      expect((await c.sendCommand(['KEYS', '*bloomcuckoo-push*']))).toEqual([]);   // no temporary key left
      await c.sendCommand(['SET', 'plain', 'x']);
      expect(await codeOf(pullFilter(c, 'plain'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(pullFilter(c, 'missing'))).toBe('INVALID_ARGUMENT');
      bf.free();
      cf.free();
    }, 60_000);

    live('a pushed CF reaches a replica whole (CF.LOADCHUNK alone replicates only its header before 8.9.80)', async (c) => {
      const reply = await c.sendCommand(['CONFIG', 'GET', 'port']);   // RESP2 array or RESP3 map
      const port = Number(String(Array.isArray(reply) ? reply[1] : reply instanceof Map ? [...reply.values()][0] : Object.values(reply)[0]));
      const bin = oracle === 'v8' ? findV8().server : redisServerPath();
      const mod = oracle === 'v8' ? findV8().mod : (await import('../redis/server.mjs')).findModule();
      const dir = mkdtempSync(join(tmpdir(), 'bloomcuckoo-replica-'));
      const replicaPort = port + 1000 > 65000 ? port - 1000 : port + 1000;
      const child = spawn(bin, ['--port', String(replicaPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
        '--dir', dir, '--replicaof', '127.0.0.1', String(port), '--loadmodule', mod], { stdio: 'ignore' });
      const { createClient } = await import('redis');
      let r = null;
      try {
        for (let i = 0; i < 100 && r === null; i++) {   // until the replica listens (at most ~5 s)
          const attempt = createClient({ socket: { host: '127.0.0.1', port: replicaPort, reconnectStrategy: false } });
          attempt.on('error', () => {});
          try { await attempt.connect(); r = attempt; } catch { await new Promise((ok) => setTimeout(ok, 50)); }
        }
        for (let i = 0; i < 200 && !/master_link_status:up/.test(String(await r.sendCommand(['INFO', 'replication']))); i++) {
          await new Promise((ok) => setTimeout(ok, 50));
        }
        const cf = new RedisCuckooFilter({ capacity: 1000, server });
        cf.addAll(keys('rep', 800));
        await pushFilter(c, 'replicated-cf', cf);
        await c.sendCommand(['WAIT', '1', '5000']);
        const seen = (await r.sendCommand(['CF.MEXISTS', 'replicated-cf', ...keys('rep', 800)])).map(Number);
        expect(seen.every((v) => v === 1)).toBe(true);
        cf.free();
      } finally {
        await r?.quit().catch(() => {});
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }, { oracle });
}
