// RedisCuckooFilter against RedisBloom: fixtures captured from the real server
// (scripts/capture-redis-cf.mjs) always, and a live server (tests/redis/server.mjs) when one can
// be started.
import {
  init, fromRedisDump, FilterError, RedisCuckooFilter, RedisBloomFilter, CuckooFilter,
} from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import {
  captureTests, codeOf, fixtureNames, fixtureProbes, flipHeaderBits, fromHex, liveSuite, loadChunks, readFixture, sameBothWays, sameChunks,
  scanDump,
} from '../redis/helpers.mjs';

// A CF capture: its CF.RESERVE, each CF.ADD / ADDNX / DEL / COUNT and its reply, CF.INFO, the
// dump, and the probes' answers and CF.COUNTs (the probes: "probe:<i>", then the keys recorded).
function readCuckooFixture(file) {
  const op = (name) => (fx, [key, ...reply]) => fx.ops.push({ op: name, key: fromHex(key), reply: reply.join(' ') });
  const listOf = (parse) => (text) => (text ? text.split(',').map(parse) : []);
  const f = readFixture(file, {
    reserve(fx, fields) {
      const [capacity, bucketSize, maxIterations, expansion] = fields.map(Number);
      fx.options = { capacity, bucketSize, maxIterations, expansion };
    },
    add: op('add'), addnx: op('addnx'), del: op('del'), count: op('count'),
    info(fx, fields) {
      const [size, buckets, filters, items, itemsDeleted, bucketSize, expansion, maxIterations] = fields.map(Number);
      fx.info = { size, buckets, filters, items, itemsDeleted, bucketSize, expansion, maxIterations };
    },
    probekeys: (fx, [keys]) => { fx.probeKeys = listOf(fromHex)(keys); },
    counts: (fx, [counts]) => { fx.counts = listOf(Number)(counts); },
  }, { ops: [] });
  f.probes = fixtureProbes(f.probeKeys);
  return f;
}

const fixtures = fixtureNames('cf-').map(readCuckooFixture);
const withDump = fixtures.filter((f) => f.chunks.length > 1);
const pick = (info) => ({ size: info.size, buckets: info.buckets, filters: info.filters, items: info.items,
  itemsDeleted: info.itemsDeleted, bucketSize: info.bucketSize, expansion: info.expansion, maxIterations: info.maxIterations });
const serverInfo = (info) => ({ size: info.Size, buckets: info['Number of buckets'], filters: info['Number of filters'],
  items: info['Number of items inserted'], itemsDeleted: info['Number of items deleted'], bucketSize: info['Bucket size'],
  expansion: info['Expansion rate'], maxIterations: info['Max iterations'] });

// One operation done locally, written as the fixture writes the server's reply.
function replyOf(f, op, key) {
  try {
    if (op === 'count') return String(f.count(key));
    if (op === 'del') return f.remove(key) ? '1' : '0';
    if (op === 'addnx' && f.has(key)) return f.addUnique(key) ? 'unexpected add' : '0';
    const added = op === 'addnx' ? f.addUnique(key) : f.add(key);
    return added ? '1' : 'E Filter is full';
  } catch (err) {
    if (err instanceof FilterError && err.code === 'FULL') return `E ${err.message.replace(/^RedisCuckooFilter\.\w+: /, '')}`;
    throw err;
  }
}
const countsOf = (f, keys) => keys.map((k) => f.count(k));

beforeAll(() => init());

test('fixtures were captured: bucket sizes 1, 2, 3, 4, 8; grown; expansion 0 full; deletes, duplicates, ADDNX; 32 sub-filters', () => {
  expect(new Set(fixtures.map((f) => f.options.bucketSize))).toEqual(new Set([1, 2, 3, 4, 8]));
  expect(new Set(fixtures.map((f) => f.options.expansion))).toEqual(new Set([0, 1, 2, 3, 4]));
  expect(fixtures.some((f) => f.info.filters >= 4)).toBe(true);
  expect(fixtures.some((f) => f.info.filters === 32)).toBe(true);
  expect(fixtures.some((f) => f.ops.some((o) => o.reply === 'E Filter is full'))).toBe(true);
  expect(fixtures.some((f) => f.ops.some((o) => o.reply === 'E Maximum expansions reached'))).toBe(true);
  expect(fixtures.some((f) => f.ops.some((o) => o.op === 'del' && o.reply === '1'))).toBe(true);
  expect(fixtures.some((f) => f.ops.some((o) => o.op === 'del' && o.reply === '0'))).toBe(true);
  expect(fixtures.some((f) => f.ops.some((o) => o.op === 'addnx' && o.reply === '0'))).toBe(true);
  expect(fixtures.some((f) => f.ops.some((o) => o.op === 'count' && Number(o.reply) > 1))).toBe(true);
  // a deletion-heavy run compacted on the server (deletes counted since the last compaction)
  const deletes = fixtures.find((f) => f.name.includes('deletes'));
  expect(deletes.info.itemsDeleted).toBeLessThan(deletes.ops.filter((o) => o.op === 'del' && o.reply === '1').length);
});

describe.each(withDump.map((f) => [f.name, f]))('%s', (_name, fx) => captureTests(fx, {
  Cls: RedisCuckooFilter, kind: 'redis-cuckoo', pick, others: [CuckooFilter, RedisBloomFilter],
  answeredAs: 'CF.MEXISTS and CF.COUNT', info: 'CF.INFO',
  replay: (f) => expect(fx.ops.map((o) => `${o.op} ${replyOf(f, o.op, o.key)}`)).toEqual(fx.ops.map((o) => `${o.op} ${o.reply}`)),
  counts: (f) => expect(countsOf(f, fx.probes)).toEqual(fx.counts),
}));

test('a filter with no items has no dump, on the server and here; reading that is a clear CORRUPT_DATA', () => {
  const empty = fixtures.find((f) => f.chunks.length === 1);
  expect(empty.chunks).toEqual([[0, new Uint8Array(0)]]);
  const f = new RedisCuckooFilter(empty.options);
  expect(f.toRedisDump()).toEqual([]);
  expect(pick(f.info())).toEqual(empty.info);
  expect(codeOf(() => fromRedisDump(empty.chunks))).toBe('CORRUPT_DATA');
  expect(() => RedisCuckooFilter.fromRedisDump([])).toThrow(/no chunks/);
  // our own format keeps it
  const g = RedisCuckooFilter.deserialize(f.serialize());
  expect(pick(g.info())).toEqual(empty.info);
  f.free();
  g.free();
});

describe('corrupt, truncated, reordered and foreign CF dumps are CORRUPT_DATA', () => {
  const fx = withDump.find((f) => f.info.filters >= 3 && f.chunks.length >= 5);
  const good = fx.chunks.slice(0, -1);
  const cases = {
    'header only': good.slice(0, 1),
    'a data chunk missing': [good[0], ...good.slice(2)],
    'data chunks reordered': [good[0], good[2], good[1], ...good.slice(3)],
    'a data chunk repeated': [good[0], good[1], good[1], ...good.slice(2)],
    'a data chunk one byte short': [good[0], [good[1][0] - 1, good[1][1].subarray(1)], ...good.slice(2)],
    'a wrong iterator': [good[0], [good[1][0] + 1, good[1][1]], ...good.slice(2)],
    'header truncated': [[1, good[0][1].subarray(0, 30)], ...good.slice(1)],
  };
  test.each(Object.entries(cases))('%s', (_what, chunks) => {
    expect(codeOf(() => fromRedisDump(chunks))).toBe('CORRUPT_DATA');
    expect(codeOf(() => RedisCuckooFilter.fromRedisDump(chunks))).toBe('CORRUPT_DATA');
  });

  test('a BF dump is not a CF dump and the other way round; fromRedisDump reads both', () => {
    const bfChunks = readFixture('bf-e0.01-x1-grown.txt').chunks;
    expect(codeOf(() => RedisCuckooFilter.fromRedisDump(bfChunks))).toBe('CORRUPT_DATA');
    expect(codeOf(() => RedisBloomFilter.fromRedisDump(good))).toBe('CORRUPT_DATA');
    expect(fromRedisDump(bfChunks)).toBeInstanceOf(RedisBloomFilter);
    expect(fromRedisDump(good)).toBeInstanceOf(RedisCuckooFilter);
  });

  test('every single-bit flip of the header is rejected or yields a filter that still works', () => {
    const rejected = flipHeaderBits(good, (chunks) => RedisCuckooFilter.fromRedisDump(chunks), (f) => {
      f.hasAll(fx.probes.slice(0, 100));
      f.add('after a flip');
    });
    expect(rejected).toBeGreaterThan(good[0][1].length * 4);
  });

  test('an expansion that is not 0 or a power of two is refused (its sub-filters would lose kicked keys)', () => {
    // the server rounds CF.RESERVE's EXPANSION up to a power of two; only a forged header has another
    const f = new RedisCuckooFilter({ capacity: 1000 });
    const keys = Array.from({ length: 500 }, (_, i) => `e${i}`);
    f.addAll(keys);
    const [[, header], ...data] = f.toRedisDump();
    const withExpansion = (e) => {
      const h = Uint8Array.from(header);
      h[36] = e;
      return [[1, h], ...data];
    };
    for (const e of [3, 5, 24]) expect(codeOf(() => RedisCuckooFilter.fromRedisDump(withExpansion(e)))).toBe('CORRUPT_DATA');
    const g = RedisCuckooFilter.fromRedisDump(withExpansion(4));
    expect(g.info().expansion).toBe(4);
    expect(g.hasAll(keys).every((v) => v === 1)).toBe(true);
    f.free();
    g.free();
  });

  test('a header claiming huge sub-filters is refused before anything is allocated', () => {
    const m = requireWasm();
    const before = m.HEAPU8.length;
    for (const [offset, value] of [[8, 1n << 40n], [24, 60n], [8, 3n]]) {   // buckets 2^40; 60 filters; 3 buckets
      const h = Uint8Array.from(good[0][1]);
      new DataView(h.buffer).setBigUint64(offset, value, true);
      expect(codeOf(() => RedisCuckooFilter.fromRedisDump([[1, h], ...good.slice(1)]))).toBe('CORRUPT_DATA');
    }
    expect(m.HEAPU8.length).toBe(before);
  });
});

test('options are validated like CF.RESERVE, with its messages', () => {
  const msg = (o) => { try { new RedisCuckooFilter(o).free(); } catch (e) { return `${e.code} ${e.message}`; } return 'no error'; };
  expect(msg({ capacity: 3, bucketSize: 2 })).toMatch(/^INVALID_ARGUMENT .*Capacity must be at least \(BucketSize \* 2\)/);
  expect(msg({ capacity: 1000, bucketSize: 256 })).toMatch(/^INVALID_ARGUMENT/);
  expect(msg({ capacity: 1000, bucketSize: 0 })).toMatch(/^INVALID_ARGUMENT/);
  expect(msg({ capacity: 1000, maxIterations: 0 })).toMatch(/^INVALID_ARGUMENT/);
  expect(msg({ capacity: 1000, maxIterations: 65536 })).toMatch(/^INVALID_ARGUMENT/);
  expect(msg({ capacity: 1000, expansion: 32769 })).toMatch(/^INVALID_ARGUMENT/);
  expect(msg({ capacity: 1000, expansion: -1 })).toMatch(/^INVALID_ARGUMENT/);
  expect(msg({ capacity: 1000, errorRate: 0.01 })).toMatch(/^INVALID_ARGUMENT/);   // not a CF option
  expect(msg({ capacity: 2 ** 50 })).toMatch(/^OUT_OF_MEMORY/);
  for (const bucketSize of [1, 3, 5, 17, 255]) expect(msg({ capacity: 2 * bucketSize, bucketSize })).toBe('no error');
  expect(msg({ capacity: 1000, maxIterations: 65535, expansion: 32768 })).toBe('no error');
  const f = new RedisCuckooFilter({ capacity: 1000, expansion: 3 });
  expect(f.info().expansion).toBe(4);
  expect(() => f.add(42)).toThrow(TypeError);
  f.free();
  expect(codeOf(() => f.has('x'))).toBe('DISPOSED');
  expect(codeOf(() => f.add('x'))).toBe('DISPOSED');
});

test('one key fits 2·bucketSize times a sub-filter; at 32 sub-filters add throws FULL and changes nothing', () => {
  const f = new RedisCuckooFilter({ capacity: 1024, bucketSize: 4, expansion: 0 });
  let n = 0;
  while (f.add('same')) n++;
  expect(n).toBe(8);   // its two buckets are distinct here: 2·b copies, then "Filter is full"
  expect(f.count('same')).toBe(8);
  f.free();
  const g = new RedisCuckooFilter({ capacity: 4, bucketSize: 2 });
  let err = null;
  try { for (let i = 0; i < 1000; i++) g.add('same'); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(FilterError);
  expect(err.code).toBe('FULL');
  expect(err.message).toMatch(/Maximum expansions reached/);
  expect(g.info().filters).toBe(32);
  const before = new Uint8Array(g.serialize());
  expect(codeOf(() => g.addUnique('other'))).toBe('FULL');
  expect(codeOf(() => g.addAll(['a', 'b']))).toBe('FULL');
  expect(new Uint8Array(g.serialize())).toEqual(before);
  // deleting lets compaction drop sub-filters, and adds work again
  for (let i = 0; i < 60; i++) expect(g.remove('same')).toBe(true);
  expect(g.info().filters).toBeLessThan(32);
  expect(g.add('other')).toBe(true);
  g.free();
});

test('no false negatives through adds, duplicates, deletes and compaction (an exact multiset oracle)', () => {
  let x = 99;
  const rnd = (n) => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % n; };
  for (const options of [{ capacity: 50, bucketSize: 1 }, { capacity: 64, bucketSize: 3, expansion: 2 }, { capacity: 40, bucketSize: 4, maxIterations: 5, expansion: 4 }]) {
    const f = new RedisCuckooFilter(options);
    const oracle = new Map();
    for (let i = 0; i < 4000; i++) {
      const k = `k${rnd(300)}`;
      const r = rnd(10);
      if (r < 6) {
        if (f.add(k)) oracle.set(k, (oracle.get(k) ?? 0) + 1);
      } else if (r < 9 && oracle.get(k)) {
        expect(f.remove(k)).toBe(true);
        oracle.set(k, oracle.get(k) - 1);
      } else if (r === 9) {
        f.compact();
      }
      if (i % 500 === 0) {
        for (const [key, n] of oracle) {
          if (n > 0) {
            expect(f.has(key)).toBe(true);
            expect(f.count(key)).toBeGreaterThanOrEqual(n);
          }
        }
      }
    }
    const total = [...oracle.values()].reduce((a, b) => a + b, 0);
    expect(f.size).toBe(total);
    f.free();
  }
});

// ---- live server -----------------------------------------------------------------------------

liveSuite('against a live RedisBloom (CF)', (live) => {

  const cmd = (c, args) => c.sendCommand(args);
  const reply = async (c, args) => { try { return String(Number(await cmd(c, args))); } catch (e) { return `E ${e.message}`; } };
  const reserve = (key, o) => ['CF.RESERVE', key, String(o.capacity), 'BUCKETSIZE', String(o.bucketSize ?? 2),
    'MAXITERATIONS', String(o.maxIterations ?? 20), 'EXPANSION', String(o.expansion ?? 1)];

  live('random operation sequences for many option sets: the same replies op by op, dumps byte-identical, CF.INFO equal', async (c) => {
    let x = 7;
    const rnd = (n) => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % n; };
    const sets = [];
    for (const bucketSize of [1, 2, 3, 4, 5, 8, 16]) {
      for (const expansion of [0, 1, 2, 5]) sets.push({ capacity: 2 * bucketSize + rnd(60), bucketSize, maxIterations: 1 + rnd(40), expansion });
    }
    for (const [i, o] of sets.entries()) {
      const key = `ops:${i}`;
      await cmd(c, reserve(key, o));
      const f = new RedisCuckooFilter(o);
      for (let j = 0; j < 300; j++) {
        const k = `r${rnd(150)}`;
        const op = ['add', 'add', 'add', 'addnx', 'del', 'count'][rnd(6)];
        const args = { add: 'CF.ADD', addnx: 'CF.ADDNX', del: 'CF.DEL', count: 'CF.COUNT' }[op];
        const server = await reply(c, [args, key, k]);
        expect(`${i} ${j} ${op} ${replyOf(f, op, k)}`).toBe(`${i} ${j} ${op} ${server}`);
      }
      expect(pick(f.info())).toEqual(serverInfo(await cmd(c, ['CF.INFO', key])));
      expect(sameChunks(f.toRedisDump(), (await scanDump(c, 'CF', key)).slice(0, -1))).toBe(true);
      await cmd(c, ['CF.COMPACT', key]);
      f.compact();
      expect(sameChunks(f.toRedisDump(), (await scanDump(c, 'CF', key)).slice(0, -1))).toBe(true);
      const probes = Array.from({ length: 300 }, (_, j) => `p${j}`);
      const exists = (await cmd(c, ['CF.MEXISTS', key, ...probes])).map((v) => (Number(v) ? 1 : 0)).join('');
      expect(Array.from(f.hasAll(probes)).join('')).toBe(exists);
      f.free();
      await cmd(c, ['DEL', key]);
    }
  }, 120000);

  live('addAll is CF.INSERT (and with unique, CF.INSERTNX): the same filter afterwards', async (c) => {
    for (const unique of [false, true]) {
      const key = `insert:${unique}`;
      const o = { capacity: 100, bucketSize: 3, expansion: 2 };
      await cmd(c, reserve(key, o));
      const keys = Array.from({ length: 2000 }, (_, i) => `ins:${i % 1500}`);
      await cmd(c, [unique ? 'CF.INSERTNX' : 'CF.INSERT', key, 'ITEMS', ...keys]);
      const f = new RedisCuckooFilter(o);
      f.addAll(keys, { unique });
      expect(sameChunks(f.toRedisDump(), (await scanDump(c, 'CF', key)).slice(0, -1))).toBe(true);
      f.free();
    }
  }, 60000);

  live('toRedisDump() of a local filter loads with CF.LOADCHUNK and the server then answers and adds as the local filter', async (c) => {
    const f = new RedisCuckooFilter({ capacity: 1000, bucketSize: 4, maxIterations: 30, expansion: 2 });
    const keys = Array.from({ length: 6000 }, (_, i) => `local:${i}`);
    f.addAll(keys);
    for (let i = 0; i < 500; i++) f.remove(keys[i * 3]);
    await loadChunks(c, 'CF', 'loaded', f.toRedisDump());
    expect(serverInfo(await cmd(c, ['CF.INFO', 'loaded']))).toEqual(pick(f.info()));
    const probes = [...keys.slice(0, 2000), ...Array.from({ length: 2000 }, (_, i) => `absent:${i}`)];
    const exists = (await cmd(c, ['CF.MEXISTS', 'loaded', ...probes])).map((v) => (Number(v) ? 1 : 0)).join('');
    expect(Array.from(f.hasAll(probes)).join('')).toBe(exists);
    for (let i = 0; i < 300; i++) {
      expect(await reply(c, ['CF.ADD', 'loaded', `more:${i}`])).toBe(replyOf(f, 'add', `more:${i}`));
      expect(await reply(c, ['CF.DEL', 'loaded', keys[i * 7]])).toBe(replyOf(f, 'del', keys[i * 7]));
    }
    expect(sameChunks(f.toRedisDump(), (await scanDump(c, 'CF', 'loaded')).slice(0, -1))).toBe(true);
    f.free();
  }, 60000);

  live('a sub-filter over 16 MiB comes in several chunks both ways, identical to the server', async (c) => {
    const o = { capacity: 20_000_000, bucketSize: 1 };   // 2^25 one-byte buckets: 32 MiB
    await cmd(c, reserve('big', o));
    const keys = Array.from({ length: 20000 }, (_, i) => `big:${i}`);
    await cmd(c, ['CF.INSERT', 'big', 'ITEMS', ...keys]);
    const server = await scanDump(c, 'CF', 'big');
    expect(server.map(([it, d]) => [it, d.length])).toEqual([[1, 38], [1 + 2 ** 24, 2 ** 24], [1 + 2 ** 25, 2 ** 24], [0, 0]]);
    await sameBothWays(c, 'CF', 'big', new RedisCuckooFilter(o), keys, server);
  }, 120000);

  live('CF.SCANDUMP of a filter with no items sends no dump', async (c) => {
    await cmd(c, reserve('none', { capacity: 100 }));
    expect((await scanDump(c, 'CF', 'none')).map(([it, d]) => [it, d.length])).toEqual([[0, 0]]);
    await cmd(c, ['CF.ADD', 'none', 'x']);
    await cmd(c, ['CF.DEL', 'none', 'x']);
    expect((await scanDump(c, 'CF', 'none')).map(([it, d]) => [it, d.length])).toEqual([[0, 0]]);
    const f = new RedisCuckooFilter({ capacity: 100 });
    f.add('x');
    f.remove('x');
    expect(f.toRedisDump()).toEqual([]);
    f.free();
  });
});
