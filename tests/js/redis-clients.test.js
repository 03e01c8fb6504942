// bloomcuckoo/redis with every client of the peer range, by exact version (tests/redis/clients.mjs:
// node-redis 4, 5 and 6, ioredis 5 and 6), against both live RedisBloom servers: pullFilter,
// pushFilter, openReplica and the CLI's `redis pull|push` (node-redis only: it loads 'redis'),
// each byte for byte against the server's own SCANDUMP; and docs/API.md's manual SCANDUMP loop
// for each client, as written there; and the RedisClient type against the real clients.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisBloomFilter, RedisCuckooFilter, deserialize, fromRedisDump, init } from '../../js/main/index.js';
import { openReplica, pullFilter, pushFilter } from '../../js/redis/index.js';
import { CLIENTS, CLI_CLIENTS } from '../redis/clients.mjs';
import { scanDump } from '../redis/helpers.mjs';
import { oracleSkips, startRedisBloom } from '../redis/server.mjs';

beforeAll(() => init());

const SKIPS = await oracleSkips('tests/js/redis-clients.test.js');
const BIN = fileURLToPath(new URL('../../bin/bloomcuckoo.js', import.meta.url));
const ALIAS = fileURLToPath(new URL('../redis/redis-alias.mjs', import.meta.url));

const keys = (p, n) => Array.from({ length: n }, (_, i) => `${p}:${i}`);
const hex = (chunks) => chunks.filter(([it]) => it !== 0).map(([it, d]) => [it, Buffer.from(d).toString('hex')]);

/** docs/API.md's SCANDUMP loop for each client, as written there (binary replies per client). */
const MANUAL = {
  'node-redis 4': (client, key) => (it) => client.sendCommand(['BF.SCANDUMP', key, String(it)], { returnBuffers: true }),
  'node-redis 5+': (client, key) => (it) => client.sendCommand(['BF.SCANDUMP', key, String(it)], { typeMapping: { 36: Buffer } }),
  ioredis: (client, key) => (it) => client.callBuffer('BF.SCANDUMP', key, String(it)),
};
const manualOf = (name) => (name.startsWith('ioredis') ? MANUAL.ioredis : name.startsWith('node-redis 4') ? MANUAL['node-redis 4'] : MANUAL['node-redis 5+']);

/** node with `alias` as the 'redis' package, running `args`; resolves { code, stdout, stderr }. */
function node(alias, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', ALIAS, ...args], {
      cwd, env: { ...process.env, BLOOMCUCKOO_TEST_REDIS: alias }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
}
const cli = async (alias, args, cwd) => {
  const { code, stderr } = await node(alias, [BIN, ...args], cwd);
  return { code, stderr };
};

test('RedisClient: every client of the matrix compiles where a client is taken, any other object does not (tsc --strict)', async () => {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  const project = fileURLToPath(new URL('../redis/types/tsconfig.json', import.meta.url));
  const { code, stdout, stderr } = await node('redis', [tsc, '-p', project], dirname(project));
  expect(stdout + stderr).toBe('');
  expect(code).toBe(0);
}, 300_000);

for (const [oracle, server] of [['2.6', '2.6'], ['v8', '8']]) {
  const live = SKIPS[oracle] ? test.skip : test;
  describe(`bloomcuckoo/redis on RedisBloom ${oracle}, every client`, () => {
    let rb;
    let n = 0;
    const open = [];
    beforeAll(async () => { if (!SKIPS[oracle]) rb = await startRedisBloom({ oracle }); }, 30000);
    afterEach(async () => { for (const o of open.splice(0).reverse()) await o.close(); });
    afterAll(async () => { await rb?.stop(); });
    const admin = (args) => rb.client.sendCommand(args);
    const connect = async (client) => {
      const c = await client.connect(rb.port);
      open.push(c);
      return c.c;
    };
    /** A grown BF and a CF with deletes on the server, made by the admin client. */
    const filled = async () => {
      const bf = `bf${n}`;
      const cf = `cf${n++}`;
      await admin(['BF.RESERVE', bf, '0.01', '100']);
      await admin(['BF.MADD', bf, ...keys('k', 400)]);
      await admin(['CF.RESERVE', cf, '64']);
      await admin(['CF.INSERT', cf, 'ITEMS', ...keys('k', 200)]);
      for (const k of keys('k', 30)) await admin(['CF.DEL', cf, k]);
      return { bf, cf };
    };

    for (const client of CLIENTS) {
      live(`${client.name}: pullFilter of a BF and a CF, byte for byte`, async () => {
        const c = await connect(client);
        const { bf, cf } = await filled();
        for (const [key, Cls, prefix] of [[bf, RedisBloomFilter, 'BF'], [cf, RedisCuckooFilter, 'CF']]) {
          const f = await pullFilter(c, key);
          expect(f).toBeInstanceOf(Cls);
          expect(hex(f.toRedisDump())).toEqual(hex(await scanDump(rb.client, prefix, key)));
          f.free();
        }
      });

      live(`${client.name}: pushFilter of a BF and a CF, byte for byte`, async () => {
        const c = await connect(client);
        const bf = new RedisBloomFilter({ errorRate: 0.001, capacity: 300, server });
        bf.addAll(keys('p', 900));
        const cf = new RedisCuckooFilter({ capacity: 300, server });
        cf.addAll(keys('p', 500));
        const key = `pushed${n++}`;
        await pushFilter(c, `${key}:bf`, bf);
        await pushFilter(c, `${key}:cf`, cf);
        expect(hex(await scanDump(rb.client, 'BF', `${key}:bf`))).toEqual(hex(bf.toRedisDump()));
        expect(hex(await scanDump(rb.client, 'CF', `${key}:cf`))).toEqual(hex(cf.toRedisDump()));
        bf.free();
        cf.free();
      });

      live(`${client.name}: openReplica of a BF and a CF follows writes through it and around it, byte for byte`, async () => {
        const c = await connect(client);
        const { bf, cf } = await filled();
        const a = await openReplica(c, bf, { checkInterval: 100 });
        open.push({ close: () => a.close() });
        const x = await openReplica(c, cf, { checkInterval: 100 });
        open.push({ close: () => x.close() });
        expect(await a.add('new')).toBe(true);
        expect(a.has('new')).toBe(true);
        expect(await a.addAll(keys('n', 50))).toBeGreaterThan(45);
        expect(await x.add('new')).toBe(true);
        expect(await x.remove('k:100')).toBe(true);
        expect(await x.addUnique('new')).toBe(false);
        await admin(['BF.ADD', bf, 'around']);
        await a.sync();
        await x.sync();
        expect(a.has('around')).toBe(true);
        expect(hex(a.filter.toRedisDump())).toEqual(hex(await scanDump(rb.client, 'BF', bf)));
        expect(hex(x.filter.toRedisDump())).toEqual(hex(await scanDump(rb.client, 'CF', cf)));
        expect(a.stats.writeArounds).toBe(1);
      });

      live(`${client.name}: docs/API.md's manual SCANDUMP loop gives bytes fromRedisDump reads`, async () => {
        const c = await connect(client);
        const { bf } = await filled();
        const next = manualOf(client.name)(c, bf);
        const chunks = [];
        for (let it = 0; ;) {
          const [iterator, data] = await next(it);
          it = Number(iterator);
          if (it === 0) break;
          chunks.push([it, data]);
        }
        const f = fromRedisDump(chunks);
        expect(Array.from(f.hasAll(keys('k', 400))).every((v) => v === 1)).toBe(true);
        f.free();
      });
    }

    for (const client of CLI_CLIENTS) {
      live(`${client.name}: the CLI's redis pull and push`, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'bloomcuckoo-clients-'));
        try {
          const { bf, cf } = await filled();
          const url = `redis://127.0.0.1:${rb.port}`;
          // the CLI's import('redis') is the release under test
          const resolved = await node(client.alias, ['--input-type=module', '-e', "console.log(import.meta.resolve('redis'))"], dirname(BIN));
          expect(resolved.stdout).toContain(`/node_modules/${client.alias}/`);
          for (const [key, prefix] of [[bf, 'BF'], [cf, 'CF']]) {
            const pulled = await cli(client.alias, ['redis', 'pull', url, key, '-o', 'f.bin', '-q'], dir);
            expect(pulled).toEqual({ code: 0, stderr: '' });
            const f = deserialize(readFileSync(join(dir, 'f.bin')));
            expect(hex(f.toRedisDump())).toEqual(hex(await scanDump(rb.client, prefix, key)));
            f.free();
            const pushed = await cli(client.alias, ['redis', 'push', 'f.bin', url, `${key}:copy`, '-q'], dir);
            expect(pushed).toEqual({ code: 0, stderr: '' });
            expect(hex(await scanDump(rb.client, prefix, `${key}:copy`))).toEqual(hex(await scanDump(rb.client, prefix, key)));
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  });
}
