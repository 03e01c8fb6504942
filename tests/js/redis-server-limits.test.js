// Issue 24, defect 3: whatever a real RedisBloom server holds, we read and answer as it does, and
// the operations it performs we perform with the same reply. Each case runs the commands on a
// live RedisBloom (tests/redis/server.mjs: 2.6.12 on Redis 7.0, and 8.9.80 on Redis 7.4, the
// bloom module of Redis 8) and the same operations on our classes (with `server` set to match),
// then compares the replies, the SCANDUMP bytes and the answers of the server's dump read back.
import { FilterError, RedisBloomFilter, RedisCuckooFilter, fromRedisDump, init } from '../../js/index.js';
import { liveSuite, loadChunks, sameChunks, scanDump } from '../redis/helpers.mjs';

beforeAll(() => init());

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
