// addAll (and CountingBloomFilter.removeAll) validate every key before any is added (docs/API.md):
// a key that is not a string or bytes throws a TypeError and leaves the filter's bytes as they were,
// wherever it sits in the batch. js/main/keys.js validates a batch of one chunk (16,384 keys) by
// packing it; a larger batch is packed ahead (up to 2^20 keys, 16 bytes a key, so at most 16 MiB)
// before the first call, and the keys past that area are validated in one pass just before that
// call. So these cases cover each place a bad key can be met: a batch of one chunk, a
// later chunk, a chunk cut short by the 1 MiB scratch filling, a chunk of long ASCII keys packed
// joined (which stops at a key that is not a string), an area ahead that fills early (keys longer
// than 16 bytes), keys past the area's 2^20 keys, and a batch given as an iterable.
import { init } from '../../js/main/index.js';
import * as lib from '../../js/main/index.js';

beforeAll(() => init());

const CLASSES = ['BloomFilter', 'BlockedBloomFilter', 'CountingBloomFilter', 'ScalableBloomFilter',
  'CuckooFilter', 'RedisBloomFilter', 'RedisCuckooFilter'];

function make(name) {
  if (name === 'RedisCuckooFilter') return new lib.RedisCuckooFilter({ capacity: 100000 });
  return new lib[name]({ capacity: 100000, errorRate: 0.01 });
}

const short = (n, from = 0) => Array.from({ length: n }, (_, i) => `key:${from + i}`);
const url = (n, len, from = 0) => Array.from({ length: n }, (_, i) => `https://host-${from + i}.example.com/`.padEnd(len, 'p'));

/** `keys` with `bad` put in place of the key at `at`. */
/** The filter's serialized bytes, as a Buffer (compared with equals(): Jest's toEqual is slow on MBs). */
const bytesOf = (f) => Buffer.from(f.serialize());

function withBad(keys, at, bad) {
  const out = keys.slice();
  out[at] = bad;
  return out;
}

// [what, keys, index of the bad key]
const CASES = [
  ['one chunk, short keys, bad key last', short(1000), 999],
  ['one chunk, short keys, bad key first', short(1000), 0],
  ['a later chunk (bad key at 20,000 of 30,000)', short(30000), 20000],
  ['the second chunk\'s first key', short(20000), 16384],
  ['the last key of three chunks', short(40000), 39999],
  ['long keys: the scratch fills before the chunk does (bad key last)', url(400, 5000), 399],
  ['long ASCII keys packed joined: bad key inside the first chunk', url(2000, 60), 1000],
  ['long ASCII keys packed joined: bad key in a later chunk', url(20000, 40), 17000],
  ['keys longer than 16 bytes: the area ahead fills (bad key inside it)', short(32).concat(url(29968, 300)), 500],
  ['keys longer than 16 bytes: the area ahead fills (bad key past it)', short(32).concat(url(29968, 300)), 29999],
];

describe.each(CLASSES)('%s.addAll', (name) => {
  test.each(CASES)('%s: TypeError, nothing added', (_what, keys, at) => {
    const f = make(name);
    f.addAll(short(50, 900000));          // not empty, so "unchanged" is not "empty"
    const before = bytesOf(f);
    for (const bad of [42, null, {}]) {
      expect(() => f.addAll(withBad(keys, at, bad))).toThrow(TypeError);
      expect(bytesOf(f).equals(before)).toBe(true);
    }
    expect(() => f.addAll(new Set(withBad(keys, at, 7)))).toThrow(TypeError);   // an iterable
    expect(bytesOf(f).equals(before)).toBe(true);
    f.free();
  });
});

test('CountingBloomFilter.removeAll: a bad key anywhere removes nothing', () => {
  const f = new lib.CountingBloomFilter({ capacity: 100000, errorRate: 0.01 });
  const keys = short(30000);
  f.addAll(keys);
  const before = bytesOf(f);
  for (const at of [0, 16383, 16384, 29999]) {
    expect(() => f.removeAll(withBad(keys, at, 5))).toThrow(TypeError);
    expect(bytesOf(f).equals(before)).toBe(true);
  }
  expect(f.removeAll(keys)).toBe(30000);   // and a good batch still works
  f.free();
});

// Past the area packed ahead: its 2^20 keys, its 16 bytes a key (one class: these batches are large).
test.each([
  ['past the 2^20 keys packed ahead', () => short((1 << 20) + 100), (1 << 20) + 50],
  ['a bad key among the 2^20 packed ahead', () => short((1 << 20) + 100), 1000000],
  ['past the area ahead of 600,000 keys of 30 characters (16 bytes a key)', () => url(600000, 30), 599999],
])('BlockedBloomFilter.addAll, %s: TypeError, nothing added', (_what, makeKeys, at) => {
  const f = new lib.BlockedBloomFilter({ capacity: 100000, errorRate: 0.01 });
  f.addAll(short(50, 900000));
  const before = bytesOf(f);
  const keys = makeKeys();
  expect(() => f.addAll(withBad(keys, at, {}))).toThrow(TypeError);
  expect(bytesOf(f).equals(before)).toBe(true);
  expect(f.addAll(keys)).toBeGreaterThan(0);          // the good batch, whole
  expect(f.hasAll(keys).every((b) => b === 1)).toBe(true);
  f.free();
});

// A batch that stops part-way with an error inside the area packed ahead (a full NONSCALING
// filter) leaves the key region as it was: one key at a time reads its key where encodeKey wrote it.
test('after a batch packed ahead throws part-way, has() and add() of one key are right', () => {
  const f = new lib.RedisBloomFilter({ errorRate: 0.01, capacity: 20000, nonScaling: true });
  const keys = short(40000);
  expect(() => f.addAll(keys)).toThrow(/full/);
  // the first chunk was added whole; absent keys read absent but for false positives (1%)
  expect(keys.slice(0, 16384).every((k) => f.has(k))).toBe(true);
  expect(short(2000, 500000).filter((k) => f.has(k)).length).toBeLessThan(100);
  const g = new lib.BloomFilter({ capacity: 1000, errorRate: 0.001 });
  g.addAll(['one key']);
  expect(g.has('one key')).toBe(true);
  expect(short(2000, 500000).filter((k) => g.has(k)).length).toBeLessThan(20);
  f.free();
  g.free();
});

test('a good batch of each shape is added whole (the cases above fail only for the bad key)', () => {
  for (const [, keys] of CASES) {
    const f = new lib.BlockedBloomFilter({ capacity: 100000, errorRate: 0.01 });
    f.addAll(keys);
    expect(f.hasAll(keys).every((b) => b === 1)).toBe(true);
    f.free();
  }
});
