// RedisBloomFilter: RedisBloom's BF type (BF.RESERVE / ADD / EXISTS / INFO / SCANDUMP /
// LOADCHUNK) bit for bit, so a filter pulled from Redis answers locally exactly as the server
// does, and one built here loads into Redis. Keys are hashed as RedisBloom hashes them.
import { AddableFilter, Filter, makeCore } from './filter.js';
import { encodeKey, keyPointer } from './keys.js';
import { booleanOption, initError, integerIn, positiveInteger, rate, readOptions } from './options.js';
import { addAllReporting, coreError, dumpChunks, filterFromDump } from './redis-core.js';

const OPTIONS = ['errorRate', 'capacity', 'expansion', 'nonScaling'];
export class RedisBloomFilter extends AddableFilter {
  /**
   * As BF.RESERVE key errorRate capacity [EXPANSION expansion] [NONSCALING].
   * @param options { errorRate, capacity, expansion = 2, nonScaling = false } (expansion and
   *   nonScaling together are INVALID_ARGUMENT, as the server refuses them)
   */
  constructor(options) {
    const o = readOptions('RedisBloomFilter', options, OPTIONS);
    rate('errorRate', o.errorRate);
    positiveInteger('capacity', o.capacity);
    const expansion = o.expansion === undefined ? 0 : integerIn('expansion', o.expansion, 1, 2 ** 31 - 1);
    const nonScaling = booleanOption('nonScaling', o.nonScaling, false);
    super(makeCore('RedisBloomFilterCore', (core) => {
      const status = core.init(o.capacity, o.errorRate, expansion, nonScaling);
      if (status !== 0) throw initError('RedisBloomFilter', status, o);
    }));
  }

  /**
   * A filter from BF.SCANDUMP's replies: [iterator, bytes] pairs in the order the server sent
   * them, with or without the final [0, empty]. Corrupt, truncated, reordered or foreign chunks
   * throw FilterError CORRUPT_DATA.
   */
  static fromRedisDump(chunks) {
    return filterFromDump(RedisBloomFilter, 'RedisBloomFilterCore', chunks);
  }

  /** Reads a RedisBloomFilter from serialize() bytes (kind 'redis-bloom'). */
  static deserialize(bytes) {
    return Filter._deserializeAs(RedisBloomFilter, 'RedisBloomFilterCore', bytes);
  }

  /**
   * As BF.ADD: true when the key was added, false when it may already be present. A full
   * nonScaling filter throws FilterError FULL ("non scaling filter is full"); nothing changes.
   */
  add(key) {
    const c = this._core;
    const len = encodeKey(key);
    const r = c.add(keyPointer(), len);
    if (r < 0) throw coreError('RedisBloomFilter.add', -r);
    return r === 1;
  }

  /**
   * As BF.MADD: adds every key in order; returns how many were added. On FULL it throws after
   * the keys before the one that did not fit were added; the error says how many.
   */
  addAll(keys) {
    const c = this._core;
    return addAllReporting(keys, 'RedisBloomFilter.addAll', (data, offsets, count, out) => c.addBatch(data, offsets, count, out));
  }

  /** Keys added (BF.INFO "Number of items inserted"). */
  get size() {
    return this._core.size();
  }

  /**
   * BF.INFO's fields: capacity, size (RedisBloom's byte count: 32 + 64 per filter + bitmaps),
   * filters, items, expansion (null when nonScaling, as the server replies); plus nonScaling,
   * byteLength (the bitmaps) and each filter (link) of the chain.
   */
  info() {
    const c = this._core;
    const links = [];
    for (let i = 0; i < c.links(); i++) {
      links.push({ capacity: c.linkEntries(i), errorRate: c.linkError(i), bits: c.linkBits(i),
        hashes: c.linkHashes(i), items: c.linkSize(i), bytes: c.linkBytes(i) });
    }
    const nonScaling = c.nonScaling();
    return {
      kind: 'redis-bloom', capacity: c.capacity(), size: c.infoSize(), filters: c.links(), items: c.size(),
      expansion: nonScaling ? null : c.expansion(), nonScaling, byteLength: c.byteLength(), seed: 0, links,
    };
  }

  /**
   * The [iterator, Uint8Array] pairs BF.SCANDUMP would reply (without the final [0, empty]):
   * send them to BF.LOADCHUNK in order. Data chunks are at most 16 MiB, as the server's.
   */
  toRedisDump() {
    const c = this._core;
    return dumpChunks(c, c.links(), (i) => c.linkBytes(i), (i) => c.linkData(i));
  }
}
