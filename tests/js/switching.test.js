// What users of bloom-filters / bloomfilter reach for first: Class.from(keys, options) and
// filter.equals(other), on every class (README "Coming from bloom-filters or bloomfilter").
import {
  BinaryFuseFilter, BlockedBloomFilter, BloomFilter, CountingBloomFilter, CuckooFilter, init, PackedKeys,
  RedisBloomFilter, RedisCuckooFilter, ScalableBloomFilter, deserialize,
} from '../../js/main/index.js';

const CLASSES = [BloomFilter, BlockedBloomFilter, CountingBloomFilter, ScalableBloomFilter, CuckooFilter,
  BinaryFuseFilter, RedisBloomFilter, RedisCuckooFilter];
const keys = (n, tag = 'k') => Array.from({ length: n }, (_, i) => `${tag}:${i}`);

beforeAll(() => init());

describe.each(CLASSES.map((C) => [C.name, C]))('%s', (_name, C) => {
  test('from(keys) holds every key, from an array, a Set, a generator or PackedKeys', () => {
    const list = keys(5000);
    const packed = new PackedKeys(new TextEncoder().encode(list.join('')),
      Uint32Array.from({ length: list.length + 1 }, (_, i) => list.slice(0, i).join('').length));
    function* gen() { yield* list; }
    for (const input of [list, new Set(list), gen(), packed]) {
      const f = C.from(input);
      try {
        expect(f).toBeInstanceOf(C);
        expect(f.hasAll(list).every((b) => b === 1)).toBe(true);
        // sized for the keys: the measured false-positive rate stays near the 1% default
        const absent = f.hasAll(keys(20000, 'absent')).reduce((a, b) => a + b, 0) / 20000;
        expect(absent).toBeLessThan(0.03);
      } finally {
        f.free();
      }
    }
  });

  test('from: the capacity is the key count; options pass through; one string is a TypeError', () => {
    const f = C.from(keys(1000), C === RedisCuckooFilter || C === BinaryFuseFilter ? {} : { errorRate: 0.001 });
    const info = f.info();
    if ('capacity' in info && C !== RedisBloomFilter && C !== RedisCuckooFilter) expect(info.capacity).toBe(1000);
    if (info.errorRate !== undefined) expect(info.errorRate).toBe(0.001);
    f.free();
    expect(() => C.from('https://bad.example/')).toThrow(TypeError);
    expect(() => C.from(['a', 42])).toThrow(TypeError);
    const empty = C.from([]);
    expect(empty.hasAll(['x']).length).toBe(1);
    empty.free();
  });

  test('equals: same class and bytes; not after one more key, not another class, and both must be live', () => {
    const a = C.from(keys(300));
    const b = C.from(keys(300));
    const other = (C === BloomFilter ? BlockedBloomFilter : BloomFilter).from(keys(300));
    try {
      expect(a.equals(b)).toBe(true);
      expect(b.equals(a)).toBe(true);
      expect(a.equals(a)).toBe(true);
      expect(a.equals(other)).toBe(false);
      expect(a.equals(null)).toBe(false);
      const c = C.from(keys(301));
      expect(a.equals(c)).toBe(false);
      c.free();
      b.free();
      expect(() => a.equals(b)).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
    } finally {
      a.free();
      other.free();
    }
  });
});

// No silent misuse: a number where `from` takes options is bloom-filters' positional errorRate
// (`BloomFilter.from(items, 0.0001)`); it used to build at the default 1%.
describe.each(CLASSES.map((C) => [C.name, C]))('%s.from(keys, number)', (_name, C) => {
  test('is a TypeError that names the fix', () => {
    const hasRate = C !== RedisCuckooFilter && C !== BinaryFuseFilter;
    let err = null;
    try {
      C.from(keys(100), 0.001).free();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toContain(`${C.name}.from(keys, 0.001)`);
    expect(err.message).toContain(hasRate ? 'pass { errorRate: 0.001 }' : `${C.name} has no errorRate option`);
    if (hasRate) {
      // what the fix builds: the filter of that rate, holding the keys
      const f = C.from(keys(100), { errorRate: 0.001 });
      const ref = new C({ capacity: 100, errorRate: 0.001 });
      ref.addAll(keys(100));
      expect(f.equals(ref)).toBe(true);
      f.free();
      ref.free();
    }
  });
});

// The peers' own README examples (bloom-filters 3.0.4, bloomfilter 1.1.0), run as they are written
// there, next to what the README's "Coming from bloom-filters or bloomfilter" section says to write
// here: one test per line of that section.
describe('coming from bloom-filters 3.0.4 (its README examples)', () => {
  let peer;
  beforeAll(async () => { peer = (await import('bloom-filters')).default; });

  test('Classic Bloom Filter: new BloomFilter(10, 4) is { bits, hashes } here; has, rate()', () => {
    const filter = new peer.BloomFilter(10, 4);
    filter.add('alice');
    filter.add('bob');
    expect(filter.has('bob')).toBe(true);
    expect(filter.has('daniel')).toBe(false);
    expect(typeof filter.rate()).toBe('number');
    const ours = new BloomFilter({ bits: 64, hashes: 4 });
    ours.add('alice');
    ours.add('bob');
    expect(ours.has('bob')).toBe(true);
    expect(ours.has('daniel')).toBe(false);
    expect(typeof ours.estimatedErrorRate()).toBe('number');
    expect(() => ours.rate()).toThrow(TypeError);
    ours.free();
  });

  test('create(n, errorRate) is new BloomFilter({ capacity, errorRate }); from(items, errorRate) is from(items, { errorRate })', () => {
    const items = ['alice', 'bob'];
    const errorRate = 0.04;
    const theirs = peer.BloomFilter.from(items, errorRate);
    expect(items.every((x) => theirs.has(x))).toBe(true);
    expect(() => BloomFilter.from(items, errorRate)).toThrow(new TypeError('BloomFilter.from(keys, 0.04): options are an object: pass { errorRate: 0.04 }'));
    const ours = BloomFilter.from(items, { errorRate });
    const created = new BloomFilter({ capacity: items.length, errorRate });
    expect(items.every((x) => ours.has(x))).toBe(true);
    expect(ours.info()).toMatchObject({ capacity: 2, errorRate: 0.04 });
    expect(created.info()).toMatchObject({ capacity: 2, errorRate: 0.04 });
    ours.free();
    created.free();
  });

  test('its .size is the bit count and .length the bits set; here .size is the keys added, info().bits the bits', () => {
    const theirs = peer.BloomFilter.create(1000, 0.01);
    const ours = new BloomFilter({ capacity: 1000, errorRate: 0.01 });
    for (const k of keys(10)) { theirs.add(k); ours.add(k); }
    expect(theirs.size).toBeGreaterThan(9000);     // bits
    expect(theirs.length).toBeGreaterThan(10);     // bits set (k per key)
    expect(ours.size).toBe(10);
    expect(ours.info().bits).toBeGreaterThan(9000);
    ours.free();
  });

  test('Cuckoo Filter: new CuckooFilter(15, 3, 2) is { capacity, fingerprintBits (8, 12 or 16), bucketSize }; remove', () => {
    const filter = new peer.CuckooFilter(15, 3, 2);
    filter.add('alice');
    filter.add('bob');
    expect(filter.has('bob')).toBe(true);
    filter.remove('bob');
    expect(filter.has('bob')).toBe(false);
    const ours = new CuckooFilter({ capacity: 15, fingerprintBits: 8, bucketSize: 2 });
    ours.add('alice');
    ours.add('bob');
    expect(ours.has('bob')).toBe(true);
    expect(ours.remove('bob')).toBe(true);
    expect(ours.has('bob')).toBe(false);
    ours.free();
    expect(() => new CuckooFilter({ capacity: 15, fingerprintBits: 3, bucketSize: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  test('Counting Bloom Filter: new CountingBloomFilter(15, 4) is { counters, hashes }; remove', () => {
    const filter = new peer.CountingBloomFilter(15, 4);
    const ours = new CountingBloomFilter({ counters: 64, hashes: 4 });
    for (const f of [filter, ours]) {
      f.add('alice');
      f.add('bob');
      f.add('carole');
      f.remove('carole');
      expect(f.has('bob')).toBe(true);
      expect(f.has('carole')).toBe(false);
    }
    ours.free();
  });

  test('Scalable Bloom Filter: new ScalableBloomFilter() needs { capacity, errorRate } here; capacity() is info().capacity', () => {
    const filter = new peer.ScalableBloomFilter();
    const ours = new ScalableBloomFilter({ capacity: 8, errorRate: 0.01 });
    for (const f of [filter, ours]) {
      f.add('alice');
      for (let i = 0; i < 1000; i++) f.add(`elem:${i}`);
    }
    expect(filter.has('somethingwrong')).toBe(false);
    expect(ours.has("alice") && ours.has("elem:999")).toBe(true);
    expect(filter.capacity()).toBeGreaterThan(1000);
    expect(() => ours.capacity()).toThrow(TypeError);
    expect(ours.info().capacity).toBe(8);   // the first layer's
    expect(ours.info().layers.reduce((a, l) => a + l.capacity, 0)).toBeGreaterThan(1000);
    expect(() => new ScalableBloomFilter()).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    ours.free();
  });

  test('Export and import: saveAsJSON()/fromJSON(json) is serialize()/deserialize(bytes) (base64 for JSON)', () => {
    // its README writes new BloomFilter(15, 0.01), which 3.0.4 refuses (0.01 hash functions): create()
    expect(() => new peer.BloomFilter(15, 0.01)).toThrow(/hash function/);
    const filter = peer.BloomFilter.create(15, 0.01);
    filter.add('alice');
    const imported = peer.BloomFilter.fromJSON(filter.saveAsJSON());
    expect(imported.has('alice')).toBe(true);
    const ours = BloomFilter.from(['alice']);
    expect(() => JSON.stringify(ours)).toThrow(/serialize\(\)/);
    const json = JSON.stringify({ bytes: Buffer.from(ours.serialize()).toString('base64') });
    const back = deserialize(Buffer.from(JSON.parse(json).bytes, 'base64'));
    expect(back).toBeInstanceOf(BloomFilter);
    expect(back.has('alice') && !back.has('bob')).toBe(true);
    back.free();
    ours.free();
  });

  test('XOR-Filter: XorFilter.create(items[, 16]) is BinaryFuseFilter.build(items[, { fingerprintBits: 16 }])', () => {
    expect(peer.XorFilter.create(['a']).has('a')).toBe(true);
    expect(peer.XorFilter.create(['a'], 16).has('a')).toBe(true);
    for (const fingerprintBits of [8, 16]) {
      const ours = BinaryFuseFilter.build(['a'], { fingerprintBits });
      expect(ours.has('a')).toBe(true);
      expect(ours.has('b')).toBe(false);
      ours.free();
    }
  });

  test('number keys: theirs hash them, here they are a TypeError (String(x) them)', () => {
    const theirs = peer.BloomFilter.create(100, 0.01);
    theirs.add(42);
    expect(theirs.has(42)).toBe(true);
    const ours = new BloomFilter({ capacity: 100, errorRate: 0.01 });
    expect(() => ours.add(42)).toThrow(TypeError);
    ours.add(String(42));
    expect(ours.has('42')).toBe(true);
    ours.free();
  });
});

describe('coming from bloomfilter 1.1.0 (its README example)', () => {
  let peer;
  beforeAll(async () => { peer = await import('bloomfilter'); });

  test('new BloomFilter(m, k) is { bits, hashes }; test(x) is has(x)', () => {
    const bloom = new peer.BloomFilter(32 * 256, 16);
    const ours = new BloomFilter({ bits: 32 * 256, hashes: 16 });
    for (const k of ['foo', 'bar']) { bloom.add(k); ours.add(k); }
    expect([bloom.test('foo'), bloom.test('bar'), bloom.test('blah')]).toEqual([true, true, false]);
    expect([ours.has('foo'), ours.has('bar'), ours.has('blah')]).toEqual([true, true, false]);
    expect(() => ours.test('foo')).toThrow(TypeError);
    // not sized for a key count: info() says 0 for both, estimatedErrorRate() is the rate at its fill
    expect(ours.info()).toMatchObject({ capacity: 0, errorRate: 0, bits: 32 * 256, hashes: 16 });
    expect(ours.estimatedErrorRate()).toBeGreaterThan(0);
    ours.free();
  });

  test('JSON.stringify(bloom) / BloomFilter.fromJSON(json) is serialize() / deserialize(bytes) here', () => {
    const bloom = new peer.BloomFilter(32 * 256, 16);
    bloom.add('foo');
    const loadedBloom = peer.BloomFilter.fromJSON(JSON.stringify(bloom));
    expect(loadedBloom.test('foo')).toBe(true);
    const ours = new BloomFilter({ bits: 32 * 256, hashes: 16 });
    ours.add('foo');
    expect(() => JSON.stringify(ours)).toThrow(/serialize\(\) bytes/);
    expect(BloomFilter.fromJSON).toBeUndefined();
    const loaded = deserialize(ours.serialize());
    expect(loaded.has('foo')).toBe(true);
    loaded.free();
    ours.free();
  });

  test('withTargetError(n, p) is new BloomFilter({ capacity: n, errorRate: p })', () => {
    const autoBloom = peer.BloomFilter.withTargetError(1_000_000, 1e-6);
    const ours = new BloomFilter({ capacity: 1_000_000, errorRate: 1e-6 });
    // the same m, which bloomfilter rounds up to whole 32-bit words; the same k
    expect(Math.ceil(ours.info().bits / 32) * 32).toBe(autoBloom.m);
    expect(ours.info().hashes).toBe(autoBloom.k);
    ours.free();
  });

  test('size() (an estimated key count) is a TypeError here: size is a number, the keys added', () => {
    const bloom = new peer.BloomFilter(32 * 256, 16);
    const ours = new BloomFilter({ bits: 32 * 256, hashes: 16 });
    for (const k of keys(20)) { bloom.add(k); ours.add(k); }
    expect(Math.round(bloom.size())).toBe(20);
    expect(() => ours.size()).toThrow(TypeError);
    expect(ours.size).toBe(20);
    ours.free();
  });

  test('static BloomFilter.union(a, b) (a new filter) is a.union(b) here, in place; intersection is intersect', () => {
    const [a, b] = [new peer.BloomFilter(1024, 3), new peer.BloomFilter(1024, 3)];
    const [x, y] = [new BloomFilter({ bits: 1024, hashes: 3 }), new BloomFilter({ bits: 1024, hashes: 3 })];
    a.add('one'); x.add('one');
    b.add('two'); y.add('two');
    const c = peer.BloomFilter.union(a, b);
    expect(c.test('one') && c.test('two') && !a.test('two')).toBe(true);
    expect(BloomFilter.union).toBeUndefined();
    expect(x.union(y)).toBe(x);
    expect(x.has('one') && x.has('two')).toBe(true);
    expect(typeof peer.BloomFilter.intersection).toBe('function');
    expect(typeof x.intersect).toBe('function');
    x.free();
    y.free();
  });

  test('it has no CountingBloomFilter (1.1.0 exports BloomFilter only): ours is new CountingBloomFilter({ counters, hashes })', () => {
    expect(Object.keys(peer)).toEqual(['BloomFilter']);
  });

  test('number keys: it hashes String(x); here they are a TypeError', () => {
    const bloom = new peer.BloomFilter(1024, 3);
    bloom.add(42);
    expect(bloom.test('42')).toBe(true);
    const ours = new BloomFilter({ bits: 1024, hashes: 3 });
    expect(() => ours.add(42)).toThrow(TypeError);
    ours.free();
  });
});
