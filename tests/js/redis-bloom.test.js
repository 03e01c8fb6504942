// RedisBloomFilter against RedisBloom: fixtures captured from the real server
// (scripts/capture-redis-bf.mjs) always, and a live server (tests/redis/server.mjs) when one can
// be started.
import {
  init, fromRedisDump, FilterError, RedisBloomFilter, BloomFilter,
} from '../../js/main/index.js';
import { requireWasm } from '../../js/main/loader.js';
import {
  captureTests, codeOf, fixtureNames, fixtureProbes, flipHeaderBits, fromHex, liveSuite, loadChunks, readFixture, sameBothWays, sameChunks,
  scanDump,
} from '../redis/helpers.mjs';

// A BF capture: its BF.RESERVE, each BF.ADD and its reply, BF.INFO, the dump and the probes'
// answers (the probes: "probe:<i>", then the first 1,000 keys added).
function readBloomFixture(file) {
  const f = readFixture(file, {
    reserve(fx, [errorRate, capacity, expansion, nonScaling]) {
      fx.options = nonScaling === '1'
        ? { errorRate: Number(errorRate), capacity: Number(capacity), nonScaling: true }
        : { errorRate: Number(errorRate), capacity: Number(capacity), expansion: Number(expansion) };
    },
    add: (fx, [key, ...reply]) => fx.adds.push({ key: fromHex(key), reply: reply.join(' ') }),
    info(fx, [capacity, size, filters, items, expansion]) {
      fx.info = { capacity: Number(capacity), size: Number(size), filters: Number(filters), items: Number(items), expansion: expansion === 'null' ? null : Number(expansion) };
    },
  }, { adds: [] });
  f.probes = fixtureProbes(f.adds.filter((a) => a.reply === '1').map((a) => a.key).slice(0, 1000));
  return f;
}

const fixtures = fixtureNames('bf-').map(readBloomFixture);
const pick = (info) => ({ capacity: info.capacity, size: info.size, filters: info.filters, items: info.items, expansion: info.expansion });
const replyOf = (f, key) => {
  try {
    return f.add(key) ? '1' : '0';
  } catch (err) {
    if (err instanceof FilterError && err.code === 'FULL') return `E ERR ${err.message.replace(/^RedisBloomFilter\.add: /, '')}`;
    throw err;
  }
};

beforeAll(() => init());

test('fixtures were captured: five option sets, grown chains, a full NONSCALING filter', () => {
  expect(fixtures.length).toBeGreaterThanOrEqual(5);
  expect(fixtures.some((f) => f.info.filters >= 4)).toBe(true);
  expect(fixtures.some((f) => f.adds.some((a) => a.reply.startsWith('E ')))).toBe(true);
});

describe.each(fixtures.map((f) => [f.name, f]))('%s', (_name, fx) => captureTests(fx, {
  Cls: RedisBloomFilter, kind: 'redis-bloom', pick, others: [BloomFilter], answeredAs: 'the server', info: 'BF.INFO',
  replay: (f) => expect(fx.adds.map((a) => replyOf(f, a.key))).toEqual(fx.adds.map((a) => a.reply)),
}));

describe('corrupt, truncated, reordered and foreign dumps are CORRUPT_DATA', () => {
  const fx = fixtures.find((f) => f.info.filters >= 3);
  const good = fx.chunks.slice(0, -1);
  const cases = {
    'no chunks': [],
    'header only': good.slice(0, 1),
    'a data chunk missing': [good[0], ...good.slice(2)],
    'data chunks reordered': [good[0], good[2], good[1], ...good.slice(3)],
    'a data chunk repeated': [good[0], good[1], good[1], ...good.slice(2)],
    'header not first': [good[1], good[0], ...good.slice(2)],
    'a data chunk one byte short': [good[0], [good[1][0], good[1][1].subarray(1)], ...good.slice(2)],
    'a wrong iterator': [good[0], [good[1][0] + 1, good[1][1]], ...good.slice(2)],
    'header truncated': [[1, good[0][1].subarray(0, 30)], ...good.slice(1)],
    'random header': [[1, Uint8Array.from({ length: 73 }, (_, i) => (i * 37) & 0xff)], ...good.slice(1)],
    'a chunk after the end marker': [...good, [0, new Uint8Array(0)], good[1]],
    'not pairs': [[1]],
    'string data (text replies)': [[1, 'abc']],
  };
  test.each(Object.entries(cases))('%s', (_what, chunks) => {
    expect(codeOf(() => fromRedisDump(chunks))).toBe('CORRUPT_DATA');
    expect(codeOf(() => RedisBloomFilter.fromRedisDump(chunks))).toBe('CORRUPT_DATA');
  });

  test('every single-bit flip of the header is rejected or yields a filter that still works', () => {
    const rejected = flipHeaderBits(good, fromRedisDump, (f) => f.hasAll(fx.probes.slice(0, 100)));
    expect(rejected).toBeGreaterThan(good[0][1].length * 4);
  });

  test('a header claiming huge filters is refused before anything is allocated', () => {
    const m = requireWasm();
    const before = m.HEAPU8.length;
    const h = Uint8Array.from(good[0][1]);
    const view = new DataView(h.buffer);
    view.setBigUint64(20, 1n << 40n, true);        // link 0: 1 TiB of bitmap
    view.setBigUint64(28, 1n << 43n, true);        // bits = bytes * 8
    expect(codeOf(() => fromRedisDump([[1, h], ...good.slice(1)]))).toBe('CORRUPT_DATA');
    expect(m.HEAPU8.length).toBe(before);
  });
});

test('options are validated like BF.RESERVE', () => {
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0, capacity: 10 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 1, capacity: 10 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 10, expansion: 0 }))).toBe('INVALID_ARGUMENT');
  // BF.RESERVE refuses EXPANSION with NONSCALING ("Nonscaling filters cannot expand"), BF.INSERT
  // takes the pair (the expansion is stored, never used): so do we (redis-server-limits.test.js)
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 10, expansion: 2, nonScaling: true }))).toBe('no error');
  // Redis 8 rules: EXPANSION 0 is NONSCALING, capacity at most 2^30, an unknown server is refused
  expect(new RedisBloomFilter({ errorRate: 0.01, capacity: 10, expansion: 0, server: '8' }).info().nonScaling).toBe(true);
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 2 ** 30 + 1, server: '8' }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 10, server: '7' }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 10, nonScaling: 'yes' }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 10, seed: 1 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 1e15 }))).toBe('OUT_OF_MEMORY');
  const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 10 });
  expect(() => f.add(42)).toThrow(TypeError);
  f.free();
  expect(codeOf(() => f.has('x'))).toBe('DISPOSED');
});

test('a full NONSCALING filter throws FULL and changes nothing; addAll says how far it got', () => {
  const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 10, nonScaling: true });
  const keys = Array.from({ length: 30 }, (_, i) => `k${i}`);
  const err = (() => { try { f.addAll(keys); } catch (e) { return e; } return null; })();
  expect(err).toBeInstanceOf(FilterError);
  expect(err.code).toBe('FULL');
  expect(err.message).toMatch(/non scaling filter is full .*keys handled, 10 added before it/);
  const before = new Uint8Array(f.serialize());
  expect(codeOf(() => f.add('one more'))).toBe('FULL');
  expect(new Uint8Array(f.serialize())).toEqual(before);
  expect(f.size).toBe(10);
  f.free();
});

// ---- live server -----------------------------------------------------------------------------

liveSuite('against a live RedisBloom', (live) => {

  const cmd = (c, args) => c.sendCommand(args);

  live('sizing matches the server for 2,000 random (errorRate, capacity, options), floating point included', async (c) => {
    let x = 12345;
    const rnd = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
    const ulps = (a, b) => {
      const v = new DataView(new ArrayBuffer(16));
      v.setFloat64(0, a); v.setFloat64(8, b);
      const d = v.getBigInt64(0) - v.getBigInt64(8);
      return Number(d < 0n ? -d : d);
    };
    let bpeLastBit = 0;
    let zeroBits = 0;
    for (let i = 0; i < 2000; i++) {
      const errorRate = Number((10 ** -(0.05 + rnd() * 5)).toPrecision(1 + (i % 17)));
      const capacity = Math.max(1, Math.round(10 ** (rnd() * 6)));
      const nonScaling = i % 5 === 0;
      const key = `size:${i}`;
      const args = ['BF.RESERVE', key, String(errorRate), String(capacity)];
      if (nonScaling) args.push('NONSCALING'); else args.push('EXPANSION', String(1 + (i % 4)));
      await cmd(c, args);
      const [, header] = await cmd(c, ['BF.SCANDUMP', key, '0']);
      await cmd(c, ['DEL', key]);
      const options = nonScaling ? { errorRate, capacity, nonScaling } : { errorRate, capacity, expansion: 1 + (i % 4) };
      if (header.readBigUInt64LE(28) === 0n) {
        // RedisBloom made a 0-bit filter (its first BF.ADD would divide by zero): we refuse it
        expect(codeOf(() => new RedisBloomFilter(options))).toBe('INVALID_ARGUMENT');
        zeroBits++;
        continue;
      }
      const f = new RedisBloomFilter(options);
      const mine = Buffer.from(f.toRedisDump()[0][1]);
      f.free();
      // every byte but the bits-per-entry double (offset 52) identical; that one at most an ulp
      // apart, where the server's glibc log() is not correctly rounded (ours is)
      expect(Buffer.concat([mine.subarray(0, 52), mine.subarray(60)]).equals(Buffer.concat([header.subarray(0, 52), header.subarray(60)]))).toBe(true);
      const d = ulps(mine.readDoubleLE(52), header.readDoubleLE(52));
      expect(d).toBeLessThanOrEqual(1);
      bpeLastBit += d;
    }
    console.log(`sizing: 2,000 random pairs; ${bpeLastBit} bits-per-entry values one ulp from the server's glibc log(), ${zeroBits} 0-bit filters refused`);
    expect(bpeLastBit).toBeLessThanOrEqual(10);   // glibc misrounds ln for ~0.04% of inputs
  }, 120000);

  live('random operation sequences: the same replies op by op, dumps byte-identical, probes agree', async (c) => {
    for (const [i, o] of [{ errorRate: 0.02, capacity: 20, expansion: 3 }, { errorRate: 0.3, capacity: 5, expansion: 1 }, { errorRate: 0.001, capacity: 50, nonScaling: true }].entries()) {
      const key = `ops:${i}`;
      const args = ['BF.RESERVE', key, String(o.errorRate), String(o.capacity)];
      if (o.nonScaling) args.push('NONSCALING'); else args.push('EXPANSION', String(o.expansion));
      await cmd(c, args);
      const f = new RedisBloomFilter(o);
      for (let j = 0; j < 400; j++) {
        const k = `r${(j * 7919) % 300}`;
        let server;
        try { server = String(Number(await cmd(c, ['BF.ADD', key, k]))); } catch (e) { server = `E ${e.message}`; }
        expect(`${j} ${replyOf(f, k)}`).toBe(`${j} ${server}`);
      }
      // BF.MADD and addAll agree too
      const batch = Array.from({ length: 50 }, (_, j) => `m${j % 40}`);
      // BF.MADD replies per key, an error for each key a full filter refuses; addAll throws FULL
      // after the keys before it, and says how many it added.
      const madd = await cmd(c, ['BF.MADD', key, ...batch]);
      const firstError = madd.findIndex((v) => typeof v !== 'boolean' && typeof v !== 'number');
      const addedBefore = madd.slice(0, firstError < 0 ? madd.length : firstError).filter((v) => v === true || v === 1).length;
      let local;
      try { local = f.addAll(batch); } catch (e) { local = Number(/(\d+) added before it/.exec(e.message)?.[1]); expect(e.code).toBe('FULL'); }
      expect(firstError < 0 ? 'no error' : 'error').toBe(typeof local === 'number' && local === addedBefore && firstError >= 0 ? 'error' : firstError < 0 ? 'no error' : 'mismatch');
      expect(local).toBe(addedBefore);
      expect(sameChunks(f.toRedisDump(), (await scanDump(c, 'BF', key)).slice(0, -1))).toBe(true);
      const probes = Array.from({ length: 500 }, (_, j) => `p${j}`);
      const exists = (await cmd(c, ['BF.MEXISTS', key, ...probes])).map((v) => (v ? 1 : 0)).join('');
      expect(Array.from(f.hasAll(probes)).join('')).toBe(exists);
      f.free();
    }
  }, 60000);

  live('toRedisDump() of a local filter loads with BF.LOADCHUNK and the server then answers as the local filter', async (c) => {
    const f = new RedisBloomFilter({ errorRate: 0.005, capacity: 1000, expansion: 2 });
    const keys = Array.from({ length: 5000 }, (_, i) => `local:${i}`);
    f.addAll(keys);
    await loadChunks(c, 'BF', 'loaded', f.toRedisDump());
    const info = await cmd(c, ['BF.INFO', 'loaded']);
    expect({ capacity: info.Capacity, size: info.Size, filters: info['Number of filters'], items: info['Number of items inserted'], expansion: info['Expansion rate'] })
      .toEqual(pick(f.info()));
    const probes = [...keys.slice(0, 2000), ...Array.from({ length: 2000 }, (_, i) => `absent:${i}`)];
    const exists = (await cmd(c, ['BF.MEXISTS', 'loaded', ...probes])).map((v) => (v ? 1 : 0)).join('');
    expect(Array.from(f.hasAll(probes)).join('')).toBe(exists);
    expect(exists.slice(0, 2000)).toBe('1'.repeat(2000));
    // and the server keeps adding as the local filter does
    for (let i = 0; i < 300; i++) expect(String(Number(await cmd(c, ['BF.ADD', 'loaded', `more:${i}`])))).toBe(replyOf(f, `more:${i}`));
    f.free();
  }, 60000);

  live('a dump over 16 MiB comes in several chunks both ways, identical to the server', async (c) => {
    await cmd(c, ['BF.RESERVE', 'big', '0.0001', '9000000']);   // one 20.6 MiB filter
    const keys = Array.from({ length: 20000 }, (_, i) => `big:${i}`);
    for (let i = 0; i < keys.length; i += 1000) await cmd(c, ['BF.MADD', 'big', ...keys.slice(i, i + 1000)]);
    const server = await scanDump(c, 'BF', 'big');
    expect(server.length).toBe(4);                              // header, 16 MiB, the rest, [0, empty]
    expect(server[1][1].length).toBe(16 * 1024 * 1024);
    await sameBothWays(c, 'BF', 'big', new RedisBloomFilter({ errorRate: 0.0001, capacity: 9000000 }), keys, server);
  }, 120000);
});

test('fromRedisDump picks the class from the header chunk, and says why a truncated one is neither', () => {
  const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
  f.add('x');
  const [[, header], ...data] = f.toRedisDump();
  f.free();
  let err = null;
  try { fromRedisDump([[1, header.subarray(0, 60)], ...data]); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(FilterError);
  expect(err.code).toBe('CORRUPT_DATA');
  expect(err.message).toMatch(/a 60-byte header chunk is neither BF's .* nor CF's/);
  expect(err.message).not.toMatch(/cuckoo|CF dump: invalid/i);
});
