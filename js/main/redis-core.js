// @internal What RedisBloomFilter and RedisCuckooFilter share: reading a dump into a core and
// writing one out of it.
import { FilterError } from './errors.js';
import { Filter, withBytesInWasm } from './filter.js';
import { requireWasm, throwIfError } from './loader.js';
import { dataChunks } from '../shared/dump-chunks.js';
import { normalizeRedisChunks } from './redis-dump.js';

/**
 * Reads [iterator, bytes] chunks (normalized) into `core` through its dump-loading methods
 * (loadDumpHeader, dumpChunkTarget, finishDumpLoad).
 */
export function loadRedisDump(core, chunks, context) {
  const [header, ...data] = chunks;
  if (header.iterator !== 1) throw new FilterError('CORRUPT_DATA', `${context}: the first chunk must be the header (iterator 1), got iterator ${header.iterator}`);
  const total = data.reduce((n, c) => n + c.bytes.length, 0);
  throwIfError(withBytesInWasm(header.bytes, (ptr, len) => core.loadDumpHeader(ptr, len, total)), context);
  const m = requireWasm();
  for (const { iterator, bytes } of data) {
    const target = throwIfError(core.dumpChunkTarget(iterator, bytes.length), context);
    m.HEAPU8.set(bytes, target);   // HEAPU8 read after the call: the view of memory as it is now
  }
  throwIfError(core.finishDumpLoad(), context);
}

/**
 * A filter of class `Cls` (wasm class `coreName`) from SCANDUMP chunks as the server sent them
 * (or as normalizeRedisChunks() returned them).
 */
export function filterFromDump(Cls, coreName, chunks) {
  const list = normalizeRedisChunks(chunks);
  const core = new (requireWasm()[coreName])();
  try {
    loadRedisDump(core, list, `${Cls.name}.fromRedisDump`);
  } catch (err) {
    core.delete();
    throw err;
  }
  return Filter._adopt(Cls, core);
}

/**
 * The [iterator, Uint8Array] pairs SCANDUMP would reply (without the final [0, empty]): the
 * header, then each part's bytes (a BF link's bitmap, a CF sub-filter's slots) in chunks of at
 * most 16 MiB that never span two parts. A header length of 0 means no dump (a CF with no
 * items): [].
 */
export function dumpChunks(core) {
  const m = requireWasm();
  const headerLen = core.dumpHeaderSize();
  if (headerLen === 0) return [];
  const header = new Uint8Array(headerLen);
  withBytesInWasm(header, (ptr) => {
    core.writeDumpHeader(ptr);
    header.set(m.HEAPU8.subarray(ptr, ptr + headerLen));
  });
  return [[1, header], ...dataChunks(core.parts(), (i) => core.partBytes(i), (i, at, len) => {
    const base = (core.partData(i) >>> 0) + at;
    return m.HEAPU8.slice(base, base + len);
  })];
}
