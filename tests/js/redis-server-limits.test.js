// Issue 24, defect 3: whatever a real RedisBloom server holds, we read and answer as it does, and
// the operations it performs we perform with the same reply. Each case runs the commands on a
// live RedisBloom (tests/redis/server.mjs: 2.6.12 on Redis 7.0, and 8.9.80 on Redis 7.4, the
// bloom module of Redis 8) and the same operations on our classes (with `server` set to match),
// then compares the replies, the SCANDUMP bytes and the answers of the server's dump read back.
import { readdirSync, readFileSync } from 'node:fs';
import { FilterError, RedisBloomFilter, RedisCuckooFilter, fromRedisDump, init } from '../../js/main/index.js';
import { REDIS_SERVERS } from '../../js/main/options.js';
import { liveSuite, loadChunks, sameChunks, scanDump } from '../redis/helpers.mjs';

beforeAll(() => init());

// ---- the server table: cpp/include/bloomcuckoo/redis_server.h ---------------------------------
const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const SERVER_HEADER = 'cpp/include/bloomcuckoo/redis_server.h';

/** A C++ integer column: a literal, `uint64_t{1} << k` or `~uint64_t{0}` (no limit). */
function integerColumn(text) {
  const t = text.trim();
  if (t === '~uint64_t{0}') return Infinity;
  const shift = /^uint64_t\{1\} << (\d+)$/.exec(t);
  if (shift) return 2 ** Number(shift[1]);
  if (/^\d+u?$/.test(t)) return Number(t.replace('u', ''));
  throw new Error(`${SERVER_HEADER}: a column this test cannot read: ${t} (write a literal, uint64_t{1} << k or ~uint64_t{0})`);
}

/** The rows of BLOOMCUCKOO_REDIS_SERVERS, as written. */
function serverRows() {
  const src = read(SERVER_HEADER).replace(/\\\n/g, ' ');
  const body = /#define BLOOMCUCKOO_REDIS_SERVERS\(X\)(.*)/.exec(src)[1];
  const rows = [...body.matchAll(/X\(\s*"([^"]*)",([^,]*),([^,]*),([^,]*),([^,]*),\s*(true|false)\s*,((?:\s*"[^"]*")+)\s*\)/g)];
  expect(rows.length).toBe((body.match(/X\(/g) ?? []).length);   // every row has all seven columns
  return rows.map((m) => ({
    name: m[1], maxCapacity: integerColumn(m[2]), minExpansion: integerColumn(m[3]), maxExpansion: integerColumn(m[4]),
    maxErrorRate: Number(m[5]), keepsFailedLink: m[6] === 'true', limits: [...m[7].matchAll(/"([^"]*)"/g)].map((x) => x[1]).join(''),
  }));
}

/** `fn`'s FilterError, or null. */
function errorOf(fn) {
  try { fn(); } catch (err) { if (err instanceof FilterError) return err; throw err; }
  return null;
}

describe('the server table (BLOOMCUCKOO_REDIS_SERVERS) decides every difference between servers', () => {
  const rows = serverRows();

  test('js/main/options.js REDIS_SERVERS names its rows, in order, and index.d.ts RedisServer each', () => {
    expect(REDIS_SERVERS).toEqual(rows.map((r) => r.name));
    const type = /export type RedisServer = ([^;]*);/.exec(read('js/main/index.d.ts'))[1];
    expect(type.split('|').map((t) => t.trim().slice(1, -1))).toEqual(rows.map((r) => r.name));
  });

  test.each(rows.map((r) => [r.name, r]))("row '%s': its limits, error-rate cap and EXPANSION 0 are what the classes do", (server, row) => {
    expect(row.limits).toContain(`'${server}'`);
    const bf = (o) => () => new RedisBloomFilter({ errorRate: 0.01, capacity: 10, server, ...o }).free();
    const cf = (o) => () => new RedisCuckooFilter({ capacity: 10, server, ...o }).free();
    const refused = (fn) => {
      const err = errorOf(fn);
      expect(err?.code).toBe('INVALID_ARGUMENT');
      expect(err.message).toContain(row.limits);
    };
    if (row.maxCapacity < 2 ** 53) {
      refused(bf({ capacity: row.maxCapacity + 1 }));
      refused(cf({ capacity: row.maxCapacity + 1 }));
    }
    expect(errorOf(bf({ expansion: row.maxExpansion }))).toBeNull();
    if (row.maxExpansion < 2 ** 31 - 1) refused(bf({ expansion: row.maxExpansion + 1 }));
    if (row.minExpansion > 0) refused(bf({ expansion: row.minExpansion - 1 }));
    else {
      const zero = new RedisBloomFilter({ errorRate: 0.01, capacity: 10, expansion: 0, server });
      expect(zero.info().nonScaling).toBe(true);
      zero.free();
    }
    const f = new RedisBloomFilter({ errorRate: 0.9, capacity: 1000, server });
    expect(f.info().links[0].errorRate).toBe(Math.min(0.9, row.maxErrorRate) / 2);
    f.free();
  });

  test.each(rows.map((r) => [r.name, r]))("row '%s': the end of a chain (keeps_failed_link)", (server, row) => {
    // EXPANSION 1 from one key at 0.1: each link halves the error rate until it underflows
    const f = new RedisBloomFilter({ errorRate: 0.1, capacity: 1, expansion: 1, server });
    let full = null;
    let links = 0;
    for (let i = 0; i < 20000 && full === null; i++) {
      links = f.info().filters;
      full = errorOf(() => f.add(`chain:${i}`));
    }
    expect(full?.code).toBe('FULL');
    expect(f.info().filters - links).toBe(row.keepsFailedLink ? 1 : 0);
    // an empty last link has no probes: every key reads present (the chain's own false positives
    // are about 10 % a key, so some of 100 keys never added read absent without it)
    const never = Array.from({ length: 100 }, (_, i) => `never:${i}`);
    expect(Array.from(f.hasAll(never)).every((v) => v === 1)).toBe(row.keepsFailedLink);
    f.free();
  }, 60_000);

  test('no other source decides per server: no server name, v8 flag or row number outside the table', () => {
    // code only (comments may name servers); the one known exception: redis-client.js's serverVia,
    // which tells the servers apart by MODULE LIST's version (not a rule of the classes)
    const strip = (src) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    const files = [
      ...readdirSync(new URL('js/', root)).filter((f) => /\.js$/.test(f) && !/\.min\.js$/.test(f)).map((f) => `js/${f}`),
      ...['bindings', 'cpp/src', 'cpp/include/bloomcuckoo'].flatMap((dir) => readdirSync(new URL(`${dir}/`, root))
        .filter((f) => /\.(cc|h)$/.test(f)).map((f) => `${dir}/${f}`)),
    ].filter((f) => f !== SERVER_HEADER && f !== 'js/main/options.js' && f !== 'js/redis/client.js');
    const decisions = files.flatMap((f) => {
      const code = strip(read(f));
      const hits = [...code.matchAll(/(['"])(2\.6|8)\1|\b(v8|isV8|V8_[A-Z_]+|k8|RedisBloomServer)\b|server_? *[=!]==? *\d/g)];
      return hits.map((h) => `${f}: ${h[0]}`);
    });
    expect(decisions).toEqual([]);
  });
});

const enc = new TextEncoder();
const probes = Array.from({ length: 2000 }, (_, i) => enc.encode(`probe:${i}`));
const bytesOf = (chunks) => chunks.filter(([it]) => it !== 0);

/** A field of an INFO reply (RESP2 flat array, Map or object). */
function infoField(reply, name) {
  if (Array.isArray(reply)) return Number(reply[reply.findIndex((v) => String(v) === name) + 1]);
  if (reply instanceof Map) return Number(reply.get(name));
  return Number(reply[name]);
}

/** Every probe answers the same from `f` as from the server's `prefix.MEXISTS`. */
async function sameAnswers(client, prefix, key, f, keys = probes) {
  const server = (await client.sendCommand([`${prefix}.MEXISTS`, key, ...keys.map((k) => Buffer.from(k))])).map(Number);
  const ours = Array.from(f.hasAll(keys));
  return ours.every((v, i) => v === server[i]);
}

for (const [oracle, server] of [['2.6', '2.6'], ['v8', '8']]) {
liveSuite(`RedisBloom ${oracle} and our classes, at the server's limits`, (live) => {
  live('a BF chain of EXPANSION 1 past 1,024 hashes a link, to the end of its error rate', async (client) => {
    await client.sendCommand(['BF.RESERVE', 'chain', '0.1', '1', 'EXPANSION', '1']);
    const f = new RedisBloomFilter({ errorRate: 0.1, capacity: 1, expansion: 1, server });
    let serverError = null;
    let ours = null;
    // each link holds one key: link k has about k + 4 hashes, until its error rate underflows
    // (some keys read as present in a link already there and add nothing, so more keys than links)
    for (let i = 0; i < 20000 && serverError === null; i++) {
      const key = `chain:${i}`;
      let reply;
      try {
        reply = Number(await client.sendCommand(['BF.ADD', 'chain', key]));
      } catch (err) {
        serverError = String(err.message);
      }
      try {
        const added = f.add(key);
        expect(serverError).toBeNull();
        expect(added ? 1 : 0).toBe(reply);
      } catch (err) {
        if (!(err instanceof FilterError)) throw err;
        ours = err;
      }
      expect(ours === null).toBe(serverError === null);
    }
    expect(serverError).toMatch(/problem inserting/);
    expect(ours.code).toBe('FULL');
    const info = f.info();
    expect(info.filters).toBeGreaterThan(1000);
    expect(Math.max(...info.links.map((l) => l.hashes))).toBeGreaterThan(1024);
    const dump = await scanDump(client, 'BF', 'chain');
    expect(sameChunks(f.toRedisDump(), bytesOf(dump))).toBe(true);
    const back = fromRedisDump(dump, { server });
    expect(await sameAnswers(client, 'BF', 'chain', back)).toBe(true);
    back.free();
    f.free();
  }, 120_000);

  live('one CF.INSERT grows past 32 sub-filters; the next is refused; the dump reads back', async (client) => {
    // RedisBloom's test_scandump_load_small: CF.RESERVE a 4, then CF.INSERT a ITEMS 0..129
    await client.sendCommand(['CF.RESERVE', 'small', '4']);
    const items = Array.from({ length: 130 }, (_, i) => String(i));
    const replies = (await client.sendCommand(['CF.INSERT', 'small', 'ITEMS', ...items])).map(Number);
    const f = new RedisCuckooFilter({ capacity: 4, server });
    const added = f.addAll(items);
    expect(added).toBe(replies.filter((r) => r === 1).length);
    const filters = infoField(await client.sendCommand(['CF.INFO', 'small']), 'Number of filters');
    expect(filters).toBeGreaterThan(32);
    expect(f.info().filters).toBe(filters);
    let serverError = null;
    try { await client.sendCommand(['CF.INSERT', 'small', 'ITEMS', 'more']); } catch (err) { serverError = err.message; }
    expect(serverError).toMatch(/Maximum expansions reached/);
    expect(() => f.addAll(['more'])).toThrow(expect.objectContaining({ code: 'FULL' }));
    expect(() => f.add('more')).toThrow(expect.objectContaining({ code: 'FULL' }));
    const dump = await scanDump(client, 'CF', 'small');
    expect(sameChunks(f.toRedisDump(), bytesOf(dump))).toBe(true);
    const back = fromRedisDump(dump);
    expect(back.info().filters).toBe(filters);
    expect(await sameAnswers(client, 'CF', 'small', back, [...probes, ...items.map((k) => enc.encode(k))])).toBe(true);
    back.free();
    f.free();
  }, 60_000);

  live('a CF whose item count differs from its stored fingerprints reads back as the server serves it', async (client) => {
    // RedisBloom's test_scandump_load_big: data loaded over a filter of one item
    await client.sendCommand(['CF.RESERVE', 'odd', '4']);
    await client.sendCommand(['CF.ADD', 'odd', 'x']);
    await client.sendCommand(['CF.LOADCHUNK', 'odd', '5', Buffer.from([1, 1, 1, 1])]);
    const dump = await scanDump(client, 'CF', 'odd');
    const f = fromRedisDump(dump);
    expect(f.info().items).toBe(1);
    expect(await sameAnswers(client, 'CF', 'odd', f)).toBe(true);
    expect(sameChunks(f.toRedisDump(), bytesOf(dump))).toBe(true);
    f.free();
    // a load where only the header arrived: the server holds empty slots under a count of items
    const header = bytesOf(await scanDump(client, 'CF', 'odd'))[0];
    await loadChunks(client, 'CF', 'headeronly', [header]);
    const g = fromRedisDump(await scanDump(client, 'CF', 'headeronly'));
    expect(await sameAnswers(client, 'CF', 'headeronly', g)).toBe(true);
    g.free();
  }, 60_000);

  live('BF.INSERT with EXPANSION and NONSCALING together', async (client) => {
    await client.sendCommand(['BF.INSERT', 'both', 'EXPANSION', '4', 'NONSCALING', 'ITEMS', 'a']);
    const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100, expansion: 4, nonScaling: true, server });
    expect(f.add('a')).toBe(true);
    expect(sameChunks(f.toRedisDump(), bytesOf(await scanDump(client, 'BF', 'both')))).toBe(true);
    f.free();
  }, 60_000);

  if (server === '8') {
    live('Redis 8 creation rules: the error rate capped at 0.25, EXPANSION 0 as NONSCALING', async (client) => {
      await client.sendCommand(['BF.RESERVE', 'capped', '0.5', '1000']);
      await client.sendCommand(['BF.RESERVE', 'zero', '0.01', '100', 'EXPANSION', '0']);
      const capped = new RedisBloomFilter({ errorRate: 0.5, capacity: 1000, server });
      const zero = new RedisBloomFilter({ errorRate: 0.01, capacity: 100, expansion: 0, server });
      const asIf26 = new RedisBloomFilter({ errorRate: 0.5, capacity: 1000 });
      for (const [key, f] of [['capped', capped], ['zero', zero]]) {
        expect(f.add('k')).toBe(Number(await client.sendCommand(['BF.ADD', key, 'k'])) === 1);
        expect(sameChunks(f.toRedisDump(), bytesOf(await scanDump(client, 'BF', key)))).toBe(true);
      }
      asIf26.add('k');
      expect(sameChunks(asIf26.toRedisDump(), bytesOf(await scanDump(client, 'BF', 'capped')))).toBe(false);
      expect(zero.info().nonScaling).toBe(true);
      [capped, zero, asIf26].forEach((f) => f.free());
    }, 60_000);
  }
}, { oracle });
}
