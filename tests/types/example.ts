// A typed usage example of the whole public API. It is never run: tests/js/types.test.js
// compiles it with `tsc --noEmit --strict` against js/main/index.d.ts, so the declarations stay
// usable, and the `@ts-expect-error` lines prove that misuse is rejected.
import {
  init, getWasmModule, murmur3, deserialize, kindOf, FilterError,
  BloomFilter, BlockedBloomFilter, CountingBloomFilter, ScalableBloomFilter, CuckooFilter,
  BinaryFuseFilter, RedisBloomFilter, RedisCuckooFilter, fromRedisDump,
} from 'bloomcuckoo';
import type {
  AnyFilter, Filter, FilterErrorCode, FilterKind, InitOptions, Key, BloomFilterInfo,
  CuckooLocation, ScalableBloomLayerInfo, RedisBloomFilterInfo, RedisCuckooFilterInfo,
} from 'bloomcuckoo';

export async function example(urls: string[], blob: Uint8Array): Promise<void> {
  const options: InitOptions = {};
  await init(options);
  await init({ url: new URL('https://cdn.example/bloomcuckoo.wasm') });
  await init({ url: '/assets/bloomcuckoo.wasm' });
  const module: WebAssembly.Module = getWasmModule();
  await init({ module });

  const h32: number = murmur3.x86_32('hello', 42);
  const h128: Uint8Array = murmur3.x64_128(blob);
  void h32; void h128;

  const keys: Key[] = ['a', blob, blob.buffer as ArrayBuffer, new DataView(new ArrayBuffer(4)), new Uint16Array(2)];

  // Bloom family
  const bf = new BloomFilter({ capacity: 1_000_000, errorRate: 0.001 });
  const bf2 = new BloomFilter({ bits: 1 << 20, hashes: 7, seed: 1 });
  const isNew: boolean = bf.add('https://bad.example/');
  const maybe: boolean = bf.has('https://ok.example/');
  const added: number = bf.addAll(urls);
  const hits: Uint8Array = bf.hasAll(new Set(urls));
  const same: BloomFilter = bf.union(bf2).intersect(bf2);
  const info: BloomFilterInfo = bf.info();
  const est: number = bf.estimatedSize() + bf.estimatedErrorRate() + info.bits + info.fillRatio;
  const pos: Float64Array = bf.positions('x');
  const map: Float32Array = bf.fillMap(64);
  void isNew; void maybe; void added; void hits; void same; void est; void pos; void map; void keys;

  const bytes: ArrayBuffer = bf.serialize();
  const back: BloomFilter = BloomFilter.deserialize(bytes);
  const any: AnyFilter = deserialize(new Uint8Array(bytes));
  const kind: FilterKind = kindOf(bytes);
  if (any instanceof BloomFilter) any.add('narrowed');
  // every class's info().kind is a FilterKind, and every FilterKind is some class's: the same
  // union both ways (tests/js/kinds.test.js checks FilterKind against js/shared/kind-table.js)
  const anyKind = any.info().kind;
  const asKind: FilterKind = anyKind;
  const fromKind: typeof anyKind = kind;
  void asKind; void fromKind;

  const rbf = new RedisBloomFilter({ errorRate: 0.01, capacity: 1000, expansion: 2 });
  const rbAdded: boolean = rbf.add('k');
  const rbInfo: RedisBloomFilterInfo = rbf.info();
  const rbExp: number | null = rbInfo.expansion;
  const dump: Array<[number, Uint8Array]> = rbf.toRedisDump();
  const pulledAny = fromRedisDump([...dump, [0, new Uint8Array(0)]]);
  const pulled: RedisBloomFilter = pulledAny instanceof RedisBloomFilter ? pulledAny : rbf;
  const pulled2: RedisBloomFilter = RedisBloomFilter.fromRedisDump([['1', dump[0][1]], [2n, dump[1][1]]]);
  void rbAdded; void rbExp; void pulled; void pulled2;

  const rcf = new RedisCuckooFilter({ capacity: 1000, bucketSize: 3, maxIterations: 20, expansion: 2 });
  const rcAdded: boolean = rcf.add('k') && rcf.addUnique('k');
  const rcCount: number = rcf.count('k');
  const rcRemoved: boolean = rcf.remove('k');
  const rcInserted: number = rcf.addAll(['a', 'b'], { unique: true });
  rcf.compact();
  const rcInfo: RedisCuckooFilterInfo = rcf.info();
  const rcDeleted: number = rcInfo.itemsDeleted + rcInfo.subFilters[0].buckets;
  const rcPulled: RedisCuckooFilter = RedisCuckooFilter.fromRedisDump(rcf.toRedisDump());
  // @ts-expect-error fingerprint bits are fixed at 8 in RedisBloom's CF
  void new RedisCuckooFilter({ capacity: 1000, fingerprintBits: 16 });
  void rcAdded; void rcCount; void rcRemoved; void rcInserted; void rcDeleted; void rcPulled;

  const blocked = new BlockedBloomFilter({ capacity: 1000, errorRate: 0.01 });
  const blocked2 = new BlockedBloomFilter({ blocks: 64 });
  blocked.union(blocked2);
  const blocks: number = blocked.info().blocks;
  void blocks;

  const counting = new CountingBloomFilter({ capacity: 1000, errorRate: 0.01 });
  const counting2 = new CountingBloomFilter({ counters: 4096, hashes: 4 });
  counting.add('k');
  const removed: boolean = counting.remove('k');
  const counters: number = counting2.info().counters;
  void removed; void counters;

  const scalable = new ScalableBloomFilter({ capacity: 1000, errorRate: 0.01, expansion: 2, nonScaling: false });
  scalable.addAll(['a', 'b']);
  const layers: ScalableBloomLayerInfo[] = scalable.info().layers;
  void layers;

  // Cuckoo
  const cf = new CuckooFilter({ capacity: 10_000, fingerprintBits: 12, bucketSize: 4, maxIterations: 500, expansion: 1 });
  const ok: boolean = cf.add('a') && cf.addUnique('b') && cf.remove('a');
  const n: number = cf.count('b') + cf.loadFactor + cf.addAll(urls);
  cf.compact();
  const where: CuckooLocation = cf.locate('b');
  const [i1, i2] = where.buckets[0];
  void ok; void n; void i1; void i2;

  // Binary fuse
  const fuse = BinaryFuseFilter.build(urls, { fingerprintBits: 16 });
  const fuseDefault = BinaryFuseFilter.build(new Set(['x']));
  const segs: number = fuse.info().segmentCount + fuseDefault.size;
  void segs;

  // Generic code over every filter
  const all: Filter[] = [bf, bf2, back, any, blocked, blocked2, counting, counting2, scalable, cf, fuse, fuseDefault];
  for (const f of all) {
    const desc: string = `${f.info().kind} ${f.size} ${f.byteLength} ${f.seed} ${f.freed}`;
    void desc;
    f.clear();
    f.free();
  }
  {
    using scoped = new BloomFilter({ capacity: 10, errorRate: 0.1 });
    scoped.add('freed at the end of this block');
  }

  // Errors
  try {
    deserialize(new Uint8Array([1, 2, 3]));
  } catch (err) {
    if (err instanceof FilterError) {
      const code: FilterErrorCode = err.code;
      if (code === 'CORRUPT_DATA' || code === 'UNSUPPORTED_VERSION' || code === 'DISPOSED') console.log(err.message);
    }
  }
  const custom = new FilterError('FULL', 'example');
  void custom;

  // Misuse the types reject
  // @ts-expect-error capacity/errorRate and bits/hashes do not mix
  new BloomFilter({ capacity: 10, errorRate: 0.1, bits: 100 });
  // @ts-expect-error a number is not a key
  bf.has(42);
  // @ts-expect-error keys must be an iterable of keys
  bf.addAll([{}]);
  // @ts-expect-error one string is not a batch of keys (it would be one key per character)
  bf.addAll('https://bad.example/');
  // @ts-expect-error nor for a query
  bf.hasAll('https://bad.example/');
  // @ts-expect-error a fuse filter is built, not constructed
  new BinaryFuseFilter();
  // @ts-expect-error a fuse filter has no add
  fuse.add('x');
  // @ts-expect-error a Bloom filter has no remove
  bf.remove('x');
  // @ts-expect-error union needs the same class
  bf.union(blocked);
  // @ts-expect-error fingerprints are 8, 12 or 16 bits
  new CuckooFilter({ capacity: 10, fingerprintBits: 10 });
  // @ts-expect-error not an error code
  const bad: FilterErrorCode = 'NOPE';
  void bad;
  // @ts-expect-error size is read-only
  bf.size = 3;
}
