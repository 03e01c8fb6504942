// Issue 24, defects 1, 2 and 4: wasm memory near its 4 GiB limit. Every allocation either fits
// entirely below 4 GiB or fails with FilterError OUT_OF_MEMORY, leaving every other filter intact;
// a key scratch that cannot grow is OUT_OF_MEMORY and never leaves a freed block in use.
// The tests of this file share one wasm instance and run in order: its memory grows to 4 GiB
// once (wasm memory never shrinks) and each test leaves it with free regions high in memory,
// where the allocator's 32-bit fit check used to wrap. About 50 s and 6 GB of RSS.
import {
  BinaryFuseFilter, BlockedBloomFilter, BloomFilter, CountingBloomFilter, CuckooFilter, FilterError,
  RedisBloomFilter, RedisCuckooFilter, ScalableBloomFilter, deserialize, deserializeFrom, fromRedisDump, init,
} from '../../js/main/index.js';
import { crc32 } from '../format/reader.mjs';

beforeAll(() => init());

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const keysOf = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}:${i}`);

/** The FilterError code `fn` throws ('OK' when it returns; the result is freed). */
const code = (fn) => {
  try {
    const r = fn();
    r?.free?.();
  } catch (e) {
    if (!(e instanceof FilterError)) throw e;
    return e.code;
  }
  return 'OK';
};

/** Every key of `keys` reads present in `f`, one by one and as a batch. */
const holdsAll = (f, keys) => keys.every((k) => f.has(k)) && f.hasAll(keys).every((v) => v === 1);

/** The classes sized directly in bytes: a Bloom, blocked Bloom and counting filter of `bytes` each. */
const byBytes = (bytes, hashes) => ({
  BloomFilter: () => new BloomFilter({ bits: bytes * 8, hashes }),
  BlockedBloomFilter: () => new BlockedBloomFilter({ blocks: bytes / 32 }),
  CountingBloomFilter: () => new CountingBloomFilter({ counters: 2 * bytes, hashes }),   // 4-bit counters
});

// Filters of about 2.25 GiB (2 GiB where the class sizes in powers of two) of each class.
const HUGE = {
  ...byBytes(2.25 * GiB, 1),
  ScalableBloomFilter: () => new ScalableBloomFilter({ capacity: 2e9, errorRate: 0.01, nonScaling: true }),
  CuckooFilter: () => new CuckooFilter({ capacity: 2 ** 30, fingerprintBits: 8, bucketSize: 4 }),
  BinaryFuseFilter: () => BinaryFuseFilter.builder().reserve((2.25 * GiB) / 8),
  RedisBloomFilter: () => new RedisBloomFilter({ capacity: 1.75e9, errorRate: 0.01 }),
  RedisCuckooFilter: () => new RedisCuckooFilter({ capacity: 2 ** 31, bucketSize: 2 }),
};
// The same classes at 64 MiB: what must still fit next to the held filter afterwards.
const SMALL = {
  ...byBytes(64 * MiB, 3),
  ScalableBloomFilter: () => new ScalableBloomFilter({ capacity: 5e7, errorRate: 0.01 }),
  CuckooFilter: () => new CuckooFilter({ capacity: 2 ** 26, fingerprintBits: 8, bucketSize: 4 }),
  BinaryFuseFilter: () => BinaryFuseFilter.build(keysOf('small', 1000)),
  RedisBloomFilter: () => new RedisBloomFilter({ capacity: 4e7, errorRate: 0.01 }),
  RedisCuckooFilter: () => new RedisCuckooFilter({ capacity: 2 ** 26, bucketSize: 2 }),
};

/**
 * CRC-32 of `prefix` followed by `zeros` zero bytes, without reading them: appending a zero byte
 * is a linear map of the CRC register over GF(2), applied `zeros` times by repeated squaring.
 */
function crc32WithZeros(prefix, zeros) {
  const step = (r) => crc32Step(r);
  const apply = (cols, v) => {
    let out = 0;
    for (let i = 0; v !== 0; i++, v >>>= 1) if (v & 1) out ^= cols[i];
    return out >>> 0;
  };
  let cols = Array.from({ length: 32 }, (_, i) => step((1 << i) >>> 0));
  let reg = (~crc32(prefix)) >>> 0;        // the register before the final inversion
  for (let n = zeros; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) reg = apply(cols, reg);
    cols = cols.map((c) => apply(cols, c));
  }
  return (~reg) >>> 0;
}
const CRC_POLY = 0xedb88320;
/** The CRC register after one zero byte (eight shifts with the reflected polynomial). */
function crc32Step(reg) {
  let r = reg;
  for (let k = 0; k < 8; k++) r = r & 1 ? (r >>> 1) ^ CRC_POLY : r >>> 1;
  return r >>> 0;
}

describe('an allocation that would end past 4 GiB', () => {
  const heldKeys = keysOf('held', 20000);
  let held;

  beforeAll(() => {
    // 2 GiB held low in memory; 1.5 GiB above it created and freed: a free region high in memory
    held = new BloomFilter({ bits: 16 * GiB, hashes: 1 });
    held.addAll(heldKeys);
    new BloomFilter({ bits: 12 * GiB, hashes: 1 }).free();
  }, 120_000);
  afterAll(() => held?.free());

  test.each(Object.keys(HUGE))('%s: OUT_OF_MEMORY, the held filter intact, a smaller one still fits', (name) => {
    expect(code(HUGE[name])).toBe('OUT_OF_MEMORY');
    expect(holdsAll(held, heldKeys)).toBe(true);
    const small = SMALL[name]();
    try {
      if (name !== 'BinaryFuseFilter') {
        const keys = keysOf(`small-${name}`, 5000);
        small.addAll(keys);
        expect(holdsAll(small, keys)).toBe(true);
      } else {
        expect(holdsAll(small, keysOf('small', 1000))).toBe(true);
      }
    } finally {
      small.free();
    }
    expect(holdsAll(held, heldKeys)).toBe(true);
  }, 120_000);

  // Bytes whose header announces a 2.25 GiB Bloom filter with an empty bit array and a valid
  // checksum (deserialize checks it before it allocates), so only the allocation can fail.
  const hugeBloomBytes = () => {
    const header = new Uint8Array(new BloomFilter({ bits: 64, hashes: 1 }).serialize(), 0, 56);
    const bits = 2.25 * 8 * GiB;
    const body = 36 + bits / 8;
    const bytes = new Uint8Array(20 + body + 4);
    bytes.set(header);
    const view = new DataView(bytes.buffer);
    view.setBigUint64(12, BigInt(body), true);
    view.setBigUint64(20, BigInt(bits), true);
    view.setUint32(20 + body, crc32WithZeros(bytes.subarray(0, 56), bits / 8), true);
    return bytes;
  };

  test('deserialize and deserializeFrom of a 2.25 GiB filter: OUT_OF_MEMORY, nothing overwritten', () => {
    const bytes = hugeBloomBytes();
    expect(code(() => deserialize(bytes))).toBe('OUT_OF_MEMORY');
    expect(holdsAll(held, heldKeys)).toBe(true);
    expect(code(() => deserializeFrom(bytes.length, (target, offset) => {
      target.set(bytes.subarray(offset, offset + target.length));
    }))).toBe('OUT_OF_MEMORY');
    expect(holdsAll(held, heldKeys)).toBe(true);
  }, 120_000);

  test('fromRedisDump of a 2.25 GiB BF dump: OUT_OF_MEMORY, nothing overwritten', () => {
    const small = new RedisBloomFilter({ capacity: 100, errorRate: 0.01 });
    const [[, smallHeader]] = small.toRedisDump();
    small.free();
    const header = Uint8Array.from(smallHeader);
    const bytes = 2.25 * GiB;
    const view = new DataView(header.buffer);
    view.setBigUint64(20, BigInt(bytes), true);          // the link's bytes
    view.setBigUint64(28, BigInt(bytes * 8), true);      // and bits
    const piece = new Uint8Array(16 * MiB);
    const chunks = [[1, header]];
    for (let at = 0; at < bytes; at += piece.length) chunks.push([1 + at + piece.length, piece]);
    expect(code(() => fromRedisDump(chunks))).toBe('OUT_OF_MEMORY');
    expect(code(() => RedisBloomFilter.fromRedisDump(chunks))).toBe('OUT_OF_MEMORY');
    expect(holdsAll(held, heldKeys)).toBe(true);
  }, 120_000);
});

test('a cuckoo filter grown by copies of one key to 2.7 GiB: the next growth is false, every copy kept', () => {
  // expansion 4: sub-filters of 2, 8, 32, 128, 512 MiB and 2 GiB (8 copies of a key fit in each)
  const f = new CuckooFilter({ capacity: 1.8e6, fingerprintBits: 8, bucketSize: 4, expansion: 4 });
  const others = keysOf('other', 1000);
  f.addAll(others);
  let copies = 0;
  while (f.add('same') && copies < 1000) copies++;
  const info = f.info();
  expect(info.filters).toBeGreaterThanOrEqual(5);     // 682 MiB or more: as far as memory allows
  expect(f.byteLength).toBeGreaterThan(512 * MiB);
  expect(f.count('same')).toBe(copies);
  expect(holdsAll(f, others)).toBe(true);
  expect(f.add('same')).toBe(false);    // again: still false, nothing changed
  expect(f.count('same')).toBe(copies);
  f.free();
}, 120_000);

describe('a key scratch that cannot grow', () => {
  const fillers = [];
  afterAll(() => fillers.forEach((f) => f.free()));

  test('is OUT_OF_MEMORY on every path, and never loses a later filter\'s keys', () => {
    const warm = new BloomFilter({ bits: 1024, hashes: 1 });
    warm.has('the scratch exists before memory fills');   // as it does in any program that used a filter
    warm.free();
    for (const size of [256 * MiB, 16 * MiB, MiB]) {
      for (;;) {
        try {
          fillers.push(new BloomFilter({ bits: size * 8, hashes: 1 }));
        } catch (e) {
          expect(e).toBeInstanceOf(FilterError);
          expect(e.code).toBe('OUT_OF_MEMORY');
          break;
        }
      }
    }
    const probe = fillers[0];
    // 1.2 MB even as ASCII (a batch of long ASCII keys packs at one byte a character, issue 36),
    // so every path must grow the 1 MiB scratch, and none can
    const long = 'x'.repeat(1_200_000);
    const longBytes = new Uint8Array(3 * MiB);
    for (const attempt of [
      () => probe.has(long), () => probe.add(long), () => probe.hasAll(['a', long]),
      () => probe.addAll(['a', long]), () => probe.has(longBytes), () => probe.addAll([longBytes]),
    ]) {
      expect(code(attempt)).toBe('OUT_OF_MEMORY');
    }
    let f;
    try {
      f = new BloomFilter({ bits: 896 * 1024 * 8, hashes: 3 });
    } catch (e) {
      expect(e.code).toBe('OUT_OF_MEMORY');   // no room left: make some and try again
      fillers.pop().free();
      f = new BloomFilter({ bits: 896 * 1024 * 8, hashes: 3 });
    }
    const keys = keysOf('late', 5000);
    for (const k of keys) f.add(k);
    expect(keys.every((k) => f.has(k))).toBe(true);
    fillers[1].addAll(keysOf('other', 100));            // a batch through the scratch
    expect(keys.filter((k) => !f.has(k))).toEqual([]);
    f.free();
  }, 120_000);
});

// Memory filled to the limit with each class in turn (big filters, then 16 MiB and 1 MiB fillers
// until even those fail), with small filters of the class that grow by large factors made first.
// Then every operation that may allocate: batch adds and queries, a key larger than the scratch,
// growth, serialize and deserialize, a fuse build; then every filter is checked against the keys
// it acknowledged, and after one big filter is freed, bytes read back equal.
const BIG = {
  ...byBytes(448 * MiB, 3),
  ScalableBloomFilter: () => new ScalableBloomFilter({ capacity: 3.7e8, errorRate: 0.01, nonScaling: true }),
  CuckooFilter: () => new CuckooFilter({ capacity: 2 ** 27, fingerprintBits: 8, bucketSize: 4 }),
  BinaryFuseFilter: byBytes(448 * MiB, 3).BlockedBloomFilter,   // a fuse filter is built, not filled
  RedisBloomFilter: () => new RedisBloomFilter({ capacity: 3.5e8, errorRate: 0.01 }),
  RedisCuckooFilter: () => new RedisCuckooFilter({ capacity: 2 ** 28, bucketSize: 2 }),
};
// A small filter of each class, made first: those that can grow do so by large factors.
const GROWABLE = {
  BloomFilter: () => new BloomFilter({ capacity: 1000, errorRate: 0.01 }),
  BlockedBloomFilter: () => new BlockedBloomFilter({ capacity: 1000, errorRate: 0.01 }),
  CountingBloomFilter: () => new CountingBloomFilter({ capacity: 1000, errorRate: 0.01 }),
  BinaryFuseFilter: () => BinaryFuseFilter.build(keysOf('BinaryFuseFilter:grow:0', 300)),
  ScalableBloomFilter: () => new ScalableBloomFilter({ capacity: 1000, errorRate: 0.01, expansion: 65536 }),
  CuckooFilter: () => new CuckooFilter({ capacity: 1000, expansion: 65536 }),
  RedisBloomFilter: () => new RedisBloomFilter({ capacity: 1000, errorRate: 0.01, expansion: 1e6 }),
  RedisCuckooFilter: () => new RedisCuckooFilter({ capacity: 1000, expansion: 32768 }),
};

/** Runs fn; a FilterError OUT_OF_MEMORY (or FULL, where growth is refused) is returned as its code. */
const outcome = (fn, allowed = ['OUT_OF_MEMORY']) => {
  try {
    return { value: fn() };
  } catch (e) {
    if (!(e instanceof FilterError) || !allowed.includes(e.code)) throw e;
    return { code: e.code };
  }
};

describe('memory filled to the limit', () => {
  test.each(Object.keys(BIG))('with %s: every operation fails cleanly or works, no key lost', (name) => {
    const live = [];        // [filter, keys it acknowledged]
    const fillers = [];
    const track = (f, prefix) => {
      const keys = keysOf(`${name}:${prefix}:${live.length}`, 300);
      if (name !== 'BinaryFuseFilter' || !(f instanceof BinaryFuseFilter)) f.addAll(keys);
      live.push([f, keys]);
      return f;
    };
    try {
      const growable = track(GROWABLE[name](), 'grow');
      for (;;) {
        const r = outcome(BIG[name]);
        if (r.code) break;
        track(r.value, 'big');
      }
      expect(live.length).toBeGreaterThan(2);
      for (const bytes of [16 * MiB, MiB]) {
        for (;;) {
          const r = outcome(() => new BloomFilter({ bits: bytes * 8, hashes: 1 }));
          if (r.code) break;
          fillers.push(r.value);
        }
      }
      const [big, bigKeys] = live[live.length - 1];
      // batches and single keys on a full memory
      const more = keysOf(`${name}:more`, 20000);
      big.addAll(more);
      bigKeys.push(...more);
      expect(holdsAll(big, bigKeys)).toBe(true);
      // a key longer than the scratch: it grows, or it is OUT_OF_MEMORY
      const long = 'y'.repeat(3 * MiB);
      const hasLong = outcome(() => big.has(long));
      if (hasLong.code === undefined) expect(typeof hasLong.value).toBe('boolean');
      // growth: keys one by one, each acknowledged key kept
      if (!(growable instanceof BinaryFuseFilter)) {
        const keys = live[0][1];
        for (let i = 0; i < 3000; i++) {
          const key = `${name}:grown:${i}`;
          const r = outcome(() => growable.add(key), ['OUT_OF_MEMORY', 'FULL']);
          // a Bloom-type add that returns false found the key present already; a cuckoo one did not fit
          const cuckoo = growable instanceof CuckooFilter || growable instanceof RedisCuckooFilter;
          if (r.code !== undefined || (cuckoo && r.value === false)) break;
          keys.push(key);
        }
      }
      // a fuse build: OUT_OF_MEMORY or a filter that answers for every key
      const fuseKeys = keysOf(`${name}:fuse`, 100000);
      const fuse = outcome(() => BinaryFuseFilter.build(fuseKeys));
      if (fuse.value) live.push([fuse.value, fuseKeys]);
      // serialize works (the bytes go to JS); reading them back may not fit, and fails cleanly
      const [small] = live[0];
      const smallBytes = small.serialize();
      const back = outcome(() => deserialize(smallBytes));
      if (back.value) {
        expect(new Uint8Array(back.value.serialize())).toEqual(new Uint8Array(smallBytes));
        back.value.free();
      }
      // every filter still holds every key it acknowledged
      for (const [f, keys] of live) expect(holdsAll(f, keys)).toBe(true);
      // with room made, the bytes read back equal
      big.free();
      live.splice(live.length - (fuse.value ? 2 : 1), 1);
      const again = deserialize(smallBytes);
      expect(new Uint8Array(again.serialize())).toEqual(new Uint8Array(smallBytes));
      expect(holdsAll(again, live[0][1])).toBe(true);
      again.free();
    } finally {
      for (const [f] of live) if (!f.freed) f.free();
      for (const f of fillers) f.free();
    }
  }, 120_000);
});
