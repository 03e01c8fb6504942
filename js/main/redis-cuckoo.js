// RedisCuckooFilter: RedisBloom's CF type (CF.RESERVE / ADD / ADDNX / DEL / COUNT / EXISTS /
// INFO / SCANDUMP / LOADCHUNK) bit for bit, so a filter pulled from Redis answers locally exactly
// as the server does, and one built here loads into Redis. Keys are hashed as RedisBloom hashes
// them (MurmurHash64A, one-byte fingerprints).
import { addAllReporting, AddableFilter, Filter, infoParts, makeCore, readInfo, readPart } from './filter.js';
import { encodeKey } from './keys.js';
import { requireWasm, throwIfError } from './loader.js';
import { integerIn, positiveInteger, readOptions, serverOption } from './options.js';
import { dumpChunks, filterFromDump } from './redis-core.js';

const OPTIONS = ['capacity', 'bucketSize', 'maxIterations', 'expansion', 'server'];
export class RedisCuckooFilter extends AddableFilter {
  /**
   * As CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e] on the server
   * named by `server` ('2.6', the default: RedisBloom 2.x; '8': Redis 8's bloom module, which
   * also caps capacity at 2^30). Only creation differs: adds, lookups, removals and dumps are the
   * same on both servers.
   * @param options { capacity (≥ 2·bucketSize), bucketSize = 2 (1–255), maxIterations = 20
   *   (1–65535), expansion = 1 (0–32768, rounded up to a power of two; 0 never grows),
   *   server = '2.6' }
   */
  constructor(options) {
    const o = readOptions('RedisCuckooFilter', options, OPTIONS);
    const server = serverOption(o.server);
    positiveInteger('capacity', o.capacity);
    const bucketSize = o.bucketSize === undefined ? 2 : integerIn('bucketSize', o.bucketSize, 1, 255);
    const maxIterations = o.maxIterations === undefined ? 20 : integerIn('maxIterations', o.maxIterations, 1, 65535);
    const expansion = o.expansion === undefined ? 1 : integerIn('expansion', o.expansion, 0, 32768);
    super(makeCore('RedisCuckooFilterCore', (core) => throwIfError(core.init(o.capacity, bucketSize, maxIterations, expansion, server), 'RedisCuckooFilter', o)));
  }

  /**
   * A filter from CF.SCANDUMP's replies: [iterator, bytes] pairs in the order the server sent
   * them, with or without the final [0, empty]. The server sends no dump for a filter that holds
   * no items (CF.SCANDUMP replies [0, empty] at once): that is CORRUPT_DATA here too, as there is
   * nothing to read the options from; create it with `new RedisCuckooFilter(options)`.
   */
  static fromRedisDump(chunks, { server } = {}) {
    serverOption(server);   // the same rules on both servers once a filter exists
    return filterFromDump(RedisCuckooFilter, 'RedisCuckooFilterCore', chunks);
  }

  /**
   * The first sub-filter CF.RESERVE (and the constructor) makes for { capacity, bucketSize = 2 },
   * without allocating: { buckets, byteLength } (one byte a slot, bucketSize slots a bucket).
   */
  static optimalShape(options) {
    const o = readOptions('RedisCuckooFilter.optimalShape', options, ['capacity', 'bucketSize']);
    positiveInteger('capacity', o.capacity);
    const bucketSize = o.bucketSize === undefined ? 2 : integerIn('bucketSize', o.bucketSize, 1, 255);
    const buckets = requireWasm().redisCuckooBuckets(o.capacity, bucketSize);
    return { buckets, byteLength: buckets * bucketSize };
  }

  /** @internal from(): CF.RESERVE needs capacity ≥ 2·bucketSize; there is no errorRate. */
  static _fromOptions(count, options) {
    return { capacity: Math.max(count, 2 * (options?.bucketSize ?? 2)), ...options };
  }

  /** Reads a RedisCuckooFilter from serialize() bytes (kind 'redis-cuckoo'). */
  static deserialize(bytes) {
    return Filter._deserializeAs(RedisCuckooFilter, 'RedisCuckooFilterCore', bytes);
  }

  _insert(key, unique, context) {
    return throwIfError(this._core.add(encodeKey(key), unique), context) === 1;
  }

  /**
   * As CF.ADD (duplicates allowed): true when added. false when it did not fit and the filter may
   * not grow (expansion 0: the server's "Filter is full"); a filter with 32 sub-filters or more
   * throws FilterError FULL ("Maximum expansions reached"). Nothing changes unless it returns true.
   * A key fits at most 2·bucketSize times per sub-filter.
   */
  add(key) {
    return this._insert(key, false, 'RedisCuckooFilter.add');
  }

  /** As CF.ADDNX: false when the key may already be present (or did not fit, as add). */
  addUnique(key) {
    return this._insert(key, true, 'RedisCuckooFilter.addUnique');
  }

  /**
   * As CF.INSERT (or CF.INSERTNX with `{ unique: true }`): adds every key in order; returns how
   * many were added. A key that does not fit (expansion 0: the server replies -1 for it) is
   * skipped and the rest go on, as on the server. The 32-sub-filter limit is checked once, before
   * the first key (FilterError FULL "Maximum expansions reached", nothing added), so one call may
   * grow the filter past 32 sub-filters, as one CF.INSERT does.
   */
  addAll(keys, { unique = false } = {}) {
    const c = this._core;
    return addAllReporting(keys, 'RedisCuckooFilter.addAll',
      (data, offsets, count, out, start) => c.addBatch(data, offsets, count, out, unique === true, start === 0));
  }

  /**
   * As CF.DEL: removes one copy of the key's fingerprint (newest sub-filter first); false when none
   * matches. Removing a key never added can remove another key's fingerprint, which then reads
   * as absent. Compacts as the server does once deletions exceed 10% of the items.
   */
  remove(key) {
    return this._core.remove(encodeKey(key));
  }

  /** As CF.COUNT: matching fingerprints in the key's buckets, never less than the true count. */
  count(key) {
    return this._core.count(encodeKey(key));
  }

  /**
   * As CF.COMPACT: moves fingerprints of newer sub-filters into older ones where they fit and drops
   * emptied newest sub-filters; resets "Number of items deleted".
   */
  compact() {
    this._core.compact();
  }

  /** Items in the filter (CF.INFO "Number of items inserted", which CF.DEL lowers). */
  get size() {
    return this._core.size();
  }

  /**
   * CF.INFO's fields: size (RedisBloom's byte count: 40 + 16 per sub-filter + slots), buckets
   * (of the first sub-filter), filters, items, itemsDeleted, bucketSize, expansion, maxIterations;
   * plus byteLength (the slots) and each sub-filter's buckets and bytes.
   */
  info() {
    // CF.INFO's "Size" is RedisBloom's byte count; `items` is this filter's size
    const c = this._core;
    const { info, count, v } = readInfo(c, 'redis-cuckoo', ['size', 'buckets', 'filters', 'itemsDeleted', 'bucketSize',
      'expansion', 'maxIterations']);
    info.items = v[0];
    info.subFilters = infoParts(count, ['buckets', 'bytes'], (i) => readPart(c, 'partInfo', i, 2));
    return info;
  }

  /**
   * The [iterator, Uint8Array] pairs CF.SCANDUMP would reply (without the final [0, empty]): send
   * them to CF.LOADCHUNK in order. Data chunks are at most 16 MiB and never span two sub-filters,
   * as the server's. A filter with no items gives [] (the server sends no dump for it either).
   */
  toRedisDump() {
    return dumpChunks(this._core);
  }
}
