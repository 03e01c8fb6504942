// RedisBloomFilter: RedisBloom's BF type (BF.RESERVE / ADD / EXISTS / INFO / SCANDUMP /
// LOADCHUNK) bit for bit, so a filter pulled from Redis answers locally exactly as the server
// does, and one built here loads into Redis. Keys are hashed as RedisBloom hashes them.
import { FilterError, statusName } from './errors.js';
import { AddableFilter, Filter, makeCore, withBytesInWasm } from './filter.js';
import { requireWasm } from './loader.js';
import { encodeKey, forEachChunk, keyPointer } from './keys.js';
import { booleanOption, initError, integerIn, positiveInteger, rate, readOptions } from './options.js';
import { normalizeRedisChunks } from './redis-dump.js';

const OPTIONS = ['errorRate', 'capacity', 'expansion', 'nonScaling'];
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;   // SCANDUMP's chunk limit (RedisBloom 2.6)

function coreError(context, status) {
  return new FilterError(statusName(status), `${context}: ${requireWasm().lastStatusMessage()}`);
}

/**
 * @internal Reads [iterator, bytes] chunks (normalized) into `core` through its dump-loading
 * methods (loadDumpHeader, dumpChunkTarget, finishDumpLoad). Shared by the RedisBloom classes.
 */
export function loadRedisDump(core, chunks, context) {
  const [header, ...data] = chunks;
  if (header.iterator !== 1) throw new FilterError('CORRUPT_DATA', `${context}: the first chunk must be the header (iterator 1), got iterator ${header.iterator}`);
  const total = data.reduce((n, c) => n + c.bytes.length, 0);
  const status = withBytesInWasm(header.bytes, (ptr, len) => core.loadDumpHeader(ptr, len, total));
  if (status !== 0) throw coreError(context, status);
  const m = requireWasm();
  for (const { iterator, bytes } of data) {
    const target = core.dumpChunkTarget(iterator, bytes.length) >>> 0;
    if (target === 0) throw new FilterError('CORRUPT_DATA', `${context}: ${m.lastStatusMessage()}`);
    m.HEAPU8.set(bytes, target);
  }
  const done = core.finishDumpLoad();
  if (done !== 0) throw coreError(context, done);
}

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
    const list = normalizeRedisChunks(chunks);
    const core = new (requireWasm().RedisBloomFilterCore)();
    try {
      loadRedisDump(core, list, 'RedisBloomFilter.fromRedisDump');
    } catch (err) {
      core.delete();
      throw err;
    }
    return Filter._adopt(RedisBloomFilter, core);
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
    let added = 0;
    forEachChunk(keys, (data, offsets, count, out, start) => {
      const r = c.addBatch(data, offsets, count, out);
      const handled = r & 0xffff;
      const heap = requireWasm().HEAPU8;
      for (let i = 0; i < handled; i++) added += heap[out + i];
      const status = r >>> 16;
      if (status !== 0) {
        const err = coreError('RedisBloomFilter.addAll', status);
        err.message += ` (${start + handled} keys handled, ${added} added before it)`;
        throw err;
      }
    });
    return added;
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
    const m = requireWasm();
    const headerLen = c.dumpHeaderSize();
    const header = new Uint8Array(headerLen);
    withBytesInWasm(header, (ptr) => {
      c.writeDumpHeader(ptr);
      header.set(m.HEAPU8.subarray(ptr, ptr + headerLen));
    });
    const chunks = [[1, header]];
    let offset = 0;
    for (let i = 0; i < c.links(); i++) {
      const bytes = c.linkBytes(i);
      const base = c.linkData(i) >>> 0;
      for (let at = 0; at < bytes; at += MAX_CHUNK_BYTES) {
        const len = Math.min(MAX_CHUNK_BYTES, bytes - at);
        offset += len;
        chunks.push([1 + offset, m.HEAPU8.slice(base + at, base + at + len)]);
      }
    }
    return chunks;
  }
}
