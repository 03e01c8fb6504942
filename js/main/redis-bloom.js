// RedisBloomFilter: RedisBloom's BF type (BF.RESERVE / ADD / EXISTS / INFO / SCANDUMP /
// LOADCHUNK) bit for bit, so a filter pulled from Redis answers locally exactly as the server
// does, and one built here loads into Redis. Keys are hashed as RedisBloom hashes them.
import { addAllReporting, AddableFilter, Filter, infoParts, makeCore, readInfo, readPart } from './filter.js';
import { encodeKey } from './keys.js';
import { booleanOption, integerIn, positiveInteger, rate, readOptions, serverOption } from './options.js';
import { dumpChunks, filterFromDump } from './redis-core.js';
import { throwIfError } from './loader.js';

const OPTIONS = ['errorRate', 'capacity', 'expansion', 'nonScaling', 'server'];

export class RedisBloomFilter extends AddableFilter {
  /**
   * As BF.RESERVE / BF.INSERT key errorRate capacity [EXPANSION expansion] [NONSCALING] on the
   * server named by `server` ('2.6', the default: RedisBloom 2.x; '8': Redis 8's bloom module,
   * RedisBloom 8.x). On '8' the error rate is capped at 0.25, capacity is at most 2^30, expansion
   * at most 32768, and expansion 0 means nonScaling. After creation only the end of a chain
   * differs (see fromRedisDump); adds, lookups and dumps are otherwise the same on both servers.
   * @param options { errorRate, capacity, expansion = 2, nonScaling = false, server = '2.6' }
   *   (expansion and nonScaling together are accepted, as BF.INSERT takes them: the expansion is
   *   stored and never used)
   */
  constructor(options) {
    const o = readOptions('RedisBloomFilter', options, OPTIONS);
    const server = serverOption(o.server);
    rate('errorRate', o.errorRate);
    positiveInteger('capacity', o.capacity);
    // the server's limits, its error-rate cap and expansion 0 are its row's (redis_server.h)
    const expansion = o.expansion === undefined ? 2 : integerIn('expansion', o.expansion, 0, 2 ** 31 - 1);
    const nonScaling = booleanOption('nonScaling', o.nonScaling, false);
    super(makeCore('RedisBloomFilterCore', (core) => throwIfError(core.init(o.capacity, o.errorRate, expansion, nonScaling, server), 'RedisBloomFilter', o)));
  }

  /**
   * A filter from BF.SCANDUMP's replies: [iterator, bytes] pairs in the order the server sent
   * them, with or without the final [0, empty]. Corrupt, truncated, reordered or foreign chunks
   * throw FilterError CORRUPT_DATA. `server` ('2.6' by default, or '8') names the server whose
   * rules later adds follow where releases differ (a chain that can no longer grow).
   */
  static fromRedisDump(chunks, { server } = {}) {
    const row = serverOption(server);
    const f = filterFromDump(RedisBloomFilter, 'RedisBloomFilterCore', chunks);
    f._core.setServer(row);
    return f;
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
    return throwIfError(this._core.add(encodeKey(key)), 'RedisBloomFilter.add') === 1;
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
    // BF.INFO's "Size" is RedisBloom's byte count; `items` is this filter's size
    const c = this._core;
    const { info, count, v } = readInfo(c, 'redis-bloom', ['capacity', 'size', 'filters', 'expansion', 'nonScaling']);
    info.items = v[0];
    info.nonScaling = info.nonScaling !== 0;
    if (info.nonScaling) info.expansion = null;
    info.links = infoParts(count, ['capacity', 'errorRate', 'bits', 'hashes', 'items', 'bytes'], (i) => readPart(c, 'partInfo', i, 6));
    return info;
  }

  /**
   * The [iterator, Uint8Array] pairs BF.SCANDUMP would reply (without the final [0, empty]):
   * send them to BF.LOADCHUNK in order. Data chunks are at most 16 MiB, as the server's.
   */
  toRedisDump() {
    return dumpChunks(this._core);
  }
}
